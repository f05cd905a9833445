package curve

import (
	"math"
	"math/big"
	"testing"
)

// basicFloor is 1 − (1 − δ)^k exactly, as a rational: the δ of k (ε, δ)
// steps at kε (Kairouz, Oh & Viswanath 2015, Thm 3.3, i = 0).
func basicFloor(delta float64, k int) *big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFloat64(delta))
	p := big.NewRat(1, 1)
	for i := 0; i < k; i++ {
		p.Mul(p, q)
	}
	return p.Sub(big.NewRat(1, 1), p)
}

// below reports whether the float x is below the rational r.
func below(x float64, r *big.Rat) bool { return new(big.Rat).SetFloat64(x).Cmp(r) < 0 }

// Three (0.5, δ) steps at δ_total just under 3δ. Where δ_total is still
// at least 1 − (1 − δ)³ (math/big, exactly), basic composition holds and
// the ε is 1.5, even where the search on the padded profile certifies
// nothing (δ = 1e-14): the product 3·δ rounded down to nearest, and two
// ulps below it, which the comparison with the rounded product refused
// (+Inf). Where δ_total is below 1 − (1 − δ)³ (δ = 1e-17: 3·δ rounded
// to nearest falls below it by more than the 3δ² between them), no ε
// holds and EpsilonAt says +Inf, where comparing with the rounded product
// gave 1.5; 3·δ rounded up keeps 1.5.
func TestBasicCompositionExact(t *testing.T) {
	const eps, k = 0.5, 3
	check := func(delta, deltaTotal, want float64, what string) {
		t.Helper()
		c, err := NewComposedApprox(eps, delta, k)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.EpsilonAt(deltaTotal); got != want {
			t.Errorf("%s: EpsilonAt(%.17g) of 3 × (0.5, %g) = %g; want %g", what, deltaTotal, delta, got, want)
		}
	}
	// The tolerance side.
	delta := 1e-14
	nearest := k * delta
	if math.FMA(k, delta, -nearest) <= 0 {
		t.Fatal("3·1e-14 no longer rounds down: pick another δ")
	}
	for _, dt := range []float64{nearest, math.Nextafter(math.Nextafter(nearest, 0), 0)} {
		if below(dt, basicFloor(delta, k)) {
			t.Fatalf("δ_total %.17g is below 1 − (1 − δ)³: the case is wrong", dt)
		}
		if !BasicComposes(k, delta, dt) {
			t.Errorf("BasicComposes(3, 1e-14, %.17g) = false; it is ≥ 1 − (1 − δ)³", dt)
		}
		check(delta, dt, eps*k, "above the floor")
	}
	// The exact side.
	delta = 1e-17
	nearest = k * delta
	if !below(nearest, basicFloor(delta, k)) {
		t.Fatal("3·1e-17 rounded to nearest is no longer below 1 − (1 − δ)³: pick another δ")
	}
	if BasicComposes(k, delta, nearest) {
		t.Errorf("BasicComposes(3, 1e-17, %.17g) = true; it is below 1 − (1 − δ)³", nearest)
	}
	check(delta, nearest, math.Inf(1), "below the floor")
	check(delta, math.Nextafter(nearest, 1), eps*k, "3·δ rounded up")
	// Pure steps: any δ_total ≥ 0.
	if !BasicComposes(k, 0, 0) || BasicComposes(1, 1e-5, math.Nextafter(1e-5, 0)) {
		t.Error("BasicComposes: pure steps at 0, or one step just below its own δ, decided wrong")
	}
}
