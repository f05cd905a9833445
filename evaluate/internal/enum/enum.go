// Package enum names the values of the small integer enumerations of the
// evaluate packages, so that each String method is one declaration of its
// names rather than a switch.
package enum

import "fmt"

// Name returns names[v − first], the name of value v of an enumeration
// whose values run from first upwards, or "typ(v)" for a value outside it.
func Name(typ string, v, first int, names ...string) string {
	if i := v - first; i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}
