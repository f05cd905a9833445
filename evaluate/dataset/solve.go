package dataset

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Goal seek for one unknown of any mechanism: the total's risk, computed
// by a callback at a candidate value of the unknown, is monotone in it;
// the solver brackets the boundary of the values that meet the target and
// bisects it in the order of the float64 values (or of the integers), so
// that the answer meets the target and the next more aggressive value
// does not.

// Risk is the total's measure at a candidate value, an upper bound, with
// the error of its computation (the PLD accountant's, 0 where exact),
// which counts against the target: the value meets it when Bound + Error
// ≤ Target.Value.
type Risk struct {
	Bound, Error float64
}

// Problem is one unknown to solve against a dataset's target.
type Problem struct {
	Target Target
	// Risk computes the total's Risk with the unknown at x. An error stops
	// the solver, which returns it wrapped.
	Risk func(x float64) (Risk, error)
	// Increasing says the risk grows with x (steps, epochs, compositions,
	// ε, μ): the answer is the largest x that meets the target. Otherwise
	// it falls with x (σ, a Laplace scale, a noise multiplier): the
	// smallest.
	Increasing bool
	// Integer restricts x to the integers (steps, epochs, compositions).
	Integer bool
	// Lo and Hi bound the values tried, Lo < Hi, finite (integers for
	// Integer).
	Lo, Hi float64
	// Start, when in [Lo, Hi], is where the search begins: a close
	// estimate saves evaluations. Otherwise it begins at the geometric
	// middle of the bracket (in the order of the floats).
	Start float64
}

// RelativeStep is how close to the boundary a real answer is: the next
// more aggressive value, which does not meet the target, is within
// RelativeStep of the answer, relatively.
const RelativeStep = 1e-9

// Solution is a solved unknown.
type Solution struct {
	// Value meets the target; Risk is the total's at it.
	Value float64
	Risk  Risk
	// Next is the next more aggressive value tried, one step (integers) or
	// at most RelativeStep relatively (reals) beyond Value, which does not
	// meet the target; NextRisk is the total's at it. With AtLimit, the
	// whole bracket meets the target, Value is its aggressive end and Next
	// is NaN.
	Next     float64
	NextRisk Risk
	AtLimit  bool
	// Evaluations counts the calls of Problem.Risk.
	Evaluations int
}

// BracketError is a Problem whose bracket the solver cannot search.
type BracketError struct {
	Lo, Hi float64
	Why    string
}

func (e *BracketError) Error() string {
	return fmt.Sprintf("bracket [%s, %s]: %s", formatValue(e.Lo), formatValue(e.Hi), e.Why)
}

// UnmetError says that no value of the unknown meets the target: at the
// safest value (the bracket's end of least risk; for a noise solved in
// closed form, infinite noise: the other rows alone) the total already
// reaches Reached (its bound and error) > Target.Value.
type UnmetError struct {
	Target Target
	// At is the safest value tried; NaN for the other rows alone.
	At      float64
	Reached float64
}

func (e *UnmetError) Error() string {
	where := "the other rows already reach"
	if !math.IsNaN(e.At) {
		where = "at " + formatValue(e.At) + ", the safest value tried, the total reaches"
	}
	return fmt.Sprintf("cannot meet the target %s %s: %s %s > %s (by %s)",
		e.Target.Kind, formatValue(e.Target.Value), where, formatValue(e.Reached), formatValue(e.Target.Value), formatValue(e.Excess()))
}

// Excess is by how much the target is missed at the safest value.
func (e *UnmetError) Excess() float64 { return e.Reached - e.Target.Value }

// Solve finds the most aggressive value of the unknown whose total meets
// the target (see Problem and Solution). From Start it steps towards the
// boundary by doubling steps in the order of the values (a factor of about
// 1.06, then 1.12, 1.26, … for reals; 1, 2, 4, … for integers) until the
// boundary is bracketed, then bisects the bracket in that order: at most
// 64 halvings however wide it is. The errors are a *TargetError, a
// *BracketError, an *UnmetError, or the callback's, wrapped.
func Solve(p Problem) (Solution, error) {
	if err := p.Target.Check(); err != nil {
		return Solution{}, err
	}
	if err := p.checkBracket(); err != nil {
		return Solution{}, err
	}
	s := solver{p: p}
	// a is the order of aggression: meets holds for a ≤ boundary.
	aLo, aHi := s.order(p.Lo), s.order(p.Hi)
	if aLo > aHi {
		aLo, aHi = aHi, aLo
	}
	a0 := s.order(s.start())
	ok0, err := s.meets(a0)
	if err != nil {
		return Solution{}, err
	}
	var good, bad int64
	step := int64(1)
	if !p.Integer {
		step = 1 << 48 // about 6% near 1
	}
	if ok0 {
		good = a0
		for {
			if good == aHi {
				v, r := s.value(good), s.risks[good]
				return Solution{Value: v, Risk: r, Next: math.NaN(), AtLimit: true, Evaluations: s.calls}, nil
			}
			c := aHi
			if uint64(step) < uint64(aHi-good) { // the difference as unsigned cannot overflow
				c = good + step
			}
			ok, err := s.meets(c)
			if err != nil {
				return Solution{}, err
			}
			if !ok {
				bad = c
				break
			}
			good, step = c, doubled(step)
		}
	} else {
		bad = a0
		for {
			if bad == aLo {
				r := s.risks[bad]
				return Solution{}, &UnmetError{Target: p.Target, At: s.value(bad), Reached: numeric.AddUp(r.Bound, math.Max(r.Error, 0))}
			}
			c := aLo
			if uint64(step) < uint64(bad-aLo) {
				c = bad - step
			}
			ok, err := s.meets(c)
			if err != nil {
				return Solution{}, err
			}
			if ok {
				good = c
				break
			}
			bad, step = c, doubled(step)
		}
	}
	for !s.close(good, bad) {
		mid := midpoint(good, bad)
		ok, err := s.meets(mid)
		if err != nil {
			return Solution{}, err
		}
		if ok {
			good = mid
		} else {
			bad = mid
		}
	}
	return Solution{Value: s.value(good), Risk: s.risks[good], Next: s.value(bad), NextRisk: s.risks[bad], Evaluations: s.calls}, nil
}

// checkBracket returns a *BracketError for a bracket the solver cannot
// search.
func (p Problem) checkBracket() error {
	bad := func(why string) error { return &BracketError{Lo: p.Lo, Hi: p.Hi, Why: why} }
	switch {
	case p.Risk == nil:
		return errors.New("no risk function to solve with")
	case math.IsNaN(p.Lo) || math.IsNaN(p.Hi) || math.IsInf(p.Lo, 0) || math.IsInf(p.Hi, 0):
		return bad("expected finite ends")
	case !(p.Lo < p.Hi):
		return bad("expected Lo < Hi")
	case p.Integer && (p.Lo != math.Trunc(p.Lo) || p.Hi != math.Trunc(p.Hi)):
		return bad("expected integer ends for an integer unknown")
	case p.Integer && (math.Abs(p.Lo) > 1<<53 || math.Abs(p.Hi) > 1<<53):
		return bad("expected integer ends within ±2^53, where every integer is a float64")
	}
	return nil
}

// solver is the state of one Solve: the order of aggression of the values
// and the risks computed.
type solver struct {
	p     Problem
	risks map[int64]Risk
	calls int
}

// key maps a value to an int64 in its order: the integer itself, or the
// float's ordered bits (numeric.FloatKey).
func (s *solver) key(x float64) int64 {
	if s.p.Integer {
		return int64(x)
	}
	return numeric.FloatKey(x)
}

func (s *solver) unkey(k int64) float64 {
	if s.p.Integer {
		return float64(k)
	}
	return numeric.KeyFloat(k)
}

// order is the value's key in the order of aggression: increasing with
// the risk.
func (s *solver) order(x float64) int64 {
	if s.p.Increasing {
		return s.key(x)
	}
	return -s.key(x)
}

func (s *solver) value(a int64) float64 {
	if s.p.Increasing {
		return s.unkey(a)
	}
	return s.unkey(-a)
}

// start is where the search begins.
func (s *solver) start() float64 {
	p := s.p
	if p.Start >= p.Lo && p.Start <= p.Hi {
		if p.Integer {
			return math.Round(p.Start)
		}
		return p.Start
	}
	kl, kh := s.key(p.Lo), s.key(p.Hi)
	return s.unkey(midpoint(kl, kh))
}

// meets evaluates the total at the value of order a.
func (s *solver) meets(a int64) (bool, error) {
	x := s.value(a)
	r, err := s.p.Risk(x)
	s.calls++
	if err != nil {
		return false, fmt.Errorf("the total at %s: %w", formatValue(x), err)
	}
	if s.risks == nil {
		s.risks = make(map[int64]Risk)
	}
	s.risks[a] = r
	return s.p.Target.Meets(r.Bound, r.Error), nil
}

// close reports whether the bracket [good, bad] of orders is narrow
// enough: adjacent, or (reals) within RelativeStep relatively.
func (s *solver) close(good, bad int64) bool {
	if uint64(bad-good) <= 1 {
		return true
	}
	if s.p.Integer {
		return false
	}
	x, y := s.value(good), s.value(bad)
	return math.Abs(y-x) <= RelativeStep*math.Max(math.Abs(x), math.Abs(y))
}

// midpoint is ⌊(a + b)/2⌋ without overflow.
func midpoint(a, b int64) int64 { return (a & b) + ((a ^ b) >> 1) }

// doubled doubles a step, up to 2^62.
func doubled(step int64) int64 {
	if step >= 1<<62 {
		return step
	}
	return 2 * step
}
