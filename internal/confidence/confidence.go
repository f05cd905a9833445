// Package confidence reads the confidence levels of the --confidence flag,
// for riskbatch eval and the Beam pipeline alike, so that both accept and
// refuse the same text with the same words.
package confidence

import (
	"errors"
	"fmt"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/number"
)

// Parse reads one level or a comma-separated list (blank items are
// skipped), each a number in (0, 1) written as number.Parse reads
// it: 0.95 or 95%.
func Parse(s string) ([]float64, error) {
	var levels []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := number.Parse(f)
		if err != nil || !(v > 0 && v < 1) {
			return nil, fmt.Errorf("%q is not a confidence level; expected numbers in (0, 1) such as 0.95 or 0.05,0.5,0.95", f)
		}
		levels = append(levels, v)
	}
	if len(levels) == 0 {
		return nil, errors.New("no level given; expected numbers in (0, 1) such as 0.95")
	}
	return levels, nil
}
