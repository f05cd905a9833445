package evaluate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/pld"
)

// DP-SGD rows are accounted twice. The privacy-loss distribution (package
// pld) gives the tight trade-off curve that every f-DP, one-run and
// conversion column uses; the RDP accountant (DPSGD.RDP) gives the
// conservative values that most published DP-SGD guarantees were computed
// with, kept as the *_rdp comparison columns. Kulynych et al. (2025, §4.2,
// Fig. 1) show the difference: about 20% less noise for the same risk.

// PLDCurve is the trade-off curve of a privacy-loss distribution accountant
// (pld.PLD): the symmetrised Neyman–Pearson curve of the discretised,
// pessimistically rounded PLD of DP-SGD under add/remove neighbours
// (Kulynych et al. 2024, Alg. 1; Dong, Roth & Su 2022, Def. F.1). Every
// value it gives bounds the exact curve's risk from above.
type PLDCurve struct{ PLD *pld.PLD }

// TradeOff returns a lower bound on f(α).
func (c PLDCurve) TradeOff(alpha float64) float64 { return c.PLD.TradeOff(alpha) }

// Advantage returns an upper bound on 1 − f(b) − b.
func (c PLDCurve) Advantage(b float64) float64 { return c.PLD.Advantage(b) }

// WorstAdvantage returns δ(0) ≥ η.
func (c PLDCurve) WorstAdvantage() float64 { return c.PLD.WorstAdvantage() }

// EpsilonAt returns an upper bound on ε(δ).
func (c PLDCurve) EpsilonAt(delta float64) float64 { return c.PLD.Epsilon(delta) }

// DeltaAt returns an upper bound on δ(ε) for ε ≥ 0.
func (c PLDCurve) DeltaAt(eps float64) float64 { return c.PLD.Delta(eps) }

// DPSGDCurve is the trade-off curve of a dpsgd row: its PLD accountant's
// curve, tightened by its RDP accountant's where that is tighter. Both are
// valid lower bounds on the type II error of every test (PLDCurve by
// pessimistic discretisation, RDP by the optimal RDP → f-DP conversion of
// Zhu, Dong & Wang 2022), so their pointwise maximum is one too; likewise
// every δ(ε), ε(δ) and advantage is the smaller of the two upper bounds.
// The PLD is tighter everywhere except far in the tails, below its
// numerical floor (δ under about 1e-10, where the PLD's slack and the mass
// its truncation moved to +∞ dominate), where the RDP bound takes over
// instead of the PLD's ε(δ) becoming infinite.
type DPSGDCurve struct {
	PLD PLDCurve
	RDP RDP
}

// TradeOff returns max(f_PLD(α), f_RDP(α)), a lower bound on f(α).
func (c DPSGDCurve) TradeOff(alpha float64) float64 {
	return math.Max(c.PLD.TradeOff(alpha), c.RDP.TradeOff(alpha))
}

// Advantage returns the smaller of the two bounds on 1 − f(b) − b.
func (c DPSGDCurve) Advantage(b float64) float64 {
	return math.Min(c.PLD.Advantage(b), c.RDP.Advantage(b))
}

// WorstAdvantage returns the smaller of the two bounds on η.
func (c DPSGDCurve) WorstAdvantage() float64 {
	return math.Min(c.PLD.WorstAdvantage(), c.RDP.WorstAdvantage())
}

// EpsilonAt returns the smaller of the two bounds on ε(δ).
func (c DPSGDCurve) EpsilonAt(delta float64) float64 {
	return math.Min(c.PLD.EpsilonAt(delta), c.RDP.EpsilonAt(delta))
}

// DeltaAt returns the smaller of the two bounds on δ(ε) for ε ≥ 0.
func (c DPSGDCurve) DeltaAt(eps float64) float64 {
	return math.Min(c.PLD.DeltaAt(eps), c.RDP.DeltaAt(eps))
}

// dpsgdStages returns the stages of a dpsgd row: its own stage first, then
// its extra stages.
func dpsgdStages(own DPSGD, extra []pld.Stage) []pld.Stage {
	stages := make([]pld.Stage, 0, 1+len(extra))
	stages = append(stages, pld.Stage{NoiseMultiplier: own.NoiseMultiplier, SampleRate: own.SampleRate, Steps: own.Steps})
	return append(stages, extra...)
}

// maxExtraStages bounds the extra_stages of one row: each stage is one
// more convolution of the composed PLD.
const maxExtraStages = 64

// maxStageSteps bounds the steps of one stage (the PLD's self-composition
// is by repeated squaring, so the cost grows as log(steps); the bound keeps
// steps an exact int and the loss's range representable).
const maxStageSteps = 1 << 40

// parseStages reads an extra_stages cell: stages separated by ";", each
// three numbers "σ, q, steps" separated by commas or spaces.
func parseStages(s string) ([]pld.Stage, error) {
	var stages []pld.Stage
	for i, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		fields := strings.FieldsFunc(part, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(fields) != 3 {
			return nil, fmt.Errorf("stage %d (%q) has %d values; write each stage as \"noise_multiplier, sample_rate, steps\"", i+1, part, len(fields))
		}
		var v [3]float64
		for j, f := range fields {
			x, err := ParseNumber(f)
			if err != nil {
				return nil, fmt.Errorf("stage %d: %v", i+1, err)
			}
			v[j] = x
		}
		switch {
		case !(v[0] > 0) || math.IsInf(v[0], 1):
			return nil, fmt.Errorf("stage %d: noise multiplier %s is out of range; expected a number > 0", i+1, formatNumber(v[0]))
		case !(v[1] > 0 && v[1] <= 1):
			return nil, fmt.Errorf("stage %d: sample rate %s is out of range; expected (0, 1]", i+1, formatNumber(v[1]))
		case !(v[2] >= 1 && v[2] <= maxStageSteps) || v[2] != math.Trunc(v[2]):
			return nil, fmt.Errorf("stage %d: steps %s is out of range; expected a whole number from 1 to 2^40", i+1, formatNumber(v[2]))
		}
		stages = append(stages, pld.Stage{NoiseMultiplier: v[0], SampleRate: v[1], Steps: int(v[2])})
		if len(stages) > maxExtraStages {
			return nil, fmt.Errorf("more than %d stages", maxExtraStages)
		}
	}
	if len(stages) == 0 {
		return nil, fmt.Errorf("no stage; write each stage as \"noise_multiplier, sample_rate, steps\", stages separated by \";\"")
	}
	return stages, nil
}

// stagesKey is a map key for a list of stages (exact, by the bits of the
// parameters).
func stagesKey(stages []pld.Stage) string {
	var b strings.Builder
	for _, s := range stages {
		b.WriteString(strconv.FormatUint(math.Float64bits(s.NoiseMultiplier), 36))
		b.WriteByte(',')
		b.WriteString(strconv.FormatUint(math.Float64bits(s.SampleRate), 36))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(s.Steps))
		b.WriteByte(';')
	}
	return b.String()
}

// pldCache remembers the PLD accountants of a run by their stages: building
// one takes from a few to a few hundred milliseconds, and sweeps and model
// zoos repeat the same (σ, q, steps). Concurrent rows asking for the same
// stages wait for one computation. It is bounded by the grid points it
// holds (each costs about 50 bytes with its error estimate); when full it
// starts afresh, which costs recomputation, never memory.
type pldCache struct {
	mu     sync.Mutex
	m      map[string]*pldEntry
	points int
}

type pldEntry struct {
	once sync.Once
	p    *pld.PLD
	err  error
}

// pldCachePoints bounds the grid points held by a pldCache (about 200 MB).
const pldCachePoints = 1 << 22

// get returns the accountant of the stages, building it on first use.
func (c *pldCache) get(stages []pld.Stage) (*pld.PLD, error) {
	key := stagesKey(stages)
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[string]*pldEntry)
	}
	e, ok := c.m[key]
	if !ok {
		e = &pldEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.p, e.err = newPLD(stages)
		if e.err != nil {
			return
		}
		c.mu.Lock()
		c.points += e.p.GridPoints()
		if c.points > pldCachePoints {
			c.m = map[string]*pldEntry{key: e}
			c.points = e.p.GridPoints()
		}
		c.mu.Unlock()
	})
	return e.p, e.err
}

// newPLD builds the accountant of the stages. A defect of the accountant
// that panics must not end a run of many rows: it becomes this row's
// error, reported as a defect.
func newPLD(stages []pld.Stage) (p *pld.PLD, err error) {
	defer func() {
		if v := recover(); v != nil {
			p, err = nil, fmt.Errorf("internal error in the PLD accountant (please report it): %v", v)
		}
	}()
	return pld.NewDPSGD(stages, pld.Options{})
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

type noiseEntry struct {
	once  sync.Once
	sigma float64
	why   string
}

// noiseCache remembers noise calibrations, which cost a dozen or more
// accountings each. Bounded like rdpCache.
type noiseCache struct {
	mu sync.Mutex
	m  map[noiseKey]*noiseEntry
}

const noiseCacheSize = 4096

func (c *noiseCache) get(k noiseKey, compute func() (float64, string)) (float64, string) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= noiseCacheSize {
		c.m = make(map[noiseKey]*noiseEntry)
	}
	e, ok := c.m[k]
	if !ok {
		e = &noiseEntry{}
		c.m[k] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.sigma, e.why = compute() })
	return e.sigma, e.why
}

// dpsgdRisk returns the risk that noise calibration bounds for a row: the
// advantage at the row's baseline when it has one, else the worst-case
// advantage.
func dpsgdRisk(c Curve, baseline float64, hasBaseline bool) float64 {
	if hasBaseline {
		return c.Advantage(baseline)
	}
	return c.WorstAdvantage()
}

// pldNoiseTolerance is the relative width of the final bracket of the PLD
// noise calibration: each step of the bisection builds an accountant, so
// it stops at 0.01% of σ, returning the end that meets the target.
const pldNoiseTolerance = 1e-4

// NoiseForTargetPLD returns the smallest noise multiplier σ (to a relative
// pldNoiseTolerance, rounded up) of the first stage such that the PLD
// accountant's risk of the stages — the advantage at baseline b, or the
// worst-case advantage when b is NaN — is at most target. The other stages
// are kept as they are. start is a noise multiplier to bracket from (the
// RDP-calibrated one, which meets the target with room to spare). It
// returns 0 when any σ ≥ 0.001 meets the target; why is non-empty when no
// finite σ does or an accountant fails.
//
// Each evaluation builds an accountant (Kulynych et al. 2025, §9,
// "PLD/composed: bisection on σ"), so the search is a safeguarded secant
// method on ln σ, which needs about half the accountants of a bisection:
// the risk is smooth and non-increasing in σ (up to discretisation). Whatever the shape, the σ returned meets the
// target as computed, and one just below it (by the tolerance) does not.
func NoiseForTargetPLD(stages []pld.Stage, target, b, start float64, cache *pldCache) (sigma float64, why string) {
	sigma, _, why = noiseForTargetPLD(stages, target, b, start, cache)
	return sigma, why
}

// noiseForTargetPLD is NoiseForTargetPLD, also returning the number of
// accountants built (for tests of the search's cost).
func noiseForTargetPLD(stages []pld.Stage, target, b, start float64, cache *pldCache) (sigma float64, builds int, why string) {
	if len(stages) == 0 {
		return 0, 0, "no stage to calibrate"
	}
	// excess returns risk(σ) − target: ≤ 0 when σ meets the target.
	excess := func(s float64) (float64, string) {
		builds++
		st := append([]pld.Stage(nil), stages...)
		st[0].NoiseMultiplier = s
		var p *pld.PLD
		var err error
		if cache != nil {
			p, err = cache.get(st)
		} else {
			p, err = newPLD(st)
		}
		if err != nil {
			return 0, fmt.Sprintf("the PLD accountant fails at noise multiplier %s: %v", formatNumber(s), err)
		}
		return dpsgdRisk(PLDCurve{p}, b, !math.IsNaN(b)) - target, ""
	}
	if !(start > 0) || math.IsInf(start, 1) {
		start = 1
	}
	// Bracket in x = ln σ: xHi meets the target (gHi ≤ 0), xLo does not
	// (gLo > 0). The RDP-calibrated start usually meets it and lies 5–25%
	// above the answer, so the first step down is small.
	x0 := math.Log(start)
	g0, why := excess(start)
	if why != "" {
		return 0, builds, why
	}
	xLo, xHi, gLo, gHi := x0, x0, g0, g0
	if g0 > 0 {
		for i := 0; gHi > 0; i++ {
			if i == 12 {
				return 0, builds, fmt.Sprintf("no noise multiplier up to %s meets target_advantage", formatNumber(math.Exp(xHi)))
			}
			xLo, gLo = xHi, gHi
			xHi += math.Log(4)
			if gHi, why = excess(math.Exp(xHi)); why != "" {
				return 0, builds, why
			}
		}
	} else {
		step := math.Log(1.15)
		for i := 0; gLo <= 0; i++ {
			if i == 40 || math.Exp(xLo) < 1e-3 {
				return 0, builds, "" // any noise multiplier meets the target
			}
			xHi, gHi = xLo, gLo
			xLo -= step
			step = math.Min(2*step, math.Log(4))
			if gLo, why = excess(math.Exp(xLo)); why != "" {
				return 0, builds, why
			}
		}
	}
	// Secant steps through the two latest points, kept inside the bracket
	// (at least 0.45 of the tolerance from its ends); a bisection step when
	// the secant leaves the bracket or two steps have not halved it. When
	// a step that meets the target was small, a probe just below it closes
	// the bracket at once if the estimate was good.
	tol := math.Log1p(pldNoiseTolerance)
	xa, ga := xLo, gLo // the two latest points
	xb, gb := xHi, gHi
	width, stalls := xHi-xLo, 0
	for xHi-xLo > tol {
		x := xb - gb*(xb-xa)/(gb-ga)
		margin := 0.45 * tol
		if stalls >= 2 || !(x > xLo && x < xHi) || math.IsNaN(x) {
			x, stalls = 0.5*(xLo+xHi), 0
		}
		x = math.Min(math.Max(x, xLo+margin), xHi-margin)
		g, why := excess(math.Exp(x))
		if why != "" {
			return 0, builds, why
		}
		small := math.Abs(x-xb) < 3*tol
		xa, ga, xb, gb = xb, gb, x, g
		if g <= 0 {
			xHi, gHi = x, g
			if xp := x - 0.9*tol; small && xp > xLo {
				gp, why := excess(math.Exp(xp))
				if why != "" {
					return 0, builds, why
				}
				if gp <= 0 {
					xHi, gHi = xp, gp
				} else {
					xLo, gLo = xp, gp
				}
				xa, ga, xb, gb = xb, gb, xp, gp
			}
		} else {
			xLo, gLo = x, g
		}
		if xHi-xLo > 0.5*width {
			stalls++
		} else {
			stalls, width = 0, xHi-xLo
		}
	}
	// σ = e^{xHi} meets the target as computed; round it up so that the
	// value written is not below the one evaluated.
	return numeric.UlpsAway(math.Exp(xHi), numeric.RoundingUlps), builds, ""
}

// NoiseForTargetRDP returns the smallest noise multiplier σ of the row's
// own stage whose RDP-based risk (the advantage at baseline b, or the
// worst case when b is NaN), composed with the extra stages' RDP, is at
// most target: bisection on 1/σ to adjacent floats, rounded up. It returns
// 0 when any σ ≥ 0.001 meets the target and why when none does.
func NoiseForTargetRDP(own DPSGD, extra RDP, target, b float64) (sigma float64, why string) {
	risk := func(inv float64) float64 {
		if inv == 0 && len(extra.Orders) == 0 {
			return 0
		}
		c := DPSGD{NoiseMultiplier: 1 / inv, SampleRate: own.SampleRate, Steps: own.Steps}.RDP()
		if inv == 0 {
			c = RDP{Orders: c.Orders, Epsilons: make([]float64, len(c.Orders))}
		}
		if len(extra.Orders) > 0 {
			c = addRDP(c, extra)
		}
		return dpsgdRisk(c, b, !math.IsNaN(b))
	}
	// 1/σ from 0 (infinite noise) to 1e3 (σ = 0.001).
	inv, ok := LargestParameter(risk, target, 0, 1e3)
	switch {
	case !ok:
		return 0, "no noise level meets target_advantage"
	case inv == 0 || math.IsInf(1/inv, 1):
		return 0, "only infinite noise meets target_advantage"
	case inv == 1e3:
		return 0, ""
	}
	return numeric.UlpsAway(1/inv, numeric.RoundingUlps), ""
}

// addRDP returns the composition of two RDP guarantees on the same orders:
// ε_α adds (Mironov 2017, Prop. 1), rounded up.
func addRDP(a, b RDP) RDP {
	c := RDP{Orders: append([]float64(nil), a.Orders...), Epsilons: make([]float64, len(a.Orders))}
	for i := range c.Epsilons {
		c.Epsilons[i] = nudgeUp(a.Epsilons[i] + b.Epsilons[i])
	}
	return c
}

// stagesRDP returns the composed RDP of stages on DefaultRDPOrders through
// the run's cache (each stage is a DPSGD with its own σ, q and steps; q = 1
// is the Gaussian mechanism); no stage gives the empty RDP{}.
func (b *Binding) stagesRDP(stages []pld.Stage) RDP {
	var total RDP
	for i, s := range stages {
		c := b.dpsgdRDP(DPSGD{NoiseMultiplier: s.NoiseMultiplier, SampleRate: s.SampleRate, Steps: s.Steps})
		if i == 0 {
			total = c
		} else {
			total = addRDP(total, c)
		}
	}
	return total
}

// noiseForTarget returns the calibrated noise multiplier of a dpsgd row
// under PLD accounting, or under RDP accounting with useRDP, through the
// run's cache.
func (r *Release) noiseForTarget(useRDP bool) (float64, skip) {
	if r.Target <= 0 {
		return 0, skip{why: "only infinite noise meets a target_advantage of 0"}
	}
	key := noiseKey{stages: stagesKey(r.extraStages), q: r.dpsgd.SampleRate, steps: r.dpsgd.Steps, target: r.Target, rdp: true}
	b := math.NaN()
	if r.HasBaseline {
		b, key.baseline = r.Baseline, r.Baseline
	} else {
		key.worst = true
	}
	cache := r.noise
	if cache == nil {
		cache = &noiseCache{}
	}
	loose, why := cache.get(key, func() (float64, string) {
		return NoiseForTargetRDP(r.dpsgd, r.extraRDP, r.Target, b)
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
		return NoiseForTargetPLD(dpsgdStages(r.dpsgd, r.extraStages), r.Target, b, start, nil)
	})
	// Each σ is certified by its own accountant, so the smaller one is:
	// RDP is the smaller only for targets near the PLD's numerical floor.
	switch {
	case whyTight != "" && why == "":
		return noiseResult(loose, why, "RDP")
	case whyTight == "" && why == "" && tight > 0 && loose > 0:
		return math.Min(tight, loose), skip{}
	}
	return noiseResult(tight, whyTight, "PLD")
}

// noiseResult turns a calibration's result into a cell.
func noiseResult(sigma float64, why, accountant string) (float64, skip) {
	switch {
	case why != "":
		return 0, skip{why: why + " (" + accountant + " accounting)"}
	case sigma == 0:
		return 0, skip{why: "any noise multiplier above 0.001 meets target_advantage (" + accountant + " accounting)"}
	}
	return sigma, skip{}
}
