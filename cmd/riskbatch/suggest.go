package main

import (
	"strings"
)

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
