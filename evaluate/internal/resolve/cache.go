package resolve

import (
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/memo"
)

// The run's caches. Sweeps and model zoos repeat the same parameters over
// many rows, so each costly computation is remembered by its inputs
// (memo.Cache: bounded, and concurrent rows asking for the same value wait
// for one computation).

// rdpCache remembers the composed RDP curves of DP-SGD parameters.
type rdpCache struct {
	*memo.Cache[curve.DPSGD, curve.RDP]
}

// rdpCacheSize bounds the number of remembered parameter sets.
const rdpCacheSize = 4096

func newRDPCache() *rdpCache {
	return &rdpCache{memo.New[curve.DPSGD, curve.RDP](rdpCacheSize, nil)}
}

// dpsgdRDP returns the composed RDP curve of DP-SGD parameters through the
// evaluator's cache.
func (b *Header) dpsgdRDP(m curve.DPSGD) curve.RDP { return b.rdps.Get(m, m.RDP) }

// epsCache remembers ε(δ) of Gaussian curves: the root finding is most of
// the cost of a gaussian or gdp row, and sweeps over baselines or targets
// repeat the same (μ, δ).
type epsCache struct {
	*memo.Cache[[2]float64, float64]
}

// epsCacheSize bounds the number of remembered (μ, δ) pairs.
const epsCacheSize = 1 << 16

func NewEpsCache() *epsCache {
	return &epsCache{memo.New[[2]float64, float64](epsCacheSize, nil)}
}

// GaussianEpsilonAt returns curve.Gaussian{μ}.EpsilonAt(δ) through the cache.
func (c *epsCache) GaussianEpsilonAt(mu, delta float64) float64 {
	return c.Get([2]float64{mu, delta}, func() float64 { return curve.Gaussian{Mu: mu}.EpsilonAt(delta) })
}
