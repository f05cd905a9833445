package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/memo"
)

// The run's caches. Sweeps and model zoos repeat the same parameters over
// many rows, so each costly computation is remembered by its inputs
// (memo.Cache: bounded, and concurrent rows asking for the same value wait
// for one computation).

// WithCachesOf makes the evaluator share other's caches of results that
// are functions of their parameters alone: DP-SGD accountants (RDP and
// PLD), noise calibrations, Gaussian ε(δ) and Fano bounds. Runs over the
// same rows (the command's tests write one sample in several formats)
// then compute each once, and get the values they would compute
// themselves, bit for bit. The pmp_data cache is not shared: its tables
// are the files of one run.
func WithCachesOf(other *Evaluator) Option {
	return func(e *Evaluator) {
		e.rdps, e.epsilons, e.plds, e.noise, e.fanos = other.rdps, other.epsilons, other.plds, other.noise, other.fanos
	}
}

// CacheBytes returns about how many bytes the evaluator's caches of DP-SGD
// accountants hold (bounded: about 230 MB), the caches that grow large:
// a run may let the heap grow by as much, rather than collect garbage
// without end while the caches fill its memory limit.
func (e *Evaluator) CacheBytes() int64 { return e.plds.bytes() }

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
func (b *Binding) dpsgdRDP(m curve.DPSGD) curve.RDP { return b.rdps.Get(m, m.RDP) }

// epsCache remembers ε(δ) of Gaussian curves: the root finding is most of
// the cost of a gaussian or gdp row, and sweeps over baselines or targets
// repeat the same (μ, δ).
type epsCache struct {
	*memo.Cache[[2]float64, float64]
}

// epsCacheSize bounds the number of remembered (μ, δ) pairs.
const epsCacheSize = 1 << 16

func newEpsCache() *epsCache {
	return &epsCache{memo.New[[2]float64, float64](epsCacheSize, nil)}
}

// gaussianEpsilonAt returns curve.Gaussian{μ}.EpsilonAt(δ) through the cache.
func (c *epsCache) gaussianEpsilonAt(mu, delta float64) float64 {
	return c.Get([2]float64{mu, delta}, func() float64 { return curve.Gaussian{Mu: mu}.EpsilonAt(delta) })
}
