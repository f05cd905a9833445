package evaluate

import (
	"math"
	"math/big"
	"math/rand"
	"sort"
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// The registry's columns that state an upper bound on risk, each checked by
// TestUpperBoundsNeverBelow against an independent computation. The other
// columns, and why they are not here:
//   - fdp_eps_for_target, fdp_mu_for_target, fdp_sigma_for_target,
//     fdp_noise_for_target(_rdp), gb_eps_for_target, pmp_eps_for_target,
//     onerun_eps_protect: calibrations (the largest safe parameter), not
//     bounds; each is checked by plugging its value back into its bound
//     (pmp_target_test.go, fdp_calibrate_test.go and the rows tests);
//   - fdp_noise_reduction, pld_error, pld_grid_step: properties of the
//     accountants, not of the risk;
//   - pso_baseline: the success of an attack that does not see the
//     release, not a bound on one that does;
//   - pso_cohen_nissim, rero_eps, rero_rdp, rero_zcdp, gb_mia_yeom,
//     gb_mia_erlingsson, gb_mia_humphries, onerun_narcissus: comparators,
//     published formulas reported as printed (TestGBRowsIndependent and
//     the rows tests recompute them);
//   - gb_rero_exact, gb_urero, gb_urero_uniform, gb_aia_adv: closed forms
//     of pure ε recomputed by TestGBRowsIndependent, not by a second
//     algorithm here;
//   - eps_at_delta_rdp, fdp_advantage_rdp, fdp_worst_advantage_rdp and the
//     f-DP columns of dpsgd rows: a second PLD or RDP accountant would be
//     needed; fdp_binary_success, fano_adv_alpha1: checked in
//     evaluate/bound (fdp_binary_test.go, fano_test.go);
//   - the onerun_* tail and posterior columns and pmp_data_*: their
//     independent references (Poisson-binomial enumeration, Prop. 9's
//     enumeration) live in evaluate/bound's tests, not here.
var upperBoundColumns = []string{
	"fdp_success", "fdp_advantage", "fdp_norm_advantage", "fdp_worst_advantage",
	"spso_success", "pso_fdp", "adp_advantage", "pmp_mia_success", "eps_at_delta",
	"fano_adv_opt", "fano_success_opt",
}

// npTradeOff is the trade-off of testing P against Q on a finite set of
// outcomes (p[i], q[i]) by the Neyman–Pearson lemma, computed by itself:
// the test rejects P on the outcomes of the largest ratio q/p first
// (randomising on the last); power(α) = 1 − f(α) is its power at level α.
type npTradeOff struct{ p, q []float64 }

// sorted returns the outcomes by decreasing q/p.
func (d npTradeOff) sorted() npTradeOff {
	idx := make([]int, len(d.p))
	for i := range idx {
		idx[i] = i
	}
	ratio := func(i int) float64 {
		if d.p[i] == 0 {
			return math.Inf(1)
		}
		return d.q[i] / d.p[i]
	}
	sort.SliceStable(idx, func(a, b int) bool { return ratio(idx[a]) > ratio(idx[b]) })
	var out npTradeOff
	for _, i := range idx {
		out.p, out.q = append(out.p, d.p[i]), append(out.q, d.q[i])
	}
	return out
}

// power is 1 − f(α) of sorted outcomes.
func (d npTradeOff) power(alpha float64) float64 {
	level, power := 0.0, 0.0
	for i := range d.p {
		if level+d.p[i] <= alpha {
			level += d.p[i]
			power += d.q[i]
			continue
		}
		power += d.q[i] * (alpha - level) / d.p[i]
		break
	}
	return math.Min(1, power)
}

// composedEpsDelta is the k-fold composition of Kairouz, Oh & Viswanath's
// dominating pair of (ε, δ)-DP (2015, Thm 3.3's proof): per step P =
// (δ, (1 − δ)·s(ε), (1 − δ)·s(−ε), 0), Q its mirror, s the logistic
// function; the product depends only on the counts, so its outcomes are
// "a δ-outcome of P", its mirror, and j of k steps at ratio e^{−ε}
// (binomial weights from lgamma in log space).
func composedEpsDelta(eps, delta float64, k int) npTradeOff {
	lp, lq := -math.Log1p(math.Exp(-eps)), -eps-math.Log1p(math.Exp(-eps)) // ln s(ε), ln s(−ε)
	some := -math.Expm1(float64(k) * math.Log1p(-delta))                   // 1 − (1 − δ)^k
	d := npTradeOff{p: []float64{some, 0}, q: []float64{0, some}}
	lk, _ := math.Lgamma(float64(k + 1))
	for j := 0; j <= k; j++ {
		lj, _ := math.Lgamma(float64(j + 1))
		lkj, _ := math.Lgamma(float64(k - j + 1))
		c := lk - lj - lkj + float64(k)*math.Log1p(-delta)
		d.p = append(d.p, math.Exp(c+float64(k-j)*lp+float64(j)*lq))
		d.q = append(d.q, math.Exp(c+float64(j)*lp+float64(k-j)*lq))
	}
	return d.sorted()
}

// rrPair is k-ary randomized response's outputs on two inputs: the true
// value with probability e^ε/(e^ε + k − 1), each other with 1/(e^ε + k − 1);
// the k − 2 values neither input has are merged (their ratio is 1).
func rrPair(eps float64, k int) npTradeOff {
	z := math.Exp(eps) + float64(k-1)
	a, b := math.Exp(eps)/z, 1/z
	if math.IsInf(z, 1) {
		a, b = 1, 0
	}
	return npTradeOff{p: []float64{a, b, float64(k-2) * b}, q: []float64{b, a, float64(k-2) * b}}.sorted()
}

// gaussianPower is 1 − G_μ(α) = 1 − Φ(Φ⁻¹(1 − α) − μ) through the standard
// library's erfc and erfcinv (evaluate/numeric has its own).
func gaussianPower(mu, alpha float64) float64 {
	t := math.Sqrt2 * math.Erfcinv(2*alpha)
	// Two Newton steps on Φ̄(t) = α: math.Erfcinv is accurate to ~1e-9
	// relative in the far tail, Erfc to an ulp.
	for range 2 {
		t += (0.5*math.Erfc(t/math.Sqrt2) - alpha) / (math.Exp(-t*t/2) / math.Sqrt(2*math.Pi))
	}
	return 0.5 * math.Erfc((t-mu)/math.Sqrt2)
}

// laplacePower is 1 − f(α) for Laplace(0, 1) against Laplace(ε, 1) (Dong,
// Roth & Su 2022, Prop. A.6: f = 1 − e^ε α below e^{−ε}/2, e^{−ε}/(4α) up to
// 1/2, e^{−ε}(1 − α) above).
func laplacePower(eps, alpha float64) float64 {
	switch {
	case alpha < math.Exp(-eps)/2:
		return math.Exp(eps) * alpha
	case alpha <= 0.5:
		return 1 - math.Exp(-eps)/(4*alpha)
	}
	return 1 - math.Exp(-eps)*(1-alpha)
}

// epsDeltaAdvantageBig is (e^ε − 1 + 2δ)/(e^ε + 1), the worst advantage of
// f_{ε,δ}, in 300-bit arithmetic.
func epsDeltaAdvantageBig(eps, delta float64) float64 {
	e := approx.BigExp(approx.Big(eps))
	num := new(big.Float).Sub(e, approx.Big(1))
	num.Add(num, new(big.Float).Mul(approx.Big(2), approx.Big(delta)))
	v, _ := num.Quo(num, new(big.Float).Add(e, approx.Big(1))).Float64()
	return v
}

// ubRow is a random row of one mechanism with the power 1 − f of an
// independent trade-off function f and, for pure and approx rows
// of one composition, its (ε, δ).
type ubRow struct {
	row        map[string]string
	power      func(alpha float64) float64
	eps, delta float64 // −1 when the row's (ε, δ) is not its own
	muGauss    float64 // > 0: the row is a Gaussian curve G_μ (or dominates one)
	exact      bool    // f is the row's own curve, not a mechanism it covers
}

// randomUBRow draws a row of every mechanism with a curve that can be
// recomputed here, including extremes: ε up to 700, δ down to 1e-300,
// baselines down to 1e-12.
func randomUBRow(rng *rand.Rand) ubRow {
	logU := func(lo, hi float64) float64 {
		return math.Pow(10, math.Log10(lo)+rng.Float64()*(math.Log10(hi)-math.Log10(lo)))
	}
	pick := func(v ...float64) float64 { return v[rng.Intn(len(v))] }
	eps := pick(700, 1e-9, logU(1e-6, 50), logU(0.01, 5))
	delta := pick(0, 1e-300, 1e-12, logU(1e-300, 0.1))
	r := ubRow{row: map[string]string{}, eps: -1, delta: -1, exact: true}
	switch mech := []string{"pure", "approx", "approx-composed", "gaussian", "gdp", "marginals", "laplace", "rr", "zcdp", "rdp"}[rng.Intn(10)]; mech {
	case "pure":
		r.row["mechanism"], r.row["epsilon"] = "pure", ftoa(eps)
		r.eps, r.delta = eps, 0
		r.power = composedEpsDelta(eps, 0, 1).power
	case "approx":
		r.row["mechanism"], r.row["epsilon"], r.row["delta"] = "approx", ftoa(eps), ftoa(delta)
		r.eps, r.delta = eps, delta
		r.power = composedEpsDelta(eps, delta, 1).power
	case "approx-composed":
		k := []int{2, 7, 40}[rng.Intn(3)]
		eps, delta = logU(1e-3, 3), pick(0, 1e-12, logU(1e-10, 1e-3))
		r.row["mechanism"], r.row["epsilon"], r.row["delta"], r.row["compositions"] = "approx", ftoa(eps), ftoa(delta), itoa(k)
		r.power = composedEpsDelta(eps, delta, k).power
	case "gaussian", "gdp", "marginals":
		mu := pick(50, 1e-6, logU(1e-4, 20))
		switch mech {
		case "gaussian":
			sens := logU(0.1, 10)
			r.row["sigma"], r.row["sensitivity"] = ftoa(sens/mu), ftoa(sens)
			mu = sens / (sens / mu)
		case "gdp":
			r.row["mu"] = ftoa(mu)
		default:
			sigma := logU(0.5, 100)
			r.row["mechanism"], r.row["marginal_k"], r.row["columns_total"], r.row["columns_unknown"], r.row["sigma"] = "marginals", "2", "10", "3", ftoa(sigma)
			mu = math.Sqrt(24) * math.Sqrt2 / sigma // K = C(10, 2) − C(7, 2) = 24
		}
		if delta > 0 {
			r.row["delta"] = ftoa(delta)
		}
		r.muGauss = mu
		r.power = func(a float64) float64 { return gaussianPower(mu, a) }
	case "laplace":
		b := logU(1/50.0, 1e3)
		r.row["laplace_scale"] = ftoa(b)
		e := 1 / b
		r.power = func(a float64) float64 { return laplacePower(e, a) }
	case "rr":
		k := []int{2, 3, 100}[rng.Intn(3)]
		eps = math.Min(eps, 30)
		r.row["mechanism"], r.row["epsilon"], r.row["rr_categories"] = "rr", ftoa(eps), itoa(k)
		r.power = rrPair(eps, k).power
	case "zcdp":
		// A ρ-zCDP row covers the Gaussian mechanism with μ = √(2ρ): its
		// bounds are at least that mechanism's (a lower check only).
		rho := logU(1e-6, 20)
		r.row["rho"] = ftoa(rho)
		mu := math.Sqrt(2 * rho)
		r.power, r.exact = func(a float64) float64 { return gaussianPower(mu, a) }, false
	case "rdp":
		// (α₀, ε₀)-RDP covers the Gaussian mechanism with α₀μ²/2 = ε₀.
		order, e0 := 1+logU(0.01, 100), logU(1e-4, 20)
		r.row["rdp_order"], r.row["rdp_epsilon"] = ftoa(order), ftoa(e0)
		mu := math.Sqrt(2 * e0 / order)
		r.power, r.exact = func(a float64) float64 { return gaussianPower(mu, a) }, false
	}
	r.row["baseline"] = ftoa(pick(1e-12, 0.5, logU(1e-12, 0.99)))
	if rng.Intn(2) == 0 {
		r.row["w"], r.row["records"] = ftoa(pick(1e-12, logU(1e-9, 1e-3))), "1000"
	}
	if rng.Intn(2) == 0 { // the baseline is then 1/M
		delete(r.row, "baseline")
		r.row["candidates"] = itoa([]int{2, 10, 1000}[rng.Intn(3)])
	}
	return r
}

// worstAdvantage is max_α power(α) − α over a grid of 4,000 points (log-spaced
// near 0 and 1 and linear between): a lower estimate of the true maximum.
func worstAdvantage(power func(float64) float64) float64 {
	best := 0.0
	try := func(a float64) {
		if a > 0 && a < 1 {
			best = math.Max(best, power(a)-a)
		}
	}
	for i := 0; i <= 1000; i++ {
		try(math.Pow(10, -300+float64(i)*0.3))
		try(1 - math.Pow(10, -16+float64(i)*0.016))
		try(float64(i) / 1000)
		try(0.5 + (float64(i)-500)/1e5)
	}
	return best
}

// ubRef is an independent value a column must not be below, and the size
// of the terms whose difference formed it (its rounding allowance).
type ubRef struct{ v, scale float64 }

// upperBoundRefs returns, for one evaluated row, the independent value
// below which each column it has must not be.
func upperBoundRefs(r ubRow, out map[string]table.Cell) map[string]ubRef {
	refs := map[string]ubRef{}
	b := parseFloatOr(r.row["baseline"])
	if m := r.row["candidates"]; m != "" {
		b = 1 / parseFloatOr(m)
	}
	pb := r.power(b)
	adv := math.Max(0, pb-b)
	refs["fdp_advantage"] = ubRef{adv, pb}
	refs["fdp_success"] = ubRef{b + adv, pb}
	refs["fdp_norm_advantage"] = ubRef{adv / (1 - b), pb / (1 - b)}
	worst := worstAdvantage(r.power)
	refs["fdp_worst_advantage"] = ubRef{worst, 1}
	if w := r.row["w"]; w != "" {
		pw := r.power(parseFloatOr(w))
		refs["spso_success"] = ubRef{pw, pw}
		refs["pso_fdp"] = ubRef{math.Min(1, 1000*pw), 1000 * pw}
	}
	if r.eps >= 0 {
		// adp_advantage is the worst advantage of f_{ε,δ}; pmp_mia_success
		// is the Bayes success at prior 1/2, (1 + that)/2.
		a := epsDeltaAdvantageBig(r.eps, r.delta)
		refs["adp_advantage"] = ubRef{a, 0}
		refs["pmp_mia_success"] = ubRef{(1 + a) / 2, 0}
	} else if c, ok := out["pmp_mia_success"]; ok && c.Kind == table.Number {
		// Any mechanism: the best membership test at prior 1/2 succeeds
		// with (1 + η)/2, η its worst advantage.
		refs["pmp_mia_success"] = ubRef{(1 + worst) / 2, 1}
	}
	if m := r.row["candidates"]; m != "" && r.exact {
		// The best guess among M uniform candidates from the release of
		// M-ary randomized response at the row's ε (pure rows), or, for
		// any mechanism and M = 2, from the best test between the two.
		mf := parseFloatOr(m)
		if r.eps >= 0 && r.delta == 0 {
			z := math.Exp(r.eps) + mf - 1
			s := math.Exp(r.eps) / z
			if math.IsInf(z, 1) {
				s = 1
			}
			refs["fano_success_opt"] = ubRef{s, 1}
			refs["fano_adv_opt"] = ubRef{(s - 1/mf) / (1 - 1/mf), 1}
		} else if mf == 2 {
			refs["fano_success_opt"] = ubRef{(1 + worst) / 2, 1}
			refs["fano_adv_opt"] = ubRef{worst, 1}
		}
	}
	return refs
}

// parseFloatOr reads a number this test wrote with ftoa.
func parseFloatOr(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// Every upper bound on risk in the registry (upperBoundColumns) is never
// below an independent computation on random and extreme rows of every
// mechanism that has one here: a Neyman–Pearson trade-off on the exact
// dominating pair (pure, approx and composed approx: Kairouz, Oh &
// Viswanath 2015; k-ary randomized response), the closed forms of the
// Gaussian (standard-library erfc) and Laplace curves, 300-bit arithmetic
// for (e^ε − 1 + 2δ)/(e^ε + 1), the Gaussian privacy profile for
// eps_at_delta, a 4,000-point grid for the worst advantage, and attacks that
// achieve a success (randomized response among M candidates) for the Fano
// columns. A bound lowered by 1% fails it (checked by scaling one down by
// hand). 100 rows by default, 2,000 with the long tests.
func TestUpperBoundsNeverBelow(t *testing.T) {
	rng := newRand(2126)
	e := New()
	seen := map[string]int{}
	for i, n := 0, testenv.Count(100, 2000); i < n; i++ {
		r := randomUBRow(rng)
		st, out := evalWith(t, e, r.row)
		if st == StatusError {
			t.Fatalf("%v: %s", r.row, out["message"].Str)
		}
		refs := upperBoundRefs(r, out)
		for _, col := range upperBoundColumns {
			c := out[col]
			if c.Kind != table.Number {
				continue
			}
			seen[col]++
			if col == "eps_at_delta" {
				checkEpsAtDelta(t, r, c.Num)
				continue
			}
			ref, ok := refs[col]
			if !ok || math.IsNaN(ref.v) {
				continue
			}
			if c.Num < ref.v-1e-9*ref.v-1e-14*ref.scale {
				t.Errorf("%v: %s = %.17g is below the independent %.17g", r.row, col, c.Num, ref.v)
			}
		}
	}
	for _, col := range upperBoundColumns {
		if seen[col] == 0 {
			t.Errorf("%s: no row had a value", col)
		}
	}
}

// checkEpsAtDelta checks an eps_at_delta value against the row's privacy
// profile: for Gaussian curves, δ(ε) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ)
// (Balle & Wang 2018, Thm 8) must be at most the row's δ at the column's ε;
// for pure and approx rows the ε is the row's own.
func checkEpsAtDelta(t *testing.T, r ubRow, eps float64) {
	t.Helper()
	delta := parseFloatOr(r.row["delta"])
	switch {
	case r.eps >= 0:
		if eps < r.eps {
			t.Errorf("%v: eps_at_delta %.17g below the row's ε %.17g", r.row, eps, r.eps)
		}
	case r.muGauss > 0 && delta > 0:
		mu := r.muGauss
		lead := math.Exp(lnPhi(mu/2 - eps/mu))
		second := math.Exp(eps + lnPhi(-mu/2-eps/mu))
		// The reference's own rounding: a few ulps of each term (erfc and
		// the asymptotic series), which cancel when δ ≪ Φ(μ/2 − ε/μ).
		if d := lead - second; d > delta*(1+1e-9)+1e-12*lead {
			t.Errorf("%v: eps_at_delta %.17g gives δ(ε) = %.17g, above the row's δ %.17g", r.row, eps, d, delta)
		}
	}
}

// lnPhi is ln Φ(x): through erfc where Φ(x) is a normal float64, and by the
// asymptotic series Φ(x) = φ(x)/|x|·(1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸ …)
// (Abramowitz & Stegun 26.2.12) below −30, where erfc underflows and the
// series is accurate to 1e-14.
func lnPhi(x float64) float64 {
	if x > -30 {
		return math.Log(0.5 * math.Erfc(-x/math.Sqrt2))
	}
	x2 := x * x
	series, term := 1.0, 1.0
	for n := 1; n < 8; n++ {
		term *= -float64(2*n-1) / x2
		series += term
	}
	return -x2/2 - 0.5*math.Log(2*math.Pi) - math.Log(-x) + math.Log(series)
}
