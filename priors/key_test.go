package priors_test

import (
	"testing"

	"github.com/riskbatch/riskbatch/priors"
)

func TestKeySpec(t *testing.T) {
	for _, tc := range []struct {
		k    priors.KeySpec
		want string
	}{
		{priors.KeySpec{Name: "penguins", Target: []string{"sex"}, Given: []string{"species", "island"}}, "penguins:sex|species,island"},
		{priors.KeySpec{Name: "penguins", Target: []string{"sex"}}, "penguins:sex"},
		{priors.KeySpec{Name: "p", Target: []string{"a", "b"}, Given: []string{"c"}}, "p:a,b|c"},
		{priors.KeySpec{Name: "p", Target: []string{"age"}, Window: true, Tolerance: 2.5, Given: []string{"c"}}, "p:age~2.5|c"},
		{priors.KeySpec{Name: "n:x", Target: []string{"a,b", "c|d~e"}}, `n\:x:a\,b,c\|d\~e`},
	} {
		if got := tc.k.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.k, got, tc.want)
		}
	}
}
