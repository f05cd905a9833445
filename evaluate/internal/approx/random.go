package approx

import "math/rand"

// RandomPrior returns a random probability vector of n entries for
// property tests over non-uniform priors: each entry is drawn by draw and
// then set to 0 with probability 1/zeroIn (so that priors with impossible
// values are tried too), and the vector is normalised (Normalise). It is nil
// when every entry is 0. rng is read in the same order whichever entries
// are zeroed, so a test's later draws do not depend on them.
func RandomPrior(rng *rand.Rand, n, zeroIn int, draw func() float64) []float64 {
	p := make([]float64, n)
	var s float64
	for i := range p {
		p[i] = draw()
		if rng.Intn(zeroIn) == 0 {
			p[i] = 0
		}
		s += p[i]
	}
	if s == 0 {
		return nil
	}
	return Normalise(p)
}
