package curve

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Reference values of the Gaussian curve for Kulynych et al. 2025,
// computed with mpmath (10 significant digits): G(α) = 1 − success, η, ε(δ), δ(ε = 1).
func TestGaussianCatalogTable(t *testing.T) {
	rows := []struct {
		mu, eta, g001, g01, g05, eps1e5, eps1e6, deltaAt1 float64
	}{
		{0.5, 0.1974126514, 0.9661010609, 0.7827609196, 0.3085375387, 1.993091404, 2.25408465, 0.006829594983},
		{1, 0.3829249225, 0.9076377519, 0.6108563084, 0.1586552539, 4.377178096, 4.886554117, 0.1269367375},
		{2, 0.6826894921, 0.6279194146, 0.2362404159, 0.02275013195, 9.997256146, 10.99715121, 0.5098616601},
		{3, 0.8663855975, 0.2502662525, 0.04285742617, 0.001349898032, 16.6754944, 18.16344576, 0.7876007414},
	}
	const rel = 5e-10 // the table prints 10 significant digits
	for _, r := range rows {
		g := Gaussian{Mu: r.mu}
		check := func(what string, got, want float64) {
			t.Helper()
			if !approx.Near(got, want, 0, rel) {
				t.Errorf("μ=%v %s = %.12g, catalog %.10g", r.mu, what, got, want)
			}
		}
		check("η", g.WorstAdvantage(), r.eta)
		check("G(0.01)", g.TradeOff(0.01), r.g001)
		check("G(0.1)", g.TradeOff(0.1), r.g01)
		check("G(0.5)", g.TradeOff(0.5), r.g05)
		check("1−G(0.1)−0.1", g.Advantage(0.1), 1-r.g01-0.1)
		check("ε(1e-5)", g.EpsilonAt(1e-5), r.eps1e5)
		check("ε(1e-6)", g.EpsilonAt(1e-6), r.eps1e6)
		check("δ(1)", g.DeltaAt(1), r.deltaAt1)
	}
}

// The US Census 2020 state-level case of Kulynych et al. 2025: ρ = 1.0001,
// μ = √(2ρ), δ = 1e-10. These values, computed independently, reproduce the
// paper's §1 figures 52pp (f-DP worst case) and > 99pp (standard analysis
// with the Census ε formula ρ + 2√(ρ ln(1/δ)) of the authors' code),
// and the prevalence and Wyoming baselines.
func TestCensusStateLevel(t *testing.T) {
	rho := 1.0001
	g := Gaussian{Mu: math.Sqrt(2 * rho)}
	if got := g.WorstAdvantage(); !approx.Near(got, 0.520522, 1e-6, 0) {
		t.Errorf("f-DP worst case = %.7g, catalog 0.520522 (paper: 52pp)", got)
	}
	epsCensus := rho + 2*math.Sqrt(rho*math.Log(1e10))
	if !approx.Near(epsCensus, 10.59763, 1e-5, 0) {
		t.Fatalf("Census ε = %.7g, catalog 10.59763", epsCensus)
	}
	if got := (EpsDelta{Epsilon: epsCensus, Delta: 1e-10}).WorstAdvantage(); !approx.Near(got, 0.99995005, 1e-8, 0) || got <= 0.99 {
		t.Errorf("standard analysis = %.9g, catalog 0.99995005 (paper: > 99pp)", got)
	}
	if got := g.Advantage(0.9999); !approx.Near(got, 9.98576e-5, 0, 1e-5) {
		t.Errorf("prevalence adv at 0.9999 = %.7g, catalog 9.98576e-5", got)
	}
	if got := g.Advantage(1e-4); !approx.Near(got, 0.0104908, 0, 1e-5) {
		t.Errorf("adv at 1e-4 = %.7g, catalog 0.0104908", got)
	}
	if got := g.Advantage(1.0 / 582328); !approx.Near(got, 6.2010e-4, 0, 1e-4) {
		t.Errorf("Wyoming adv = %.7g, catalog 6.2010e-4", got)
	}
	if got := g.EpsilonAt(1e-10); !approx.Near(got, 9.6187, 1e-4, 0) {
		t.Errorf("tight ε at 1e-10 = %.6g, catalog 9.6187", got)
	}
}

// Swanberg et al. 2025 §6.1 (Gaussian DP accounting at δ = 1e-5; μ computed
// independently): μ(ε = 1, δ = 1e-5) = 0.268051 and μ(3, 1e-5) =
// 0.719117 (6 digits), so ε(δ = 1e-5) at those μ must be 1 and 3.
func TestGaussianEpsilonSeed002(t *testing.T) {
	for _, c := range []struct{ mu, eps float64 }{{0.268051, 1}, {0.719117, 3}} {
		if got := (Gaussian{Mu: c.mu}).EpsilonAt(1e-5); !approx.Near(got, c.eps, 1e-4, 0) {
			t.Errorf("ε(μ=%v, 1e-5) = %.6g, want %v", c.mu, got, c.eps)
		}
	}
}

// EpsilonAt returns the conservative end: δ(ε) ≤ δ at the returned ε, even
// with the rounding error of computing δ(ε) added (logDeltaAbove), and
// δ(ε) > δ a hair below it, across the whole range the contract names,
// including δ = 1e-300 and μ = 40. The hair is 1e-10 of ε: at μ = 0.01 and
// δ = 1e-300 the two terms of δ(ε) cancel to 1 part in 7,400 and their logs
// are near −677, so δ(ε) as computed is uncertain to about 1e-9 of itself,
// which moves the root by about 1e-12 of ε.
func TestGaussianEpsilonAtIsTightAndConservative(t *testing.T) {
	for _, mu := range []float64{0.01, 0.1, 0.5, 1, 3, 10, 20, 40} {
		for _, delta := range []float64{0.5, 0.1, 1e-5, 1e-12, 1e-100, 1e-300} {
			g := Gaussian{Mu: mu}
			eps := g.EpsilonAt(delta)
			if eps == 0 {
				if g.LogDeltaAt(0) > math.Log(delta) {
					t.Errorf("μ=%v δ=%v: ε = 0 but δ(0) = %g", mu, delta, g.DeltaAt(0))
				}
				continue
			}
			if ld, _ := g.logDeltaAbove(eps); ld > math.Log(delta) {
				t.Errorf("μ=%v δ=%v: δ(ε=%v) with its rounding error = exp(%v) exceeds δ", mu, delta, eps, ld)
			}
			below := eps * (1 - 1e-10)
			if g.LogDeltaAt(below) <= math.Log(delta) {
				t.Errorf("μ=%v δ=%v: ε=%v is not tight: δ(%v) already ≤ δ", mu, delta, eps, below)
			}
		}
	}
}

// The log-space δ(ε) agrees with a direct numerical integration of its
// definition as a hockey-stick divergence, E_{e^ε}(N(μ,1) ‖ N(0,1)) =
// ∫ max(0, φ(x − μ) − e^ε φ(x)) dx, done here by Simpson's rule on the
// region where the integrand is positive (x > ε/μ + μ/2).
func TestGaussianDeltaAgainstIntegration(t *testing.T) {
	for _, c := range []struct{ mu, eps float64 }{{0.5, 0.2}, {1, 1}, {2, 3}, {3, 8}, {0.1, 0.01}} {
		lo := c.eps/c.mu + c.mu/2
		integral := approx.Simpson(func(x float64) float64 {
			return math.Max(0, numeric.NormPDF(x-c.mu)-math.Exp(c.eps)*numeric.NormPDF(x))
		}, lo, lo+40, 200000)
		if got := (Gaussian{Mu: c.mu}).DeltaAt(c.eps); !approx.Near(got, integral, 1e-12, 1e-8) {
			t.Errorf("μ=%v ε=%v: δ = %.12g, integral %.12g", c.mu, c.eps, got, integral)
		}
	}
}

// The Gaussian advantage agrees with a numerical integral of the normal
// density between Φ⁻¹(b) and Φ⁻¹(b) + μ.
func TestGaussianAdvantageAgainstIntegration(t *testing.T) {
	for _, c := range []struct{ mu, b float64 }{{0.01, 0.5}, {1, 1e-9}, {3, 0.3}, {0.2, 0.999}, {5, 1e-12}} {
		z := numeric.NormQuantile(c.b)
		integral := approx.Simpson(numeric.NormPDF, z, z+c.mu, 100000)
		if got := (Gaussian{Mu: c.mu}).Advantage(c.b); !approx.Near(got, integral, 1e-15, 1e-9) {
			t.Errorf("μ=%v b=%v: adv = %.12g, integral %.12g", c.mu, c.b, got, integral)
		}
	}
}
