package registry

import (
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/table"
)

// OutputColumn describes one computed column: what it means, the formula,
// the paper and equation it comes from, what it needs, and the function
// that computes it. The registry of these drives the evaluator, the notes
// on the workbook's headers, the Columns sheet and `riskbatch columns`.
type OutputColumn struct {
	Name   string
	Family string // the paper family: fdp, adp, onerun, …
	// Paper is the paper the column comes from, as Papers names it
	// (seed003); empty, it is the paper of the column's Family
	// (familyPaper), else that of the first author the Citation names who
	// is a paper's first author (see PaperID). It makes the column's paper
	// group of --columns and `riskbatch columns`.
	Paper string
	// Brief and Source are the column's one-line summary and short
	// citation in the column table of docs/outputs.md (ColumnsMarkdown): columns
	// one after another with the same Brief and Source share a row.
	Brief, Source string
	Meaning       string
	Formula       string
	Citation      string
	Needs         string // the inputs it needs, in words
	Assumes       string // neighbouring relation, pure vs approximate DP, …
	// Answers, on a column to quote, is the question it answers where
	// other columns answer it too; ComparisonOf, on those others, names
	// the column to quote (see Questions).
	Answers, ComparisonOf string
	// Applies says when the column is filled: which mechanisms, which
	// inputs ask for it and which it requires (see Applies).
	Applies Applies
	Format  table.Format
	// Sheet is how the column is written in a workbook: the spreadsheet
	// formula that recomputes it from the row's inputs where its bound has
	// a closed form, and whether it is an advantage (see formula.Form).
	Sheet formula.Form
	// Round is the direction in which the evaluator rounds every value of
	// the column, where it is the same for every row (see Rounding);
	// columns whose rounding depends on the row round in compute.
	Round resolve.Rounding
	// Compute computes the column for a row that Applies admits: it may
	// count on the inputs Applies.Requires.
	Compute func(r *resolve.Release) (float64, resolve.Skip)
	// ByDataset marks a column that the run composing a row's dataset
	// fills (dataset_worst_advantage, the goal seek's), not the row: no
	// row's plan goes through it, it has no Compute, and its value for a
	// row alone is empty.
	ByDataset bool
	// fromEps computes, in place of compute, a column of the row's (ε, δ)
	// view (Release.EpsilonDelta): the evaluator reports a row without
	// one, as the view says why.
	fromEps       func(r *resolve.Release, eps, delta float64) (float64, resolve.Skip)
	MechanismBits uint32 // Applies.Mechanisms as a set (MechanismSet)
}

// Reasons shared by several columns, so that a row's message names them once.
const (
	// The inverse columns (…_for_target, onerun_eps_protect) share these,
	// so that a row whose target is out of reach says so once.
	WhyTargetTooLow  = "no privacy level meets target_advantage: it is below what delta alone allows"
	whyTargetTrivial = "every privacy level meets target_advantage, so there is no limit to report"
	// whyNumericalFailure marks a value that came out NaN or infinite: a
	// defect of riskbatch, reported rather than written.
	WhyNumericalFailure = "not computable for these inputs (numerical failure; please report it)"
)

// whyBaselineOne says why the advantage columns are empty at a baseline of
// 1, naming the prior the 1 came from, if it did.
func whyBaselineOne(r *resolve.Release) string {
	if r.HasPrior {
		return "the advantage is undefined at baseline 1, which comes from prior " + strconv.Quote(r.Prior.Key()) + " (its largest p)"
	}
	return "the advantage is undefined at baseline 1"
}

// The citations and texts that several families of columns share.
const (
	kulynych  = "Kulynych, Gomez, Kaissis, Hayes, Balle, Calmon & Raisaro 2025, \"Unifying Re-Identification, Attribute Inference, and Data Reconstruction Risks in Differential Privacy\""
	swanberg  = "Swanberg, Annamalai, Hayes, Balle & Smith 2025, \"Beyond the Worst Case: Extending Differential Privacy Guarantees to Realistic Adversaries\""
	fdpCurves = "f = f_{ε,δ}(α) = max{0, 1 − δ − e^ε·α, e^{−ε}·(1 − δ − α)} for pure and approx (Eq. 2); " +
		"f = G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) for gaussian (μ = sensitivity/σ), gdp and marginals (μ = √K·√2/σ); " +
		"the exact Laplace curve (Dong, Roth & Su 2022) for laplace; the exact k-ary randomized-response curve for rr; " +
		"the optimal conversion of Rényi DP to a trade-off curve (Zhu, Dong & Wang 2022), over all orders, for zcdp and rdp; " +
		"for dpsgd the symmetrised trade-off curve of its privacy-loss distribution (a PLD accountant: connect-the-dots discretisation, Doroshenko et al. 2022; Neyman–Pearson tests on the discrete PLD, Kulynych et al. 2024, Alg. 1; Dong, Roth & Su 2022, Def. F.1), rounded pessimistically, with extra_stages composed in, and tightened by the RDP curve where that is tighter (far tails only); " +
		"compositions: μ√c, cρ, c·ε_α, the optimal composition theorem (Kairouz, Oh & Viswanath 2015) for pure, approx and binary rr, and the exact composition of the privacy-loss distribution for laplace (Kulynych et al. 2025, App. G.1) and rr with more than two categories (exact: the loss takes the values −ε, 0, ε), tightened by the theorem where that is tighter; " +
		"extra_stages: the same PLD accountant composes the row's own releases with the stages (Gaussian stages alone in closed form), error in fdp_composition_error"
	mechanismParams = "a mechanism's parameters (see riskbatch columns: epsilon/delta, sigma, mu, laplace_scale, rho, rdp_order/rdp_epsilon, dpsgd, rr, marginals)"
	epsView         = "ε is the row's epsilon (pure, approx, laplace, rr); for the other mechanisms, eps_at_delta: their ε at the row's delta"
)

// OutputColumns is the registry, in output order: the families one after
// another. confidences are the levels of the one-run success upper bound
// (see WithConfidence).
func OutputColumns(confidences []float64) []OutputColumn {
	var cols []OutputColumn
	for _, family := range [][]OutputColumn{
		derivedColumns(),
		fdpColumns(), composeColumns(), fdpTargetColumns(), fdpNoiseColumns(), psoColumns(),
		reroColumns(), conversionColumns(), dpsgdColumns(), adpColumns(),
		gbColumns(), fanoColumns(), pmpColumns(),
		onerunColumns(), onerunTailColumns(), onerunLeakColumns(),
		datasetColumns(), goalSeekColumns(),
	} {
		cols = append(cols, family...)
	}
	if len(confidences) > 1 {
		for _, c := range confidences {
			cols = append(cols, successesColumn("onerun_successes_ub_"+confidenceSuffix(c), c))
		}
	}
	cols = append(cols, auditColumns()...) // audit rows: last, after every release column
	for i := range cols {
		cols[i].MechanismBits = MechanismSet(cols[i].Applies.Mechanisms)
	}
	markAnswers(cols)
	standAlone(cols)
	return cols
}

// Value computes the column for a row of one of its mechanisms, as its
// declaration says: empty without a message when the row does not ask for
// it or fails its condition (Applies.Asks, Applies.Only), partial when it
// lacks an input the column requires, with a message when its baseline is
// 1 and the column is undefined there (Applies.BelowOne); otherwise the
// column's function (of the row's (ε, δ) view, for fromEps, where it has
// one), rounded as the column declares (Round).
func (o *OutputColumn) Value(r *resolve.Release) (float64, resolve.Skip) {
	if !o.Applies.Asks.asked(r) || !o.Applies.Only.Holds(r) {
		return 0, resolve.Skip{Silent: true}
	}
	return o.ValueAsked(r)
}

// ValueAsked is value for a row that asks for the column and meets its
// condition (Applies.Asks and Only), as the caller has checked.
func (o *OutputColumn) ValueAsked(r *resolve.Release) (float64, resolve.Skip) {
	if o.ByDataset {
		return 0, resolve.Skip{Silent: true}
	}
	a := &o.Applies
	need := a.lacks(r)
	if need&resolve.NeedBaseline != 0 {
		return 0, resolve.Skip{Need: need}
	}
	if a.BelowOne && r.Baseline >= 1 {
		return 0, resolve.Skip{Why: whyBaselineOne(r)}
	}
	if need != 0 {
		return 0, resolve.Skip{Need: need}
	}
	var v float64
	var s resolve.Skip
	if o.fromEps != nil {
		// The row's view is known after its first column asks for it
		// (EpsilonDelta): read it without the call.
		if r.EpsState != 1 {
			if _, _, es := r.EpsDelta(); !es.OK() {
				return 0, es
			}
		}
		v, s = o.fromEps(r, r.Epsilon, r.Delta)
	} else {
		v, s = o.Compute(r)
	}
	if s.OK() {
		v = o.Round.Apply(v, o.Format)
	}
	return v, s
}

// inverseResult turns a calibration result (x, ok) into a cell: ok false
// means no parameter meets the target, +Inf that every one does.
func inverseResult(x float64, ok bool, name string) (float64, resolve.Skip) {
	switch {
	case !ok || math.IsNaN(x):
		return 0, resolve.Skip{Why: WhyTargetTooLow}
	case math.IsInf(x, 1):
		return 0, resolve.Skip{Why: whyTargetTrivial}
	}
	return x, resolve.Skip{}
}

// requires sets the inputs a column requires (Applies.Requires).
func requires(n resolve.Need, c OutputColumn) OutputColumn {
	c.Applies.Requires = n
	return c
}

// withBrief sets a column's summary and short citation in the
// column table of docs/outputs.md.
func withBrief(brief, source string, c OutputColumn) OutputColumn {
	c.Brief, c.Source = brief, source
	return c
}

// withFormat sets a column's display format.
func withFormat(f table.Format, c OutputColumn) OutputColumn {
	c.Format = f
	return c
}

// sharing gives cols the Family, Brief and Source they share: the columns
// of one row of the column table of docs/outputs.md.
func sharing(family, brief, source string, cols []OutputColumn) []OutputColumn {
	for i := range cols {
		cols[i].Family, cols[i].Brief, cols[i].Source = family, brief, source
	}
	return cols
}

// standAlone writes out, in every column's texts, what they take from
// another column: Needs and Assumes that start "as NAME" get NAME's own
// (so "as fdp_success; rounded down" reads fdp_success's assumptions and
// "rounded down"), and a formula's "with f as for NAME" gets the f of
// NAME's formula, so that each column's entry in `riskbatch columns`, the
// Columns sheet and its header note states its own formula and
// assumptions. References are followed until none is left (they form no
// cycle).
func standAlone(cols []OutputColumn) {
	at := map[string]int{}
	for i := range cols {
		at[cols[i].Name] = i
	}
	// inherit replaces a leading "as NAME" of a text by NAME's text.
	inherit := func(text string, field func(*OutputColumn) string) (string, bool) {
		rest, ok := strings.CutPrefix(text, "as ")
		if !ok {
			return text, false
		}
		end := strings.IndexFunc(rest, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
		if end < 0 {
			end = len(rest)
		}
		j, ok := at[rest[:end]]
		if !ok {
			return text, false
		}
		return field(&cols[j]) + rest[end:], true
	}
	for changed := true; changed; {
		changed = false
		for i := range cols {
			c := &cols[i]
			var ok bool
			if c.Needs, ok = inherit(c.Needs, func(o *OutputColumn) string { return o.Needs }); ok {
				changed = true
			}
			if c.Assumes, ok = inherit(c.Assumes, func(o *OutputColumn) string { return o.Assumes }); ok {
				changed = true
			}
			if before, name, found := strings.Cut(c.Formula, "with f as for "); found {
				end := strings.IndexFunc(name, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
				if end < 0 {
					end = len(name)
				}
				if j, ok := at[name[:end]]; ok {
					if k := strings.Index(cols[j].Formula, "with f "); k >= 0 {
						c.Formula = before + cols[j].Formula[k:] + name[end:]
						changed = true
					}
				}
			}
		}
	}
}

// withSheet sets how a column is written in a workbook.
func withSheet(s formula.Form, c OutputColumn) OutputColumn {
	c.Sheet = s
	return c
}

// Note is the header note of an output column: meaning, formula, source.
func (o OutputColumn) Note() string {
	note := o.Meaning + ".\nFormula: " + o.Formula + ".\nSource: " + o.Citation + "."
	if a := o.AnswerText(); a != "" {
		note += "\n" + a
	}
	return note + "\nSee the Columns sheet."
}
