package pld

import (
	"fmt"
	"math"
	"sync"
)

// Stage is a run of Steps identical releases of one mechanism. By default
// (Mechanism = SubsampledGaussian) it is a run of DP-SGD steps: the
// Poisson-subsampled Gaussian mechanism with L2 sensitivity 1 (the
// clipping norm); at each step every record is included independently
// with probability SampleRate and Gaussian noise of standard deviation
// NoiseMultiplier (in units of the clipping norm) is added to the sum of
// the clipped contributions. The other kinds read Epsilon (and Delta or
// Categories) instead: the Laplace mechanism with ε = Δ/b, k-ary
// randomized response, and any (ε, δ)-DP mechanism (see Kind).
type Stage struct {
	NoiseMultiplier float64 // σ > 0, finite
	SampleRate      float64 // q in (0, 1]; q = 1 is the plain Gaussian mechanism
	Steps           int     // ≥ 1
	Mechanism       Kind    // the zero value is the subsampled Gaussian
	Epsilon         float64 // ε ≥ 0, finite (Laplace, RandomizedResponse, EpsilonDelta)
	Delta           float64 // δ in [0, 1) (EpsilonDelta)
	Categories      int     // k ≥ 2 (RandomizedResponse)
}

// Options tunes the discretisation. The zero value selects the defaults.
type Options struct {
	// GridStep is the spacing h of the privacy-loss grid (dp_accounting's
	// value_discretization_interval); 0 selects DefaultGridStep.
	GridStep float64
	// TailMass is the probability mass per composed step that the
	// truncation of the privacy loss's tails may move to +∞ loss (into δ),
	// beside the masses below the rounding noise of the convolutions; 0
	// selects DefaultTailMass. It is per step, as dp_accounting's
	// tail_mass_truncation is per PLD it builds, so that the powers of one
	// step's PLD do not depend on the number of steps (see Chains).
	TailMass float64
	// Chains, if not nil, holds the powers of the steps' PLDs for other
	// accountants to share (see Chains); nil builds them for this
	// accountant alone. The values are the same either way.
	Chains *Chains
}

// DefaultTailMass is the default Options.TailMass, dp_accounting's default
// tail_mass_truncation.
const DefaultTailMass = 1e-15

// Grid limits: the largest composed PLD, in grid points, that NewDPSGD
// builds (32 MB per direction), and the size the default grid step aims
// below so that a configuration takes well under a second.
const (
	MaxGridPoints    = 1 << 22
	targetGridPoints = 1 << 17
)

// gridStepsPerStd is the number of grid steps per standard deviation of one
// step's privacy loss chosen by DefaultGridStep (see there); a composed PLD
// that would have fewer than minGridPoints points gets a finer grid, down
// to maxGridStepsPerStd steps per standard deviation.
const (
	gridStepsPerStd    = 30
	maxGridStepsPerStd = 300
	minGridPoints      = 1 << 13
)

// DefaultGridStep returns the grid step NewDPSGD uses when
// Options.GridStep is 0:
//
//	h = s/30,  s² = Σ_j n_j·Var(L_j) / Σ_j n_j,
//
// the root mean square over all steps of the per-step privacy loss's
// standard deviation (the smaller of the two directions), coarsened if the
// composed PLD would exceed about 2^17 grid points: its extent is taken as
// the larger of 20 standard deviations of the composed loss and the range
// of one step's loss up to its truncated tails. A composed PLD that would
// have fewer than 2^13 points is refined instead, to at most s/300.
//
// Why s/30: the connect-the-dots split of an interval of width h adds at
// most h²/4 to the variance of the loss and keeps E_U[e^{−L}] (Doroshenko et
// al. 2022, §3), so n composed steps behave like the exact composition with
// its loss variance inflated by at most n·h²/4, a relative inflation of
// (h/s)²/4 ≈ 0.03% whatever the number of steps, which moves ε(δ) by a
// few parts in 10⁴ at most. A fixed grid step such as dp_accounting's 1e-4
// is too coarse for small q (q = 0.001, σ = 2 gives s ≈ 5e-4) and
// needlessly fine for large losses (σ = 0.6, q = 0.01 gives s ≈ 0.04),
// where the composed PLD then spans millions of points. The discretisation
// error that remains is reported by PLD.Errors and PLD.EpsilonError.
func DefaultGridStep(stages []Stage) (float64, error) {
	if err := validateStages(stages); err != nil {
		return 0, err
	}
	h, _ := autoGridStep(stages, DefaultTailMass)
	return h, nil
}

// autoGridStep returns DefaultGridStep and the estimated extent (in loss
// units) of the composed PLD, for sizing.
func autoGridStep(stages []Stage, tailMass float64) (h, extent float64) {
	var total float64
	var sumVar [2]float64
	for _, st := range stages {
		m := stepOf(st)
		n := float64(st.Steps)
		total += n
		// The grid is sized by one step's loss up to tails of
		// tailMass/(4n·(s + 1)) for s stages, finer than the per-step tail
		// that composeDirection cuts (the sizing of the first version,
		// whose tail budget was divided among the steps: the grid steps
		// stay those of the earlier outputs).
		tail := tailMass / float64(len(stages)+1) / (4 * n)
		for d := range sumVar {
			_, v := m.lossMoments(direction(d))
			sumVar[d] += n * v
			lo, hi := m.lossRange(direction(d), tail)
			extent = math.Max(extent, hi-lo)
		}
	}
	s := math.Sqrt(math.Min(sumVar[0], sumVar[1]) / total)
	extent = math.Max(extent, 20*math.Sqrt(math.Max(sumVar[0], sumVar[1])))
	h = s / gridStepsPerStd
	switch {
	case extent/h > targetGridPoints:
		h = extent / targetGridPoints
	case extent/h < minGridPoints:
		// A small composition (few steps, or q near 1) is cheap on a finer
		// grid, whose error falls as h².
		h = math.Max(extent/minGridPoints, s/maxGridStepsPerStd)
	}
	if !(h > 0) || math.IsInf(h, 0) {
		// The loss is 0 to double precision (σ enormous): any step will do.
		h = 1e-6
	}
	return anchoredGridStep(stages, h), extent
}

// anchoredGridStep returns a grid step near h on which the atoms of the
// stages' losses (the ±ε of Laplace, randomized response and (ε, δ)
// stages) fall on grid points, so that they are represented exactly: ε
// itself when every stage is such a discrete mechanism of one ε (the
// composition is then exact), else ε/m for the ε of the stage with the
// most steps, with m the smallest even number ≥ ε/h (so the step is at
// most h, and the atoms are grid points of the grid of step 2h that
// PLD.Errors compares with too). An ε below h/8 is not anchored: its
// step ε/2 would be more than 16 times finer than the other stages need
// (at ε = 1e-6 beside a Gaussian stage, more grid points than
// MaxGridPoints: no result at all), and placeAtom splits an atom off the
// grid pessimistically anyway.
func anchoredGridStep(stages []Stage, h float64) float64 {
	var anchor float64
	most, allDiscrete := 0, true
	for _, st := range stages {
		m := stepOf(st)
		_, discrete := m.(discreteStep)
		a := m.anchor()
		allDiscrete = allDiscrete && discrete && (anchor == 0 || a == anchor)
		if a > 0 && st.Steps > most {
			anchor, most = a, st.Steps
		}
	}
	switch {
	case allDiscrete && anchor > 0:
		return anchor
	case !(anchor >= h/8):
		return h
	}
	return anchor / (2 * math.Ceil(anchor/(2*h)))
}

func validateStages(stages []Stage) error {
	if len(stages) == 0 {
		return ErrNoStages
	}
	for i, st := range stages {
		if st.Mechanism != SubsampledGaussian {
			if err := validateOther(i, st); err != nil {
				return err
			}
			continue
		}
		switch {
		case !(st.NoiseMultiplier > 0) || math.IsInf(st.NoiseMultiplier, 1):
			return &StageError{Index: i, Field: "noise multiplier", Value: st.NoiseMultiplier, Rule: "a finite number > 0"}
		case !(st.SampleRate > 0 && st.SampleRate <= 1):
			return &StageError{Index: i, Field: "sample rate", Value: st.SampleRate, Rule: "in (0, 1]"}
		case st.Steps < 1:
			return &StageError{Index: i, Field: "steps", Value: float64(st.Steps), Rule: "≥ 1"}
		}
	}
	return nil
}

// validateOther checks a stage of another kind than the subsampled
// Gaussian.
func validateOther(i int, st Stage) error {
	switch {
	case st.Mechanism > EpsilonDelta:
		return &StageError{Index: i, Field: "mechanism", Value: float64(st.Mechanism), Rule: "a Kind of this package"}
	case st.Steps < 1:
		return &StageError{Index: i, Field: "steps", Value: float64(st.Steps), Rule: "≥ 1"}
	case !(st.Epsilon >= 0) || math.IsInf(st.Epsilon, 1):
		return &StageError{Index: i, Field: "epsilon", Value: st.Epsilon, Rule: "a finite number ≥ 0"}
	case st.Mechanism == EpsilonDelta && !(st.Delta >= 0 && st.Delta < 1):
		return &StageError{Index: i, Field: "delta", Value: st.Delta, Rule: "in [0, 1)"}
	case st.Mechanism == RandomizedResponse && st.Categories < 2:
		return &StageError{Index: i, Field: "categories", Value: float64(st.Categories), Rule: "≥ 2"}
	}
	return nil
}

// PLD is the privacy-loss distribution of DP-SGD (a composition of stages
// of the Poisson-subsampled Gaussian mechanism) under add/remove
// neighbours, in both directions, discretised pessimistically. Every
// quantity it reports bounds the risk from above: δ(ε) and ε(δ) are upper
// bounds, the trade-off curve a lower bound on the type II error.
//
// Construction (NewDPSGD): one step's PLD in each direction is discretised
// on the grid ε_k = k·h by connect-the-dots (stepPMF), composed over the
// stage's steps by one FFT exponentiation on a window sized by Chernoff
// bounds (power: two transforms of G points for G composed grid points;
// by repeated squaring where the step has few points or the window would
// be too large), and the stages are convolved together. Tails beyond a mass threshold are truncated, the
// upper tail to +∞ (counted in δ, never dropped); FFT round-off is bounded
// in ℓ1 at every product and the bound is added to δ.
//
// A PLD is safe for concurrent use.
type PLD struct {
	stages []Stage
	opt    Options // resolved: GridStep and TailMass set
	prof   *profile

	errorsOnce sync.Once
	errors     Errors
	errorsErr  error

	coarseOnce sync.Once
	coarse     *profile
	coarseErr  error
}

// NewDPSGD returns the PLD of the composition of the stages (in any order:
// composition commutes). It returns a *StageError, *OptionError or
// *SizeError for invalid input; it does not panic.
func NewDPSGD(stages []Stage, opt Options) (*PLD, error) {
	if err := validateStages(stages); err != nil {
		return nil, err
	}
	switch {
	case !(opt.GridStep >= 0) || math.IsInf(opt.GridStep, 1):
		return nil, &OptionError{Field: "grid step", Value: opt.GridStep, Rule: "a finite number ≥ 0 (0 for the default)"}
	case !(opt.TailMass >= 0 && opt.TailMass < 1e-9):
		// Per step: n steps move up to 3n/4 of it to +∞.
		return nil, &OptionError{Field: "tail mass", Value: opt.TailMass, Rule: "in [0, 1e-9) (0 for the default)"}
	}
	if opt.TailMass == 0 {
		opt.TailMass = DefaultTailMass
	}
	auto, extent := autoGridStep(stages, opt.TailMass)
	if opt.GridStep == 0 {
		opt.GridStep = auto
	}
	if est := extent / opt.GridStep; est > MaxGridPoints {
		return nil, &SizeError{GridStep: opt.GridStep, Points: int(math.Min(est, math.MaxInt32)), Limit: MaxGridPoints}
	}
	prof, err := compose(stages, opt.GridStep, opt.TailMass, opt.Chains)
	if err != nil {
		return nil, err
	}
	return &PLD{stages: append([]Stage(nil), stages...), opt: opt, prof: prof}, nil
}

// compose builds the profile of the composed stages on grid step h. The
// two directions are independent and are composed concurrently. The
// powers of the steps' PLDs come from chains, or from chains of this
// composition alone when it is nil (they are not kept: a Chains may hold
// ten times the composed PLD's points).
func compose(stages []Stage, h, tailMass float64, chains *Chains) (*profile, error) {
	if chains == nil {
		chains = NewChains()
	}
	symmetric := true
	for _, st := range stages {
		symmetric = symmetric && stepOf(st).symmetric()
	}
	var final [2]*lossPMF
	var errs [2]error
	if symmetric {
		// Both orders have the same loss distribution (at q = 1,
		// N(μ²/2, μ²) per step; Laplace, randomized response and the (ε, δ)
		// pair by their symmetry).
		final[remove], errs[remove] = composeDirection(stages, remove, h, tailMass, chains)
		final[add] = final[remove]
	} else {
		var wg sync.WaitGroup
		for d := range final {
			wg.Add(1)
			go func() {
				defer wg.Done()
				final[d], errs[d] = composeDirection(stages, direction(d), h, tailMass, chains)
			}()
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return newProfile(final, h), nil
}

// composeDirection composes the stages' PLDs in one direction and keeps
// the part at positive losses. Each stage of n steps is composed from the
// powers of its step's PLD (chain.selfCompose), whose truncations move at
// most 3n/4·tailMass to +∞ (a step's upper tail cut at tailMass/2, the
// squarings' at tailMass/4 per step: chain.level); the products of the
// powers of one stage move at most tailMass/(4·(s + 1)) in all, s the
// number of stages, and those of the stages with each other as much, each
// beside the mass below its rounding noise.
func composeDirection(stages []Stage, d direction, h, tailMass float64, chains *Chains) (*lossPMF, error) {
	cv := newConvolver()
	stageBudget := tailMass / float64(4*(len(stages)+1))
	crossBudget := stageBudget / float64(len(stages))
	var total *lossPMF
	for _, st := range stages {
		c, err := newChain(chains, cv, st, d, h, tailMass/2).selfCompose(st.Steps, stageBudget)
		if err != nil {
			return nil, err
		}
		if total == nil {
			total = c
		} else {
			total = cv.compose(total, c, crossBudget, crossBudget)
		}
		if len(total.probs) > MaxGridPoints {
			return nil, &SizeError{GridStep: h, Points: len(total.probs), Limit: MaxGridPoints}
		}
	}
	return total.positivePart(), nil
}

// GridStep returns the grid step h of the discretisation.
func (p *PLD) GridStep() float64 { return p.opt.GridStep }

// GridPoints returns the number of grid points of the larger composed PLD
// (at positive losses, the part that δ(ε ≥ 0) depends on).
func (p *PLD) GridPoints() int { return p.prof.atoms }

// Delta returns an upper bound on δ(ε), the hockey-stick divergence
// sup_S P(S) − e^ε·Q(S) over both orders of neighbouring output
// distributions: with the composed PLD's masses p_l at losses l (and p_∞
// at +∞),
//
//	δ(ε) = max over directions of Σ_{l > ε} p_l·(1 − e^{ε − l}) + p_∞,
//
// plus the numerical slack (Meiser & Mohammadi 2018; Sommer, Meiser &
// Mohammadi 2019, Thm 5). Between grid points δ is interpolated linearly in
// e^ε, which is exact for the discrete PLD. For ε < 0 it uses the identity
// δ(ε) = 1 − e^ε + e^ε·δ(−ε) of the symmetrised pair (Dong, Roth & Su 2022,
// Prop. 2.12 with f symmetric). NaN gives NaN.
func (p *PLD) Delta(eps float64) float64 {
	switch {
	case math.IsNaN(eps):
		return eps
	case eps >= 0:
		return p.prof.deltaAt(eps)
	case math.IsInf(eps, -1):
		return 1
	}
	d := -math.Expm1(eps) + math.Exp(eps)*p.prof.deltaAt(-eps)
	return math.Min(nudgeUp(d, 4), 1)
}

// Epsilon returns an upper bound on the smallest ε ≥ 0 with δ(ε) ≤ delta:
// the exact solution for the discrete PLD (linear in e^ε between grid
// points), rounded up; 0 if δ(0) ≤ delta, +Inf if δ never gets that small
// (delta below the mass at +∞ plus the numerical slack). A NaN or negative
// delta gives NaN.
func (p *PLD) Epsilon(delta float64) float64 {
	if math.IsNaN(delta) || delta < 0 {
		return math.NaN()
	}
	return p.prof.epsilonAt(delta)
}

// TradeOff returns a lower bound on β(α), the smallest type II error of a
// test of type I error α between neighbouring outputs, symmetrised over
// both orders (see the comment on the trade-off curve in tradeoff.go):
//
//	f(α) = sup_{ε ≥ 0} max{0, 1 − δ(ε) − e^ε·α, e^{−ε}·(1 − δ(ε) − α)}
//
// over the grid ε, convex, non-increasing, symmetric and ≤ 1 − α. f(0) is
// 1 − δ(∞), where δ(∞) is the mass at +∞ plus the slack. NaN gives NaN.
func (p *PLD) TradeOff(alpha float64) float64 { return p.prof.tradeOff(alpha) }

// Advantage returns 1 − f(b) − b, the bound of Kulynych et al. (2025,
// Thm 3.3) on an attack's advantage over the baseline b, computed from the
// same lines as TradeOff without cancellation (so that baselines near 0
// keep their precision), never above WorstAdvantage.
func (p *PLD) Advantage(b float64) float64 { return p.prof.advantage(b) }

// WorstAdvantage returns δ(0), an upper bound on η = max_α (1 − α − f(α)),
// the total variation bound on membership-inference advantage (Kulynych et
// al. 2025, Thm 3.4; riskcal's get_advantage_from_pld). It equals
// max_b Advantage(b) when the symmetrised curve touches its ε = 0 line,
// which is the case for DP-SGD (Dong, Roth & Su 2022, Def. F.1, first
// case); otherwise it exceeds it.
func (p *PLD) WorstAdvantage() float64 { return p.prof.sym[0] }

// Errors describes how far the reported values may be from the exact ones
// of the continuous mechanism. All parts are already on the pessimistic
// side of the reported values; their sum bounds δ_reported(ε) − δ_exact(ε)
// for every ε ≥ 0, and hence also β_exact(α) − β_reported(α) and the excess
// of Advantage and WorstAdvantage.
type Errors struct {
	// Discretisation is twice the largest δ_{2h}(ε) − δ_h(ε) over ε ≥ 0 at
	// the grid points and midway between them: the profile of the same
	// composition on a grid twice as coarse minus this one. Where the
	// profile is smooth, connect-the-dots error grows as h² (see
	// DefaultGridStep) and this is about six times the grid's own error;
	// at a kink of the profile (the end of a bounded loss, as in the add
	// direction of a single step at large q) the error grows as h and
	// this is about twice it. It is an estimate, not a proof; the values
	// themselves are upper bounds whatever it says. It is 0 when every
	// stage's losses are grid points (randomized response and (ε, δ)
	// stages of one ε, on the grid step ε): the discrete PLD is then the
	// mechanism's own.
	Discretisation float64
	// Numerical is a rigorous bound on the floating-point errors (FFT
	// round-off, quadrature), included in δ.
	Numerical float64
	// Truncation is the mass at +∞ loss, mostly tails moved there by
	// truncation, included in δ.
	Truncation float64
}

// Delta returns Discretisation + Numerical + Truncation.
func (e Errors) Delta() float64 { return e.Discretisation + e.Numerical + e.Truncation }

// Errors returns the error estimate of the PLD. The first call composes
// the stages again on a grid step of 2h (about half the cost of NewDPSGD)
// and compares the two profiles; later calls return the same estimate.
func (p *PLD) Errors() (Errors, error) {
	p.errorsOnce.Do(func() { p.errors, p.errorsErr = p.estimateErrors() })
	return p.errors, p.errorsErr
}

// estimateErrors computes Errors.
func (p *PLD) estimateErrors() (Errors, error) {
	f := p.prof
	numerical, truncation := math.Max(f.slack[0], f.slack[1]), math.Max(f.inf[0], f.inf[1])
	if p.exact() {
		// Every loss is a grid point: the discrete PLD is the mechanism's.
		return Errors{Numerical: numerical, Truncation: truncation}, nil
	}
	c, err := p.coarseProfile()
	if err != nil {
		return Errors{}, err
	}
	var gap float64
	for i := range f.sym {
		gap = math.Max(gap, c.deltaAt(f.eps(i))-f.sym[i])
		if i+1 < len(f.sym) {
			mid := 0.5 * (f.eps(i) + f.eps(i+1))
			gap = math.Max(gap, c.deltaAt(mid)-f.deltaAt(mid))
		}
	}
	return Errors{
		Discretisation: nudgeUp(2*gap, 2),
		Numerical:      numerical,
		Truncation:     truncation,
	}, nil
}

// exact reports whether every stage's losses are grid points, so that the
// only errors are the numerical ones (randomized response and (ε, δ)
// stages of one ε, on the grid step ε).
func (p *PLD) exact() bool {
	for _, st := range p.stages {
		if !stepOf(st).exactOn(p.opt.GridStep) {
			return false
		}
	}
	return true
}

// EpsilonError returns ε_{2h}(delta) − ε_h(delta) (at least 0), the change
// of Epsilon when the grid step doubles: with the O(h²) connect-the-dots
// error, about three times the error of Epsilon itself.
func (p *PLD) EpsilonError(delta float64) (float64, error) {
	c, err := p.coarseProfile()
	if err != nil {
		return 0, err
	}
	if math.IsNaN(delta) || delta < 0 {
		return math.NaN(), nil
	}
	d := c.epsilonAt(delta) - p.prof.epsilonAt(delta)
	if math.IsNaN(d) {
		// Both +Inf: no ε reaches delta on either grid.
		return math.Inf(1), nil
	}
	return math.Max(d, 0), nil
}

func (p *PLD) coarseProfile() (*profile, error) {
	p.coarseOnce.Do(func() {
		p.coarse, p.coarseErr = compose(p.stages, 2*p.opt.GridStep, p.opt.TailMass, p.opt.Chains)
		if p.coarseErr != nil {
			p.coarseErr = fmt.Errorf("pld: error estimate on grid step %g: %w", 2*p.opt.GridStep, p.coarseErr)
		}
	})
	return p.coarse, p.coarseErr
}
