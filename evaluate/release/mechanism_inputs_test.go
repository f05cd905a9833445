package release

import (
	"slices"
	"testing"
)

// TestMechanismInputs: every mechanism has its parameter columns, each a
// column of the vocabulary, once; an unknown name has none.
func TestMechanismInputs(t *testing.T) {
	vocab := NewVocabulary()
	for _, m := range MechanismNames() {
		names := MechanismInputs(m)
		if len(names) == 0 {
			t.Errorf("%s: no inputs", m)
		}
		for i, n := range names {
			if _, ok := vocab.Lookup(n); !ok {
				t.Errorf("%s: %s is not an input column", m, n)
			}
			if slices.Contains(names[:i], n) {
				t.Errorf("%s: %s twice", m, n)
			}
		}
	}
	if got := MechanismInputs("gaussian"); !slices.Contains(got, "sigma") || !slices.Contains(got, "sensitivity") {
		t.Errorf("gaussian: %v, want sigma and sensitivity among them", got)
	}
	if got := MechanismInputs("no such"); got != nil {
		t.Errorf("unknown mechanism: %v", got)
	}
}
