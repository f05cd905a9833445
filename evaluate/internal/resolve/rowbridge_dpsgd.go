package resolve

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/dataset"
	"github.com/riskbatch/riskbatch/evaluate/internal/memo"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// The row side of DP-SGD: the run's caches of accountants and
// calibrations, and the noise calibration columns (extra_stages is read in
// evaluate/release/stages.go). The
// accounting itself is in package curve (subsampled.go).

// pldCache remembers the PLD accountants of a run by their stages:
// building one takes from a few to a few hundred milliseconds. It is
// bounded by the grid points it holds (each costs about 50 bytes with its
// error estimate). Its accountants share their steps' discretised PLDs
// (chains, bounded apart: about 32 MB), so that a sweep over the steps of
// one noise multiplier and sample rate discretises its step's PLD once.
type pldCache struct {
	*memo.Cache[string, pldEntry]
	chains *pld.Chains
}

// pldEntry is an accountant, or the error of building it.
type pldEntry struct {
	p   *pld.PLD
	err error
}

// pldCachePoints bounds the grid points held by a pldCache (about 200 MB).
const pldCachePoints = 1 << 22

// pldBytesPerPoint is about what an accountant holds per grid point: the
// profiles of both directions and their maximum, on its grid and on the
// grid twice as coarse of its error estimate.
const pldBytesPerPoint = 48

// bytes returns about how many bytes the cache holds, with its chains.
func (c *pldCache) bytes() int64 {
	return pldBytesPerPoint*int64(c.Weight()) + c.chains.Bytes()
}

func NewPLDCache() *pldCache {
	return &pldCache{memo.New[string](pldCachePoints, func(e pldEntry) int {
		if e.p == nil {
			return 0
		}
		return e.p.GridPoints()
	}), pld.NewChains()}
}

// get returns the accountant of the stages, building it on first use.
func (c *pldCache) Accountant(stages []pld.Stage) (*pld.PLD, error) {
	e := c.Get(release.StagesKey(stages), func() pldEntry {
		p, err := curve.NewPLD(stages, c.chains)
		return pldEntry{p, err}
	})
	return e.p, e.err
}

// noiseKey identifies a noise calibration: the row's other stages, its
// sample rate and steps, the target, the baseline (worst: none), and the
// accountant.
type noiseKey struct {
	stages   string // extra stages
	q        float64
	steps    int
	target   float64
	baseline float64 // 0 for the worst case
	worst    bool
	rdp      bool
}

// noiseEntry is a calibrated noise multiplier, or why there is none.
type noiseEntry struct {
	sigma float64
	why   string
}

// noiseCache remembers noise calibrations, which cost a dozen or more
// accountings each.
type noiseCache struct {
	*memo.Cache[noiseKey, noiseEntry]
}

const noiseCacheSize = 4096

func newNoiseCache() *noiseCache {
	return &noiseCache{memo.New[noiseKey, noiseEntry](noiseCacheSize, nil)}
}

func (c *noiseCache) get(k noiseKey, compute func() (float64, string)) (float64, string) {
	e := c.Get(k, func() noiseEntry {
		sigma, why := compute()
		return noiseEntry{sigma, why}
	})
	return e.sigma, e.why
}

// stagesRDP returns the composed RDP of stages on DefaultRDPOrders through
// the run's cache (a subsampled Gaussian stage is a DPSGD with its own σ,
// q and steps, q = 1 the Gaussian mechanism; the other kinds as
// curve.StageRDP says); no stage gives the empty RDP{}.
func (b *Header) stagesRDP(stages []pld.Stage) curve.RDP {
	var total curve.RDP
	for i, s := range stages {
		var c curve.RDP
		if s.Mechanism == pld.SubsampledGaussian {
			c = b.dpsgdRDP(curve.DPSGD{NoiseMultiplier: s.NoiseMultiplier, SampleRate: s.SampleRate, Steps: s.Steps})
		} else {
			c = curve.StageRDP(s, curve.DefaultRDPOrders())
		}
		if i == 0 {
			total = c
		} else {
			total = curve.AddRDP(total, c)
		}
	}
	return total
}

// noRDPWhy says why a dpsgd row whose extra stages are these has no RDP
// curve: an (ε, δ) stage with δ > 0 has none (its Rényi divergence may be
// infinite on the δ mass), so neither has the composed release; "" when
// every stage has one. The RDP comparison columns say so rather than
// print the vacuous values of an infinite curve.
func noRDPWhy(extra []pld.Stage) string {
	for i, s := range extra {
		if s.Mechanism == pld.EpsilonDelta && s.Delta > 0 {
			return fmt.Sprintf("the composed release has no RDP curve: extra stage %d, %s, is an (ε, δ) guarantee with δ > 0, which has none", i+1, dataset.StageText(s))
		}
	}
	return ""
}

// RDPComparison computes a dpsgd row's RDP comparison column, or skips it
// with the reason the row has no RDP curve.
func RDPComparison(f func(r *Release) float64) func(*Release) (float64, Skip) {
	return func(r *Release) (float64, Skip) {
		if r.RDPWhy != "" {
			return 0, Skip{Why: r.RDPWhy}
		}
		return f(r), Skip{}
	}
}

// NoiseForTarget returns the calibrated noise multiplier of a dpsgd row
// under PLD accounting, or under RDP accounting with useRDP, through the
// run's cache.
func (r *Release) NoiseForTarget(useRDP bool) (float64, Skip) {
	if r.Target <= 0 {
		return 0, Skip{Why: "only infinite noise meets a target_advantage of 0"}
	}
	key := noiseKey{stages: release.StagesKey(r.ExtraStages), q: r.DPSGD.SampleRate, steps: r.DPSGD.Steps, target: r.Target, rdp: true}
	b := math.NaN()
	if r.HasBaseline {
		b, key.baseline = r.Baseline, r.Baseline
	} else {
		key.worst = true
	}
	cache := r.noise // the binding's: resolve always sets it
	loose, why := cache.get(key, func() (float64, string) {
		sigma, err := curve.NoiseForTargetRDP(r.DPSGD, r.extraRDP, r.Target, b)
		return sigma, noiseWhy(err)
	})
	if useRDP {
		return noiseResult(loose, why, "RDP")
	}
	key.rdp = false
	tight, whyTight := cache.get(key, func() (float64, string) {
		start := loose
		if !(start > 0) {
			start = 1
		}
		sigma, err := curve.NoiseForTargetPLD(curve.DPSGDStages(r.DPSGD, r.ExtraStages), r.Target, b, start)
		return sigma, noiseWhy(err)
	})
	// Each σ is certified by its own accountant, so the smaller one is:
	// RDP is the smaller only for targets near the PLD's numerical floor.
	switch {
	case whyTight != "" && why == "":
		return noiseResult(loose, why, "RDP")
	case whyTight == "" && why == "" && tight > 0 && loose > 0:
		return math.Min(tight, loose), Skip{}
	}
	return noiseResult(tight, whyTight, "PLD")
}

// noiseResult turns a calibration's result into a cell.
func noiseResult(sigma float64, why, accountant string) (float64, Skip) {
	switch {
	case why != "":
		return 0, Skip{Why: why + " (" + accountant + " accounting)"}
	case sigma == 0:
		return 0, Skip{Why: "any noise multiplier above 0.001 meets target_advantage (" + accountant + " accounting)"}
	}
	return sigma, Skip{}
}

// noiseWhy words a calibration's error for the row's message ("" for
// none), naming the column the target comes from.
func noiseWhy(err error) string {
	var limit *curve.NoiseLimitError
	var failed *curve.AccountantError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &limit):
		return fmt.Sprintf("no noise multiplier up to %s meets target_advantage", FormatNumber(limit.Largest))
	case errors.As(err, &failed):
		return fmt.Sprintf("the PLD accountant fails at noise multiplier %s: %v", FormatNumber(failed.NoiseMultiplier), failed.Err)
	case errors.Is(err, curve.ErrNoNoise):
		return "no noise level meets target_advantage"
	case errors.Is(err, curve.ErrOnlyInfiniteNoise):
		return "only infinite noise meets target_advantage"
	}
	return err.Error()
}
