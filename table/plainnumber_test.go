package table

import "testing"

// PlainNumber takes the texts a spreadsheet would read as the same number
// and nothing else.
func TestPlainNumber(t *testing.T) {
	for s, want := range map[string]float64{"0.05": 0.05, " 1e-05 ": 1e-5, "-3": -3, "7": 7, "1E3": 1000} {
		if v, ok := PlainNumber(s); !ok || v != want {
			t.Errorf("PlainNumber(%q) = %v, %v", s, v, ok)
		}
	}
	for _, s := range []string{"", "5%", "1,000", "0x1p-3", "Inf", "NaN", "1e400", "1 000", "½"} {
		if v, ok := PlainNumber(s); ok {
			t.Errorf("PlainNumber(%q) = %v", s, v)
		}
	}
}
