// Package editdist measures how far apart two names are, for the "did you
// mean" suggestions of header names, mechanisms, prior keys, commands and
// flags.
package editdist

import "slices"

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

// Nearest returns up to n of the candidates that dist finds close (ok),
// closest first: the smallest distance d first, candidates at the same
// distance in their given order. It is the ranking of every "did you mean"
// list; dist says what close means for the names at hand (usually Distance
// on folded names within a limit).
func Nearest(candidates []string, n int, dist func(c string) (d int, ok bool)) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, c := range candidates {
		if d, ok := dist(c); ok {
			cs = append(cs, cand{c, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}
