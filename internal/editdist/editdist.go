// Package editdist measures how far apart two names are, for the "did you
// mean" suggestions of header names, mechanisms, prior keys, commands and
// flags.
package editdist

// Distance returns the Levenshtein distance of a and b counted in runes
// (insertions, deletions and substitutions of one rune each), or limit+1
// as soon as it certainly exceeds limit: a suggestion only needs to know
// whether a name is close, so the search stops early on names that are not.
func Distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit+1)
}
