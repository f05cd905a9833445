package evaluate

import (
	"math"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// β vectors: reference values for Swanberg et al. 2025, computed with
// check scripts of the paper's formulas.
func TestOneRunPosteriorCatalog(t *testing.T) {
	for _, c := range []struct{ p, eps, beta float64 }{
		{0.1, 1, 0.231969316684},
		{0.5, 1, 0.73105857863},
		{1e-9, 17, 0.0235852521264},
		{0.56, 1, 0.775766222304},
		{0.3731, 1, 0.61799801533},
		{0.2, 0, 0.2},
		{1e-9, 800, 1},
		{0.3, math.Inf(1), 1},
	} {
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

// ε_protect for A = 0.05 and δ = 0 from Swanberg et al. 2025 ("ε_protect
// vectors"); with δ = 0 Thm 3.5 and Cor. 3.4 agree, so the catalog's values
// apply as printed. The paper's uniform 9-digit canary needs ≈ 17.78 (§5.3,
// L310, "17.8"), also with δ = 1e-5.
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
// OneRunPosterior; the catalog's check script gives 0.731058579,
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
