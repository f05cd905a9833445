package resolve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/internal/memo"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// fanoCache remembers the Fano bounds of rows with a uniform prior over M
// candidates and a ρ-zCDP view (gaussian, gdp, marginals and zcdp rows):
// the order-optimised Algorithm 2 solves for its order by Newton's method
// (bound.FanoZCDP, FanoZCDPMI), 16–20 evaluations of the binary Rényi
// divergence and about 6 µs of CPU a row, twice a closed-form row's
// (Guo et al.'s bounds are the only ones that solve per row). Sweeps over baselines,
// targets or anything else repeat the same (ρ, μ, M), so the run
// computes each once. The bounds are a function of the key alone, so
// the values are those computed without the cache, bit for bit.
type fanoCache struct {
	*memo.Cache[fanoKey, fanoValue]
}

// fanoKey is what the Fano bounds of a uniform-prior row with a ρ-zCDP
// view depend on (see Release.fanoFor): ρ, μ where the row has one (the
// Gaussian mutual information of Theorem 2), and M. The floats are keyed
// by their bits, so that 0 and −0 stay apart.
type fanoKey struct {
	rho, mu uint64
	hasMu   bool
	m       int
}

// fanoValue is a row's Fano bounds, or why it has none.
type fanoValue struct {
	alpha1, best bound.FanoBound
	why          string
}

// fanoCacheSize bounds the number of remembered (ρ, μ, M).
const fanoCacheSize = 1 << 16

func newFanoCache() *fanoCache {
	return &fanoCache{memo.New[fanoKey, fanoValue](fanoCacheSize, nil)}
}

// fanoUniform returns the Fano bounds for a uniform prior over m
// candidates (Release.fanoFor with no prior vector), through the run's
// cache where the row's bounds depend on its key only.
func (r *Release) fanoUniform(m int) (alpha1, best bound.FanoBound, why string) {
	if r.fanos == nil || r.Mechanism == release.MechanismDPSGD || r.Mechanism == release.MechanismRR || !r.HasRho {
		return r.fanoFor(m, nil)
	}
	key := fanoKey{rho: math.Float64bits(r.Rho), hasMu: r.HasMu, m: m}
	if r.HasMu {
		key.mu = math.Float64bits(r.Mu)
	}
	v := r.fanos.Get(key, func() fanoValue {
		a, b, why := r.fanoFor(m, nil)
		return fanoValue{a, b, why}
	})
	return v.alpha1, v.best, v.why
}
