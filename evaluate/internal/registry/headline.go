package registry

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/internal/numtext"
)

// The answer at a glance: of the many bounds a row gets, the one its
// reader should quote (headline) and one plain sentence saying what it
// means for the row (headline_says), chosen by a rule from what the row
// has. Where several output columns answer the same question, each by its
// own paper's bound, one of them is the answer to quote and the others are
// comparisons (Question): the rule quotes answers only.

// Names of the headline columns (see the evaluator's Columns).
const (
	HeadlineColumn     = "headline"
	HeadlineSaysColumn = "headline_says"
)

// MaxHeadlineSays is the most characters headline_says holds.
const MaxHeadlineSays = 120

// A Question is what several output columns answer, each by its own
// bound. Answers are the columns to quote (one a row: they apply to
// different mechanisms), Comparisons the others, and Why says why the
// answers are the ones to quote.
type Question struct {
	Text        string
	Answers     []string
	Comparisons []string
	Why         string
}

// fdpTight is why the f-DP columns are the answers: they come from the
// mechanism's own trade-off curve, the tightest bound its guarantee allows.
const fdpTight = "Kulynych et al. 2025 bound the risk through the mechanism's own trade-off curve f, which is tight for the guarantee (Thm 3.2–3.4: an attack meets it), so of the valid bounds theirs is the lowest, and its inverse the largest ε (or least noise) that provably meets a target; the others bound the same risk less tightly or under other threat models"

// Questions lists the questions that several output columns answer, with
// the column to quote for each: the registry's "answer" marking, which the
// headline rule, the Columns sheet, `riskbatch columns` and the workbook's
// open columns follow.
func Questions() []Question {
	return []Question{
		{
			Text:        "how often can an attacker who knows the baseline succeed with the release",
			Answers:     []string{"fdp_success"},
			Comparisons: []string{"rero_eps", "rero_rdp", "rero_zcdp", "fano_success_opt"},
			Why:         fdpTight,
		},
		{
			Text:        "how much does the release add to the attacker's success at the baseline",
			Answers:     []string{"fdp_advantage"},
			Comparisons: []string{"onerun_advantage", "fano_adv_opt", "fano_adv_alpha1"},
			Why:         fdpTight,
		},
		{
			Text:        "how much can the release add to any attacker's success, whatever the baseline",
			Answers:     []string{"fdp_worst_advantage"},
			Comparisons: []string{"adp_advantage", "fdp_worst_advantage_rdp"},
			Why:         fdpTight,
		},
		{
			Text:        "what privacy parameter keeps the advantage at or below target_advantage",
			Answers:     []string{"fdp_eps_for_target", "fdp_sigma_for_target", "fdp_noise_for_target", "fdp_mu_for_target"},
			Comparisons: []string{"onerun_eps_protect", "gb_eps_for_target", "pmp_eps_for_target", "fdp_noise_for_target_rdp"},
			Why:         fdpTight,
		},
	}
}

// markAnswers sets each column's Answers or ComparisonOf from Questions.
func markAnswers(cols []OutputColumn) {
	at := map[string]int{}
	for i := range cols {
		at[cols[i].Name] = i
	}
	for _, q := range Questions() {
		for _, name := range q.Answers {
			if i, ok := at[name]; ok {
				cols[i].Answers = q.Text
			}
		}
		quote := q.Answers[0]
		if n := len(q.Answers); n > 1 {
			quote = "the answer for the row's mechanism (" + strings.Join(q.Answers[:n-1], ", ") + " or " + q.Answers[n-1] + ")"
		}
		for _, name := range q.Comparisons {
			if i, ok := at[name]; ok {
				cols[i].ComparisonOf = quote
			}
		}
	}
}

// AnswerText says, for the Columns sheet, `riskbatch columns` and the
// header notes, whether the column is the one to quote for its question,
// a comparison, or neither ("").
func (o OutputColumn) AnswerText() string {
	switch {
	case o.Answers != "":
		return "The answer to quote for: " + o.Answers + "."
	case o.ComparisonOf != "":
		return "A comparison: for the same question quote " + o.ComparisonOf + ", which is tighter: it comes from the mechanism's own trade-off curve."
	}
	return ""
}

// A HeadlineCase is one step of the headline rule: where the row has
// what when says, the first of columns it has a value for is its headline.
type HeadlineCase struct {
	When    string
	Holds   func(r *resolve.Release) bool
	Columns []string
	Says    func(r *resolve.Release, column string, v float64) string
}

// HeadlineCases is the headline rule, in order: the first case that holds
// and whose column has a value gives the row's headline.
func HeadlineCases() []HeadlineCase {
	return []HeadlineCase{
		{
			When:    "an audit row",
			Holds:   func(r *resolve.Release) bool { return r.Audit != nil },
			Columns: []string{"audit_eps_lb"},
			Says: func(_ *resolve.Release, _ string, v float64) string {
				if v == 0 {
					return "the attack's guesses certify no ε above 0: they are consistent with no leak at all"
				}
				return "the attack's guesses certify that the release's ε is at least " + significant(v, down)
			},
		},
		{
			When:    "the row has target_advantage",
			Holds:   func(r *resolve.Release) bool { return r.HasTarget },
			Columns: []string{"fdp_eps_for_target", "fdp_sigma_for_target", "fdp_noise_for_target", "fdp_mu_for_target"},
			Says:    targetSays,
		},
		{
			When:    "the row has a baseline (baseline, candidates or prior)",
			Holds:   func(r *resolve.Release) bool { return r.HasBaseline },
			Columns: []string{"fdp_success"},
			Says: func(r *resolve.Release, _ string, v float64) string {
				// The most common headline, built in one buffer: it is
				// written for every row that has a baseline.
				b := make([]byte, 0, 128)
				b = append(b, "an attacker who guesses right "...)
				b = appendPercent(b, r.Baseline, nearest)
				b = append(b, " of the time without the release guesses right at most "...)
				b = appendPercent(b, v, up)
				b = append(b, " with it"...)
				return string(b)
			},
		},
		{
			When:    "otherwise",
			Holds:   func(r *resolve.Release) bool { return true },
			Columns: []string{"fdp_worst_advantage"},
			Says: func(_ *resolve.Release, _ string, v float64) string {
				return "whatever an attacker knew before, the release raises their success rate by at most " + points(v) + " percentage points"
			},
		},
	}
}

// targetSays is the sentence of a target row's headline, and whether the
// row's own parameter meets the target, where the row states the one the
// column gives (its ε, σ or noise multiplier, per step).
func targetSays(r *resolve.Release, column string, v float64) string {
	var s string
	own, meets, has := 0.0, false, false
	switch column {
	case "fdp_eps_for_target":
		s = "ε ≤ " + significant(v, down)
		// The column applies to rows of one composition, whose (ε, δ)
		// view is the row's own ε.
		if eps, _, why := r.EpsilonDelta(); why == "" {
			own, meets, has = eps, eps <= v, true
		}
	case "fdp_sigma_for_target":
		s = "noise σ ≥ " + significant(v, up)
		own, meets, has = r.Sigma, r.Sigma >= v, r.Sigma > 0
	case "fdp_noise_for_target":
		s = "noise multiplier ≥ " + significant(v, up)
		own, meets, has = r.DPSGD.NoiseMultiplier, r.DPSGD.NoiseMultiplier >= v, r.DPSGD.NoiseMultiplier > 0
	default:
		s = "μ ≤ " + significant(v, down)
	}
	s += " keeps the advantage ≤ " + significant(r.Target, up)
	if r.HasBaseline {
		s += " at baseline " + Significant(r.Baseline)
	} else {
		s += " whatever the baseline"
	}
	switch {
	case !has:
		return s
	case meets:
		return s + "; the row's " + Significant(own) + " does"
	}
	return s + "; the row's " + Significant(own) + " does not"
}

// HeadlineRule says the headline rule in words (the Columns sheet's
// formula of headline, `riskbatch columns headline`, the docs).
func HeadlineRule() string {
	var parts []string
	for i, c := range HeadlineCases() {
		parts = append(parts, strconv.Itoa(i+1)+". "+c.When+": "+strings.Join(c.Columns, ", then ")+" (the first with a value)")
	}
	return "the first that applies: " + strings.Join(parts, "; ") + "; error rows have none"
}

// HeadlineMeaning says what the headline column holds.
const HeadlineMeaning = "the one number to quote for the row, chosen by a rule from what the row has: with target_advantage, the ε or noise that meets it; with a baseline (or candidates, or prior), the success bound at that baseline; otherwise the worst case over baselines. Every value is an answer column's, as that column rounds it"

// HeadlineNote is the header note of the headline column.
func HeadlineNote() string {
	return HeadlineMeaning + ".\nRule: " + HeadlineRule() + ".\nSee the Columns sheet."
}

// HeadlineSaysNote is the header note of the headline_says column.
const HeadlineSaysNote = "what the headline means for the row, in one sentence of at most 120 characters (numbers to 4 significant digits)"

// A Headline is a row's headline: the value of Column and what it says.
type Headline struct {
	Column string
	Value  float64
	Says   string
}

// HeadlineStep is a headlineCase with the output index of each of its
// columns (-1 where the evaluator has none).
type HeadlineStep struct {
	HeadlineCase
	At []int
}

// HeadlineSteps are the headline rule's cases for the outputs.
func HeadlineSteps(outputs []OutputColumn) []HeadlineStep {
	var steps []HeadlineStep
	for _, c := range HeadlineCases() {
		s := HeadlineStep{HeadlineCase: c}
		for _, name := range c.Columns {
			k := -1
			for i := range outputs {
				if outputs[i].Name == name {
					k = i
				}
			}
			s.At = append(s.At, k)
		}
		steps = append(steps, s)
	}
	return steps
}

// The directions in which a sentence's number is rounded to its 4
// significant digits: an upper bound up, a lower bound (or the largest ε
// that meets a target) down, so that the sentence stays true; a value
// that only describes the row to the nearest.
const (
	nearest = 0
	up      = 1
	down    = -1
)

// Significant writes v with 4 significant digits, to the nearest, without
// exponent where it is between 0.001 and 10⁶.
func Significant(v float64) string { return significant(v, nearest) }

// significant is Significant rounded in the direction dir.
func significant(v float64, dir int) string {
	var buf [32]byte
	return string(appendSignificant(buf[:0], v, dir))
}

// appendSignificant appends v as significant writes it: 4 significant
// digits in the direction dir (numtext.AppendSignificant), in plain
// decimals between 0.001 and 10⁶.
func appendSignificant(dst []byte, v float64, dir int) []byte {
	return appendDigits(dst, v, 4, dir)
}

// appendDigits is appendSignificant with the given significant digits.
func appendDigits(dst []byte, v float64, digits, dir int) []byte {
	n := len(dst)
	dst = numtext.AppendSignificant(dst, v, digits, dir)
	p, err := strconv.ParseFloat(string(dst[n:]), 64)
	if a := math.Abs(p); err != nil || a != 0 && (a < 1e-3 || a >= 1e6) {
		return dst
	}
	if bytes.IndexByte(dst[n:], 'e') >= 0 {
		// 1.235e+04: the same 4 digits written out (12350).
		dst = strconv.AppendFloat(dst[:n], p, 'f', -1, 64)
	}
	return dst
}

// appendPercent appends a probability as a percentage, 4 significant
// digits, rounded in the direction dir. A probability below 1 that 4
// digits would write as 100% (0.99994 rounded up, or to the nearest) gets
// as many more as keep it below 100%, up to maxPercentDigits: "at most
// 100%" reads as certain, and says nothing an upper bound of 99.995% does
// not.
func appendPercent(dst []byte, p float64, dir int) []byte {
	n := len(dst)
	for digits := 4; ; digits++ {
		dst = appendDigits(dst[:n], 100*p, digits, dir)
		if !(p > 0 && p < 1) || digits == maxPercentDigits {
			break
		}
		if v, err := strconv.ParseFloat(string(dst[n:]), 64); err != nil || v < 100 {
			break
		}
	}
	return append(dst, '%')
}

// maxPercentDigits is the most significant digits appendPercent gives a
// probability just below 1: within about 1e-12 of 1 (the last of 12
// digits of a percentage near 100), it writes 100%.
const maxPercentDigits = 12

// points writes an upper bound on a difference of probabilities in
// percentage points.
func points(d float64) string { return significant(100*d, up) }
