package editdist

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Closest returns up to n of the candidates that look like a misspelling
// of word, closest first (ties in candidate order). Names compare ignoring
// case, with space, "-" and "_" alike; a candidate is close when its edit
// distance is small for the word's length (none for one or two letters, 1
// up to four, 2 up to eight, 3 beyond), or when one of the two starts with
// the other and the shorter has at least three letters ("evaluate" and
// "eval", "sample" and "sample_rate"). Candidates equal to word are left
// out: the caller asks only about words it did not find.
func Closest(word string, candidates []string, n int) []string {
	w := foldName(word)
	k := utf8.RuneCountInString(w)
	limit := 3
	switch {
	case k <= 2:
		limit = 0
	case k <= 4:
		limit = 1
	case k <= 8:
		limit = 2
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, c := range candidates {
		f := foldName(c)
		if f == w || seen[c] {
			continue
		}
		d := Distance(w, f, limit)
		if d > limit && min(k, utf8.RuneCountInString(f)) >= 3 && (strings.HasPrefix(f, w) || strings.HasPrefix(w, f)) {
			d = limit
		}
		if d <= limit {
			seen[c] = true
			cs = append(cs, cand{c, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for _, c := range cs[:max(0, min(n, len(cs)))] {
		out = append(out, c.name)
	}
	return out
}

// foldName is how Closest compares names: lower case, trimmed, with space,
// "-" and "_" alike and leading dashes dropped (flags).
func foldName(s string) string {
	s = strings.ToLower(strings.TrimLeft(strings.TrimSpace(s), "-"))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}
