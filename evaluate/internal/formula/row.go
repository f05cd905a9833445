package formula

import (
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/numtext"
	"github.com/riskbatch/riskbatch/table"
)

// Term is a piece of a formula: its text, which is a reference to a cell of
// the row, a number, a function call or a parenthesised expression (so that it can be
// an operand as it is), and its value for the row.
type Term struct {
	Text  string
	Value float64
}

// Lit is a constant term.
func Lit(v float64) Term { return Term{strconv.FormatFloat(v, 'G', -1, 64), v} }

// Fill fills a formula template: $1 … $9 stand for the terms' texts.
func Fill(tmpl string, args ...Term) string {
	var b strings.Builder
	b.Grow(len(tmpl) + 8*len(args))
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c == '$' && i+1 < len(tmpl) && tmpl[i+1] >= '1' && tmpl[i+1] <= '9' {
			b.WriteString(args[tmpl[i+1]-'1'].Text)
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Row is one row as the formulas see it: its quantities (ε, δ, μ, ρ,
// the baseline, …) as terms over its input cells. Each accessor checks that
// the row's value of the quantity is exactly what the term computes; when
// it is not, it clears ok and the formula being built is void.
type Row struct {
	t        *Table
	in       *resolve.Inputs
	cells    []table.Cell
	formulas []string // the row's formulas so far, in output order
	mech     release.Mechanism
	ok       bool
	// cell says, per field, whether its cell is a number a formula can
	// use: 0 not looked at yet, 1 yes, -1 no.
	cell [release.NumFields]int8
}

// Table is what the formulas of one table's rows refer to: the cells of
// the row's inputs and outputs, by column, and the run's default
// confidence.
type Table struct {
	// Column is the index of each input field's cell in a row, -1 if the
	// table has no column for it.
	Column [release.NumFields]int
	// Ref is the this-row reference to each input field's column; "" if
	// absent.
	Ref [release.NumFields]string
	// Outputs are the names of the output columns, whose cells follow
	// one another from OutputStart; OutRef is the this-row reference to
	// each.
	Outputs     []string
	OutRef      []string
	OutputStart int
	// Confidence is the confidence of a row without its own.
	Confidence float64
}

// NewRow returns the row of the table whose cells are cells, with the
// inputs in and the mechanism mech, whose formulas are written into
// formulas (one per cell, in output order).
func (t *Table) NewRow(in *resolve.Inputs, cells []table.Cell, formulas []string, mech release.Mechanism) *Row {
	return &Row{t: t, in: in, cells: cells, formulas: formulas, mech: mech}
}

// Formula returns the formula f makes for the row, and whether it is
// valid: false when a requirement failed on the way (Need).
func (x *Row) Formula(f func(x *Row) string) (string, bool) {
	x.ok = true
	s := f(x)
	return s, x.ok
}

// Mechanism returns the row's mechanism.
func (x *Row) Mechanism() release.Mechanism { return x.mech }

// Need voids the formula unless cond holds.
func (x *Row) Need(cond bool) {
	if !cond {
		x.ok = false
	}
}

func (x *Row) Has(f release.Field) bool { return x.in.Set[f] }

// Zero reports whether the field is empty or 0 (δ of a pure release).
func (x *Row) Zero(f release.Field) bool { return !x.in.Set[f] || x.in.Num[f] == 0 }

// Ref is the cell of an input field on this row; it must hold a number.
func (x *Row) Ref(f release.Field) Term {
	i := x.t.Column[f]
	if i < 0 || !x.in.Set[f] {
		x.ok = false
		return Term{"0", 0}
	}
	if x.cell[f] == 0 {
		usable := false
		switch c := x.cells[i]; c.Kind {
		case table.Number:
			usable = true
		case table.Integer:
			usable = c.Int <= 1<<53 && c.Int >= -(1<<53) // larger ones are written as text
		case table.Text:
			v, ok := numtext.Plain(c.Str) // written as a number: the same one?
			usable = ok && v == x.in.Num[f]
		}
		x.cell[f] = -1
		if usable {
			x.cell[f] = 1
		}
	}
	x.Need(x.cell[f] > 0)
	return Term{x.t.Ref[f], x.in.Num[f]}
}

// Output is the cell of an earlier output column of the row, which must be
// a live formula itself (so that the two follow the same edits).
func (x *Row) Output(name string) Term {
	for k, o := range x.t.Outputs {
		if o == name {
			at := x.t.OutputStart + k
			x.Need(x.formulas[at] != "")
			return Term{x.t.OutRef[k], x.cells[at].Num}
		}
	}
	x.ok = false
	return Term{"0", 0}
}

// OrOne is the cell of an input whose empty value means 1 (sensitivity).
func (x *Row) OrOne(f release.Field) Term {
	if !x.Has(f) {
		return Lit(1)
	}
	return x.Ref(f)
}

// Composed is t·compositions when the row has compositions (the k-fold ε
// of a pure guarantee, the k-fold ρ or ε_α), computed as riskbatch does.
func (x *Row) Composed(t Term) Term {
	if !x.Has(release.FieldCompositions) {
		return t
	}
	c := x.Ref(release.FieldCompositions)
	return Term{"(" + t.Text + "*" + c.Text + ")", c.Value * t.Value}
}

// LaplaceEps is ε = sensitivity/laplace_scale of a Laplace row.
func (x *Row) LaplaceEps() Term {
	sens, scale := x.OrOne(release.FieldSensitivity), x.Ref(release.FieldLaplaceScale)
	return Term{"(" + sens.Text + "/" + scale.Text + ")", sens.Value / scale.Value}
}

// Eps is the ε of the row's (ε, δ) view (eps_at_delta) where it is the
// row's own: pure, laplace and rr rows with δ empty (k·ε), approx rows of
// one composition.
func (x *Row) Eps() Term {
	var e Term
	x.Need(!x.Has(release.FieldReportDelta)) // read from the profile at another δ
	switch x.mech {
	case release.MechanismPure, release.MechanismExponential, release.MechanismRR:
		x.Need(x.Zero(release.FieldDelta))
		e = x.Composed(x.Ref(release.FieldEpsilon))
	case release.MechanismLaplace:
		x.Need(x.Zero(release.FieldDelta))
		e = x.Composed(x.LaplaceEps())
	case release.MechanismApprox:
		x.Need(!x.Has(release.FieldCompositions))
		e = x.Ref(release.FieldEpsilon)
	default:
		x.ok = false
	}
	x.Need(e.Value <= MaxExp)
	return e
}

// PureEps is the ε of a pure guarantee (pure, laplace, rr with δ empty).
func (x *Row) PureEps() Term {
	x.Need(x.mech != release.MechanismApprox)
	return x.Eps()
}

// Delta is the δ of the row's (ε, δ) view: the delta cell, which a
// spreadsheet reads as 0 when it is empty (the literal 0 where the table
// has no delta column), except for approx rows of several compositions
// (k·δ).
func (x *Row) Delta() Term {
	x.Need(!x.Has(release.FieldReportDelta))
	switch {
	case x.mech == release.MechanismApprox, x.mech == release.MechanismGaussian && x.Has(release.FieldEpsilon):
		// Per step: c compositions report at c·δ.
		x.Need(!x.Has(release.FieldCompositions))
	case x.mech == release.MechanismPure || x.mech == release.MechanismExponential || x.mech == release.MechanismLaplace || x.mech == release.MechanismRR:
	default:
		x.Need(x.Has(release.FieldDelta)) // the other mechanisms have no ε without δ
	}
	if x.Has(release.FieldDelta) {
		return x.Ref(release.FieldDelta)
	}
	if r := x.t.Ref[release.FieldDelta]; r != "" {
		return Term{r, 0} // an empty cell
	}
	return Lit(0)
}

// Mu is μ of a Gaussian curve: sensitivity/sigma (gaussian), mu (gdp),
// √K·√2/sigma (marginals, K = C(d, k) − C(d − d′, k)), times
// √compositions.
func (x *Row) Mu() Term {
	var m Term
	switch x.mech {
	case release.MechanismGaussian:
		x.Need(!x.Has(release.FieldMu))
		sens, sigma := x.OrOne(release.FieldSensitivity), x.Ref(release.FieldSigma)
		m = Term{"(" + sens.Text + "/" + sigma.Text + ")", sens.Value / sigma.Value}
	case release.MechanismGDP:
		m = x.Ref(release.FieldMu)
	case release.MechanismMarginals:
		d, k, u, sigma := x.Ref(release.FieldColumnsTotal), x.Ref(release.FieldMarginalK), x.Ref(release.FieldColumnsUnknown), x.Ref(release.FieldSigma)
		x.Need(numeric.Binomial(int(d.Value), int(k.Value)) < 1<<53) // COMBIN is exact below 2^53
		q := curve.MarginalQueries(int(d.Value), int(k.Value), int(u.Value))
		// COMBIN(n, k) fails for k > n, where the count is 0.
		m = Term{Fill("(SQRT(COMBIN($1,$2)-IF($1-$3<$2,0,COMBIN($1-$3,$2)))*SQRT(2)/$4)", d, k, u, sigma), math.Sqrt(q) * math.Sqrt2 / sigma.Value}
	default:
		x.ok = false
		return m
	}
	if x.Has(release.FieldCompositions) {
		c := x.Ref(release.FieldCompositions)
		m = Term{"(" + m.Text + "*SQRT(" + c.Text + "))", m.Value * math.Sqrt(c.Value)}
	}
	return m
}

// Rho is the zCDP ρ: rho·compositions (zcdp) or μ²/2 (Gaussian rows).
func (x *Row) Rho() Term {
	if x.mech == release.MechanismZCDP {
		return x.Composed(x.Ref(release.FieldRho))
	}
	m := x.Mu()
	return Term{"(" + m.Text + "^2/2)", m.Value * m.Value / 2}
}

// Base is the baseline: the baseline cell, or 1/candidates; not a prior's.
func (x *Row) Base() Term {
	x.Need(!x.Has(release.FieldPrior))
	switch {
	case x.Has(release.FieldBaseline) && !x.Has(release.FieldCandidates):
		return x.Ref(release.FieldBaseline)
	case x.Has(release.FieldCandidates) && !x.Has(release.FieldBaseline):
		c := x.Ref(release.FieldCandidates)
		return Term{"(1/" + c.Text + ")", 1 / c.Value}
	}
	x.ok = false
	return Term{"0", 0}
}

// Candidates is M of the candidates cell (not of a uniform prior).
func (x *Row) Candidates() Term {
	x.Need(!x.Has(release.FieldPrior))
	m := x.Ref(release.FieldCandidates)
	x.Need(m.Value <= 1<<31) // the bounds clip M there
	return m
}

// Confidence is the row's confidence cell, else the run's default level.
func (x *Row) Confidence() Term {
	if x.Has(release.FieldConfidence) {
		return x.Ref(release.FieldConfidence)
	}
	return Lit(x.t.Confidence)
}

// CurveKind names the trade-off curves a spreadsheet evaluates.
type CurveKind int

const (
	curveEpsDelta CurveKind = iota + 1
	curveGaussian
	curveLaplace
	curveRR
)

// Curve is the row's trade-off curve f in closed form.
type Curve struct {
	kind       CurveKind
	e, d, m, k Term // ε, δ (EpsDelta); μ (Gaussian); ε (Laplace); ε, k (rr)
}

// Curve is the row's trade-off curve where it has a closed form: f_{ε,δ}
// (pure and approx), G_μ, Laplace and k-ary randomized response, each of
// one composition (Gaussian curves compose to G_{μ√k}).
func (x *Row) Curve() Curve {
	var c Curve
	x.Need(!x.Has(release.FieldExtraStages)) // a mixture of mechanisms has no closed form
	switch x.mech {
	case release.MechanismPure, release.MechanismExponential, release.MechanismApprox:
		x.Need(!x.Has(release.FieldCompositions))
		c = Curve{kind: curveEpsDelta, e: x.Ref(release.FieldEpsilon), d: x.Delta()}
	case release.MechanismGaussian, release.MechanismGDP, release.MechanismMarginals:
		return Curve{kind: curveGaussian, m: x.Mu()}
	case release.MechanismLaplace:
		x.Need(!x.Has(release.FieldCompositions))
		c = Curve{kind: curveLaplace, e: x.LaplaceEps()}
	case release.MechanismRR:
		x.Need(!x.Has(release.FieldCompositions))
		c = Curve{kind: curveRR, e: x.Ref(release.FieldEpsilon), k: x.Ref(release.FieldRRCategories)}
	default:
		x.ok = false
	}
	x.Need(c.e.Value <= MaxExp)
	return c
}

// Success is 1 − f(b), the success bound of Kulynych et al. Thm 3.2 at
// baseline b (see each curve's Advantage).
func (x *Row) Success(c Curve, b Term) Term {
	var f string
	switch c.kind {
	case curveEpsDelta: // min{1, δ + e^ε·b, 1 − e^{−ε}·(1 − δ − b)}
		f = Fill("MIN(1,$2+EXP($1)*$3,1-EXP(-$1)*(1-$2-$3))", c.e, c.d, b)
	case curveGaussian: // Φ(μ + Φ⁻¹(b))
		x.Need(b.Value >= MinQuantile && b.Value <= 1-MaxQuantileGap)
		f = Fill("NORMSDIST($1+NORMSINV($2))", c.m, b)
	case curveLaplace: // b·e^ε below e^{−ε}/2, 1 − e^{−ε}/(4b) up to 1/2, 1 − e^{−ε}(1 − b) beyond
		f = Fill("IF($2<EXP(-$1)/2,$2*EXP($1),IF($2<=0.5,1-EXP(-$1)/(4*$2),1-EXP(-$1)*(1-$2)))", c.e, b)
	case curveRR: // min{b·e^ε, b + η, 1 − e^{−ε}(1 − b)}, η = (e^ε − 1)/(e^ε + k − 1)
		f = Fill("MIN($2*EXP($1),$2+(EXP($1)-1)/(EXP($1)+$3-1),1-EXP(-$1)*(1-$2))", c.e, b, c.k)
	default:
		x.ok = false
	}
	return Term{Text: f}
}

// Worst is η = max_α 1 − f(α) − α, Kulynych et al. Thm 3.4.
func (x *Row) Worst(c Curve) string {
	switch c.kind {
	case curveEpsDelta:
		return Fill("(EXP($1)-1+2*$2)/(EXP($1)+1)", c.e, c.d)
	case curveGaussian:
		return Fill("2*NORMSDIST($1/2)-1", c.m)
	case curveLaplace:
		return Fill("1-EXP(-$1/2)", c.e)
	case curveRR:
		return Fill("(EXP($1)-1)/(EXP($1)+$2-1)", c.e, c.k)
	}
	x.ok = false
	return ""
}

// BinarySuccess is 1 − R_f(π), Kulynych et al. Thm D.1, with the closed
// forms of BayesRisk; λ = ln(π/(1 − π)).
func (x *Row) BinarySuccess(c Curve, pi Term) string {
	switch c.kind {
	case curveEpsDelta: // R = (1 − δ)·min{π, 1 − π, 1/(1 + e^ε)}
		return Fill("1-(1-$2)*MIN($3,1-$3,1/(1+EXP($1)))", c.e, c.d, pi)
	case curveGaussian: // R = π·Φ(−λ/μ − μ/2) + (1 − π)·Φ(λ/μ − μ/2)
		x.Need(c.m.Value > 0 && pi.Value <= 1-MinGap)
		return Fill("1-($2*NORMSDIST(-LN($2/(1-$2))/$1-$1/2)+(1-$2)*NORMSDIST(LN($2/(1-$2))/$1-$1/2))", c.m, pi)
	case curveLaplace: // R = √(π(1 − π))·e^{−ε/2} if |λ| ≤ ε, else min(π, 1 − π)
		x.Need(pi.Value <= 1-MinGap)
		return Fill("1-IF(ABS(LN($2/(1-$2)))<=$1,SQRT($2*(1-$2))*EXP(-$1/2),MIN($2,1-$2))", c.e, pi)
	}
	x.ok = false // rr: numerical
	return ""
}

// ReroZCDP is Balle et al.'s bound for ρ-zCDP, Kulynych et al. Cor. B.1:
// exp(−(√ln(1/b) − √ρ)²) when ρ < ln(1/b), else 1. (Spreadsheets give
// unary minus precedence over ^, hence 0 − (…)^2.)
func (x *Row) ReroZCDP() string {
	rho, b := x.Rho(), x.Base()
	x.Need(b.Value > 0)
	return Fill("IF($1>=-LN($2),1,EXP(0-(SQRT(-LN($2))-SQRT($1))^2))", rho, b)
}

// ReroRDP is Balle et al.'s bound for one (t, ε_α)-RDP guarantee,
// Kulynych et al. Thm B.2: min(1, (b·e^{ε_α})^{(t−1)/t}); other rows with a
// zCDP view use reroZCDP.
func (x *Row) ReroRDP() string {
	if x.mech != release.MechanismRDP {
		return x.ReroZCDP()
	}
	t, e, b := x.Ref(release.FieldRDPOrder), x.Composed(x.Ref(release.FieldRDPEpsilon)), x.Base()
	x.Need(b.Value > 0 && e.Value <= MaxExp)
	return Fill("MIN(1,EXP((1-1/$1)*(LN($2)+$3)))", t, b, e)
}
