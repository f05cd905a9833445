package numeric

import "math"

// Binomial returns C(n, k) as a float64 (0 when k > n), exactly for the
// sizes of attribute sets (a product of small ratios, rounded to the
// nearest integer when it is below 2^53).
func Binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	if c < 1<<53 {
		return math.Round(c)
	}
	return c
}
