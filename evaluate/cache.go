package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"sync"
)

// rdpCache remembers the composed RDP curves of DP-SGD parameters, so that
// a run with many rows of the same (σ, q, steps) — sweeps, model zoos —
// accounts each once. It is bounded: when full it starts afresh, which
// costs recomputation, never memory.
type rdpCache struct {
	mu sync.Mutex
	m  map[curve.DPSGD]curve.RDP
}

// rdpCacheSize bounds the number of remembered parameter sets.
const rdpCacheSize = 4096

// get returns the RDP curve of m, computing it on first use.
func (c *rdpCache) get(m curve.DPSGD) curve.RDP {
	c.mu.Lock()
	r, ok := c.m[m]
	c.mu.Unlock()
	if ok {
		return r
	}
	r = m.RDP()
	c.mu.Lock()
	if c.m == nil || len(c.m) >= rdpCacheSize {
		c.m = make(map[curve.DPSGD]curve.RDP)
	}
	c.m[m] = r
	c.mu.Unlock()
	return r
}

// dpsgdRDP returns the composed RDP curve of DP-SGD parameters through the
// evaluator's cache.
func (b *Binding) dpsgdRDP(m curve.DPSGD) curve.RDP { return b.rdps.get(m) }

// epsCache remembers ε(δ) of Gaussian curves: the root finding is most of
// the cost of a gaussian or gdp row, and sweeps over baselines or targets
// repeat the same (μ, δ). Bounded like rdpCache.
type epsCache struct {
	mu sync.Mutex
	m  map[[2]float64]float64
}

// epsCacheSize bounds the number of remembered (μ, δ) pairs.
const epsCacheSize = 1 << 16

// gaussianEpsilonAt returns Gaussian{μ}.EpsilonAt(δ) through the cache.
func (c *epsCache) gaussianEpsilonAt(mu, delta float64) float64 {
	key := [2]float64{mu, delta}
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return e
	}
	e = curve.Gaussian{Mu: mu}.EpsilonAt(delta)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= epsCacheSize {
		c.m = make(map[[2]float64]float64)
	}
	c.m[key] = e
	c.mu.Unlock()
	return e
}
