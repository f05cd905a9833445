package bound

import (
	"math"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// betaCatalog holds β of Thm 3.2 (Swanberg et al. 2025) at chosen (p, ε):
// reference values computed independently from the formula in high precision.
var betaCatalog = []struct{ p, eps, beta float64 }{
	{0.1, 1, 0.231969316684},
	{0.5, 1, 0.73105857863},
	{1e-9, 17, 0.0235852521264},
	{0.56, 1, 0.775766222304},
	{0.3731, 1, 0.61799801533},
	{0.2, 0, 0.2},
	{1e-9, 800, 1},
	{0.3, math.Inf(1), 1},
}

// The posterior on the β values above.
func TestOneRunPosteriorCatalog(t *testing.T) {
	for _, c := range betaCatalog {
		if got := OneRunPosterior(c.eps, c.p); !approx.Near(got, c.beta, 1e-11, 0) {
			t.Errorf("β(p=%v, ε=%v) = %.12g, catalog %.12g", c.p, c.eps, got, c.beta)
		}
	}
}

// Thm 3.5 with one target and v = 1 is β + (1 − β)δ: Swanberg et al. 2025 reference values
// #1 gives 0.231976997 for p = 0.1, ε = 1, δ = 1e-5.
func TestOneRunAdvantageCatalog(t *testing.T) {
	bound := 0.231976997
	want := (bound - 0.1) / 0.9
	if got := OneRunAdvantage(1, 1e-5, 0.1); !approx.Near(got, want, 2e-9, 0) {
		t.Errorf("onerun advantage = %.10g, want %.10g", got, want)
	}
}

// ε_protect of Swanberg et al. 2025 §5.3 for A = 0.05 and δ = 0, computed
// independently as ln(1 + 1/(19p)); with δ = 0 Thm 3.5 and Cor. 3.4 agree, so
// these values apply to both. The paper's uniform 9-digit canary needs ≈ 17.78 (§5.3,
// Fig. 2b prints "17.8"), also with δ = 1e-5.
func TestOneRunEpsilonProtectCatalog(t *testing.T) {
	for _, c := range []struct{ p, eps float64 }{
		{1e-9, 17.77882688},
		{0.1, 0.4228568508},
		{0.5, 0.1000834586},
	} {
		got, ok := OneRunEpsilonProtect(0.05, 0, c.p)
		if !ok || !approx.Near(got, c.eps, 1e-8, 0) {
			t.Errorf("ε_protect(p=%v) = %.10g, catalog %.10g", c.p, got, c.eps)
		}
	}
	got, ok := OneRunEpsilonProtect(0.05, 1e-5, 1e-9)
	if !ok || math.Round(got*100)/100 != 17.78 {
		t.Errorf("uniform 9-digit canary at δ = 1e-5: ε_protect = %v, paper ≈ 17.78", got)
	}
	// Swanberg et al. 2025: p = 0.99 with δ = 0.05 → none (δ above the target).
	if _, ok := OneRunEpsilonProtect(0.05, 0.05+1e-9, 0.99); ok {
		t.Errorf("ε_protect with δ above the target should not exist")
	}
}

// Properties: the advantage is in [δ, 1], equals δ at ε = 0, grows with ε
// and with p, and ε_protect inverts it.
func TestOneRunProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		eps := 50 * rng.Float64()
		if i%5 == 0 {
			eps = 700 * rng.Float64()
		}
		delta := math.Pow(10, -12*rng.Float64()-1)
		p := math.Pow(10, -12*rng.Float64())
		if p >= 1 {
			p = 0.5
		}
		adv := OneRunAdvantage(eps, delta, p)
		if math.IsNaN(adv) || adv < delta || adv > 1 {
			t.Fatalf("adv(ε=%v, δ=%v, p=%v) = %v out of [δ, 1]", eps, delta, p, adv)
		}
		if a0 := OneRunAdvantage(0, delta, p); a0 != delta {
			t.Fatalf("adv at ε = 0 is %v, want δ = %v", a0, delta)
		}
		if more := OneRunAdvantage(eps*1.01+1e-3, delta, p); more < adv {
			t.Fatalf("adv decreases in ε at ε=%v p=%v: %v < %v", eps, p, more, adv)
		}
		if more := OneRunAdvantage(eps, delta, math.Min(p*1.01, 1-1e-12)); more < adv {
			t.Fatalf("adv decreases in p at ε=%v p=%v", eps, p)
		}
		beta := OneRunPosterior(eps, p)
		if beta < p || beta > 1 {
			t.Fatalf("β(ε=%v, p=%v) = %v outside [p, 1]", eps, p, beta)
		}
		// The inverse is well conditioned only where adv moves visibly
		// with ε: away from δ (tiny p·ε) and from 1 (saturation).
		target := adv
		if adv-delta > 1e-6*adv && adv < 1-1e-6 {
			back, ok := OneRunEpsilonProtect(target, delta, p)
			if !ok || !approx.Near(back, eps, 1e-9, 1e-6) {
				t.Fatalf("ε_protect(adv(ε=%v)) = %v (p=%v δ=%v)", eps, back, p, delta)
			}
		}
	}
}

// Randomized response attains Thm 3.2 for near-uniform priors (Swanberg et
// al. Prop. B.1; Swanberg et al. 2025): with D = [0.5, 0.3, 0.2] and ε = 1,
// the Bayes-optimal attacker who sees RR output a guesses a, and its
// success Pr(X = a | RR(X) = a) equals β(D(a), ε). The posterior is
// computed here directly from the RR channel, independently of
// OneRunPosterior; a separate high-precision evaluation gives 0.731058579,
// 0.538101526, 0.404609675.
func TestRandomizedResponseAttainsPosterior(t *testing.T) {
	d := []float64{0.5, 0.3, 0.2}
	eps := 1.0
	m := float64(len(d))
	keep := math.Exp(eps) / (math.Exp(eps) - 1 + m) // Pr(RR(x) = x)
	flip := 1 / (math.Exp(eps) - 1 + m)             // Pr(RR(x) = y), y ≠ x
	for a, want := range []float64{0.731058579, 0.538101526, 0.404609675} {
		num := d[a] * keep
		den := 0.0
		for b := range d {
			if b == a {
				den += d[b] * keep
			} else {
				den += d[b] * flip
			}
		}
		direct := num / den
		if !approx.Near(direct, want, 1e-9, 0) || !approx.Near(OneRunPosterior(eps, d[a]), direct, 1e-12, 0) {
			t.Errorf("output %d: posterior %v, β = %v, catalog %v", a, direct, OneRunPosterior(eps, d[a]), want)
		}
	}
}

// Subnormal probabilities are valid inputs (a baseline of 1e-310 parses);
// numeric.LogPos and numeric.NormQuantile are tested on them in package
// numeric.
func TestSubnormalProbabilities(t *testing.T) {
	// One-run bounds at a subnormal baseline grow like e^ε·p.
	if got := OneRunAdvantage(10, 0, 1e-310); !approx.Near(got, math.Expm1(10)*1e-310, 0, 1e-9) {
		t.Errorf("OneRunAdvantage at p = 1e-310: %v", got)
	}
}

// §3.2 bit leakage (values computed from its formula): 1.894636 bits at ε = 1, α = 0.5;
// 1 bit at ε = 0, α = 0.5; α = 1 leaks nothing; at α = 0.05 and ε = 17 it
// is 28.77 bits, below log2(10^9) = 29.90 (§3.2: 9 uniform digits are safe
// for ε < 17); ε = 1000 is
// 1000/ln 2 + log2(1 + e^-1000) = 1442.695040888963 with no overflow.
func TestOneRunBitLeakage(t *testing.T) {
	for _, c := range []struct{ eps, alpha, bits, tol float64 }{
		{1, 0.5, 1.894636, 5e-7},
		{0, 0.5, 1, 1e-15},
		{3, 1, 0, 0},
		{math.Inf(1), 1, 0, 0},
		{17, 0.05, 28.77, 5e-3},
		{1000, 0.5, 1000 / math.Ln2, 1e-12},
	} {
		got, err := OneRunBitLeakage(c.eps, c.alpha)
		if err != nil || !approx.Near(got, c.bits, c.tol, 0) {
			t.Errorf("bits(ε=%v, α=%v) = %.10g, %v; want %v", c.eps, c.alpha, got, err, c.bits)
		}
	}
	if got, _ := OneRunBitLeakage(math.Inf(1), 0.5); !math.IsInf(got, 1) {
		t.Errorf("bits at ε = ∞ = %v, want +Inf", got)
	}
	// Against the printed formula log2(e^ε(1/α − 1) + 1) where it is safe.
	for _, eps := range []float64{0.1, 1, 5, 20} {
		for _, a := range []float64{0.01, 0.3, 0.9, 0.999} {
			want := math.Log2(math.Exp(eps)*(1/a-1) + 1)
			if got, _ := OneRunBitLeakage(eps, a); !approx.Near(got, want, 1e-12, 1e-12) {
				t.Errorf("bits(ε=%v, α=%v) = %.15g, formula %.15g", eps, a, got, want)
			}
		}
	}
}

// Comparators (§4.2 Narcissus, §4.3 ReRo, compared in §4.4 and Fig. 1;
// values computed from the formulas): ReRo e^ε·κ = 0.271828 at
// ε = 1, κ = 0.1 and 0.545982 at ε = 4, κ = 0.01, both above ours (0.231969
// and 0.355461); Narcissus e^ε·p + δ is never below Thm 3.5 with n = 1 and
// equals it at ε = 0; both cap at 1 without overflow.
func TestOneRunComparators(t *testing.T) {
	for _, c := range []struct{ eps, kappa, rero, ours float64 }{
		{1, 0.1, 0.271828, 0.231969},
		{4, 0.01, 0.545982, 0.355461},
	} {
		got, err := OneRunReRo(c.eps, []float64{c.kappa / 3, c.kappa, 0})
		if err != nil || !approx.Near(got, c.rero, 5e-7, 0) {
			t.Errorf("ReRo(ε=%v, κ=%v) = %.8g, %v; catalog %v", c.eps, c.kappa, got, err, c.rero)
		}
		ours := mustTail(t, c.eps, 0, []float64{c.kappa}).Thm35(1)
		if !approx.Near(ours, c.ours, 5e-7, 0) || ours > got {
			t.Errorf("ours(ε=%v, p=%v) = %.8g, catalog %v, ReRo %v", c.eps, c.kappa, ours, c.ours, got)
		}
	}
	if got, _ := OneRunReRo(800, []float64{1e-9}); got != 1 {
		t.Errorf("ReRo at ε = 800 = %v, want 1 (capped, no overflow)", got)
	}
	if got, _ := OneRunReRo(math.Inf(1), []float64{0}); got != 0 {
		t.Errorf("ReRo with κ = 0 at ε = ∞ = %v, want 0", got)
	}
	rng := rand.New(rand.NewSource(24))
	for i := 0; i < 500; i++ {
		eps, p, delta := 5*rng.Float64(), rng.Float64(), 1e-3*rng.Float64()
		nar, err := OneRunNarcissus(eps, delta, p)
		if err != nil {
			t.Fatal(err)
		}
		ours := mustTail(t, eps, delta, []float64{p}).Thm35(1)
		if nar < ours-1e-15 || !approx.Near(nar, min(1, math.Exp(eps)*p+delta), 1e-15, 1e-14) {
			t.Fatalf("Narcissus(ε=%v, δ=%v, p=%v) = %v; ours %v; formula %v", eps, delta, p, nar, ours, math.Exp(eps)*p+delta)
		}
	}
	// §4.2: at ε = 0 Narcissus equals the paper's own bound, Cor
	// 3.4 with n = 1 (β + δ = p + δ), up to the upward round-off
	// allowances of both (≤ 1e-13).
	if got, _ := OneRunNarcissus(0, 0.01, 0.2); !approx.Near(got, mustTail(t, 0, 0.01, []float64{0.2}).Cor34(1), 1e-13, 0) {
		t.Errorf("Narcissus at ε = 0 (%v) should equal Cor 3.4 with n = 1", got)
	}
	if got, _ := OneRunNarcissus(math.Inf(1), 1e-5, 0); got != 1e-5 {
		t.Errorf("Narcissus(∞, δ, p = 0) = %v, want δ", got)
	}
	if got, _ := OneRunNarcissus(900, 1e-5, 1e-300); got != 1 {
		t.Errorf("Narcissus(900, δ, 1e-300) = %v, want 1", got)
	}
}

// ε_protect for heterogeneous priors is that of the most exposed target:
// ε_protect of §5.3 (A = 0.05): p = 0.1 → 0.4228568508 at δ = 0, computed
// from ln(1 + 1/(19p)). (With δ > 0 §5.3 uses the Cor 3.4 advantage; this
// package's ε_protect uses the Thm 3.5 one, σ(ln p + ln(e^ε − 1))(1 − δ) + δ,
// whose inverse at s = (A − δ)/(1 − δ) is ln(1 + s/((1 − s)p)), computed
// here directly.)
func TestOneRunEpsilonProtectMax(t *testing.T) {
	p := []float64{1e-9, 0.05, 0.1, 0.02}
	s := (0.05 - 1e-5) / (1 - 1e-5)
	thm35 := math.Log(1 + s/((1-s)*0.1))
	for _, c := range []struct{ delta, want float64 }{{0, 0.4228568508}, {1e-5, thm35}} {
		got, ok, err := OneRunEpsilonProtectMax(0.05, c.delta, p)
		if err != nil || !ok || !approx.Near(got, c.want, 1e-9, 0) {
			t.Errorf("ε_protect(δ=%v) = %.10g, %v, %v; catalog %v", c.delta, got, ok, err, c.want)
		}
	}
	if got, ok, _ := OneRunEpsilonProtectMax(0.05, 0, []float64{0, 0}); !ok || !math.IsInf(got, 1) {
		t.Errorf("all p = 0: ε_protect = %v, %v; want +Inf", got, ok)
	}
	if _, ok, _ := OneRunEpsilonProtectMax(0.05, 0.06, p); ok {
		t.Errorf("δ above the target: ε_protect should not exist")
	}
}
