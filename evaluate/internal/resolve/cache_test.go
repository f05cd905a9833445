package resolve

import (
	"sync"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
)

// Rows evaluated in parallel that ask for the same accountant share one:
// every caller gets the same *pld.PLD, built once. Run with -race.
func TestPLDCacheShared(t *testing.T) {
	c := NewPLDCache()
	stages := []pld.Stage{{NoiseMultiplier: 1.1, SampleRate: 0.01, Steps: 100}}
	got := make([]*pld.PLD, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := c.Accountant(stages)
			if err != nil {
				t.Error(err)
			}
			got[i] = p
		}()
	}
	wg.Wait()
	for i, p := range got {
		if p == nil || p != got[0] {
			t.Fatalf("caller %d got accountant %p, caller 0 %p", i, p, got[0])
		}
	}
	if c.Len() != 1 {
		t.Errorf("%d accountants cached, want 1", c.Len())
	}
}

// The ε cache returns exactly what the curve computes.
func TestEpsCacheExact(t *testing.T) {
	c := NewEpsCache()
	for range 2 {
		if got, want := c.GaussianEpsilonAt(1, 1e-5), (curve.Gaussian{Mu: 1}).EpsilonAt(1e-5); got != want {
			t.Errorf("cached ε = %v, curve %v", got, want)
		}
	}
}
