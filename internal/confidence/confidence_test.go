package confidence

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string][]float64{
		"0.95":            {0.95},
		"0.05, 0.5,0.95":  {0.05, 0.5, 0.95},
		"50%":             {0.5}, // number.Parse reads percentages
		"0.5,,":           {0.5},
		" 0.05, 50%,0.95": {0.05, 0.5, 0.95},
	} {
		if got, err := Parse(in); err != nil || !slices.Equal(got, want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"":       "no level given; expected numbers in (0, 1) such as 0.95",
		" , ":    "no level given; expected numbers in (0, 1) such as 0.95",
		"1":      `"1" is not a confidence level; expected numbers in (0, 1) such as 0.95 or 0.05,0.5,0.95`,
		"0.5,x":  `"x" is not a confidence level; expected numbers in (0, 1) such as 0.95 or 0.05,0.5,0.95`,
		"0.5,,2": `"2" is not a confidence level; expected numbers in (0, 1) such as 0.95 or 0.05,0.5,0.95`,
		"0":      `"0" is not a confidence level; expected numbers in (0, 1) such as 0.95 or 0.05,0.5,0.95`,
		"-0.5":   `"-0.5" is not a confidence level; expected numbers in (0, 1) such as 0.95 or 0.05,0.5,0.95`,
		"0.5;.9": `"0.5;.9" is not a confidence level; expected numbers in (0, 1) such as 0.95 or 0.05,0.5,0.95`,
	} {
		if got, err := Parse(in); err == nil || err.Error() != msg {
			t.Errorf("Parse(%q) = %v, %v; want the error %q", in, got, err, msg)
		}
	}
}
