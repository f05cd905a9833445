package bound

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Inverse problems for Kulynych et al. 2025 (values computed independently
// in mpmath): for a worst-case target
// η, the largest μ (Gaussian), the smallest σ = 1/μ (Δ = 1), the largest ε
// of an (ε, 1e-5)-DP mechanism and the largest Laplace ε. 10 significant
// digits.
func TestCalibrationCatalogTable(t *testing.T) {
	rows := []struct{ eta, mu, sigma, eps, lap string }{
		{"0.1", "0.2513226937", "3.978948281", "0.2006525135", "0.2107210313"},
		{"0.15", "0.3782368525", "2.643846027", "0.3022634804", "0.3250378590"},
		{"0.2", "0.5066942063", "1.973576938", "0.4054484413", "0.4462871026"},
		{"0.5", "1.348979500", "0.7413011093", "1.098598955", "1.386294361"},
	}
	for _, r := range rows {
		eta, _ := strconv.ParseFloat(r.eta, 64)
		mu, ok1 := MuForWorstAdvantage(eta)
		sigma, ok2 := SigmaForWorstAdvantage(eta, 1)
		eps, ok3 := EpsilonForWorstAdvantage(eta, 1e-5)
		lap, ok4 := LaplaceEpsilonForWorstAdvantage(eta)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			t.Fatalf("η=%s: infeasible", r.eta)
		}
		approx.CheckCatalog(t, "μ η="+r.eta, mu, r.mu)
		approx.CheckCatalog(t, "σ η="+r.eta, sigma, r.sigma)
		approx.CheckCatalog(t, "ε(δ=1e-5) η="+r.eta, eps, r.eps)
		approx.CheckCatalog(t, "Laplace ε η="+r.eta, lap, r.lap)
	}
}

// Baseline-specific targets (Thm 3.3 and Cor. B.1 of Kulynych et al. 2025,
// solved independently in mpmath): Gaussian, b = 0.1,
// adv ≤ 0.1 ⇒ μ = 0.4399303320; b = 0.01, adv ≤ 0.05 ⇒ μ = 0.7715742794;
// zCDP (Balle), b = 0.1, succ ≤ 0.2 ⇒ ρ ≤ 0.06189690605.
func TestCalibrationBaselineTargets(t *testing.T) {
	mu, ok := MuForAdvantage(0.1, 0.1)
	if !ok {
		t.Fatal("infeasible")
	}
	approx.CheckCatalog(t, "μ(b=0.1, A=0.1)", mu, "0.4399303320")
	mu, _ = MuForAdvantage(0.05, 0.01)
	approx.CheckCatalog(t, "μ(b=0.01, A=0.05)", mu, "0.7715742794")
	rho, _ := RhoForAdvantage(0.1, 0.1)
	approx.CheckCatalog(t, "ρ(b=0.1, succ 0.2)", rho, "0.06189690605")
	sigma, _ := SigmaForAdvantage(0.1, 0.1, 2)
	approx.CheckCatalog(t, "σ(b=0.1, A=0.1, Δ=2)", sigma, strconv.FormatFloat(2/0.4399303320, 'g', 10, 64))
}

// Inverting the forward reference values gives back the parameters they were
// computed from: η and adv at b = 0.1 of f_{ε,δ} (Kulynych et al. 2025 Eq. (2)),
// η of G_μ, and the §1 Census case (zCDP maximised 0.730414
// at ρ = 1.0001). The tolerance is the reference value's rounding divided by
// the slope of the bound.
func TestCalibrationInvertsCatalogForward(t *testing.T) {
	for _, r := range []struct {
		eps, delta     float64
		eta, adv01     string
		tolEta, tolAdv float64
	}{
		{1, 0, "0.4621171573", "0.1718281828", 1e-9, 1e-9},
		{2, 1e-5, "0.76159654", "0.6389156099", 5e-8, 1e-9},
		{10.6, 1e-10, "0.9999501692", "0.8999775756", 5e-6, 5e-6},
	} {
		eta, _ := strconv.ParseFloat(r.eta, 64)
		adv, _ := strconv.ParseFloat(r.adv01, 64)
		if e, ok := EpsilonForWorstAdvantage(eta, r.delta); !ok || math.Abs(e-r.eps) > r.tolEta {
			t.Errorf("ε for η=%s, δ=%v: %v, want %v", r.eta, r.delta, e, r.eps)
		}
		if e, ok := EpsilonForAdvantage(adv, r.delta, 0.1); !ok || math.Abs(e-r.eps) > r.tolAdv {
			t.Errorf("ε for adv(0.1)=%s, δ=%v: %v, want %v", r.adv01, r.delta, e, r.eps)
		}
	}
	for _, r := range []struct{ mu, eta string }{{"0.5", "0.1974126514"}, {"1", "0.3829249225"}, {"2", "0.6826894921"}, {"3", "0.8663855975"}} {
		eta, _ := strconv.ParseFloat(r.eta, 64)
		want, _ := strconv.ParseFloat(r.mu, 64)
		if mu, ok := MuForWorstAdvantage(eta); !ok || math.Abs(mu-want) > 5e-9*want {
			t.Errorf("μ for η=%s: %v, want %v", r.eta, mu, want)
		}
	}
	if rho, ok := RhoForWorstAdvantage(0.730414); !ok || math.Abs(rho-1.0001) > 1e-5 {
		t.Errorf("ρ for the Census zCDP worst case 0.730414: %v, want 1.0001", rho)
	}
}

// The three pieces of the Laplace inversion (Kulynych et al. 2025): b < ½ with
// s < ½ gives ε = ln(s/b); b < ½ with s ≥ ½ gives −ln(4b(1 − s)); b ≥ ½
// gives ln((1 − b)/(1 − s)). The expected values are those formulas.
func TestLaplaceCalibrationPieces(t *testing.T) {
	for _, c := range []struct{ b, a, want float64 }{
		{0.1, 0.2, math.Log(3)},
		{0.1, 0.5, -math.Log(4 * 0.1 * 0.4)},
		{0.7, 0.1, math.Log(0.3 / 0.2)},
		{1e-12, 1e-12, math.Log(2)},
	} {
		got, ok := LaplaceEpsilonForAdvantage(c.a, c.b)
		if !ok || math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("b=%v A=%v: ε = %v, closed form %v", c.b, c.a, got, c.want)
		}
	}
	// f_{ε,δ} at baseline: ε = max(ln((s − δ)/b), ln((1 − δ − b)/(1 − s))).
	for _, c := range []struct{ b, a, delta float64 }{{0.1, 0.3, 1e-5}, {0.6, 0.1, 0}, {1e-9, 1e-6, 1e-8}, {0.4, 0.5, 0.01}} {
		s := c.b + c.a
		want := math.Max(math.Log((s-c.delta)/c.b), math.Log((1-c.delta-c.b)/(1-s)))
		if got, ok := EpsilonForAdvantage(c.a, c.delta, c.b); !ok || math.Abs(got-want) > 1e-12*want {
			t.Errorf("f_{ε,δ} b=%v A=%v δ=%v: ε = %v, closed form %v", c.b, c.a, c.delta, got, want)
		}
	}
}

// Round trips: the bound at the calibrated parameter, computed and rounded
// up exactly as riskbatch reports it, is at most the target and within 1e-9
// of it; and the next float above the parameter (below, for σ) breaks the
// target, so it is the largest (smallest) one.
func TestCalibrationRoundTrips(t *testing.T) {
	targets := []float64{1e-9, 1e-4, 0.01, 0.05, 0.1, 0.3, 0.5, 0.8, 0.99}
	bases := []float64{1e-12, 1e-6, 0.01, 0.1, 0.3, 0.5, 0.75, 0.9}
	type inverse struct {
		name string
		inv  func(a, b float64) (float64, bool)
		fwd  func(x, b float64) float64
		down bool // smallest σ rather than largest parameter
	}
	const delta = 1e-6
	cases := []inverse{
		{"ε worst", func(a, _ float64) (float64, bool) { return EpsilonForWorstAdvantage(a, delta) },
			func(x, _ float64) float64 {
				return numeric.RoundUp(curve.EpsDelta{Epsilon: x, Delta: delta}.WorstAdvantage(), 0, 1)
			}, false},
		{"ε at b", func(a, b float64) (float64, bool) { return EpsilonForAdvantage(a, delta, b) },
			func(x, b float64) float64 {
				return numeric.RoundUp(curve.EpsDelta{Epsilon: x, Delta: delta}.Advantage(b), 0, 1-b)
			}, false},
		{"μ worst", func(a, _ float64) (float64, bool) { return MuForWorstAdvantage(a) },
			func(x, _ float64) float64 { return numeric.RoundUp(curve.Gaussian{Mu: x}.WorstAdvantage(), 0, 1) }, false},
		{"μ at b", MuForAdvantage,
			func(x, b float64) float64 { return numeric.RoundUp(curve.Gaussian{Mu: x}.Advantage(b), 0, 1-b) }, false},
		{"σ worst", func(a, _ float64) (float64, bool) { return SigmaForWorstAdvantage(a, 3) },
			func(x, _ float64) float64 { return numeric.RoundUp(curve.Gaussian{Mu: 3 / x}.WorstAdvantage(), 0, 1) }, true},
		{"σ at b", func(a, b float64) (float64, bool) { return SigmaForAdvantage(a, b, 3) },
			func(x, b float64) float64 { return numeric.RoundUp(curve.Gaussian{Mu: 3 / x}.Advantage(b), 0, 1-b) }, true},
		{"Laplace worst", func(a, _ float64) (float64, bool) { return LaplaceEpsilonForWorstAdvantage(a) },
			func(x, _ float64) float64 { return numeric.RoundUp(curve.Laplace{Epsilon: x}.WorstAdvantage(), 0, 1) }, false},
		{"Laplace at b", LaplaceEpsilonForAdvantage,
			func(x, b float64) float64 { return numeric.RoundUp(curve.Laplace{Epsilon: x}.Advantage(b), 0, 1-b) }, false},
		{"ρ at b", RhoForAdvantage, func(x, b float64) float64 { return ReRoZCDP(x, b) - b }, false},
	}
	for _, c := range cases {
		for _, b := range bases {
			for _, a := range targets {
				if a >= 1-b || (a < delta && strings.HasPrefix(c.name, "ε")) {
					continue
				}
				x, ok := c.inv(a, b)
				if !ok || math.IsNaN(x) {
					t.Errorf("%s b=%v A=%v: infeasible", c.name, b, a)
					continue
				}
				if math.IsInf(x, 0) || x == 0 {
					continue
				}
				got := c.fwd(x, b)
				if got > a || got < a-1e-9 {
					t.Errorf("%s b=%v A=%v: bound at %v is %.17g", c.name, b, a, x, got)
				}
				next := math.Nextafter(x, math.Inf(1))
				if c.down {
					next = math.Nextafter(x, 0)
				}
				if c.fwd(next, b) <= a && !(c.fwd(next, b) == got) {
					t.Errorf("%s b=%v A=%v: %v is not the extreme parameter (next float also meets the target)", c.name, b, a, x)
				}
			}
		}
	}
	for _, a := range []float64{0.01, 0.2, 0.6} {
		rho, ok := RhoForWorstAdvantage(a)
		adv, _ := MaxAdvantageOverBaseline(func(b float64) float64 { return ReRoZCDP(rho, b) })
		if !ok || adv > a || adv < a-1e-9 {
			t.Errorf("ρ worst A=%v: ρ = %v gives %v", a, rho, adv)
		}
	}
}

// LargestParameter returns the lower end of its final bracket: for the step
// function ⌊x⌋ and target 3 on [0, 10] that is the float just below 4. It
// reports infeasibility, handles ranges across zero, and treats NaN as above
// the target.
func TestLargestParameter(t *testing.T) {
	x, ok := numeric.LargestParameter(math.Floor, 3, 0, 10)
	if !ok || x != math.Nextafter(4, 0) {
		t.Errorf("⌊x⌋ ≤ 3 on [0, 10]: %v, want the float below 4", x)
	}
	x, ok = numeric.LargestParameter(func(x float64) float64 { return x }, -5.5, -10, -1)
	if !ok || x != -5.5 {
		t.Errorf("x ≤ −5.5 on [−10, −1]: %v", x)
	}
	x, ok = numeric.LargestParameter(func(x float64) float64 { return x * x * x }, 1e-30, -1, 1)
	if !ok || x*x*x > 1e-30 || math.Abs(x-1e-10) > 1e-24 {
		t.Errorf("x³ ≤ 1e-30 on [−1, 1]: %v", x)
	}
	if x, ok = numeric.LargestParameter(func(float64) float64 { return 1 }, 0.5, 0, 1); ok || !math.IsNaN(x) {
		t.Error("f(lo) above the target must be infeasible")
	}
	if x, ok = numeric.LargestParameter(func(float64) float64 { return 0 }, 0.5, 0, 7); !ok || x != 7 {
		t.Error("f(hi) at or below the target must give hi")
	}
	nanAbove := func(x float64) float64 {
		if x > 2 {
			return math.NaN()
		}
		return 0
	}
	if x, ok = numeric.LargestParameter(nanAbove, 1, 0, 5); !ok || x > 2 {
		t.Errorf("NaN must count as above the target: %v", x)
	}
	if _, ok = numeric.LargestParameter(nil, 1, 0, 1); ok {
		t.Error("nil f must be rejected")
	}
	if _, ok = numeric.LargestParameter(math.Floor, 1, 2, 1); ok {
		t.Error("lo > hi must be rejected")
	}
}

// Edges (Kulynych et al. 2025: "if succ_target = base, the answer is 0"; targets
// below what the weakest mechanism already gives are infeasible; targets
// that no mechanism can exceed give +Inf, or σ = 0).
func TestCalibrationEdges(t *testing.T) {
	if e, ok := EpsilonForWorstAdvantage(1e-6, 1e-5); ok || !math.IsNaN(e) {
		t.Error("A < δ must be infeasible")
	}
	if e, ok := EpsilonForWorstAdvantage(1, 1e-5); !ok || !math.IsInf(e, 1) {
		t.Error("A ≥ 1 must give +Inf")
	}
	if e, ok := EpsilonForAdvantage(0.05, 1e-3, 0); !ok || !math.IsInf(e, 1) {
		t.Error("b = 0 with A ≥ δ: the advantage is δ for every ε")
	}
	if mu, ok := MuForWorstAdvantage(0); !ok || mu != 0 {
		t.Errorf("A = 0 must give μ = 0, got %v", mu)
	}
	if s, ok := SigmaForWorstAdvantage(0, 1); !ok || !math.IsInf(s, 1) {
		t.Errorf("A = 0 must need σ = ∞, got %v", s)
	}
	if s, ok := SigmaForWorstAdvantage(1, 1); !ok || s != 0 {
		t.Errorf("A = 1 must allow σ = 0, got %v", s)
	}
	if _, ok := SigmaForWorstAdvantage(0.1, -1); ok {
		t.Error("a negative sensitivity must be rejected")
	}
	if mu, ok := MuForWorstAdvantage(-0.1); ok || !math.IsNaN(mu) {
		t.Error("A < 0 must be infeasible")
	}
	if r, ok := RhoForAdvantage(0.95, 0.1); !ok || !math.IsInf(r, 1) {
		t.Error("A ≥ 1 − b must give +Inf")
	}
	if e, ok := LaplaceEpsilonForAdvantage(0.2, 1); !ok || !math.IsInf(e, 1) {
		t.Error("b = 1 leaves no advantage to bound")
	}
	for _, f := range []func() (float64, bool){
		func() (float64, bool) { return EpsilonForAdvantage(math.NaN(), 0, 0.1) },
		func() (float64, bool) { return EpsilonForAdvantage(0.1, 0, 1.5) },
		func() (float64, bool) { return MuForAdvantage(0.1, -0.5) },
		func() (float64, bool) { return RhoForWorstAdvantage(math.NaN()) },
	} {
		if v, ok := f(); ok || !math.IsNaN(v) {
			t.Error("invalid input must give (NaN, false)")
		}
	}
}
