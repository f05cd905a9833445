package numeric

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// upward returns the float64 that math/big's 53-bit arithmetic rounded
// towards +∞ gives for op: the reference for the directed operations
// (math/big rounds every operation correctly in the mode asked for).
func upward(op func(z, x, y *big.Float) *big.Float, x, y float64) float64 {
	z := new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf)
	op(z, new(big.Float).SetFloat64(x), new(big.Float).SetFloat64(y))
	f, _ := z.Float64()
	return f
}

// downward is upward rounded towards −∞.
func downward(op func(z, x, y *big.Float) *big.Float, x, y float64) float64 {
	z := new(big.Float).SetPrec(53).SetMode(big.ToNegativeInf)
	op(z, new(big.Float).SetFloat64(x), new(big.Float).SetFloat64(y))
	f, _ := z.Float64()
	return f
}

// AddUp, SubDown, MulUp, DivUp, DivDown and SqrtUp agree bit for bit with math/big rounded
// towards +∞ on random operands of both signs and wide exponents, and
// leave exact results where they are.
func TestDirectedUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	operand := func() float64 {
		x := math.Ldexp(1+rng.Float64(), rng.IntN(400)-200)
		if rng.IntN(2) == 0 {
			return -x
		}
		return x
	}
	for i := 0; i < 20000; i++ {
		a, b := operand(), operand()
		if got, want := AddUp(a, b), upward((*big.Float).Add, a, b); got != want {
			t.Fatalf("AddUp(%g, %g) = %.17g, math/big rounded up: %.17g", a, b, got, want)
		}
		if got, want := SubDown(a, b), downward((*big.Float).Sub, a, b); got != want {
			t.Fatalf("SubDown(%g, %g) = %.17g, math/big rounded down: %.17g", a, b, got, want)
		}
		if got, want := MulUp(a, b), upward((*big.Float).Mul, a, b); got != want {
			t.Fatalf("MulUp(%g, %g) = %.17g, math/big rounded up: %.17g", a, b, got, want)
		}
		if got, want := DivUp(a, b), upward((*big.Float).Quo, a, b); got != want {
			t.Fatalf("DivUp(%g, %g) = %.17g, math/big rounded up: %.17g", a, b, got, want)
		}
		if got, want := DivDown(a, b), downward((*big.Float).Quo, a, b); got != want {
			t.Fatalf("DivDown(%g, %g) = %.17g, math/big rounded down: %.17g", a, b, got, want)
		}
		x := math.Abs(a)
		// big.Float.Sqrt does not promise a correctly rounded result at
		// 53 bits: take it to 300 bits, then round that up.
		z := new(big.Float).SetPrec(300).Sqrt(new(big.Float).SetFloat64(x))
		z = new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf).Set(z)
		if want, _ := z.Float64(); SqrtUp(x) != want {
			t.Fatalf("SqrtUp(%g) = %.17g, math/big rounded up: %.17g", x, SqrtUp(x), want)
		}
	}
	// δ less an accountant's error: 1e-5 − 3.3e-12 rounds up to nearest
	// (math/big), so SubDown is one float below it.
	// (variables: a constant expression would be exact before rounding).
	delta, e := 1e-5, 3.3e-12
	if near, down := delta-e, downward((*big.Float).Sub, delta, e); !(down < near) || SubDown(delta, e) != down {
		t.Errorf("SubDown(1e-5, 3.3e-12) = %.17g, want %.17g below %.17g", SubDown(delta, e), down, near)
	}
	// Exact results stay: 3·0.5, 1 + 2, 6/4, √(9/16).
	if MulUp(3, 0.5) != 1.5 || AddUp(1, 2) != 3 || DivUp(6, 4) != 1.5 || SqrtUp(0.5625) != 0.75 {
		t.Error("an exact result was moved")
	}
	// The float 0.1 is 0.1000000000000000055511151231257827; times 10 it
	// is 1.000000000000000055…, which rounds down to nearest, to 1: rounded
	// up it is 1 + 2⁻⁵². Times 3 it rounds up to nearest already
	// (0.30000000000000004) and stays (exact values: Python's
	// fractions.Fraction(0.1)*10 and *3).
	if got := MulUp(0.1, 10); got != 1+MachineEpsilon {
		t.Errorf("MulUp(0.1, 10) = %.17g, want 1 + 2⁻⁵²", got)
	}
	if got := MulUp(0.1, 3); got != 0.30000000000000004 {
		t.Errorf("MulUp(0.1, 3) = %.17g", got)
	}
	// Below the range where residuals survive, the result moves up anyway.
	if got := MulUp(0x1p-600, 0x1p-450); got != math.Nextafter(0x1p-1050, 1) {
		t.Errorf("MulUp of a subnormal product = %g", got)
	}
}
