package priors

// Closest returns up to n of the candidates within a small edit distance
// of key (ignoring case), closest first; a candidate that extends key, or
// that key extends, also counts as close. It is how a prior key that is not
// found gets its suggestions, and riskbatch uses it for header names too.
func Closest(key string, candidates []string, n int) []string {
	return closeKeys(key, candidates, n)
}
