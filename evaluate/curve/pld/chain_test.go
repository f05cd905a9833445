package pld

import (
	"slices"
	"sync"
	"testing"
)

// Accountants that share a Chains, built concurrently and in any order,
// have the values of accountants built alone, bit for bit: the profiles
// of both directions, and the error estimate (whose coarser grid shares
// the chains too). Those on one grid share the powers of their common
// steps.
func TestChainsShareExactly(t *testing.T) {
	t.Parallel()
	const h = 0.002
	configs := [][]Stage{
		{sg(1, 0.02, 300)}, {sg(1, 0.02, 7)}, {sg(1, 0.02, 64)}, {sg(1, 0.02, 100)},
		{sg(2, 0.05, 40), sg(1, 0.02, 100)},
		{sg(1, 0.02, 100), {Mechanism: Laplace, Epsilon: 0.1, Steps: 5}},
	}
	alone := make([]*PLD, len(configs))
	var powers int // held by the accountants' own chains
	for i, c := range configs {
		own := NewChains()
		p, err := NewDPSGD(c, Options{GridStep: h, Chains: own})
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		mustErrors(t, p)
		alone[i] = p
		powers += len(own.levels)
	}
	chains := NewChains()
	shared := make([]*PLD, len(configs))
	var wg sync.WaitGroup
	for i, c := range configs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := NewDPSGD(c, Options{GridStep: h, Chains: chains})
			if err != nil {
				t.Errorf("%v: %v", c, err)
				return
			}
			shared[i] = p
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i, c := range configs {
		a, s := alone[i], shared[i]
		for d := range a.prof.delta {
			if !slices.Equal(a.prof.delta[d], s.prof.delta[d]) || a.prof.inf[d] != s.prof.inf[d] || a.prof.slack[d] != s.prof.slack[d] {
				t.Errorf("%v: the %v profile differs when the chains are shared", c, direction(d))
			}
		}
		if ea, es := mustErrors(t, a), mustErrors(t, s); ea != es {
			t.Errorf("%v: error estimate %+v alone, %+v shared", c, ea, es)
		}
	}
	// σ = 1, q = 0.02 to 2^8 in both directions on two grids once, not
	// once per accountant of the six that use it (72 powers against 196).
	if n := len(chains.levels); n == 0 || 2*n > powers {
		t.Errorf("the shared chains hold %d powers, the accountants' own %d", n, powers)
	}
}

// A Chains over its limit starts afresh, and its accountants keep their
// values.
func TestChainsBounded(t *testing.T) {
	t.Parallel()
	chains := NewChains()
	chains.limit = 1 // every new level starts afresh
	want := mustDPSGD(t, sg(1, 0.02, 100))
	var most int
	for range 2 {
		p, err := NewDPSGD([]Stage{sg(1, 0.02, 100)}, Options{Chains: chains})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.prof.sym, want.prof.sym) {
			t.Error("the profile differs with a bounded Chains")
		}
		most = max(most, len(chains.levels))
	}
	// The whole chain of both directions is 14 levels.
	if most >= 14 {
		t.Errorf("the chains held %d levels with a limit of 1 point", most)
	}
}
