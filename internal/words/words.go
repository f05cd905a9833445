// Package words formats lists and counts for messages: the few phrases
// that packages priors and priors/build both put in front of a user.
package words

import (
	"strconv"
	"strings"
)

// Quoted formats names as "a", "b", "c" (each in Go syntax).
func Quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// Count formats "1 cell" or "n cells": n with the singular or the plural.
func Count(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}
