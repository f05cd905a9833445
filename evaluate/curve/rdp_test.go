package curve

import (
	"math"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// rdpBruteForce brackets f_α(x) of one RDP guarantee by scanning y on a
// grid of n + 1 points of [0, 1 − x] with the two Rényi constraints written
// out with math.Pow (g₁ = Σ P'^α Q'^{1−α}, g₂ = Σ Q'^α P'^{1−α} for
// P' = (x, 1 − x), Q' = (1 − y, y)): f lies in (lo, hi], hi being the first
// feasible grid point.
func rdpBruteForce(a, eps, x float64, n int) (lo, hi float64) {
	u := math.Exp((a - 1) * eps)
	feasible := func(y float64) bool {
		g1 := math.Pow(x, a)*math.Pow(1-y, 1-a) + math.Pow(1-x, a)*math.Pow(y, 1-a)
		g2 := math.Pow(1-y, a)*math.Pow(x, 1-a) + math.Pow(y, a)*math.Pow(1-x, 1-a)
		return g1 <= u && g2 <= u
	}
	prev := 0.0
	for i := 0; i <= n; i++ {
		y := (1 - x) * float64(i) / float64(n)
		if feasible(y) {
			return prev, y
		}
		prev = y
	}
	return prev, 1 - x
}

// One guarantee: the curve agrees with a brute-force scan of the two Rényi
// constraints, and with the values of an independent mpmath computation
// (40 digits; bisection in y on the same two constraints), and is on the
// conservative side of both.
func TestRDPSingleOrder(t *testing.T) {
	for _, c := range []struct{ a, eps float64 }{{2, 1}, {10, 3}, {1.5, 0.2}, {50, 5}, {1.05, 0.01}, {3, 10}} {
		r := RDP{Orders: []float64{c.a}, Epsilons: []float64{c.eps}}
		for _, x := range []float64{1e-3, 0.02, 0.1, 0.25, 0.5, 0.8, 0.97} {
			lo, hi := rdpBruteForce(c.a, c.eps, x, testenv.Count(20000, 200000))
			f := r.TradeOff(x)
			if f > hi+1e-15 || f < lo-1e-12 {
				t.Errorf("α=%v ε=%v x=%v: f = %.15g, brute force in (%.15g, %.15g]", c.a, c.eps, x, f, lo, hi)
			}
			if adv := r.Advantage(x); !approx.Near(adv, 1-f-x, 1e-14, 0) {
				t.Errorf("α=%v ε=%v x=%v: advantage %.17g, 1 − f − x = %.17g", c.a, c.eps, x, adv, 1-f-x)
			}
		}
	}
	for _, c := range []struct{ a, eps, x, want float64 }{
		{2, 1, 0.1, 0.5067502516703741},
		{2, 1, 0.2, 0.2756670022271655},
		{2, 1, 0.3, 0.1879227106384773},
		{2, 1, 0.5, 0.1024699511896749},
		{2, 1, 1e-6, 0.9986881681609843},
		{10, 3, 0.01, 0.7641721448360171},
		{10, 3, 0.25, 0.03616560510020254},
	} {
		f := RDP{Orders: []float64{c.a}, Epsilons: []float64{c.eps}}.TradeOff(c.x)
		if f > c.want || f < c.want-1e-12 {
			t.Errorf("α=%v ε=%v: f(%v) = %.16g, mpmath %.16g", c.a, c.eps, c.x, f, c.want)
		}
	}
}

// Order +Inf is pure ε-DP, whose curve is f_{ε,0} (Kulynych et al. 2025,
// Eq. 2), down to baselines of 1e-300.
func TestRDPPureOrderIsEpsDelta(t *testing.T) {
	for _, eps := range []float64{1e-6, 0.5, 2, 20} {
		r := RDP{Orders: []float64{math.Inf(1)}, Epsilons: []float64{eps}}
		pure := EpsDelta{Epsilon: eps}
		for _, x := range []float64{1e-300, 1e-9, 0.01, 0.2, 0.5, 0.9, 1 - 1e-9} {
			if f, want := r.TradeOff(x), pure.TradeOff(x); f > want+1e-16 || f < want-1e-13 {
				t.Errorf("ε=%v x=%v: f = %.17g, f_{ε,0} = %.17g", eps, x, f, want)
			}
			// Relative 1e-11: at x = 1e-300 the gap parameter carries ln x ≈ −690,
			// whose rounding the conversion covers by rounding up.
			if adv, want := r.Advantage(x), pure.Advantage(x); adv < want || !approx.Near(adv, want, 0, 1e-11) {
				t.Errorf("ε=%v x=%v: advantage %.17g, f_{ε,0} %.17g", eps, x, adv, want)
			}
		}
		if eta := r.WorstAdvantage(); eta < pure.WorstAdvantage() || !approx.Near(eta, pure.WorstAdvantage(), 0, 1e-13) {
			t.Errorf("ε=%v: η = %.17g, tanh(ε/2) = %.17g", eps, eta, pure.WorstAdvantage())
		}
		// Its profile is that of binary randomized response, whose curve is
		// f_{ε,0} (see TestRandomizedResponseBinaryIsPureDP).
		rr := RandomizedResponse{Epsilon: eps, Categories: 2}
		for _, e := range []float64{0, eps / 3, eps / 2, 0.9 * eps, eps} {
			if got, want := r.DeltaAt(e), rr.DeltaAt(e); got < want || !approx.Near(got, want, 1e-300, 1e-12) {
				t.Errorf("ε=%v: δ(%v) = %.17g, binary RR %.17g", eps, e, got, want)
			}
		}
		for _, delta := range []float64{1e-12, 1e-6, 0.3 * pure.WorstAdvantage()} {
			if got, want := r.EpsilonAt(delta), rr.EpsilonAt(delta); got < want*(1-1e-12) || !approx.Near(got, want, 1e-12, 1e-12) {
				t.Errorf("ε=%v: ε(%v) = %.17g, binary RR %.17g", eps, delta, got, want)
			}
		}
	}
}

// Several guarantees: the curve is the pointwise maximum of the single
// curves, and a valid trade-off function: non-increasing, convex, below
// 1 − x, symmetric (f(f(x)) = x where f(x) > 0). η is the largest
// advantage 1 − f(x) − x on a fine grid.
func TestRDPCurveIsMaxAndValid(t *testing.T) {
	sets := []RDP{
		{Orders: []float64{1.5, 2, 10, 64}, Epsilons: []float64{0.2, 0.5, 3, 30}},
		DPSGD{NoiseMultiplier: 0.5715066078978425, SampleRate: 0.0038010957846441, Steps: 792}.RDP(),
		DPSGD{NoiseMultiplier: 2, SampleRate: 0.01, Steps: 5000}.RDP(),
	}
	for si, r := range sets {
		singles := make([]RDP, len(r.Orders))
		for i := range r.Orders {
			singles[i] = RDP{Orders: r.Orders[i : i+1], Epsilons: r.Epsilons[i : i+1]}
		}
		n := testenv.Count(200, 1000)
		prev, maxAdv := 1.0, 0.0
		for i := 0; i <= n; i++ {
			x := float64(i) / float64(n)
			f := r.TradeOff(x)
			if i%50 == 25 {
				best := 0.0
				for _, s := range singles {
					best = math.Max(best, s.TradeOff(x))
				}
				if !approx.Near(f, best, 1e-15, 1e-13) {
					t.Errorf("set %d x=%v: f = %.17g, max of single curves %.17g", si, x, f, best)
				}
			}
			if f > prev+1e-15 || f > 1-x+1e-15 || f < 0 {
				t.Errorf("set %d x=%v: f = %v (previous %v)", si, x, f, prev)
			}
			if i > 0 && i < n && 2*f > r.TradeOff(x-1.0/float64(n))+r.TradeOff(x+1.0/float64(n))+1e-13 {
				t.Errorf("set %d x=%v: not convex", si, x)
			}
			if ff := r.TradeOff(f); f > 1e-6 && f < 1 && !approx.Near(ff, x, 1e-9, 0) {
				t.Errorf("set %d x=%v: f(f(x)) = %v", si, x, ff)
			}
			maxAdv = math.Max(maxAdv, r.Advantage(x))
			prev = f
		}
		// η bounds the grid and is attained at the fixed point (1 − η)/2.
		eta := r.WorstAdvantage()
		if at := r.Advantage((1 - eta) / 2); eta < maxAdv || !approx.Near(at, eta, 1e-12, 0) {
			t.Errorf("set %d: η = %.15g, advantage at (1 − η)/2 %.15g, largest on the grid %.15g", si, eta, at, maxAdv)
		}
	}
}

// Near the diagonal (tiny ε) and at tiny baselines the curve keeps its
// relative precision. Leading-order expansions: for ε → 0 the fixed point
// satisfies g − 1 ≈ 2α(α − 1)η² = (α − 1)ε, so η ≈ √(ε/(2α)) to a relative
// O(ε); for x → 0
// with α > 1, the constraint D_α(Q'‖P') binds, (x + d)^α x^{1−α} ≈ e^{(α−1)ε} − 1,
// so d ≈ (e^{(α−1)ε} − 1)^{1/α}·x^{(α−1)/α} − x, to a relative 1e-89 at
// these x (checked against mpmath bisection at 700 digits). At x = 1e-300
// the conversion's own rounding allowance (ln x ≈ −690 enters the gap
// parameter) makes it up to a relative 3e-11 larger.
func TestRDPAsymptotics(t *testing.T) {
	for _, c := range []struct{ a, eps float64 }{{2, 1e-14}, {5, 1e-20}, {1.5, 1e-12}, {2, 1e-300}} {
		eta := RDP{Orders: []float64{c.a}, Epsilons: []float64{c.eps}}.WorstAdvantage()
		if want := math.Sqrt(c.eps / (2 * c.a)); !approx.Near(eta, want, 0, 1e-10) || eta < want*(1-1e-11) {
			t.Errorf("α=%v ε=%v: η = %.15g, √(ε/2α) = %.15g", c.a, c.eps, eta, want)
		}
	}
	// ρ-zCDP with ρ → 0: the KL limit binds, KL(Bern(x)‖Bern(1 − x)) =
	// η·2·atanh(η) ≈ 2η² ≤ ρ, so η ≈ √(ρ/2) (Pinsker's inequality is tight).
	if eta, want := (ZCDP{Rho: 1e-16}).WorstAdvantage(), math.Sqrt(1e-16/2); !approx.Near(eta, want, 0, 1e-10) || eta < want*(1-1e-11) {
		t.Errorf("ρ = 1e-16: η = %.15g, √(ρ/2) = %.15g", eta, want)
	}
	for _, c := range []struct{ a, eps, x float64 }{{2, 1, 1e-300}, {3, 0.5, 1e-200}, {10, 2, 1e-100}, {2, 1, 3e-320}} {
		adv := RDP{Orders: []float64{c.a}, Epsilons: []float64{c.eps}}.Advantage(c.x)
		want := math.Exp((math.Log(math.Expm1((c.a-1)*c.eps))+(c.a-1)*numeric.LogPos(c.x))/c.a) - c.x
		if !approx.Near(adv, want, 0, 3e-11) || adv < want*(1-1e-12) {
			t.Errorf("α=%v ε=%v x=%v: advantage %.15g, asymptotic %.15g", c.a, c.eps, c.x, adv, want)
		}
	}
}

// The docstring examples of riskcal (Kulynych & Gomez's library accompanying
// Kulynych et al. 2025): get_beta_from_zcdp(0.5, [0.1, 0.2, 0.3]) =
// [0.517, 0.34, 0.232] and get_advantage_from_zcdp(0.5) = 0.47. The
// supremum over orders of the two-sided conversion is lower than those β
// and higher than that η: an independent mpmath computation (40 digits,
// bisection in y on the two constraints, orders scanned in steps of 1/40
// and refined by golden section) gives sup_α f_α(0.1) = 0.5162717118432804
// at α ≈ 1.528, and shows the supremum at 0.2, 0.3 and the fixed point
// approached as α → 1, where the constraint becomes KL ≤ ρ (mpmath
// bisection): 0.3385689410931525, 0.2286176713924249, η = 0.4790984231166211.
// riskcal's numbers are therefore not conservative; this code reproduces
// the suprema (to 1e-9, rounded to the conservative side) and stays within
// 0.004 (β) and 0.01 (η) of riskcal.
func TestZCDPriskcalDocstrings(t *testing.T) {
	z := ZCDP{Rho: 0.5}
	for _, c := range []struct{ x, sup, riskcal float64 }{
		{0.1, 0.5162717118432804, 0.517},
		{0.2, 0.3385689410931525, 0.34},
		{0.3, 0.2286176713924249, 0.232},
	} {
		f := z.TradeOff(c.x)
		if f > c.sup || f < c.sup-1e-9 {
			t.Errorf("f(%v) = %.16g, supremum %.16g", c.x, f, c.sup)
		}
		if f > c.riskcal || c.riskcal-f > 0.004 {
			t.Errorf("f(%v) = %.6g, riskcal %v", c.x, f, c.riskcal)
		}
	}
	eta := z.WorstAdvantage()
	if eta < 0.4790984231166211 || eta > 0.4790984231166211+1e-9 || eta < 0.47 || eta-0.47 > 0.01 {
		t.Errorf("η = %.16g, KL limit 0.4790984231166211, riskcal 0.47", eta)
	}
}

// The Gaussian mechanism with noise σ is ρ-zCDP with ρ = μ²/2 (μ = 1/σ;
// Kulynych et al. 2025, ε_α = αμ²/2), so its exact curve G_μ is one of the
// curves the zCDP guarantee allows, and the zCDP curve lies below it; the
// RDP curve on a finite order grid lies below the zCDP curve. Closeness:
// at μ = 1, G_1(0.1) = 0.6109 (computed in mpmath) and riskcal's zCDP value is
// 0.517, a gap under 0.1.
func TestZCDPBelowGaussian(t *testing.T) {
	for _, mu := range []float64{0.3, 1, 2} {
		g, z := Gaussian{Mu: mu}, ZCDP{Rho: mu * mu / 2}
		orders := DefaultRDPOrders()
		eps := make([]float64, len(orders))
		for i, a := range orders {
			eps[i] = a * mu * mu / 2
		}
		r := RDP{Orders: orders, Epsilons: eps}
		for _, x := range []float64{1e-9, 1e-4, 0.01, 0.1, 0.3, 0.5, 0.8} {
			fg, fz, fr := g.TradeOff(x), z.TradeOff(x), r.TradeOff(x)
			if fz > fg+1e-15 || fr > fz+1e-12 {
				t.Errorf("μ=%v x=%v: G = %v, zCDP %v, RDP grid %v", mu, x, fg, fz, fr)
			}
		}
		if eg, ez := g.WorstAdvantage(), z.WorstAdvantage(); ez < eg {
			t.Errorf("μ=%v: zCDP η %v below Gaussian η %v", mu, ez, eg)
		}
	}
	if gap := (Gaussian{Mu: 1}).TradeOff(0.1) - (ZCDP{Rho: 0.5}).TradeOff(0.1); gap > 0.1 {
		t.Errorf("G_1(0.1) − zCDP f(0.1) = %v", gap)
	}
}

// The order search of ZCDP is at least as good as a dense scan of 2201
// orders (α − 1 = 10^{j/200} from 1e-5 to 1e6, plus α = 1), and close to
// it: any order gives a valid curve, so the refined search may only be
// higher (tighter). The scan itself loses up to ~1e-6 between its orders
// (their spacing is 1.2% in α − 1), which the golden-section refinement
// recovers.
func TestZCDPAgainstDenseOrders(t *testing.T) {
	for _, rho := range []float64{1e-4, 0.05, 0.5, 5} {
		orders := []float64{1}
		for j := -1000; j <= 1200; j++ {
			orders = append(orders, 1+math.Pow(10, float64(j)/200))
		}
		eps := make([]float64, len(orders))
		for i, a := range orders {
			eps[i] = rho * a
		}
		dense, z := RDP{Orders: orders, Epsilons: eps}, ZCDP{Rho: rho}
		for _, x := range []float64{1e-12, 1e-5, 0.03, 0.3, 0.7} {
			fz, fd := z.TradeOff(x), dense.TradeOff(x)
			if fz < fd-1e-13 || fz-fd > 1e-5 {
				t.Errorf("ρ=%v x=%v: zCDP f = %.15g, dense orders %.15g", rho, x, fz, fd)
			}
		}
		if ez, ed := z.WorstAdvantage(), dense.WorstAdvantage(); ez > ed+1e-13 || ed-ez > 1e-5 {
			t.Errorf("ρ=%v: zCDP η = %.15g, dense orders %.15g", rho, ez, ed)
		}
	}
}

// More ε, more ρ: less privacy everywhere.
func TestRDPMonotone(t *testing.T) {
	for _, x := range []float64{1e-8, 0.05, 0.4} {
		prevF, prevZ := 1.0, 1.0
		for _, e := range []float64{1e-6, 1e-3, 0.1, 0.5, 1, 3, 10, 100} {
			f := RDP{Orders: []float64{4}, Epsilons: []float64{e}}.TradeOff(x)
			fz := ZCDP{Rho: e}.TradeOff(x)
			if f > prevF+1e-15 || fz > prevZ+1e-13 {
				t.Errorf("x=%v ε=ρ=%v: RDP f %v (before %v), zCDP f %v (before %v)", x, e, f, prevF, fz, prevZ)
			}
			prevF, prevZ = f, fz
		}
	}
	prevEta, prevEps := 0.0, 0.0
	for _, rho := range []float64{1e-4, 0.01, 0.1, 1, 4} {
		z := ZCDP{Rho: rho}
		eta, eps := z.WorstAdvantage(), z.EpsilonAt(1e-6)
		if eta < prevEta || eps < prevEps {
			t.Errorf("ρ=%v: η %v (before %v), ε(1e-6) %v (before %v)", rho, eta, prevEta, eps, prevEps)
		}
		prevEta, prevEps = eta, eps
	}
}

// dp_accounting's own tests of compute_epsilon / compute_delta
// (rdp_privacy_accountant_test.py, test_compute_epsilon_delta_pure_dp and
// test_compute_epsilon_delta_gaussian; TF-Privacy's rdp_accountant_test.py
// has the same numbers): constant RDP 1.1 on orders 2…32 gives
// ε(1e-5) = 1.32783806176 (and δ(1.32783806176) = 1e-5); the Gaussian
// mechanism with σ = 4.530877117 on orders 1.000, 1.001, …, 99.999 gives
// ε(1e-6) = 1 and δ(1) = 1e-6 (assertAlmostEqual: 7 places).
func TestRDPEpsilonAtDPAccounting(t *testing.T) {
	var orders, eps []float64
	for a := 2; a <= 32; a++ {
		orders, eps = append(orders, float64(a)), append(eps, 1.1)
	}
	r := RDP{Orders: orders, Epsilons: eps}
	if got := r.EpsilonAt(1e-5); !approx.Near(got, 1.32783806176, 5e-8, 0) {
		t.Errorf("pure-DP RDP: ε(1e-5) = %.12g, dp_accounting 1.32783806176", got)
	}
	if got := r.DeltaAt(1.32783806176); !approx.Near(got, 1e-5, 5e-8, 0) {
		t.Errorf("pure-DP RDP: δ(1.32783806176) = %.12g, dp_accounting 1e-5", got)
	}
	orders = orders[:0]
	for i := 1000; i < 100000; i++ {
		orders = append(orders, 0.001*float64(i))
	}
	g := DPSGD{NoiseMultiplier: 4.530877117, SampleRate: 1, Steps: 1}.RDPAt(orders)
	if got := g.EpsilonAt(1e-6); !approx.Near(got, 1, 5e-8, 0) {
		t.Errorf("Gaussian σ=4.530877117: ε(1e-6) = %.12g, dp_accounting 1", got)
	}
	if got := g.DeltaAt(1); !approx.Near(got, 1e-6, 5e-8, 0) {
		t.Errorf("Gaussian σ=4.530877117: δ(1) = %.12g, dp_accounting 1e-6", got)
	}
	// The continuous order search of ZCDP finds the same ε for ρ = 1/(2σ²).
	if got := (ZCDP{Rho: 1 / (2 * 4.530877117 * 4.530877117)}).EpsilonAt(1e-6); !approx.Near(got, 1, 1e-6, 0) {
		t.Errorf("zCDP ρ = 1/(2σ²): ε(1e-6) = %.12g, want 1", got)
	}
}

// TF-Privacy's rdp_accountant_test.py, test_get_privacy_spent_gaussian: for
// the Gaussian mechanism with σ = 1 on orders 1.0, 1.1, …, 50.4, the RDP
// δ(ε) lies above the exact δ(ε) of Balle & Wang 2018 (Thm 8) and below the
// "standard" bound exp(−(ε − ½)²/2) for ε ≥ ½, for ε = 0, 0.1, …, 49.9.
func TestRDPDeltaGaussianBounds(t *testing.T) {
	var orders []float64
	for x := 10; x < 505; x++ {
		orders = append(orders, 0.1*float64(x))
	}
	r := DPSGD{NoiseMultiplier: 1, SampleRate: 1, Steps: 1}.RDPAt(orders)
	g := Gaussian{Mu: 1}
	for x := 0; x < 500; x++ {
		eps := 0.1 * float64(x)
		d := r.DeltaAt(eps)
		if exact := g.DeltaAt(eps); exact > d+1e-300 {
			t.Errorf("ε=%v: RDP δ %v below the exact Gaussian δ %v", eps, d, exact)
		}
		if eps >= 0.5 {
			if std := math.Exp(-0.5 * (eps - 0.5) * (eps - 0.5)); d > std+1e-300 {
				t.Errorf("ε=%v: RDP δ %v above the standard bound %v", eps, d, std)
			}
		}
	}
}

// EpsilonAt and DeltaAt are the two directions of one conversion:
// δ(ε(δ)) ≤ δ, and δ(0) = η.
func TestRDPEpsilonDeltaConsistent(t *testing.T) {
	for _, r := range []RDP{
		benchGPT2.RDP(),
		{Orders: []float64{1.5, 2, 10, 64}, Epsilons: []float64{0.2, 0.5, 3, 30}},
		{Orders: []float64{3, math.Inf(1)}, Epsilons: []float64{0.1, 2}},
	} {
		if d0, eta := r.DeltaAt(0), r.WorstAdvantage(); d0 != eta {
			t.Errorf("δ(0) = %v, η = %v", d0, eta)
		}
		for _, delta := range []float64{1e-12, 1e-5, 1e-2} {
			if e := r.EpsilonAt(delta); r.DeltaAt(e) > delta*(1+1e-12) {
				t.Errorf("%v: δ(ε(%v) = %v) = %v", r.Orders[:2], delta, e, r.DeltaAt(e))
			}
		}
	}
}

// ε(δ) of ρ-zCDP: no larger than the classic ρ + 2√(ρ ln(1/δ)) (Bun &
// Steinke 2016, Prop. 1.3), no smaller than the exact ε of the Gaussian
// mechanism with μ = √(2ρ) (which is ρ-zCDP), and consistent with DeltaAt
// of the same conversion. The classic formula gives the Census ε of
// Kulynych et al. 2025: ρ = 1.0001, δ = 1e-10 → 10.59763.
func TestZCDPEpsilonAt(t *testing.T) {
	for _, rho := range []float64{1e-4, 0.01, 0.5, 1.0001, 10} {
		z := ZCDP{Rho: rho}
		for _, delta := range []float64{1e-3, 1e-5, 1e-10, 1e-100} {
			e, classic, exact := z.EpsilonAt(delta), z.ClassicEpsilonAt(delta), Gaussian{Mu: math.Sqrt(2 * rho)}.EpsilonAt(delta)
			if e > classic || e < exact {
				t.Errorf("ρ=%v δ=%v: ε = %v, classic %v, exact Gaussian %v", rho, delta, e, classic, exact)
			}
		}
	}
	if got := (ZCDP{Rho: 1.0001}).ClassicEpsilonAt(1e-10); !approx.Near(got, 10.59763, 5e-6, 0) {
		t.Errorf("Census ε = %.8g, catalog 10.59763", got)
	}
}

// Validate, and the behaviour of invalid and degenerate guarantees: invalid
// pairs are ignored (a lower, never a higher curve), no usable pair means
// no privacy, ε = 0 means P = Q, and order 1 is the KL limit.
func TestRDPEdges(t *testing.T) {
	for _, r := range []RDP{
		{},
		{Orders: []float64{2}, Epsilons: []float64{1, 2}},
		{Orders: []float64{0.5}, Epsilons: []float64{1}},
		{Orders: []float64{2}, Epsilons: []float64{-1}},
		{Orders: []float64{math.NaN()}, Epsilons: []float64{1}},
	} {
		if r.Validate() == nil {
			t.Errorf("%+v: Validate accepted it", r)
		}
	}
	if err := (RDP{Orders: []float64{1, 2, math.Inf(1)}, Epsilons: []float64{0.1, 1, math.Inf(1)}}).Validate(); err != nil {
		t.Errorf("valid RDP rejected: %v", err)
	}
	none := RDP{Orders: []float64{0.5, 2, 3}, Epsilons: []float64{1, math.NaN(), math.Inf(1)}}
	if none.TradeOff(0.3) != 0 || none.Advantage(0.3) != 0.7 || none.WorstAdvantage() != 1 || !math.IsInf(none.EpsilonAt(1e-5), 1) {
		t.Errorf("no usable guarantee: f(0.3) = %v, adv %v, η %v", none.TradeOff(0.3), none.Advantage(0.3), none.WorstAdvantage())
	}
	mixed := RDP{Orders: []float64{0.5, 2}, Epsilons: []float64{1, 1}}
	if mixed.TradeOff(0.1) != (RDP{Orders: []float64{2}, Epsilons: []float64{1}}).TradeOff(0.1) {
		t.Errorf("an invalid pair changed the curve")
	}
	same := RDP{Orders: []float64{2, 5}, Epsilons: []float64{0, 3}}
	if f := same.TradeOff(0.3); f > 0.7 || f < 0.7-1e-14 || same.Advantage(0.3) != 0 || same.WorstAdvantage() != 0 || same.EpsilonAt(1e-9) != 0 {
		t.Errorf("ε = 0: f(0.3) = %v, adv %v, η %v", f, same.Advantage(0.3), same.WorstAdvantage())
	}
	// KL ≤ ρ alone (order 1), against the brute force of the KL constraints
	// KL(P'‖Q') ≤ ρ and KL(Q'‖P') ≤ ρ on a grid of y.
	kl := RDP{Orders: []float64{1}, Epsilons: []float64{0.5}}
	for _, x := range []float64{0.05, 0.2, 0.6} {
		div := func(p, q float64) float64 { return p*math.Log(p/q) + (1-p)*math.Log((1-p)/(1-q)) }
		var lo, hi float64
		for i := 0; i <= 200000; i++ {
			y := (1 - x) * float64(i) / 200000
			if div(x, 1-y) <= 0.5 && div(1-y, x) <= 0.5 {
				hi = y
				break
			}
			lo = y
		}
		if f := kl.TradeOff(x); f > hi+1e-15 || f < lo-1e-12 {
			t.Errorf("KL x=%v: f = %.15g, brute force in (%.15g, %.15g]", x, f, lo, hi)
		}
	}
	z := ZCDP{Rho: 0}
	if z.TradeOff(0.4) != 0.6 || z.Advantage(0.4) != 0 || z.WorstAdvantage() != 0 || z.EpsilonAt(1e-6) != 0 {
		t.Errorf("ρ = 0 is not perfectly private")
	}
	for _, rho := range []float64{math.NaN(), -1, math.Inf(1)} {
		z := ZCDP{Rho: rho}
		if z.TradeOff(0.4) != 0 || z.Advantage(0.4) != 0.6 || z.WorstAdvantage() != 1 || !math.IsInf(z.EpsilonAt(1e-6), 1) {
			t.Errorf("ρ = %v is not vacuous", rho)
		}
	}
	for _, r := range []Curve{RDP{Orders: []float64{2}, Epsilons: []float64{1000}}, ZCDP{Rho: 1e4}, ZCDP{Rho: 1e-12}} {
		for _, b := range []float64{0, 5e-324, 1e-300, 0.5, 1 - 1e-16, 1} {
			f, adv, eta := r.TradeOff(b), r.Advantage(b), r.WorstAdvantage()
			if math.IsNaN(f+adv+eta) || f < 0 || f > 1-b+1e-16 || adv < 0 || adv > 1-b+1e-16 || eta < 0 || eta > 1 {
				t.Errorf("%+v b=%v: f %v adv %v η %v", r, b, f, adv, eta)
			}
		}
	}
}

var benchGPT2 = DPSGD{NoiseMultiplier: 0.5715066078978425, SampleRate: 0.0038010957846441, Steps: 792}

// BenchmarkCurves times the RDP curve of a DP-SGD run (GPT-2 fine-tuning,
// Kulynych et al. 2025 §4.2) and a zCDP curve, one sub-benchmark per
// method.
func BenchmarkCurves(b *testing.B) {
	r, z := benchGPT2.RDP(), ZCDP{Rho: 0.5}
	for _, bm := range []struct {
		name string
		call func()
	}{
		{"RDPTradeOff", func() { r.TradeOff(0.1) }},
		{"RDPAdvantageTinyBaseline", func() { r.Advantage(1e-9) }},
		{"RDPWorstAdvantage", func() { r.WorstAdvantage() }},
		{"RDPEpsilonAt", func() { r.EpsilonAt(1e-5) }},
		{"ZCDPTradeOff", func() { z.TradeOff(0.1) }},
		{"ZCDPWorstAdvantage", func() { z.WorstAdvantage() }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				bm.call()
			}
		})
	}
}

// Randomized checks over a wide range of parameters (fixed seed, so the
// test is deterministic): for two guarantees, the curve is the maximum of
// the single curves, η the minimum of the single η, and the advantage the
// minimum of the single advantages (to 1e-9 relative where the gap is
// above 1e-6·x; below, the constraint is a difference of terms of size x
// whose rounding error, covered conservatively, is a relative ~1e-15·x/d
// of the gap); every curve of this
// file stays a valid trade-off value with 0 ≤ 1 − f − x ≤ η.
func TestCurvesRandomParameters(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(3))
	pick := func() float64 {
		switch rng.Intn(6) {
		case 0:
			return math.Exp(rng.Float64()*400 - 200)
		case 1:
			return rng.Float64()
		case 2:
			return []float64{0, 5e-324, 1e-300, 0.5, 1e300, math.Inf(1)}[rng.Intn(6)]
		default:
			return math.Exp(rng.Float64()*20 - 10)
		}
	}
	for i, n := 0, testenv.Count(300, 1500); i < n; i++ { // 1,500 with RISKBATCH_LONG_TESTS=1
		o1, o2, e1, e2 := 1+pick(), 1+pick(), pick(), pick()
		if rng.Intn(5) == 0 {
			o1 = 1
		}
		x := math.Min(pick(), 1)
		m := RDP{Orders: []float64{o1, o2}, Epsilons: []float64{e1, e2}}
		if x > 0 && x < 1 && e1 < 1e300 && e2 < 1e300 && o1 < 1e300 && o2 < 1e300 {
			s1 := RDP{Orders: []float64{o1}, Epsilons: []float64{e1}}
			s2 := RDP{Orders: []float64{o2}, Epsilons: []float64{e2}}
			f, fs := m.TradeOff(x), math.Max(s1.TradeOff(x), s2.TradeOff(x))
			a, as := m.Advantage(x), math.Min(s1.Advantage(x), s2.Advantage(x))
			eta, etas := m.WorstAdvantage(), math.Min(s1.WorstAdvantage(), s2.WorstAdvantage())
			if !approx.Near(f, fs, 1e-13, 1e-12) || !approx.Near(eta, etas, 1e-300, 1e-12) || (as > 1e-6*x && !approx.Near(a, as, 0, 1e-9)) {
				t.Errorf("%v %v x=%v: f %v / max %v; adv %v / min %v; η %v / min %v", m.Orders, m.Epsilons, x, f, fs, a, as, eta, etas)
			}
		}
		curves := []Curve{m, ZCDP{Rho: pick()}, Laplace{Epsilon: pick()}, RandomizedResponse{Epsilon: pick(), Categories: 1 + rng.Intn(1000)}}
		if i%50 == 0 {
			curves = append(curves, DPSGD{NoiseMultiplier: pick(), SampleRate: math.Min(pick(), 1), Steps: rng.Intn(100000)}.RDP())
		}
		for _, c := range curves {
			f, adv, eta := c.TradeOff(x), c.Advantage(x), c.WorstAdvantage()
			if math.IsNaN(f+adv+eta) || f < 0 || f > 1-x+1e-15 || adv < 0 || adv > 1-x+1e-15 || eta < 0 || eta > 1 || adv > eta+1e-12 {
				t.Errorf("%+v x=%v: f %v adv %v η %v", c, x, f, adv, eta)
			}
		}
	}
}
