package resolve

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/priors"
)

// What a row says of the attack, resolved after its mechanism: the
// baseline, the one-run successes and the prior.

// resolveAttack reads what the row says of the attack: its baseline (from
// baseline, candidates or prior, which must agree), target, predicate,
// targets, successes and confidence.
func (b *Header) resolveAttack(r *Release, in *Inputs, problems *RowError) bool {
	if !b.resolveBaseline(r, in, problems) {
		return false
	}
	r.Target, r.HasTarget = in.Num[release.FieldTargetAdvantage], in.Has(release.FieldTargetAdvantage)
	if in.Has(release.FieldCandidates) {
		r.Candidates = int64(in.Num[release.FieldCandidates])
	} else if m, ok := r.Prior.Candidates(); ok && r.HasPrior {
		r.Candidates = m
	}
	r.Records, r.Weight, r.HasWeight = int(in.Num[release.FieldRecords]), in.Num[release.FieldPredicateWeight], in.Has(release.FieldPredicateWeight)
	if r.HasWeight && r.Records > 0 && r.Weight > 1/float64(r.Records) {
		records := b.Name(release.FieldRecords)
		problems.Add(b.Name(release.FieldPredicateWeight), FormatNumber(r.Weight), "%s is more than 1/%s = %s; expected a singling-out predicate's weight, from 0 to 1/%s", FormatNumber(r.Weight), records, FormatNumber(1/float64(r.Records)), records)
		return false
	}
	switch {
	case r.HasPrior:
		r.Targets = r.Prior.Targets()
	case in.Has(release.FieldTargets):
		r.Targets = int(in.Num[release.FieldTargets])
	}
	if in.Has(release.FieldSuccesses) && !b.resolveSuccesses(r, in, problems) {
		return false
	}
	c, ok := b.rowConfidence(in, problems)
	r.Confidence = c
	return ok
}

// resolveBaseline reads the baseline from baseline or candidates (1/M),
// which must agree, and from the prior, which must agree with both.
func (b *Header) resolveBaseline(r *Release, in *Inputs, problems *RowError) bool {
	switch {
	case in.Has(release.FieldBaseline) && in.Has(release.FieldCandidates):
		base, m := in.Num[release.FieldBaseline], in.Num[release.FieldCandidates]
		if math.Abs(base-1/m) > 1e-12*math.Max(base, 1/m) {
			problems.Add(b.Name(release.FieldBaseline), FormatNumber(base), "%s disagrees with %s = %s (1/%s = %s); fill one or the other", FormatNumber(base), b.Name(release.FieldCandidates), FormatNumber(m), FormatNumber(m), FormatNumber(1/m))
			return false
		}
		r.Baseline, r.HasBaseline = base, true
	case in.Has(release.FieldBaseline):
		r.Baseline, r.HasBaseline = in.Num[release.FieldBaseline], true
	case in.Has(release.FieldCandidates):
		r.Baseline, r.HasBaseline = 1/in.Num[release.FieldCandidates], true
	}
	return !in.Has(release.FieldPrior) || b.joinPrior(r, in, problems)
}

// resolveSuccesses reads the successes of a one-run request: at most the
// row's targets, which it must have.
func (b *Header) resolveSuccesses(r *Release, in *Inputs, problems *RowError) bool {
	r.Successes, r.HasSuccesses = int(in.Num[release.FieldSuccesses]), true
	name, value := b.Name(release.FieldSuccesses), in.Value(release.FieldSuccesses)
	switch {
	case r.Targets == 0:
		problems.Add(name, value, "filled, but the row has no targets: fill targets (with baseline) or a prior")
		return false
	case r.Successes > r.Targets && r.HasPrior:
		problems.Add(name, value, "%d is more than the %d targets of prior %q; expected 0 ≤ %s ≤ %d", r.Successes, r.Targets, r.Prior.Key(), name, r.Targets)
		return false
	case r.Successes > r.Targets:
		problems.Add(name, value, "%d is more than the %d targets; expected 0 ≤ %s ≤ %s", r.Successes, r.Targets, name, b.Name(release.FieldTargets))
		return false
	}
	return true
}

// joinPrior resolves the row's prior cell (a key of a loaded prior table or
// an inline prior) and checks it against baseline, candidates and targets
// typed in the same row, which must agree with it.
func (b *Header) joinPrior(r *Release, in *Inputs, problems *RowError) bool {
	name := b.Name
	p, err := b.priors.Resolve(in.Text[release.FieldPrior])
	if err != nil {
		problems.AddProblem(priorProblem(name(release.FieldPrior), in.Text[release.FieldPrior], err))
		return false
	}
	if p.Targets() == 0 {
		problems.Add(name(release.FieldPrior), in.Text[release.FieldPrior], "%s describes no targets", release.QuoteClipped(in.Text[release.FieldPrior]))
		return false
	}
	base := p.Max()
	if r.HasBaseline && math.Abs(r.Baseline-base) > 1e-12*math.Max(base, r.Baseline) {
		what := name(release.FieldBaseline)
		if !in.Has(release.FieldBaseline) {
			what = name(release.FieldCandidates)
		}
		problems.Add(what, FormatNumber(r.Baseline), "%s disagrees with prior %q, whose largest p is %s; fill one or the other", FormatNumber(r.Baseline), in.Text[release.FieldPrior], FormatNumber(base))
		return false
	}
	if in.Has(release.FieldTargets) && int(in.Num[release.FieldTargets]) != p.Targets() {
		problems.Add(name(release.FieldTargets), FormatNumber(in.Num[release.FieldTargets]), "%s disagrees with prior %q, which has %s; fill one or the other", FormatNumber(in.Num[release.FieldTargets]), in.Text[release.FieldPrior], countOf(p.Targets(), "target", "targets"))
		return false
	}
	r.Prior, r.HasPrior = p, true
	r.Baseline, r.HasBaseline = base, true
	return true
}

// priorProblem is the problem of a prior cell that resolves to no prior,
// within a row message's length: the key and what is wrong, the tables
// loaded by file name, and the valid inline forms in brief.
func priorProblem(column, value string, err error) *CellError {
	var ke *priors.KeyError
	var ie *priors.InlineError
	switch {
	case errors.As(err, &ke) && len(ke.Files) == 0:
		return &CellError{Column: column, Value: ke.Key, Keyed: true, Err: err,
			Reason: "no prior tables were loaded (pass --priors FILE), and it is not an inline prior: " + inlineBrief}
	case errors.As(err, &ke):
		files := make([]string, len(ke.Files))
		for i, f := range ke.Files {
			files[i] = filepath.Base(f) // "name (n keys)": the name without its directory
		}
		reason := "no such key in the prior tables loaded (" + strings.Join(files, "; ") + ")"
		if len(ke.Suggestions) > 0 {
			reason += "; did you mean " + release.QuoteClipped(ke.Suggestions[0]) + "?"
		}
		return &CellError{Column: column, Value: ke.Key, Keyed: true, Reason: reason, Err: err}
	case errors.As(err, &ie):
		expected := inlineBrief
		if isList(ie.Text) {
			expected = listBrief
		}
		return &CellError{Column: column, Value: value, Err: err,
			Reason: fmt.Sprintf("inline prior %s: %s; expected %s", release.QuoteClipped(ie.Text), ie.Problem, expected)}
	}
	return &CellError{Column: column, Value: value, Reason: err.Error(), Err: err}
}

// inlineBrief lists the inline priors for a message.
const inlineBrief = "uniform(M), zipf(s, N) or zipf(s, N, rank)"

// listBrief is the form of an inline list prior for a message.
const listBrief = "list(p1, p2, …), each item a probability p in [0, 1] or p x n for n targets"

// isList reports whether an inline prior's text is a list(…).
func isList(text string) bool {
	name, _, ok := strings.Cut(strings.TrimSpace(text), "(")
	return ok && strings.EqualFold(strings.TrimSpace(name), "list")
}

// countOf writes n with the singular or plural noun: "1 target", "3 targets".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
