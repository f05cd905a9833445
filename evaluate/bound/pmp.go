package bound

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Practical membership privacy (PMP) of Lowy, Li, Liu, Koike-Akino,
// Parsons & Wang, "Why Does Differential Privacy with Large ε Defend
// Against Practical Membership Inference Attacks?" (AAAI 2024; cited as
// Lowy et al. 2024). The attacker knows a parent set X of 2n records and the
// training set D is a uniform n-subset of X (Definition 2), so every
// x ∈ X is a member with prior 1/2. Everything here is computed w.r.t. one
// given X, never "for all X" (Lowy et al. 2024).
//
// Errata of Lowy et al. 2024 applied throughout:
//   - Lemma 3/15 step (12): Pr(A(D) ∈ S | x ∈ D) = (1/N)·Σ_{D∈X_in(x)} Pr(A(D) ∈ S)
//     with N = C(2n, n)/2, not (2/N)·Σ; hence Corollary 4 reads "(ε, δ)-DP iff
//     (ε, δ)-PMP" for n = 1 (not 2δ), and the Gaussian bound (Prop. 12) is
//     compared with the same δ as the DP guarantee.
//   - Prop. 9/19 is printed one-sided; Definition 2 is two-sided, so the
//     exact exponential-mechanism parameter uses |ln(in/out)| (as the proof of
//     Prop. 17 does).
//   - Prop. 12: the ε inside Φ and e^ε is the candidate PMP parameter ε̃, not
//     the DP ε that calibrated σ.
//
// Outputs that bound risk (ε̃, success probabilities) are rounded up by
// roundUp; largest-safe parameters are checked against the rounded forward
// bound so that they never overstate what is safe.

// MaxPMPSubsets is the largest number of n-subsets C(2n, n) of the parent
// set that the exact enumerations (PMPExponential, PMPDiscrete,
// PMPExponentialSubpopulationEpsilon) accept: 2n ≤ 22 records
// (C(22, 11) = 705,432; C(24, 12) = 2,704,156 is refused). The paper itself
// uses n = 6 (924 subsets) because the exact computation is exponential in n
// (Lowy et al. 2024). At the limit the work is about 2n·m·C(2n, n)
// exponentials: 2n = 22 records with m = 10 candidates take about 3 s.
const MaxPMPSubsets = 1_000_000

// PMPSuccess returns the bound on the success probability of any practical
// membership-inference attack against an ε-PMP mechanism (Lowy et al. 2024,
// Lemma 6 = Lemma 18; Lowy et al. 2024):
//
//	Pr[success] ≤ 1/(1 + e^{−ε}) = sigmoid(ε)
//
// Assumptions: pure PMP (δ = 0) w.r.t. a parent set of 2n records, prior
// Pr(x ∈ D) = 1/2. The same formula bounds any MIA under pure ε-DP. The
// value is computed with the logistic function (exact for large ε, 1 at
// ε = +Inf), exactly 1/2 at ε = 0, otherwise rounded up. NaN for ε < 0 or
// NaN.
func PMPSuccess(eps float64) float64 {
	switch {
	case math.IsNaN(eps) || eps < 0:
		return math.NaN()
	case eps == 0:
		return 0.5
	}
	return numeric.RoundUp(numeric.Logistic(eps), 0.5, 1)
}

// PMPEpsilonForSuccess returns the largest ε whose practical-attack success
// bound PMPSuccess(ε) stays at or below p: the inverse of Lemma 6
// (solved for ε here; the paper prints no inverse), ε = logit(p) = ln(p/(1 − p)),
// checked against PMPSuccess as computed (rounded up), so the answer is
// rounded down. Assumptions as for PMPSuccess. p = 1/2 gives 0, p ≥ 1 gives
// +Inf; the second result is false (first NaN) for p < 1/2 or NaN, when no
// ε meets the target.
func PMPEpsilonForSuccess(p float64) (float64, bool) {
	switch {
	case math.IsNaN(p) || p < 0.5:
		return math.NaN(), false
	case p >= 1:
		return math.Inf(1), true
	case p == 0.5:
		return 0, true
	}
	// Start from the closed form and check it against the rounded forward
	// bound: the answer is the largest float64 with PMPSuccess(ε) ≤ p.
	return largestNear(PMPSuccess, p, numeric.Logit(p), 0), true
}

// PMPEpsilonForAdvantageDelta returns the largest ε whose (ε, δ) success
// bound PMPSuccessDelta(ε, δ) stays at or below (1 + A)/2, i.e. whose
// membership advantage 2·success − 1 stays at or below the target A: the
// inverse of the (ε, δ) form of Lemma 6 of Lowy et al. 2024 (derived; see
// PMPSuccessDelta). Solving (e^ε + δ)/(1 + e^ε) ≤ (1 + A)/2 for ε gives
//
//	ε = ln((1 + A − 2δ)/(1 − A)) = log1p(2(A − δ)/(1 − A)),
//
// evaluated in the second form (accurate for A near δ) and checked
// against the rounded forward bound, so the answer is rounded down. At ε = 0
// the bound is (1 + δ)/2: a target A < δ is below what δ alone allows, and
// no ε meets it (second result false, first NaN). A ≥ 1 gives +Inf. δ = 0
// is PMPEpsilonForSuccess. NaN and false for A outside [0, 1], δ outside
// [0, 1] or NaN inputs.
func PMPEpsilonForAdvantageDelta(adv, delta float64) (float64, bool) {
	switch {
	case !(adv >= 0 && adv <= 1) || !(delta >= 0 && delta <= 1):
		return math.NaN(), false
	case adv == 1:
		return math.Inf(1), true
	case adv < delta:
		return math.NaN(), false
	}
	p := (1 + adv) / 2
	success := func(eps float64) float64 { return PMPSuccessDelta(eps, delta) }
	if success(0) > p { // A = δ, but the bound at ε = 0 rounds above the target
		return math.NaN(), false
	}
	return largestNear(success, p, math.Log1p(2*(adv-delta)/(1-adv)), 0), true
}

// PMPSuccessDelta returns the success bound of a practical MIA against an
// (ε, δ)-PMP mechanism with prior 1/2 (derived from Lowy et al. 2024 — not in
// the paper; from the hockey-stick form of Lemma 11, a test with errors α,
// β must satisfy 1 − β ≤ e^ε·α + δ and 1 − α ≤ e^ε·β + δ):
//
//	Pr[success] ≤ (e^ε + δ)/(1 + e^ε) = sigmoid(ε) + δ·sigmoid(−ε)
//
// evaluated in the second form (no overflow for ε up to 700 and beyond),
// rounded up and capped at 1. It equals PMPSuccess at δ = 0. NaN for ε < 0,
// δ outside [0, 1], or NaN inputs.
func PMPSuccessDelta(eps, delta float64) float64 {
	switch {
	case math.IsNaN(eps) || eps < 0 || !(delta >= 0 && delta <= 1):
		return math.NaN()
	case delta == 0:
		return PMPSuccess(eps)
	}
	return numeric.RoundUp(numeric.Logistic(eps)+delta*numeric.Logistic(-eps), 0.5, 1)
}

// PMPMIPEta returns η of Izzo et al.'s η-MIP implied by ε-PMP
// (Lowy et al. 2024, Lemma 13):
//
//	η = (1 − e^{−ε})/2
//
// i.e. a Bayes success of at most 1/2 + η (weaker than PMPSuccess).
// Evaluated as −expm1(−ε)/2, rounded up; 1/2 at ε = +Inf. Assumptions: pure
// PMP, prior 1/2. NaN for ε < 0 or NaN.
func PMPMIPEta(eps float64) float64 {
	if math.IsNaN(eps) || eps < 0 {
		return math.NaN()
	}
	if eps == 0 {
		return 0
	}
	return numeric.RoundUp(-math.Expm1(-eps)/2, 0, 0.5)
}

// ---------------------------------------------------------------------
// Gaussian mechanism, sum-form queries (Prop. 12).

// PMPGaussianBound is the result of PMPGaussian.
type PMPGaussianBound struct {
	// Epsilon is the PMP parameter ε̃_Prop12(X): the smallest ε̃ ≥ 0 with
	// max_x B(x; ε̃) ≤ δ, an upper bound on the true ε̃(X), rounded up.
	Epsilon float64
	// Worst is the index of a record x* attaining the maximum (when
	// several do, the one whose root was computed); −1 when Epsilon = 0
	// because every B(x; 0) ≤ δ.
	Worst int
	// MaxDistance is Δ_X = max_{x≠x'} ‖f(x) − f(x')‖₂, the sensitivity of
	// the query within X (compare with the global Δ: Δ_X > Δ means the
	// claimed DP guarantee is false for this data).
	MaxDistance float64
	// EpsilonX is the subpopulation DP parameter ε(X), the smallest ε with
	// δ_G(ε; Δ_X/σ) ≤ δ (Lowy et al. 2024), rounded up. ε̃ ≤ ε(X).
	EpsilonX float64
}

// PMPGaussian returns the Gaussian-mechanism PMP bound of Lowy et al. 2024,
// Proposition 12 (= Prop. 20) in the sum-form simplification of "Our
// Approach" step 3 (Lowy et al. 2024). The mechanism is
// A(D) = q(D) + N(0, σ²I) with q(D) = Σ_{x∈D} f(x); f[i] is the vector f(x_i)
// of record i of the parent set X (all of the same length d ≥ 1;
// len(f) = 2n ≥ 2 records; for the mean query f(x) = x/n). With
// μ_{xx'} = ‖f(x) − f(x')‖₂/σ and the analytic-Gaussian profile
// (Balle & Wang 2018; Lemma 10)
//
//	δ_G(ε; μ) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ),   δ_G(ε; 0) = 0,
//	B(x; ε)   = (1/(2n − 1))·Σ_{x'∈X, x'≠x} δ_G(ε; μ_{xx'}),
//
// the result is ε̃ = min{ε ≥ 0 : max_{x∈X} B(x; ε) ≤ δ}; by Lemma 11 the
// mechanism is then (ε̃, δ)-PMP w.r.t. X. The bound is certified (an upper
// bound on the true PMP parameter), tight for n = 1 (Cor. 4 with the
// erratum: the δ is the same δ as the DP guarantee's).
//
// Assumptions: replace-one adjacency, |X| = 2n, sum-form query, δ ∈ (0, 1),
// σ > 0. The result depends on f and σ only through the distances μ.
//
// Computation (exact up to rounding, no Monte Carlo): B is evaluated in
// log space (ln δ_G = ln Φ(a) + ln(1 − e^{ε + ln Φ(b) − ln Φ(a)})), so ε up
// to 700 and δ down to the smallest subnormal are fine. Each record's
// ε̃(x) is the root of the decreasing B(x; ·) = δ, found by bisection over
// float64 values to adjacent floats (the end with B ≤ δ is kept). Only a
// few roots are needed: the record with the largest B(x; 0) (total
// variation, one erf per pair) gives a candidate ε_c; records with
// B(x; ε_c) ≤ δ are done, and among the others the one with the largest
// B(x; ε_c) raises ε_c, until none is left. Cost O(N²·d) for distances
// plus O(N²) erf, plus O(N) δ_G terms per record still open per round
// (typically 1–3 rounds), plus about 64·N per root, with N = 2n; memory
// O(N). Distances are recomputed, never stored, so N of several
// thousands is fine (N = 2000, d = 10: well under a second).
//
// Errors for an odd or < 2 number of records, ragged or empty vectors,
// non-finite entries, σ ≤ 0 or non-finite, δ outside (0, 1).
func PMPGaussian(f [][]float64, sigma, delta float64) (PMPGaussianBound, error) {
	res := PMPGaussianBound{Epsilon: math.NaN(), Worst: -1, MaxDistance: math.NaN(), EpsilonX: math.NaN()}
	if err := checkPMPGaussian(f, sigma, delta); err != nil {
		return res, err
	}
	g := newPMPGauss(f, sigma, delta)
	n := len(f)

	// Pass 1: B(x; 0) = (1/(2n − 1))·Σ erf(μ/(2√2)) (δ_G(0; μ) = 2Φ(μ/2) − 1,
	// the total variation distance), the largest μ per record and the
	// largest distance, visiting each pair once.
	logB0 := make([]float64, n)
	rowMax := make([]float64, n)
	sums := make([]numeric.Sum, n)
	maxDist := 0.0
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := l2Distance(f[i], f[j])
			maxDist = math.Max(maxDist, d)
			m := d / sigma
			rowMax[i] = math.Max(rowMax[i], m)
			rowMax[j] = math.Max(rowMax[j], m)
			tv := math.Erf(m / (2 * math.Sqrt2))
			sums[i].Add(tv)
			sums[j].Add(tv)
		}
	}
	for i := range n {
		logB0[i] = numeric.LogPos(sums[i].Value()) - g.lnNm1
	}
	res.MaxDistance = maxDist
	muX := 0.0
	for _, m := range rowMax {
		muX = math.Max(muX, m)
	}
	res.EpsilonX = gaussEpsilonUp(muX, delta)

	// Pass 2: the record with the largest B(x; 0) gives a first candidate
	// ε_c = ε̃(x). Then repeatedly: evaluate B(x; ε_c) for the records still
	// above δ (a record at or below δ has ε̃(x) ≤ ε_c and is done), and
	// raise ε_c to the root of the record with the largest B(x; ε_c).
	top := 0
	for i := range n {
		if logB0[i] > logB0[top] {
			top = i
		}
	}
	best := 0.0
	if logB0[top] > g.target {
		g.fill(top)
		best = g.root(top, 0, rowMax[top])
		res.Worst = top
	}
	open := make([]int, 0, n)
	vals := make([]float64, n)
	for i := range n {
		if i != top && logB0[i] > g.target {
			open = append(open, i)
		}
	}
	for round := 0; len(open) > 0 && round < n && !math.IsInf(best, 1); round++ {
		next := open[:0]
		arg := -1
		for _, i := range open {
			if gaussLogDelta(best, rowMax[i]) <= g.target {
				continue // every term, hence B(x; ε_c), is ≤ δ
			}
			g.fill(i)
			v := g.logB(i, best)
			if v <= g.target {
				continue
			}
			vals[i] = v
			next = append(next, i)
			if arg < 0 || v > vals[arg] {
				arg = i
			}
		}
		if arg < 0 {
			break
		}
		g.fill(arg)
		best = g.root(arg, best, rowMax[arg])
		res.Worst = arg
		open = next
	}
	res.Epsilon = numeric.RoundUp(best, 0, math.Inf(1))
	return res, nil
}

// PMPGaussianPerRecord returns ε̃(x) = min{ε ≥ 0 : B(x; ε) ≤ δ} for every
// record of the parent set (Lowy et al. 2024, Prop. 12 sum form, as in
// PMPGaussian, before the maximum over x of "Our Approach" step 3), each rounded up; their
// maximum is PMPGaussian's Epsilon. Same inputs, assumptions and errors as
// PMPGaussian. Cost O(N²·(d + 64)) with N = 2n (one root search per
// record): use PMPGaussian when only the maximum is needed.
func PMPGaussianPerRecord(f [][]float64, sigma, delta float64) ([]float64, error) {
	if err := checkPMPGaussian(f, sigma, delta); err != nil {
		return nil, err
	}
	g := newPMPGauss(f, sigma, delta)
	out := make([]float64, len(f))
	for i := range f {
		rowMax := g.fill(i)
		if g.logB(i, 0) <= g.target {
			out[i] = 0
			continue
		}
		out[i] = numeric.RoundUp(g.root(i, 0, rowMax), 0, math.Inf(1))
	}
	return out, nil
}

// PMPGaussianFromDP runs the full three-step analysis of Lowy et al. 2024
// ("Our Approach"): σ from the DP target (ε, δ) and the global L2
// sensitivity Δ by the analytic Gaussian calibration (step 1, Lemma 10:
// Balle & Wang 2018, Thm 8; curve.GaussianSigma, which also covers ε = 0),
// then the Prop. 12 sum-form bound at that σ and the same δ by PMPGaussian
// (steps 2–3). It returns σ and the bound. The σ is the calibration
// rounded down, never up: less noise means more risk, so the bound at it
// is not below the bound at the exact σ. Assumptions: ε ≥ 0 finite,
// δ ∈ (0, 1) (δ = 0 has no finite σ), Δ > 0 finite; errors otherwise, and
// those of PMPGaussian.
func PMPGaussianFromDP(f [][]float64, eps, delta, sensitivity float64) (float64, PMPGaussianBound, error) {
	sigma, err := curve.GaussianSigma(curve.AnalyticCalibration, eps, delta, sensitivity)
	if err != nil {
		err = fmt.Errorf("pmp: %w", err)
		return math.NaN(), PMPGaussianBound{Epsilon: math.NaN(), Worst: -1, MaxDistance: math.NaN(), EpsilonX: math.NaN()}, err
	}
	b, err := PMPGaussian(f, sigma, delta)
	return sigma, b, err
}

func checkPMPGaussian(f [][]float64, sigma, delta float64) error {
	switch {
	case len(f) < 2 || len(f)%2 != 0:
		return fmt.Errorf("pmp: the parent set must have 2n ≥ 2 records, got %d", len(f))
	case !(sigma > 0) || math.IsInf(sigma, 1):
		return fmt.Errorf("pmp: σ must be finite and > 0, got %g", sigma)
	case !(delta > 0 && delta < 1):
		return fmt.Errorf("pmp: δ must be in (0, 1), got %g", delta)
	}
	d := len(f[0])
	if d == 0 {
		return errors.New("pmp: record vectors must not be empty")
	}
	for i, row := range f {
		if len(row) != d {
			return fmt.Errorf("pmp: record %d has %d values, record 0 has %d", i, len(row), d)
		}
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("pmp: record %d value %d is not finite (%g)", i, k, v)
			}
		}
	}
	return nil
}

// pmpGauss holds the inputs of PMPGaussian and a reusable row of scaled
// distances μ_ij = ‖f_i − f_j‖/σ.
type pmpGauss struct {
	f       [][]float64
	sigma   float64
	delta   float64
	target  float64 // ln δ
	lnNm1   float64 // ln(2n − 1)
	mu      []float64
	maxDist float64 // largest ‖f_i − f_j‖ of the last filled row
}

func newPMPGauss(f [][]float64, sigma, delta float64) *pmpGauss {
	return &pmpGauss{
		f: f, sigma: sigma, delta: delta, target: numeric.LogPos(delta),
		lnNm1: math.Log(float64(len(f) - 1)),
		mu:    make([]float64, len(f)),
	}
}

// fill computes μ_ij for every j (μ_ii = 0) and returns max_j μ_ij.
func (g *pmpGauss) fill(i int) float64 {
	top, maxD := 0.0, 0.0
	for j := range g.f {
		if j == i {
			g.mu[j] = 0
			continue
		}
		d := l2Distance(g.f[i], g.f[j])
		maxD = math.Max(maxD, d)
		m := d / g.sigma
		g.mu[j] = m
		top = math.Max(top, m)
	}
	g.maxDist = maxD
	return top
}

// logB returns ln B(x_i; ε) for the filled row i. A term whose two parts
// Φ(a) and e^ε·Φ(b) are normal floats with e^ε·Φ(b) ≤ Φ(a)/2 is formed in
// linear space (the subtraction then loses at most one bit) and summed
// with compensation; every other term (cancellation, tails beyond the
// normal range, ε > 700) goes through the log-space ln δ_G.
func (g *pmpGauss) logB(i int, eps float64) float64 {
	var acc numeric.LogSum
	var lin numeric.Sum
	expEps := math.Exp(eps)
	for j, m := range g.mu {
		if j == i || m == 0 {
			continue
		}
		if eps <= 700 && !math.IsInf(m, 1) {
			a := -eps/m + m/2
			b := -eps/m - m/2
			if b > -37 {
				pa := numeric.NormCDF(a)
				r := expEps * numeric.NormCDF(b)
				if pa > 0x1p-960 && r <= 0.5*pa {
					lin.Add(pa - r)
					continue
				}
			}
		}
		acc.Add(gaussLogDelta(eps, m))
	}
	if v := lin.Value(); v > 0 {
		acc.Add(numeric.LogPos(v))
	}
	return acc.Value() - g.lnNm1
}

// root returns the smallest float64 ε in (lo, ∞) with ln B(x_i; ε) ≤ ln δ,
// given that it fails at lo; rowMax bounds the row's μ, so the root is at
// most ε(μ_max) (each term is ≤ δ_G(ε; μ_max)).
func (g *pmpGauss) root(i int, lo, rowMax float64) float64 {
	ok := func(eps float64) bool { return g.logB(i, eps) <= g.target }
	hi := math.Max(gaussEpsilonUp(rowMax, g.delta), lo)
	if !(hi > lo) || math.IsInf(hi, 1) || math.IsNaN(hi) {
		hi = math.Max(2*lo, 1)
	}
	for k := 0; k < 2200 && !ok(hi); k++ {
		lo, hi = hi, 2*hi
		if math.IsInf(hi, 1) {
			return hi
		}
	}
	return numeric.FirstTrue(ok, lo, hi)
}

// gaussLogDelta returns ln δ_G(ε; μ) (Lemma 10 in μ-form), −Inf for μ = 0
// and 0 for μ = +Inf.
func gaussLogDelta(eps, mu float64) float64 {
	switch {
	case mu <= 0:
		return math.Inf(-1)
	case math.IsInf(mu, 1):
		return 0
	}
	return curve.Gaussian{Mu: mu}.LogDeltaAt(eps)
}

// gaussEpsilonUp returns the smallest ε with δ_G(ε; μ) ≤ δ, rounded up
// (0 for μ = 0, +Inf for μ = +Inf).
func gaussEpsilonUp(mu, delta float64) float64 {
	switch {
	case mu <= 0:
		return 0
	case math.IsInf(mu, 1):
		return math.Inf(1)
	}
	return numeric.RoundUp(curve.Gaussian{Mu: mu}.EpsilonAt(delta), 0, math.Inf(1))
}

// l2Distance returns ‖a − b‖₂ for finite vectors of equal length without
// spurious overflow or underflow: the fast sum of squares is used when it
// is comfortably inside the normal range, otherwise the differences are
// halved (so they cannot overflow) and scaled by their largest magnitude.
func l2Distance(a, b []float64) float64 {
	s := 0.0
	for k := range a {
		t := a[k] - b[k]
		s += t * t
	}
	if s >= 0x1p-900 && s <= 0x1p900 {
		return math.Sqrt(s)
	}
	scale := 0.0
	for k := range a {
		scale = math.Max(scale, math.Abs(a[k]*0.5-b[k]*0.5))
	}
	if scale == 0 {
		return 0
	}
	s = 0
	for k := range a {
		t := (a[k]*0.5 - b[k]*0.5) / scale
		s += t * t
	}
	return 2 * scale * math.Sqrt(s)
}
