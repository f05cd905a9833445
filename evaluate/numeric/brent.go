package numeric

import "math"

// cGold is 1 − 1/φ = (3 − √5)/2, the golden-section fraction.
const cGold = 0.3819660112501051517954131656343618822796908201942371378

// BrentMin searches [a, b] for a minimum of f by Brent's method (Brent
// 1973, "Algorithms for Minimization without Derivatives", ch. 5): a
// parabola through the three best points found so far where it steps
// inside the bracket and shrinks the step, a golden-section step
// otherwise. For a smooth unimodal f it converges superlinearly, where
// golden-section search gains a factor 1/φ a step. It stops once the
// bracket around the best point is at most about 4·tol wide, or after
// maxEval evaluations of f, and returns the best point and its value.
// Every evaluation is f's, so a caller that must keep the best of all
// the values seen (each a valid bound, say) keeps it in f.
func BrentMin(f func(float64) float64, a, b, tol float64, maxEval int) (x, fx float64) {
	x = a + cGold*(b-a)
	w, v := x, x
	fx = f(x)
	fw, fv := fx, fx
	var d, e float64 // the last step and the one before it
	for n := 1; n < maxEval; n++ {
		m := 0.5 * (a + b)
		if math.Abs(x-m) <= 2*tol-0.5*(b-a) {
			break
		}
		golden := true
		if math.Abs(e) > tol {
			// The parabola through (x, fx), (w, fw), (v, fv): its vertex is
			// x + p/q.
			r := (x - w) * (fx - fv)
			q := (x - v) * (fx - fw)
			p := (x-v)*q - (x-w)*r
			q = 2 * (q - r)
			if q > 0 {
				p = -p
			} else {
				q = -q
			}
			if math.Abs(p) < math.Abs(0.5*q*e) && p > q*(a-x) && p < q*(b-x) {
				e, d = d, p/q
				if u := x + d; u-a < 2*tol || b-u < 2*tol {
					d = math.Copysign(tol, m-x)
				}
				golden = false
			}
		}
		if golden {
			if x >= m {
				e = a - x
			} else {
				e = b - x
			}
			d = cGold * e
		}
		u := x + d
		if math.Abs(d) < tol {
			u = x + math.Copysign(tol, d)
		}
		fu := f(u)
		switch {
		case fu <= fx:
			if u >= x {
				a = x
			} else {
				b = x
			}
			v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
		default:
			if u < x {
				a = u
			} else {
				b = u
			}
			if fu <= fw || w == x {
				v, fv, w, fw = w, fw, u, fu
			} else if fu <= fv || v == x || v == w {
				v, fv = u, fu
			}
		}
	}
	return x, fx
}
