package bound

import (
	"math"
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// binOpaque hides a curve's concrete type, so that BayesRisk takes its
// generic golden-section path.
type binOpaque struct{ c curve.Curve }

func (o binOpaque) TradeOff(a float64) float64  { return o.c.TradeOff(a) }
func (o binOpaque) Advantage(b float64) float64 { return o.c.Advantage(b) }
func (o binOpaque) WorstAdvantage() float64     { return o.c.WorstAdvantage() }

// Kulynych et al. 2025 App. D, values computed independently in mpmath: the Bayes risk
// R(π) of G_μ at π = 0.5 and π = 0.9 (Def. D.1), 10 significant digits.
// Both the closed form and the generic numerical minimisation must match.
func TestBayesRiskGaussianCatalog(t *testing.T) {
	rows := []struct{ mu, r05, r09 string }{
		{"0.5", "0.4012936743", "0.09999983127"},
		{"1", "0.3085375387", "0.0986636939"},
		{"2", "0.1586552539", "0.07006068586"},
		{"3", "0.06680720127", "0.03365108514"},
	}
	for _, r := range rows {
		mu, _ := strconv.ParseFloat(r.mu, 64)
		g := curve.Gaussian{Mu: mu}
		approx.CheckCatalog(t, "R(0.5) μ="+r.mu, BayesRisk(g, 0.5), r.r05)
		approx.CheckCatalog(t, "R(0.9) μ="+r.mu, BayesRisk(g, 0.9), r.r09)
		approx.CheckCatalog(t, "generic R(0.5) μ="+r.mu, BayesRisk(binOpaque{g}, 0.5), r.r05)
		approx.CheckCatalog(t, "generic R(0.9) μ="+r.mu, BayesRisk(binOpaque{g}, 0.9), r.r09)
	}
}

// Closed forms at one prior, each through the curve's own method and
// through the generic path (binOpaque), against values computed in mpmath:
//   - Kulynych et al. 2025, footnote 1: the accuracy (e^ε + δ)/(e^ε + 1) of
//     binary attribute inference with a uniform prior, which is
//     1 − R_{f_{ε,δ}}(½) (Def. D.1 with Eq. (2);
//     R = (1 − δ)·min{π, 1 − π, 1/(1 + e^ε)}, derived here);
//   - Def. D.1 for the Laplace curve, R(0.5) = ½·e^{−ε/2}, through the
//     closed form derived here.
func TestBinaryClosedFormsCatalog(t *testing.T) {
	success, risk := BinarySuccess, BayesRisk
	for _, r := range []struct {
		what string
		c    curve.Curve
		f    func(curve.Curve, float64) float64
		want string
	}{
		{"1 − R(½) ε=1", curve.EpsDelta{Epsilon: 1}, success, "0.7310585786"},
		{"1 − R(½) ε=1 δ=1e-5", curve.EpsDelta{Epsilon: 1, Delta: 1e-5}, success, "0.731061268"},
		{"1 − R(½) ε=2 δ=1e-5", curve.EpsDelta{Epsilon: 2, Delta: 1e-5}, success, "0.88079827"},
		{"1 − R(½) ε=10.6 δ=1e-10", curve.EpsDelta{Epsilon: 10.6, Delta: 1e-10}, success, "0.9999750846"},
		{"Laplace R(0.5) ε=0.2", curve.Laplace{Epsilon: 0.2}, risk, "0.452418709"},
		{"Laplace R(0.5) ε=1", curve.Laplace{Epsilon: 1}, risk, "0.3032653299"},
		{"Laplace R(0.5) ε=3", curve.Laplace{Epsilon: 3}, risk, "0.1115650801"},
	} {
		approx.CheckCatalog(t, r.what, r.f(r.c, 0.5), r.want)
		approx.CheckCatalog(t, "generic "+r.what, r.f(binOpaque{r.c}, 0.5), r.want)
	}
}

// Kulynych et al. 2025, App. D table (the CODE's replace-one Gaussians μ = 2/σ,
// σ = 3, 4, 5, with π = b): the first two numbers of each group, the
// unified bound 1 − G_μ(b) (Thm 3.2) and Thm D.1's 1 − R(b).
func TestAppDTable(t *testing.T) {
	rows := []struct {
		mu            float64
		unified, thmD [3]string
	}{
		{2.0 / 3, [3]string{"0.7475", "0.9101", "0.9743"}, [3]string{"0.6306", "0.7557", "0.9000"}},
		{0.5, [3]string{"0.6915", "0.8799", "0.9626"}, [3]string{"0.5987", "0.7510", "0.9000"}},
		{0.4, [3]string{"0.6554", "0.8587", "0.9537"}, [3]string{"0.5793", "0.7502", "0.9000"}},
	}
	for _, r := range rows {
		g := curve.Gaussian{Mu: r.mu}
		for j, b := range []float64{0.5, 0.75, 0.9} {
			what := "μ=" + strconv.FormatFloat(r.mu, 'g', 4, 64) + " b=" + strconv.FormatFloat(b, 'g', -1, 64)
			approx.CheckCatalog(t, "1 − G(b) "+what, b+g.Advantage(b), r.unified[j])
			approx.CheckCatalog(t, "1 − R(b) "+what, BinarySuccess(g, b), r.thmD[j])
			if BinarySuccess(g, b) > b+g.Advantage(b) {
				t.Errorf("%s: Thm D.1 must not be looser than the unified bound (App. D, Fig. 5 claim)", what)
			}
		}
	}
}

// Footnote 1 of Kulynych et al. 2025: at π = ½, 1 − R_f(½) = ½ + ½η
// for every symmetric f, so the binary advantage is η/2.
func TestBinaryFootnote1Identity(t *testing.T) {
	comp, err := curve.ComposeApprox(0.3, 1e-6, 7)
	if err != nil {
		t.Fatal(err)
	}
	curves := map[string]curve.Curve{
		"gaussian μ=1e-6": curve.Gaussian{Mu: 1e-6},
		"gaussian μ=1.3":  curve.Gaussian{Mu: 1.3},
		"gaussian μ=20":   curve.Gaussian{Mu: 20},
		"epsdelta":        curve.EpsDelta{Epsilon: 0.7, Delta: 1e-4},
		"epsdelta ε=1e-9": curve.EpsDelta{Epsilon: 1e-9},
		"epsdelta ε=700":  curve.EpsDelta{Epsilon: 700, Delta: 1e-300},
		"laplace":         curve.Laplace{Epsilon: 2.5},
		"laplace ε=1e-8":  curve.Laplace{Epsilon: 1e-8},
		"composed":        comp,
	}
	for name, c := range curves {
		eta := c.WorstAdvantage()
		tol := 1e-14
		if name == "composed" {
			tol = 1e-13 // ComposedApprox rounds R down and η up by its error bound, ~1e-14 here
		}
		if got, want := BinarySuccess(c, 0.5), 0.5+eta/2; math.Abs(got-want) > tol {
			t.Errorf("%s: 1 − R(½) = %.17g, want ½ + η/2 = %.17g", name, got, want)
		}
		if got, want := BinaryAdvantage(c, 0.5), eta/2; math.Abs(got-want) > 10*tol*want+1e-300 {
			t.Errorf("%s: binary advantage at ½ = %.17g, want η/2 = %.17g", name, got, want)
		}
	}
}

// The generic golden-section path against the closed forms: it must never
// exceed them by more than rounding (it is a lower bound on R) and must
// agree to 1e-12 across priors from 1e-12 to 1 − 1e-12.
func TestBayesRiskGenericMatchesClosedForms(t *testing.T) {
	comp, err := curve.ComposeApprox(0.5, 1e-5, 12)
	if err != nil {
		t.Fatal(err)
	}
	curves := map[string]curve.Curve{
		"gaussian 0.2":   curve.Gaussian{Mu: 0.2},
		"gaussian 2.5":   curve.Gaussian{Mu: 2.5},
		"gaussian 9":     curve.Gaussian{Mu: 9},
		"epsdelta":       curve.EpsDelta{Epsilon: 1.2, Delta: 1e-5},
		"epsdelta large": curve.EpsDelta{Epsilon: 25, Delta: 1e-9},
		"laplace":        curve.Laplace{Epsilon: 0.8},
		"laplace large":  curve.Laplace{Epsilon: 12},
		"composed":       comp,
	}
	pis := []float64{1e-12, 1e-6, 0.01, 0.1, 0.3, 0.5, 0.62, 0.9, 0.999, 1 - 1e-9}
	for name, c := range curves {
		for _, pi := range pis {
			closed := BayesRisk(c, pi)
			generic := BayesRisk(binOpaque{c}, pi)
			if generic > closed*(1+1e-13)+1e-300 || math.Abs(generic-closed) > 1e-12 {
				t.Errorf("%s π=%v: generic R %.17g, closed form %.17g", name, pi, generic, closed)
			}
			adv := BinaryAdvantage(c, pi)
			gadv := BinaryAdvantage(binOpaque{c}, pi)
			if math.Abs(adv-gadv) > 1e-12 {
				t.Errorf("%s π=%v: binary advantage %.17g, generic %.17g", name, pi, adv, gadv)
			}
			if s := BinarySuccess(c, pi); math.Abs(s-(math.Max(pi, 1-pi)+adv)) > 1e-13 {
				t.Errorf("%s π=%v: success %.17g ≠ max(π, 1−π) + advantage %.17g", name, pi, s, math.Max(pi, 1-pi)+adv)
			}
		}
	}
}

// The composed curve's vertex formula for R against the definition
// evaluated on a dense grid of α (Def. D.1): R is a minimum, so the grid
// can only be higher, and must come within the grid's resolution.
func TestBayesRiskComposedAgainstGrid(t *testing.T) {
	t.Parallel()
	for _, p := range []struct {
		eps, delta float64
		k          int
	}{{0.2, 0, 5}, {1, 1e-4, 3}, {0.05, 1e-7, 40}} {
		c, err := curve.NewComposedApprox(p.eps, p.delta, p.k)
		if err != nil {
			t.Fatal(err)
		}
		for _, pi := range []float64{0.05, 0.3, 0.5, 0.8, 0.97} {
			grid, n := math.Inf(1), testenv.Count(50000, 200000)
			for i := 0; i <= n; i++ {
				a := float64(i) / float64(n)
				grid = math.Min(grid, pi*a+(1-pi)*c.TradeOff(a))
			}
			r := BayesRisk(c, pi)
			if r > grid+1e-15 || grid-r > 1e-4 {
				t.Errorf("%+v π=%v: R %.12g, grid minimum %.12g", p, pi, r, grid)
			}
		}
	}
}

// Small advantages keep their relative precision and are never
// understated (Kulynych et al. 2025). For G_μ the binary advantage is
// min(π, 1 − π)·δ_μ(|λ|); the reference integrates the hockey-stick
// divergence directly, δ(x) = ∫_{y<y₀} φ(y)·(1 − e^{x − μ(μ/2 − y)}) dy with
// y₀ = μ/2 − x/μ (privacy loss of N(0,1) vs N(μ,1) above x), whose
// integrand has no cancellation, by Simpson's rule on 2·10^5 panels.
func TestBinaryAdvantageSmall(t *testing.T) {
	for _, mu := range []float64{1e-7, 1e-4, 0.3} {
		g := curve.Gaussian{Mu: mu}
		for _, pi := range []float64{0.5, 0.5 + 1e-9, 0.5 + 1e-6, 0.6, 0.9} {
			lam := math.Abs(math.Log(pi / (1 - pi)))
			y0 := mu/2 - lam/mu
			integrand := func(y float64) float64 { return numeric.NormPDF(y) * -math.Expm1(lam-mu*(mu/2-y)) }
			ref := math.Min(pi, 1-pi) * approx.Simpson(integrand, y0-40, y0, 200000)
			got := BinaryAdvantage(g, pi)
			if got < ref*(1-1e-12) || got > ref*(1+1e-7) {
				t.Errorf("μ=%v π=%v: %.15g, reference %.15g (rel %.2g)", mu, pi, got, ref, got/ref-1)
			}
		}
	}
	// f_{ε,δ} with tiny ε: adv = (π·(e^{ε−λ} − 1) + δ)/(1 + e^ε) at π ≥ ½, λ < ε.
	e := curve.EpsDelta{Epsilon: 1e-9, Delta: 1e-12}
	pi := 0.5 + 1e-11
	lam := math.Log(pi / (1 - pi))
	want := (pi*math.Expm1(e.Epsilon-lam) + e.Delta) / (1 + math.Exp(e.Epsilon))
	if got := BinaryAdvantage(e, pi); math.Abs(got-want) > 1e-6*want {
		t.Errorf("tiny ε: %v, want %v", got, want)
	}
}

// Domain and edges: π outside [0, 1] or NaN and a nil curve give NaN; π = 0
// and 1 give R = 0 and advantage 0; f ≡ 0 (δ = 1) gives R = 0.
func TestBinaryEdges(t *testing.T) {
	g := curve.Gaussian{Mu: 1}
	for _, pi := range []float64{-0.1, 1.1, math.NaN()} {
		if !math.IsNaN(BayesRisk(g, pi)) || !math.IsNaN(BinaryAdvantage(g, pi)) || !math.IsNaN(BinarySuccess(g, pi)) {
			t.Errorf("π=%v must give NaN", pi)
		}
	}
	if !math.IsNaN(BayesRisk(nil, 0.5)) || !math.IsNaN(BinaryAdvantage(nil, 0.5)) {
		t.Error("nil curve must give NaN")
	}
	for _, pi := range []float64{0, 1} {
		if BayesRisk(g, pi) != 0 || BinaryAdvantage(g, pi) != 0 || BinarySuccess(g, pi) != 1 {
			t.Errorf("π=%v: want R = 0, advantage 0, success 1", pi)
		}
	}
	if r := BayesRisk(curve.EpsDelta{Epsilon: 1, Delta: 1}, 0.3); r != 0 {
		t.Errorf("δ = 1: R = %v, want 0", r)
	}
	if a := BinaryAdvantage(curve.EpsDelta{Epsilon: math.Inf(1)}, 0.3); a != 0.3 {
		t.Errorf("ε = ∞: binary advantage %v, want the vacuous min(π, 1 − π)", a)
	}
	if r := BayesRisk(curve.Gaussian{Mu: 0}, 0.3); r > 0.3 || r < 0.3-1e-15 {
		t.Errorf("μ = 0: R = %v, want min(π, 1 − π) rounded down", r)
	}
	if r, a := BayesRisk(curve.EpsDelta{Epsilon: 700}, 1e-310), BinaryAdvantage(curve.Laplace{Epsilon: 700}, 1e-310); !(r >= 0 && r <= 1e-310) || !(a >= 0 && a <= 1e-310) {
		t.Errorf("subnormal π: R %v, advantage %v, want in [0, π]", r, a)
	}
}
