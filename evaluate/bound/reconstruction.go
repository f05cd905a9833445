package bound

import (
	"errors"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Bounds of Guerra-Balboa, Sauer & Strufe, "Analysis and Measurement of
// Attack Resilience of Differential Privacy" (WPES '24,
// doi 10.1145/3689943.3695046; Guerra-Balboa et al. 2024).
//
// Assumptions shared by every function here unless its comment says
// otherwise: the mechanism is pure ε-DP (δ = 0) under BOUNDED DP, i.e.
// replace-one neighbours (d_H(D, D') ≤ 1; the paper's Def. 3.1 and §3.1).
// A pure-DP ε stated for add/remove neighbours must be doubled (group
// privacy) before it is fed in. Feeding the ε of an (ε, δ > 0) accountant
// into these formulas is unsound (only Thm 4.9 has a δ); only GBMIAHumphries
// accepts δ.
//
// Prior parameters (the paper's notation), for a prior π over the set Z
// (the reconstructions, the m attribute values of an AIA, or the two
// records of a strong MIA):
//
//	m      = |Z|, the number of candidates (an int ≥ 1);
//	κ_η    = sup_{z'} Pr_{Z∼π}[l(Z, z') ≤ η]  (Eq. 4, the baseline error:
//	         the success of the best attack that ignores the output);
//	κ_0    = κ_η at η = 0; for the perfect-reconstruction error l of Eq. 7
//	         it is max_z π(z);
//	κ_0^-  = inf_{z'} Pr_{Z∼π}[l(Z, z') = 0] = min_z π(z) (Thm 7.3, the
//	         lower baseline error; 0 when π misses a candidate);
//	μ      = Pr_{Z,Z_0∼π}[Z = Z_0] = Σ_z π(z)² (§9, the collision
//	         probability; 1/m for a uniform prior).
//
// GBPriorStats computes κ_0, κ_0^-, μ and m from a probability vector.
// t(ε) below is (e^ε − 1)/(e^ε + 1), evaluated as tanh(ε/2), which neither
// overflows nor cancels (e^ε overflows float64 above ε ≈ 709.78).
//
// Every bound is rounded up with roundUp and clipped to its range; every
// "largest ε" is the largest float64 at which the rounded-up bound, as
// computed, is at most the target (found from the closed-form inverse of
// each term, derived here: the paper prints none; then largestNear),
// so it errs on the small side. Out-of-domain input
// (NaN, ε < 0, a probability outside [0, 1], m < 1, an impossible prior)
// gives NaN (and false for the inverses); nothing panics. ε = +Inf is
// accepted and gives the limit of each bound.

// gbPriorTol is the relative slack allowed in the consistency checks of
// prior parameters, so that values computed from a decimal prior table
// (sums off by rounding) are not rejected.
const gbPriorTol = 1e-9

// gbT returns t(ε) = (e^ε − 1)/(e^ε + 1) = tanh(ε/2); t(+Inf) = 1.
func gbT(eps float64) float64 { return math.Tanh(eps / 2) }

// gbValidEps reports whether ε ≥ 0 (+Inf allowed, NaN not).
func gbValidEps(eps float64) bool { return eps >= 0 }

// gbValidKappa0 reports whether κ_0 can be the largest mass of a
// distribution over m points: m ≥ 1 and 1/m ≤ κ_0 ≤ 1 (the largest mass
// is at least the mean 1/m), with relative slack gbPriorTol.
func gbValidKappa0(k0 float64, m int) bool {
	return m >= 1 && numeric.IsProbability(k0) && k0*float64(m) >= 1-gbPriorTol
}

// gbValidPrior reports whether κ_0 = max π and κ_0^- = min π can belong to
// one distribution over m points: 0 ≤ κ_0^- ≤ κ_0 ≤ 1
// and the remaining m − 2 masses, each between the two, can make the total
// 1, i.e. κ_0 + (m−1)κ_0^- ≤ 1 ≤ κ_0^- + (m−1)κ_0 (which imply
// κ_0^- ≤ 1/m ≤ κ_0). Relative slack gbPriorTol. At m = 1 both are 1.
func gbValidPrior(k0, kmin float64, m int) bool {
	if !gbValidKappa0(k0, m) || !numeric.IsProbability(kmin) || kmin > k0*(1+gbPriorTol) {
		return false
	}
	fm := float64(m)
	return k0+(fm-1)*kmin <= 1+gbPriorTol && kmin+(fm-1)*k0 >= 1-gbPriorTol
}

// gbValidMu reports whether μ = Σπ² is compatible with κ_0 and m:
// max(1/m, κ_0²) ≤ μ ≤ κ_0 (necessary conditions: Σπ² ≥ (Σπ)²/m,
// Σπ² ≥ max π², Σπ² ≤ max π · Σπ), with relative slack gbPriorTol.
func gbValidMu(mu, k0 float64, m int) bool {
	return numeric.IsProbability(mu) && mu*float64(m) >= 1-gbPriorTol &&
		mu >= k0*k0*(1-gbPriorTol) && mu <= k0*(1+gbPriorTol)
}

// GBPrior holds the prior parameters of the Guerra-Balboa et al. bounds
// for a discrete prior π = (p_1, …, p_M) over M candidates under the
// perfect-reconstruction error l of Eq. 7 (§8.1, §8.2):
// Kappa0 = κ_0 = max_i p_i (Eq. 4 at η = 0; proof of Prop 5.1),
// Kappa0Min = κ_0^- = min_i p_i (Thm 7.3), Mu = μ = Σ_i p_i² (§9), M = m.
type GBPrior struct {
	M         int     // number of candidates m = |Z|
	Kappa0    float64 // κ_0 = max_z π(z), the baseline (oblivious) success
	Kappa0Min float64 // κ_0^- = min_z π(z), the lower baseline error
	Mu        float64 // μ = Σ_z π(z)², the collision probability
}

// GBPriorStats returns κ_0 = max p_i, κ_0^- = min p_i, μ = Σ p_i² and
// m = len(p) for a prior vector p (for η = 0 and a
// discrete prior these are the parameters of Prop 5.1, Thm 7.3 and the §9
// cap). Every entry must be finite and ≥ 0 and the entries must sum to 1
// within a relative 1e-9; the vector is divided by its (compensated) sum
// before the statistics are taken. A zero entry counts as a candidate,
// so κ_0^- = 0 then. An empty vector or an invalid entry gives an error.
func GBPriorStats(p []float64) (GBPrior, error) {
	if len(p) == 0 {
		return GBPrior{}, errors.New("evaluate: empty prior vector")
	}
	var total numeric.Sum
	for _, v := range p {
		if !(v >= 0) || math.IsInf(v, 1) {
			return GBPrior{}, errors.New("evaluate: prior probabilities must be finite and non-negative")
		}
		total.Add(v)
	}
	sum := total.Value()
	if !(math.Abs(sum-1) <= gbPriorTol) {
		return GBPrior{}, errors.New("evaluate: prior probabilities must sum to 1")
	}
	hi, lo := p[0], p[0]
	var sq numeric.Sum
	for _, v := range p {
		hi, lo = math.Max(hi, v), math.Min(lo, v)
		q := v / sum
		sq.Add(q * q)
	}
	return GBPrior{
		M:         len(p),
		Kappa0:    math.Min(hi/sum, 1),
		Kappa0Min: lo / sum,
		Mu:        math.Min(sq.Value(), 1),
	}, nil
}

// GBMIAYeomRaw returns the bound of Yeom et al. on the membership advantage
// of a weak adversary as recapped in §4.1 (unnumbered display):
//
//	Adv_MIA ≤ e^ε − 1,
//
// uncapped, for fidelity with the paper: it exceeds 1 (and says nothing)
// for ε > ln 2, and is +Inf once e^ε overflows (ε > 709.78). Pure ε-DP,
// weak membership experiment (Def. 4.4, b uniform), black-box access.
func GBMIAYeomRaw(eps float64) float64 {
	if !gbValidEps(eps) {
		return math.NaN()
	}
	return numeric.RoundUp(math.Expm1(eps), 0, math.Inf(1))
}

// GBMIAYeom returns the Yeom et al. bound of GBMIAYeomRaw capped at the
// trivial bound 1 on an advantage (§4.1 Remark: an advantage is at most 1):
//
//	Adv_MIA ≤ min{1, e^ε − 1}.
//
// Pure ε-DP, replace-one neighbours, weak adversary (Def. 4.1, 4.4).
func GBMIAYeom(eps float64) float64 {
	if !gbValidEps(eps) {
		return math.NaN()
	}
	return numeric.RoundUp(math.Expm1(eps), 0, 1)
}

// GBMIAErlingsson returns the bound of Erlingsson et al. recapped as
// Thm 4.6, with an erratum corrected (the printed 1 − e^{−δ} must read
// 1 − e^{−ε}: δ is undefined in a pure-DP theorem, and the text after it
// says the advantage "is limited directly by the privacy budget ε"):
//
//	Adv_MIA ≤ 1 − e^{−ε} = −expm1(−ε),
//
// always below 1 and never above Yeom's e^ε − 1. Pure ε-DP, weak
// membership experiment (Def. 4.4).
func GBMIAErlingsson(eps float64) float64 {
	if !gbValidEps(eps) {
		return math.NaN()
	}
	return numeric.RoundUp(-math.Expm1(-eps), 0, 1)
}

// GBMIAHumphries returns the bound of Humphries et al. recapped as Thm 4.9
// on the STRONG membership advantage Adv^s_MIA (Eq. 2, Def. 4.8; the
// theorem's lead-in says "Adv_MIA" but its display is Adv^s_MIA):
//
//	Adv^s_MIA ≤ (e^ε − 1 + 2δ)/(e^ε + 1) = δ + (1 − δ)·t(ε),
//
// the only bound of the paper for (ε, δ)-DP, valid for every ε ≥ 0 and
// δ ∈ [0, 1] (it equals δ at ε = 0, t(ε) at δ = 0 and 1 at δ = 1), strong
// adversary, replace-one neighbours. The weak-setting advantage is half of
// it (§4.1, the display after Eq. 2). It is EpsDelta.WorstAdvantage, but
// evaluated as δ + (1 − δ)·tanh(ε/2): a sum of non-negative terms (a few
// ulps) that is non-decreasing in ε in floating point too, whereas
// t + 2δ/(e^ε + 1) can drop by an ulp as ε grows.
func GBMIAHumphries(eps, delta float64) float64 {
	if !gbValidEps(eps) || !numeric.IsProbability(delta) {
		return math.NaN()
	}
	if eps == 0 {
		return delta
	}
	return numeric.RoundUp(delta+(1-delta)*gbT(eps), delta, 1)
}

// GBMIAHumphriesEpsilon returns the largest ε with GBMIAHumphries(ε, δ) ≤
// target (Thm 4.9 solved for ε): ε = ln((1 + a − 2δ)/(1 − a)) =
// log1p(2(a − δ)/(1 − a)). a < δ is infeasible (the bound is δ at ε = 0);
// a ≥ 1 gives +Inf. EpsilonForWorstAdvantage is the same inverse for the
// f-DP column's evaluation of this bound.
func GBMIAHumphriesEpsilon(target, delta float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(delta) {
		return math.NaN(), false
	}
	closed := math.Inf(1)
	if target < 1 {
		closed = math.Log1p(2 * (target - delta) / (1 - target))
	}
	bound := func(e float64) float64 { return GBMIAHumphries(e, delta) }
	return gbLargest(bound, target, closed)
}

// gbReRoExactRaw returns Prop 5.1's κ_0·min{e^ε, 1 + (m−1)t(ε)} unrounded
// and unclipped (it exceeds 1 for non-uniform priors: κ_0 = 0.7, m = 2,
// ε = 1 gives 1.0235).
func gbReRoExactRaw(eps, k0 float64, m int) float64 {
	return k0 * math.Min(math.Exp(eps), 1+float64(m-1)*gbT(eps))
}

// GBReRoExact returns the improved bound on reconstruction robustness for
// perfect reconstruction (η = 0, error l of Eq. 7), Prop. 5.1:
//
//	γ = min{1, κ_0·e^ε, κ_0·(1 + (m−1)·t(ε))},
//
// the probability that any informed attacker reconstructs the target
// exactly, for a prior over m candidates with largest mass κ_0 = max π.
// Table 2 rows 5 and 8 print the second term as κ_0(m−1)(t+1); that is an
// erratum (Prop 5.1, its proof and the §5 display give 1 + (m−1)t; the
// printed rows exceed 1 for a uniform prior) and is not used. The paper's claim
// that the bound never exceeds 1 holds only for a uniform prior, so the
// result is clipped at 1 (κ_0 = 0.7, m = 2, ε = 1: 1.0235). The first term is
// Balle et al.'s Prop 4.16 (ReRoPure). It equals κ_0 at ε = 0. Pure ε-DP,
// replace-one neighbours; m ≥ 1 and 1/m ≤ κ_0 ≤ 1, else NaN.
func GBReRoExact(eps, kappa0 float64, m int) float64 {
	if !gbValidEps(eps) || !gbValidKappa0(kappa0, m) {
		return math.NaN()
	}
	if eps == 0 {
		return kappa0
	}
	return numeric.RoundUp(gbReRoExactRaw(eps, kappa0, m), kappa0, 1)
}

// GBReRoExactUniform returns Prop. 5.1 for the uniform prior over m
// candidates (the display after Prop 5.1 in §5):
//
//	γ = min{e^ε/m, 1/m + ((m−1)/m)·t(ε)} = min{e^ε, 1 + (m−1)t(ε)}/m,
//
// which is at most 1 for every ε (it tends to 1). At m = 2 it is
// e^ε/(e^ε + 1) (strong MIA as ReRo, Table 2 row 2). Pure ε-DP,
// replace-one neighbours, m ≥ 1 (else NaN).
func GBReRoExactUniform(eps float64, m int) float64 {
	if !gbValidEps(eps) || m < 1 {
		return math.NaN()
	}
	fm := float64(m)
	return numeric.RoundUp(math.Min(math.Exp(eps), 1+(fm-1)*gbT(eps))/fm, 0, 1)
}

// GBUReRo returns the bound of Thm. 7.2 on Unbiased Reconstruction
// Robustness (Def. 7.1, Eq. 5), for any error function l, any tolerance
// η ≥ 0 and any prior π:
//
//	γ = min{κ_η·(e^ε − 1), t(ε)},   κ_η = sup_{z'} Pr_{Z∼π}[l(Z, z') ≤ η],
//
// an upper bound on the advantage of any informed reconstruction attack:
// its success on a participant minus its expected success on a record
// resampled from π. It is 0 at ε = 0, at most 1, and κ_η = 0 gives 0.
// Pure ε-DP, replace-one neighbours; κ_η ∈ [0, 1] (else NaN).
func GBUReRo(eps, kappaEta float64) float64 {
	if !gbValidEps(eps) || !numeric.IsProbability(kappaEta) {
		return math.NaN()
	}
	if eps == 0 || kappaEta == 0 {
		return 0
	}
	return numeric.RoundUp(math.Min(kappaEta*math.Expm1(eps), gbT(eps)), 0, 1)
}

// gbUReRoExactRaw returns Thm 7.3's printed
// min{κ_0(e^ε − 1), κ_0(m−1)t(ε) + κ_0 − κ_0^-}, unrounded and unclipped.
func gbUReRoExactRaw(eps, k0, kmin float64, m int) float64 {
	if eps == 0 {
		return 0
	}
	return math.Min(k0*math.Expm1(eps), k0*(float64(m-1)*gbT(eps))+(k0-kmin))
}

// GBUReRoExact returns the bound of Thm. 7.3 on (0, γ)-U-ReRo, the
// advantage of exact reconstruction (η = 0, l of Eq. 7), as printed
// (erratum: the statement's "(0,γ)-ReRo" means
// U-ReRo, and the (m−1) factor of the statement, not of its proof, is
// right), clipped at 1:
//
//	γ = min{1, κ_0·(e^ε − 1), κ_0·(m−1)·t(ε) + κ_0 − κ_0^-},
//
// with κ_0 = max π and κ_0^- = min π over the m candidates. For a
// non-uniform prior its second term can exceed t(ε), 1 and 1 − μ (π =
// (0.7, 0.3), ε = 1: 0.7235 > t(1) = 0.4621, computed from the theorem);
// GBUReRoExactCombined adds the valid Thm 7.2 term and the §9 cap.
// It is 0 at ε = 0. Pure ε-DP, replace-one neighbours; (κ_0, κ_0^-, m)
// must be consistent (see GBPriorStats), else NaN.
func GBUReRoExact(eps, kappa0, kappa0Min float64, m int) float64 {
	if !gbValidEps(eps) || !gbValidPrior(kappa0, kappa0Min, m) {
		return math.NaN()
	}
	return numeric.RoundUp(gbUReRoExactRaw(eps, kappa0, kappa0Min, m), 0, 1)
}

// gbUReRoCombinedRaw returns min{Thm 7.3 printed, t(ε)} unrounded.
func gbUReRoCombinedRaw(eps, k0, kmin float64, m int) float64 {
	return math.Min(gbUReRoExactRaw(eps, k0, kmin, m), gbT(eps))
}

// GBUReRoExactCombined returns the tightest bound the paper yields on the
// (0, γ)-U-ReRo advantage of exact reconstruction, the minimum of
// Thm 7.3, Thm 7.2 at η = 0 (which the printed Thm 7.3 omits),
// and the range of the advantage stated in §9:
//
//	γ = min{κ_0(e^ε − 1), t(ε), κ_0(m−1)t(ε) + κ_0 − κ_0^-, 1 − μ},
//
// with κ_0 = max π, κ_0^- = min π, μ = Σ π² over the m candidates. The cap
// 1 − μ holds at η = 0 for every mechanism (the best a full-disclosure
// attack gets is Σ_z π(z)(1 − π(z))), so a degenerate prior (μ = 1) gives
// 0. By Prop 8.1 and 8.2 this also bounds the membership advantage of an
// informed MIA and the attribute advantage of any informed AIA
// (GBAIAAdvantage). It is 0 at ε = 0. Pure ε-DP, replace-one neighbours;
// inconsistent (κ_0, κ_0^-, μ, m) give NaN.
func GBUReRoExactCombined(eps, kappa0, kappa0Min, mu float64, m int) float64 {
	if !gbValidEps(eps) || !gbValidPrior(kappa0, kappa0Min, m) || !gbValidMu(mu, kappa0, m) {
		return math.NaN()
	}
	limit := gbOneMinusUp(mu)
	return math.Min(numeric.RoundUp(gbUReRoCombinedRaw(eps, kappa0, kappa0Min, m), 0, 1), limit)
}

// GBAIAAdvantage returns the paper's bound on the attribute advantage
// (Def. 4.11) of ANY informed attribute-inference attack that knows D_-
// and the target's other features, §8.2 with Prop. 8.2 (Adv_AIA ≤ γ ⟺
// (0, γ)-U-ReRo), where the m candidates are the completions
// of the target record by the m values of the attribute and π is the prior
// of the attribute given the known features:
//
//	Adv_AIA ≤ min{κ_0(e^ε − 1), t(ε), κ_0(m−1)t(ε) + κ_0 − κ_0^-, 1 − μ}.
//
// The paper prints the first and third terms; t(ε) (Thm 7.2) and 1 − μ
// (§9) are valid additions (Thm 7.2 holds at η = 0 too). It is
// GBUReRoExactCombined; for a uniform prior use GBUReRoUniform. Pure ε-DP,
// replace-one neighbours.
func GBAIAAdvantage(eps, kappa0, kappa0Min, mu float64, m int) float64 {
	return GBUReRoExactCombined(eps, kappa0, kappa0Min, mu, m)
}

// GBUReRoUniform returns Eq. (6), Thm 7.3 for the uniform prior over m
// candidates (κ_0 = κ_0^- = 1/m):
//
//	γ = min{(e^ε − 1)/m, ((m−1)/m)·t(ε)}.
//
// By Prop 8.1 and 8.2 it bounds the membership advantage of an informed MIA
// with m candidates (§8.1; m = 2 gives t(ε)/2, i.e. Adv^s_MIA ≤ t(ε)) and
// the attribute advantage of any informed AIA over m uniform attribute
// values (§8.2). It is 0 at ε = 0 and at m = 1, below 1 − 1/m = 1 − μ, and
// equals GBReRoExactUniform − 1/m. Pure ε-DP, replace-one neighbours,
// m ≥ 1 (else NaN).
func GBUReRoUniform(eps float64, m int) float64 {
	if !gbValidEps(eps) || m < 1 {
		return math.NaN()
	}
	if eps == 0 || m == 1 {
		return 0
	}
	fm := float64(m)
	return numeric.RoundUp(math.Min(math.Expm1(eps)/fm, ((fm-1)*gbT(eps))/fm), 0, gbOneMinusInvUp(fm))
}

// gbOneMinusInvUp returns the smallest float64 at or above 1 − 1/den,
// den ≥ 1: the clip for Eq. 6, whose supremum (ε → ∞) is 1 − 1/m = 1 − μ.
// Clipping there keeps the bound an upper bound and lets a target equal to
// the supremum be met by every ε.
func gbOneMinusInvUp(den float64) float64 {
	c := (den - 1) / den // exactly rounded
	if math.FMA(c, den, -(den-1)) < 0 {
		c = math.Nextafter(c, 2)
	}
	return c
}

// gbOneMinusUp returns the smallest float64 at or above 1 − x for x in
// [0, 1]: the §9 cap 1 − μ on the U-ReRo advantage at η = 0.
func gbOneMinusUp(x float64) float64 {
	s := 1 - x
	// Two-sum: the rounding error of s is (1 − (s − b)) + (−x − b).
	b := s - 1
	if (1-(s-b))+(-x-b) > 0 {
		s = math.Nextafter(s, 2)
	}
	return s
}

// Inverses: the largest ε whose bound is at most a target. The paper
// prints no inverse (§9 says "solve the formula"); these are derived here.
// Each term of each bound is non-decreasing in ε, so min{f_1, f_2} ≤ γ iff
// f_1 ≤ γ or f_2 ≤ γ, and ε* = max(ε_1, ε_2) with ε_i the inverse of term
// i (−∞ when the term never meets γ, +∞ when it always does). The closed
// form is then refined by largestNear against the rounded-up bound as
// computed, so the result never exceeds the true ε*. The second result is
// false (and the first NaN) when no ε ≥ 0 meets the target (it is below
// the bound at ε = 0) or an argument is invalid; the first is +Inf when
// every ε does.

// gbLargest turns a closed-form ε* into the largest float64 ε at which
// bound(ε) ≤ target as computed. closed < 0 or NaN means infeasible.
func gbLargest(bound func(float64) float64, target, closed float64) (float64, bool) {
	if !(closed >= 0) || !(bound(0) <= target) {
		return math.NaN(), false
	}
	if math.IsInf(closed, 1) && bound(math.Inf(1)) <= target {
		return math.Inf(1), true
	}
	return largestNear(bound, target, closed, 0), true
}

// gbAtanh2 returns 2·artanh(s) = ln((1 + s)/(1 − s)) for s ∈ [0, 1)
// (+Inf for s ≥ 1, −Inf for s < 0, meaning "never").
func gbAtanh2(s float64) float64 {
	switch {
	case s >= 1:
		return math.Inf(1)
	case !(s >= 0):
		return math.Inf(-1)
	}
	return math.Log1p(s) - math.Log1p(-s)
}

// GBMIAYeomEpsilon returns the largest ε with GBMIAYeom(ε) ≤ target,
// ε = ln(1 + target) (§4.1's display solved for ε); +Inf for target ≥ 1.
func GBMIAYeomEpsilon(target float64) (float64, bool) {
	if math.IsNaN(target) {
		return math.NaN(), false
	}
	closed := math.Inf(1)
	if target < 1 {
		closed = math.Log1p(target)
	}
	return gbLargest(GBMIAYeom, target, closed)
}

// GBMIAErlingssonEpsilon returns the largest ε with GBMIAErlingsson(ε) ≤
// target, ε = −ln(1 − target) (corrected Thm 4.6 solved for ε); +Inf
// for target ≥ 1.
func GBMIAErlingssonEpsilon(target float64) (float64, bool) {
	if math.IsNaN(target) {
		return math.NaN(), false
	}
	closed := math.Inf(1)
	if target < 1 {
		closed = -math.Log1p(-target)
	}
	return gbLargest(GBMIAErlingsson, target, closed)
}

// GBReRoBalleEpsilon returns the largest ε whose Balle et al. bound
// (Prop. 4.16, ReRoPure: min{1, κ e^ε}) is at most the target γ:
// ε = ln(γ/κ) (Prop 4.16 solved for ε). γ < κ is infeasible (the bound is κ
// at ε = 0); γ ≥ 1 or κ = 0 gives +Inf. Pure ε-DP.
func GBReRoBalleEpsilon(target, kappa float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(kappa) {
		return math.NaN(), false
	}
	closed := math.Inf(1)
	if target < 1 && kappa > 0 {
		closed = numeric.LogPos(target) - numeric.LogPos(kappa)
	}
	return gbLargest(func(e float64) float64 { return ReRoPure(e, kappa) }, target, closed)
}

// GBReRoExactEpsilon returns the largest ε with GBReRoExact(ε, κ_0, m) ≤
// target γ (Prop 5.1 solved for ε): ε* = max(ln(γ/κ_0),
// 2·artanh((γ/κ_0 − 1)/(m − 1))). γ < κ_0 is infeasible; γ ≥ 1 gives +Inf.
func GBReRoExactEpsilon(target, kappa0 float64, m int) (float64, bool) {
	if math.IsNaN(target) || !gbValidKappa0(kappa0, m) {
		return math.NaN(), false
	}
	closed := gbReRoExactClosed(target, m,
		numeric.LogPos(target)-numeric.LogPos(kappa0), (target-kappa0)/(kappa0*float64(m-1)))
	bound := func(e float64) float64 { return GBReRoExact(e, kappa0, m) }
	return gbLargest(bound, target, closed)
}

// GBReRoExactUniformEpsilon returns the largest ε with
// GBReRoExactUniform(ε, m) ≤ target γ (Prop 5.1 solved, κ_0 = 1/m):
// ε* = max(ln(mγ), 2·artanh((mγ − 1)/(m − 1))). γ < 1/m is infeasible;
// γ ≥ 1 gives +Inf.
func GBReRoExactUniformEpsilon(target float64, m int) (float64, bool) {
	if math.IsNaN(target) || m < 1 {
		return math.NaN(), false
	}
	fm := float64(m)
	closed := gbReRoExactClosed(target, m,
		numeric.LogPos(target)+math.Log(fm), math.FMA(fm, target, -1)/(fm-1))
	bound := func(e float64) float64 { return GBReRoExactUniform(e, m) }
	return gbLargest(bound, target, closed)
}

// gbReRoExactClosed returns the closed-form ε* of Prop 5.1 solved for ε,
// max(ln(γ/κ_0), 2·artanh((γ/κ_0 − 1)/(m − 1))), given lnRatio = ln(γ/κ_0)
// and x = (γ/κ_0 − 1)/(m − 1) as the caller forms them most precisely (x
// is not read when m = 1, where only the first term bounds ε); +Inf for
// γ ≥ 1.
func gbReRoExactClosed(target float64, m int, lnRatio, x float64) float64 {
	if target >= 1 {
		return math.Inf(1)
	}
	e2 := math.Inf(1)
	if m > 1 {
		e2 = gbAtanh2(x)
	}
	return math.Max(lnRatio, e2)
}

// GBUReRoEpsilon returns the largest ε with GBUReRo(ε, κ_η) ≤ target γ
// (Thm 7.2 solved for ε): ε* = max(ln(1 + γ/κ_η), 2·artanh γ), the first
// formed as softplus(ln γ − ln κ_η) so tiny κ_η does not overflow. γ < 0
// is infeasible; γ ≥ 1 or κ_η = 0 gives +Inf. This is §9's recipe "fix η,
// compute κ_η from π, pick γ, solve for ε".
func GBUReRoEpsilon(target, kappaEta float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(kappaEta) {
		return math.NaN(), false
	}
	closed := math.Inf(1)
	if target < 1 && kappaEta > 0 {
		closed = math.Max(numeric.Softplus(numeric.LogPos(target)-numeric.LogPos(kappaEta)), gbAtanh2(target))
	}
	bound := func(e float64) float64 { return GBUReRo(e, kappaEta) }
	return gbLargest(bound, target, closed)
}

// gbUReRoExactClosed returns the closed-form ε* of Thm 7.3 (solved for ε):
// max(ln(1 + γ/κ_0), 2·artanh((γ − κ_0 + κ_0^-)/(κ_0(m − 1)))).
func gbUReRoExactClosed(target, k0, kmin float64, m int) float64 {
	e1 := numeric.Softplus(numeric.LogPos(target) - numeric.LogPos(k0))
	num := target - (k0 - kmin)
	var e2 float64
	switch {
	case num < 0:
		e2 = math.Inf(-1)
	case m == 1:
		e2 = math.Inf(1)
	default:
		e2 = gbAtanh2(num / (k0 * float64(m-1)))
	}
	return math.Max(e1, e2)
}

// GBUReRoExactEpsilon returns the largest ε with GBUReRoExact(ε, κ_0,
// κ_0^-, m) ≤ target γ (Thm 7.3 as printed, solved for ε). γ < 0 is
// infeasible; γ ≥ 1 gives +Inf.
func GBUReRoExactEpsilon(target, kappa0, kappa0Min float64, m int) (float64, bool) {
	if math.IsNaN(target) || !gbValidPrior(kappa0, kappa0Min, m) {
		return math.NaN(), false
	}
	closed := math.Inf(1)
	if target < 1 {
		closed = gbUReRoExactClosed(target, kappa0, kappa0Min, m)
	}
	bound := func(e float64) float64 { return GBUReRoExact(e, kappa0, kappa0Min, m) }
	return gbLargest(bound, target, closed)
}

// GBUReRoExactCombinedEpsilon returns the largest ε with
// GBUReRoExactCombined(ε, κ_0, κ_0^-, μ, m) ≤ target γ: the maximum of the
// Thm 7.3 closed form and 2·artanh γ (Thm 7.2's t term), +Inf when
// γ ≥ 1 − μ (the §9 range of γ). γ < 0 is infeasible. It is also the
// largest ε for a target attribute advantage (GBAIAAdvantage).
func GBUReRoExactCombinedEpsilon(target, kappa0, kappa0Min, mu float64, m int) (float64, bool) {
	if math.IsNaN(target) || !gbValidPrior(kappa0, kappa0Min, m) || !gbValidMu(mu, kappa0, m) {
		return math.NaN(), false
	}
	closed := math.Inf(1)
	if target < 1-mu {
		closed = math.Max(gbUReRoExactClosed(target, kappa0, kappa0Min, m), gbAtanh2(target))
	}
	bound := func(e float64) float64 { return GBUReRoExactCombined(e, kappa0, kappa0Min, mu, m) }
	return gbLargest(bound, target, closed)
}

// GBUReRoUniformEpsilon returns the largest ε with GBUReRoUniform(ε, m) ≤
// target γ (Eq. 6 solved for ε): ε* = max(ln(1 + mγ),
// ln((m − 1 + mγ)/(m − 1 − mγ))). γ < 0 is infeasible; mγ ≥ m − 1 (and
// m = 1) gives +Inf.
func GBUReRoUniformEpsilon(target float64, m int) (float64, bool) {
	if math.IsNaN(target) || m < 1 {
		return math.NaN(), false
	}
	fm := float64(m)
	closed := math.Inf(1)
	if m > 1 && fm*target < fm-1 {
		closed = math.Max(math.Log1p(fm*target), gbAtanh2(fm*target/(fm-1)))
	}
	bound := func(e float64) float64 { return GBUReRoUniform(e, m) }
	return gbLargest(bound, target, closed)
}
