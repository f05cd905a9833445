package evaluate

import (
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
)

// headline finds a row's headline among its output values in out.
func (b *Binding) headline(r *resolve.Release, out rowOut) (registry.Headline, bool) {
	for _, c := range b.headlines {
		if !c.Holds(r) {
			continue
		}
		for i, name := range c.Columns {
			k := c.At[i]
			if k < 0 {
				continue
			}
			if v, ok := out.value(k); ok {
				says := c.Says(r, name, v)
				// A text of no more bytes than the limit has no more
				// characters either: most are counted without a scan.
				if len(says) > registry.MaxHeadlineSays && utf8.RuneCountInString(says) > registry.MaxHeadlineSays {
					says = string([]rune(says)[:registry.MaxHeadlineSays-1]) + "…"
				}
				return registry.Headline{Column: name, Value: v, Says: says}, true
			}
		}
	}
	return registry.Headline{}, false
}
