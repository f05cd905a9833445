package numeric

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

func TestNormalTails(t *testing.T) {
	// ln Φ from the asymptotic series below −20 against a direct log of
	// ½·erfc, which still works at −37 (Φ(−37) ≈ 5.7e-300).
	for _, x := range []float64{-20.5, -25, -30, -37} {
		direct := math.Log(NormCDF(x))
		if got := LogNormCDF(x); !approx.Near(got, direct, 0, 1e-13) {
			t.Errorf("LogNormCDF(%v) = %.16g, direct %.16g", x, got, direct)
		}
	}
	// Quantile round trips in both tails. Φ(z) has condition number ≈ z²
	// in the far tail (z ≈ −37 at 1e-300), so one ulp of z is ≈ 3e-13 of Φ.
	for _, p := range []float64{1e-300, 1e-100, 1e-12, 1e-5, 0.3, 0.5, 0.7, 1 - 1e-5, 1 - 1e-12} {
		z := NormQuantile(p)
		if p < 0.5 {
			if back := NormCDF(z); !approx.Near(back, p, 0, 1e-12) {
				t.Errorf("Φ(Φ⁻¹(%g)) = %g", p, back)
			}
		} else if back := NormSF(z); !approx.Near(back, 1-p, 0, 1e-12) {
			t.Errorf("Q(Φ⁻¹(%g)) = %g, want %g", p, back, 1-p)
		}
	}
	// Φ⁻¹(0.975) = 1.959963984540054 (the two-sided 95% point, to 16
	// digits, e.g. R's qnorm(0.975)).
	if got := NormQuantile(0.975); !approx.Near(got, 1.959963984540054, 1e-15, 0) {
		t.Errorf("NormQuantile(0.975) = %.17g", got)
	}
	if NormQuantile(0) != math.Inf(-1) || NormQuantile(1) != math.Inf(1) {
		t.Error("NormQuantile(0), NormQuantile(1) are not ∓Inf")
	}
}

// Subnormal probabilities are valid inputs: Go's math.Log is wrong on them
// on amd64 (golang/go#56600), so every log of a probability goes through
// LogPos. Reference: ln(1e-310) = −713.8013788281542 (−310·ln 10),
// ln(5e-324) = ln(2⁻¹⁰⁷⁴) = −744.4400719213812.
func TestSubnormalProbabilities(t *testing.T) {
	if got := LogPos(1e-310); !approx.Near(got, -310*math.Ln10, 1e-12, 0) {
		t.Errorf("LogPos(1e-310) = %v", got)
	}
	if got := LogPos(5e-324); !approx.Near(got, -1074*math.Ln2, 1e-12, 0) {
		t.Errorf("LogPos(5e-324) = %v", got)
	}
	for _, p := range []float64{1e-301, 1e-310, 5e-324} {
		z := NormQuantile(p)
		if l := LogNormCDF(z); !approx.Near(l, LogPos(p), 1e-12, 1e-14) {
			t.Errorf("ln Φ(Φ⁻¹(%g)) = %v, want %v", p, l, LogPos(p))
		}
	}
	// The quantile is continuous across the switch at 1e-300.
	a, b := NormQuantile(1.0000001e-300), NormQuantile(0.9999999e-300)
	if !(b < a) || a-b > 1e-8 {
		t.Errorf("quantile jumps at 1e-300: %v, %v", a, b)
	}
}

// NormUpperQuantileAbove lies on the safe side (1 − Φ(z) ≤ p as computed)
// and within 1e-12 of the accurate quantile.
func TestNormUpperQuantileAbove(t *testing.T) {
	for _, p := range []float64{0.5, 0.025, 1e-10, 1e-300, 5e-324} {
		z := NormUpperQuantileAbove(p)
		if NormSF(z) > p {
			t.Errorf("p = %g: 1 − Φ(%v) = %g > p", p, z, NormSF(z))
		}
		if p >= 1e-300 {
			if want := -NormQuantile(p); !(z >= want-1e-14 && z-want <= 1.1e-12) {
				t.Errorf("p = %g: z = %.17g, quantile %.17g", p, z, want)
			}
		}
	}
	// At p = 0 any z where 1 − Φ(z) underflows to 0 will do (z ≈ 38.5).
	if z := NormUpperQuantileAbove(0); NormSF(z) != 0 || z > 40 {
		t.Errorf("NormUpperQuantileAbove(0) = %v", z)
	}
}

// The log-space helpers against direct formulas where those are exact
// enough, and at arguments where the direct formulas overflow.
func TestLogHelpers(t *testing.T) {
	cases := []struct {
		name      string
		got, want float64
	}{
		{"LogSumExp(0, 0)", LogSumExp(0, 0), math.Ln2},
		{"LogSumExp(1000, 1000)", LogSumExp(1000, 1000), 1000 + math.Ln2},
		{"LogSumExp(-Inf, 3)", LogSumExp(math.Inf(-1), 3), 3},
		{"Log1mExp(-ln 2)", Log1mExp(-math.Ln2), -math.Ln2},
		{"Log1mExp(-1e-20)", Log1mExp(-1e-20), math.Log(1e-20)},
		{"LogExpm1(ln 2)", LogExpm1(math.Ln2), 0},
		{"LogExpm1(800)", LogExpm1(800), 800},
		{"Logistic(0)", Logistic(0), 0.5},
		{"Logistic(-800)", Logistic(-800), 0},
		{"Logit(0.5)", Logit(0.5), 0},
		{"Logit(0.75)", Logit(0.75), math.Log(3)},
		{"Softplus(0)", Softplus(0), math.Ln2},
		{"Softplus(800)", Softplus(800), 800},
		{"NormPDF(0)", NormPDF(0), 1 / math.Sqrt(2*math.Pi)},
		{"NormCDF(0)", NormCDF(0), 0.5},
		{"NormSF(8)", NormSF(8), 6.220960574271784e-16}, // Q(8), e.g. R's pnorm(8, lower = FALSE)
	}
	for _, c := range cases {
		if !approx.Near(c.got, c.want, 1e-15, 1e-14) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}
