package priors

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// inlineForms lists the inline priors for error messages.
const inlineForms = "the inline priors are uniform(M) with a whole number M ≥ 2, " +
	"zipf(s, N) and zipf(s, N, rank) with an exponent s ≥ 0, a whole domain size N ≥ 2 or inf (then s > 1), " +
	"and a whole rank from 1 to N, and list(p1, p2, …) of per-target probabilities in [0, 1], " +
	"where an item p x n stands for n targets of prior p"

// InlineError is the error of a malformed inline prior: the text as
// written and what is wrong with it, so that a caller with little room
// (a row's message) can say it briefly.
type InlineError struct {
	Text    string // the prior cell as written
	Problem string // what is wrong: "M must be from 2 to 2^53, not 1"
}

// Error names the inline prior and the problem, and lists the valid forms.
func (e *InlineError) Error() string {
	return fmt.Sprintf("inline prior %q: %s; %s", e.Text, e.Problem, inlineForms)
}

// maxCandidates is the largest M of uniform(M): integers beyond 2^53 are
// not exact in float64.
const maxCandidates = 1 << 53

// ParseInline parses an inline prior, as a release row's prior cell may
// hold one instead of a key (shared/spec/CONTRACT.md):
//
//   - uniform(M): M candidates, equally likely; one target with
//     p = 1/M (Candidates() = M);
//   - zipf(s, N): Zipf(s, N), p(r) = r^{−s}/H_{N,s}; one target whose value
//     the attacker guesses best by the top rank, p = p(1) = 1/H_{N,s}
//     (Swanberg et al. 2025, Harmonic);
//   - zipf(s, N, rank): one target with p = p(rank), the success of a
//     guess of that rank (e.g. a canary of that rank);
//   - list(p1, p2, …): one target per item, of prior success p_i in
//     [0, 1], in order, as a prior table's rows would give them; an item
//     "p x n" stands for n targets of prior p, so that an audit with
//     inclusion probability π is list(π x m_in, 1−π x m_out) (an "in"
//     guess succeeds a priori with π, an "out" guess with 1 − π).
//
// Names are case-insensitive, spaces are free; M, N and rank may be
// written as 1e9; N may be inf (also infinity or ∞), which needs s > 1.
// inline reports whether s is an inline prior at all (it starts with
// "uniform(", "zipf(" or "list("): when it is false, s is a key for a prior table
// and err is nil; when it is true and err is not nil, the text is a
// malformed inline prior and err says the valid forms.
func ParseInline(s string) (p Prior, inline bool, err error) {
	text := strings.TrimSpace(s)
	open := strings.IndexByte(text, '(')
	if open < 0 {
		return Prior{}, false, nil
	}
	name := strings.ToLower(strings.TrimSpace(text[:open]))
	if name != "uniform" && name != "zipf" && name != "list" {
		return Prior{}, false, nil
	}
	fail := func(format string, a ...any) (Prior, bool, error) {
		return Prior{}, true, &InlineError{Text: s, Problem: fmt.Sprintf(format, a...)}
	}
	if !strings.HasSuffix(text, ")") {
		return fail("missing the closing parenthesis")
	}
	body := text[open+1 : len(text)-1]
	if strings.ContainsAny(body, "()") {
		return fail("unexpected parenthesis")
	}
	args := strings.Split(body, ",")
	for i := range args {
		args[i] = strings.TrimSpace(args[i])
	}
	if name == "list" {
		return parseList(s, args)
	}
	if name == "uniform" {
		if len(args) != 1 {
			return fail("uniform takes one argument, M")
		}
		m, _, err := wholeNumber(args[0], false)
		if err != nil {
			return fail("M: %v", err)
		}
		if m < 2 || m > maxCandidates {
			return fail("M must be from 2 to 2^53, not %s", args[0])
		}
		p := Prior{key: "uniform(" + formatWhole(m) + ")", source: "inline", candidates: int64(m)}
		p.add(1/m, 1)
		return p, true, nil
	}
	if len(args) != 2 && len(args) != 3 {
		return fail("zipf takes two or three arguments, s, N and optionally rank, not %d", len(args))
	}
	sv, err := strconv.ParseFloat(args[0], 64)
	if err != nil || math.IsNaN(sv) || math.IsInf(sv, 0) || sv < 0 {
		return fail("the exponent s = %q is not a finite number ≥ 0", args[0])
	}
	n, _, err := wholeNumber(args[1], true)
	if err != nil {
		return fail("N: %v", err)
	}
	if n < 2 {
		return fail("N must be at least 2, not %s", args[1])
	}
	if math.IsInf(n, 1) && sv <= 1 {
		return fail("zipf(s, inf) needs s > 1 (Σ r^−s diverges for s ≤ 1), not s = %s", args[0])
	}
	rank := 1.0
	key := "zipf(" + strconv.FormatFloat(sv, 'g', -1, 64) + ", " + formatWhole(n)
	if len(args) == 3 {
		if rank, _, err = wholeNumber(args[2], false); err != nil {
			return fail("rank: %v", err)
		}
		if rank < 1 || rank > n {
			return fail("the rank must be from 1 to N, not %s", args[2])
		}
		key += ", " + formatWhole(rank)
	}
	prob, err := ZipfP(sv, n, rank)
	if err != nil {
		return fail("%v", err)
	}
	p = Prior{key: key + ")", source: "inline"}
	p.add(prob, 1)
	return p, true, nil
}

// wholeNumber reads a whole number ≥ 0 ("10", "1e9"); with allowInf also
// inf, infinity or ∞ (inf is then true and the value +Inf).
func wholeNumber(s string, allowInf bool) (v float64, inf bool, err error) {
	switch strings.ToLower(strings.TrimPrefix(s, "+")) {
	case "inf", "infinity", "∞":
		if allowInf {
			return math.Inf(1), true, nil
		}
		return 0, false, fmt.Errorf("%q must be finite", s)
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("%q is not a number", s)
	}
	if v < 0 || v != math.Floor(v) {
		return 0, false, fmt.Errorf("%q is not a whole number ≥ 0", s)
	}
	return v, false, nil
}

// formatWhole formats a whole number in the shortest form ("10",
// "1e+09", "inf").
func formatWhole(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	if v < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// parseList reads the items of list(…), written as s: each "p" (one
// target) or "p x n" (n targets), p in [0, 1] and n a whole number ≥ 1,
// at most MaxTargets targets in all.
func parseList(s string, args []string) (Prior, bool, error) {
	fail := func(format string, a ...any) (Prior, bool, error) {
		return Prior{}, true, &InlineError{Text: s, Problem: fmt.Sprintf(format, a...)}
	}
	p := Prior{source: "inline"}
	key := make([]string, 0, len(args))
	for i, item := range args {
		f := strings.Fields(item)
		count := 1.0
		switch {
		case len(f) == 3 && (strings.EqualFold(f[1], "x") || f[1] == "×"):
			n, _, err := wholeNumber(f[2], false)
			if err != nil || n < 1 {
				return fail("item %d (%q): the count n of \"p x n\" must be a whole number ≥ 1, not %q", i+1, item, f[2])
			}
			count = n
		case len(f) != 1:
			return fail("item %d (%q) is neither a probability p nor \"p x n\"", i+1, item)
		}
		q, err := strconv.ParseFloat(f[0], 64)
		if err != nil || !(q >= 0 && q <= 1) {
			return fail("item %d (%q): %q is not a probability in [0, 1]", i+1, item, f[0])
		}
		if float64(p.Targets())+count > MaxTargets {
			return fail("more than %d targets", MaxTargets)
		}
		p.add(q, int(count))
		k := strconv.FormatFloat(q, 'g', -1, 64)
		if len(f) == 3 {
			k += " x " + formatWhole(count)
		}
		key = append(key, k)
	}
	p.key = "list(" + strings.Join(key, ", ") + ")"
	return p, true, nil
}
