package numeric

import "math"

// Sum is a compensated running sum (Neumaier 1974, the Kahan–Babuška
// improvement of Kahan summation): the rounding error of every addition is
// carried in a second accumulator, so that the result is within a few ulps
// of the exact sum for any number and order of terms. The zero value is an
// empty sum.
type Sum struct{ sum, comp float64 }

// Add adds x to the sum.
func (s *Sum) Add(x float64) {
	t := s.sum + x
	if math.Abs(s.sum) >= math.Abs(x) {
		s.comp += (s.sum - t) + x
	} else {
		s.comp += (x - t) + s.sum
	}
	s.sum = t
}

// Value returns the sum.
func (s *Sum) Value() float64 { return s.sum + s.comp }

// scale multiplies the sum (both accumulators) by r.
func (s *Sum) scale(r float64) {
	s.sum *= r
	s.comp *= r
}

// LogSum accumulates ln Σ e^{xᵢ} with a running scale (the largest xᵢ so
// far) and a compensated Sum of the e^{xᵢ − scale}, so that the relative
// error stays a few ulps for any number of terms. The zero value is an
// empty sum.
type LogSum struct {
	scale float64
	sum   Sum
}

// Add adds e^x to the sum; x = −Inf (and NaN) adds nothing.
func (a *LogSum) Add(x float64) {
	if math.IsInf(x, -1) || math.IsNaN(x) {
		return
	}
	if a.sum.sum == 0 {
		a.scale, a.sum = x, Sum{sum: 1}
		return
	}
	var t float64
	if x > a.scale {
		a.sum.scale(math.Exp(a.scale - x))
		a.scale = x
		t = 1
	} else {
		t = math.Exp(x - a.scale)
	}
	a.sum.Add(t)
}

// Value returns ln Σ e^{xᵢ}, −Inf for an empty sum.
func (a *LogSum) Value() float64 {
	if a.sum.sum == 0 {
		return math.Inf(-1)
	}
	return a.scale + math.Log(a.sum.sum+a.sum.comp)
}
