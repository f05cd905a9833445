package curve

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Calibrating the Gaussian mechanism: the noise σ that a release stated
// as "the Gaussian mechanism at (ε, δ) with L2 sensitivity Δ" adds, so
// that its exact curve G_{Δ/σ} can be evaluated.
//
// Both calibrations round σ down. A row that states (ε, δ) promises that
// its noise is at least the σ the calibration gives (any larger σ keeps
// the promise too), and a smaller σ means a larger μ = Δ/σ, a lower
// trade-off curve and higher risk: the risk of the σ returned is never
// below that of the mechanism the row describes.

// GaussianCalibration names how σ is derived from (ε, δ).
type GaussianCalibration int

const (
	// AnalyticCalibration is the analytic Gaussian mechanism of Balle &
	// Wang (2018, Thm 8 and Alg. 1): the smallest σ whose exact privacy
	// profile meets (ε, δ).
	AnalyticCalibration GaussianCalibration = iota
	// ClassicCalibration is σ = Δ·√(2 ln(1.25/δ))/ε (Dwork & Roth 2014,
	// Thm A.1), which guarantees (ε, δ)-DP only for ε < 1.
	ClassicCalibration
)

// ClassicEpsilonLimit is the ε from which the classic calibration no
// longer guarantees (ε, δ)-DP: Dwork & Roth's Thm A.1 assumes ε < 1, and
// above it the classic σ can be smaller than the analytic one.
const ClassicEpsilonLimit = 1.0

// GaussianSigma returns the σ of the Gaussian mechanism with L2
// sensitivity sensitivity calibrated to (eps, delta) by the calibration c,
// rounded down (see above). It is an error for δ outside (0, 1), a
// negative ε, a sensitivity that is not positive, and for the classic
// calibration ε = 0 (its σ is infinite); ε ≥ ClassicEpsilonLimit is not
// an error here: the σ is the one the formula gives, which is what a
// release calibrated by it adds.
func GaussianSigma(c GaussianCalibration, eps, delta, sensitivity float64) (float64, error) {
	switch {
	case !(delta > 0 && delta < 1):
		return 0, fmt.Errorf("δ = %g: the Gaussian mechanism is (ε, δ)-DP only for δ in (0, 1)", delta)
	case !(eps >= 0) || math.IsInf(eps, 1):
		return 0, fmt.Errorf("ε = %g: expected a finite ε ≥ 0", eps)
	case !(sensitivity > 0) || math.IsInf(sensitivity, 1):
		return 0, fmt.Errorf("sensitivity = %g: expected a finite sensitivity > 0", sensitivity)
	}
	if c == ClassicCalibration {
		return classicSigma(eps, delta, sensitivity)
	}
	return analyticSigma(eps, delta, sensitivity)
}

// classicSigma is Δ·√(2 ln(1.25/δ))/ε, rounded down.
func classicSigma(eps, delta, sensitivity float64) (float64, error) {
	if eps == 0 {
		return 0, errors.New("ε = 0: the classic calibration σ = Δ·√(2 ln(1.25/δ))/ε has no finite σ")
	}
	s := sensitivity * math.Sqrt(2*math.Log(1.25/delta)) / eps
	return numeric.RoundDown(s, 0, math.Inf(1)), nil
}

// analyticSigma is the smallest σ with δ_σ(ε) ≤ δ, where
//
//	δ_σ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ)
//
// is the exact privacy profile of the Gaussian mechanism (Balle & Wang
// 2018, Thm 8). In μ = Δ/σ it is the profile of G_μ, increasing in μ
// (∂δ/∂μ = φ(Δ/(2σ) − εσ/Δ) > 0); the largest μ that meets δ is bracketed
// between adjacent floats (numeric.BracketFloats), and σ is Δ over the
// upper end, the one that misses δ as computed, lowered by
// calibrationMargin for the error of the computed profile.
func analyticSigma(eps, delta, sensitivity float64) (float64, error) {
	target := math.Log(delta)
	meets := func(mu float64) bool { return !(logGaussianProfile(mu, eps) > target) }
	hi := 1.0
	for meets(hi) {
		if hi > 1e300 {
			return 0, fmt.Errorf("no σ > 0 is too small for (ε, δ) = (%g, %g)", eps, delta)
		}
		hi *= 2
	}
	lo := 0.0
	if hi > 1 {
		lo = hi / 2
	}
	_, mu := numeric.BracketFloats(meets, lo, hi)
	return numeric.RoundDown(sensitivity/mu*(1-calibrationMargin), 0, math.Inf(1)), nil
}

// calibrationMargin is the relative amount by which the analytic σ is
// lowered beyond the bracket: about ten times the largest relative error
// (9e-14) of the σ found against 50-digit references over ε from 0 to 500
// and δ from 0.5 down to 1e-300 (testdata/gaussian_calibrate_ref.csv,
// checked by TestAnalyticGaussianSigma). It raises the row's bounds by
// about as much, a relative 1e-12.
const calibrationMargin = 1e-12

// logGaussianProfile is ln δ(ε) of G_μ. Where μ ≤ 1 and ε ≤ 40 it is
// computed as
//
//	δ = φ(m)·(∫_{−μ/2}^{μ/2} e^{−mt − t²/2} dt − expm1(ε)·Φ(m − μ/2)/φ(m)),  m = −ε/μ,
//
// the first term Φ(m + μ/2) − Φ(m − μ/2) as an integral (composite
// 10-point Gauss–Legendre, each piece spanning at most 1 in εt/μ), so that
// the difference of two nearly equal Φ values that Gaussian.LogDeltaAt
// takes (it loses every digit at ε = 0, δ = 1e-15) is never formed; there
// e^ε·Φ(b) = Φ(b) + expm1(ε)·Φ(b) and e^ε·φ(b) = φ(a) make the two forms
// equal. Elsewhere the terms are far apart in the log form and
// Gaussian.LogDeltaAt is accurate.
func logGaussianProfile(mu, eps float64) float64 {
	if !(mu > 0 && mu <= 1 && eps <= 40) {
		return Gaussian{Mu: mu}.LogDeltaAt(eps)
	}
	m, h := -eps/mu, mu/2
	pieces := 1 + int(eps)
	width := 2 * h / float64(pieces)
	var sum numeric.Sum
	for p := 0; p < pieces; p++ {
		mid := -h + (float64(p)+0.5)*width
		nodes, weights := gaussLegendre10()
		for i, x := range nodes {
			for _, t := range [2]float64{mid - x*width/2, mid + x*width/2} {
				sum.Add(weights[i] * width / 2 * math.Exp(-m*t-t*t/2))
			}
		}
	}
	logPhiM := -m*m/2 - numeric.LogSqrt2Pi
	rest := math.Expm1(eps) * math.Exp(numeric.LogNormCDF(m-h)-logPhiM)
	d := sum.Value() - rest
	if !(d > 0) {
		return math.Inf(-1)
	}
	return logPhiM + math.Log(d)
}

// The 10-point Gauss–Legendre rule on [−1, 1]: the positive nodes and their
// weights (Abramowitz & Stegun, Table 25.4); exact for polynomials of
// degree up to 19, which the tests check.
func gaussLegendre10() (nodes, weights [5]float64) {
	return [5]float64{0.1488743389816312108848260, 0.4333953941292471907992659, 0.6794095682990244062343274, 0.8650633666889845107320967, 0.9739065285171717200779640},
		[5]float64{0.2955242247147528701738930, 0.2692667193099963550912269, 0.2190863625159820439955349, 0.1494513491505805931457763, 0.0666713443086881375935688}
}
