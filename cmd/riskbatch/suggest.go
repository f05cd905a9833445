package main

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/internal/editdist"
)

// closest returns up to n of the candidates that look like a misspelling
// of word, closest first (ties in candidate order). Names compare ignoring
// case, with space, "-" and "_" alike; a candidate is close when its edit
// distance is small for the word's length (none for one or two letters, 1
// up to four, 2 up to eight, 3 beyond), or when one of the two starts with
// the other and the shorter has at least three letters ("evaluate" and
// "eval", "sample" and "sample_rate"). Candidates equal to word are left
// out: the caller asks only about words it did not find.
func closest(word string, candidates []string, n int) []string {
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
		d := editdist.Distance(w, f, limit)
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

// foldName is how closest compares names: lower case, trimmed, with space,
// "-" and "_" alike and leading dashes dropped (flags).
func foldName(s string) string {
	s = strings.ToLower(strings.TrimLeft(strings.TrimSpace(s), "-"))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}

// didYouMean is "; did you mean X?" (or "X or Y?") for the suggestions,
// each quoted by quote, or "" when there are none.
func didYouMean(suggestions []string, quote func(string) string) string {
	if len(suggestions) == 0 {
		return ""
	}
	q := make([]string, len(suggestions))
	for i, s := range suggestions {
		q[i] = quote(s)
	}
	return "; did you mean " + orList(q) + "?"
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string { return joinList(words, "or") }

// andList joins words as "a", "a and b", "a, b and c".
func andList(words []string) string { return joinList(words, "and") }

// joinList joins words with commas, and the last two with conjunction.
func joinList(words []string, conjunction string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conjunction + " " + words[len(words)-1]
}
