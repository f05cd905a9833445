package approx

import (
	"math"
	"math/big"
)

// BigPrec is the precision, in bits, of the high-precision references the
// tests compute with BigExp and BigLog (about 90 decimal digits).
const BigPrec = 300

// Big returns x as a big.Float of BigPrec bits.
func Big(x float64) *big.Float { return new(big.Float).SetPrec(BigPrec).SetFloat64(x) }

// BigExp returns e^x to about BigPrec bits: the Taylor series at x/2^k,
// |x/2^k| < 2⁻¹⁶, squared k times (k grows with log₂|x|, losing k bits of the
// 300). For the tests' references only: no care for speed.
func BigExp(x *big.Float) *big.Float {
	r := new(big.Float).SetPrec(BigPrec).Set(x)
	k := 0
	for lim := Big(0x1p-16); new(big.Float).Abs(r).Cmp(lim) > 0; k++ {
		r.Quo(r, Big(2))
	}
	sum, term := Big(1), Big(1)
	for n := 1; n < 24; n++ { // each term gains 16 bits
		term.Mul(term, r)
		term.Quo(term, Big(float64(n)))
		sum.Add(sum, term)
	}
	for ; k > 0; k-- {
		sum.Mul(sum, sum)
	}
	return sum
}

// BigLog returns ln y for y > 0 by Halley's iteration on e^z = y from the
// float64 logarithm of y's mantissa and exponent (cubic convergence: four
// steps from 16 digits exceed BigPrec).
func BigLog(y *big.Float) *big.Float {
	mant := new(big.Float)
	exp := y.MantExp(mant)
	m, _ := mant.Float64()
	z := Big(math.Log(m) + float64(exp)*math.Ln2)
	two := Big(2)
	for i := 0; i < 4; i++ {
		e := BigExp(z)
		num := new(big.Float).SetPrec(BigPrec).Sub(y, e)
		den := new(big.Float).SetPrec(BigPrec).Add(y, e)
		num.Mul(num, two)
		z.Add(z, num.Quo(num, den))
	}
	return z
}
