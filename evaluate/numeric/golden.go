package numeric

// invPhi is 1/φ = (√5 − 1)/2, the golden-section ratio.
const invPhi = 0.6180339887498948482045868343656381177203091798057628621

// Golden is the state of a golden-section search for a minimum of a
// unimodal function f on [A, B] (Kiefer 1953): A < C < D < B with C and D
// at the golden ratio of the bracket, FC = f(C), FD = f(D), and FA, FB the
// values at the ends where they were evaluated (NaN otherwise). Every step
// keeps the part of the bracket that holds the minimum and evaluates f at
// one new point, so the caller sees every evaluation (Step returns it):
// callers that keep the best value found, or that need the final four
// points to bound the optimum, read them from the fields.
//
// Written by hand rather than with gonum/optimize, whose line searches do
// not expose the bracket and stop on their own criteria; the callers here
// stop on a bracket width of their choosing.
type Golden struct {
	A, C, D, B     float64
	FA, FC, FD, FB float64
}

// GoldenPoints returns the two interior points c = b − (b − a)/φ and
// d = a + (b − a)/φ of [a, b].
func GoldenPoints(a, b float64) (c, d float64) {
	return b - invPhi*(b-a), a + invPhi*(b-a)
}

// Step narrows the bracket once: to [A, D] when FC ≤ FD (ties go left),
// else to [C, B]. It evaluates f at the one new interior point and returns
// that value. A NaN FC or FD compares false, so the step goes right.
func (g *Golden) Step(f func(float64) float64) float64 {
	if g.FC <= g.FD { // the minimiser is in [A, D]
		g.B, g.FB = g.D, g.FD
		g.D, g.FD = g.C, g.FC
		g.C = g.B - invPhi*(g.B-g.A)
		g.FC = f(g.C)
		return g.FC
	}
	g.A, g.FA = g.C, g.FC // in [C, B]
	g.C, g.FC = g.D, g.FD
	g.D = g.A + invPhi*(g.B-g.A)
	g.FD = f(g.D)
	return g.FD
}
