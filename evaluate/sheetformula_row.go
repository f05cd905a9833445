package evaluate

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

// term is a piece of a formula: its text, which is a reference to a cell of
// the row, a number, a function call or a parenthesised expression (so that it can be
// an operand as it is), and its value for the row.
type term struct {
	s string
	v float64
}

// lit is a constant term.
func lit(v float64) term { return term{strconv.FormatFloat(v, 'G', -1, 64), v} }

// form fills a formula template: $1 … $9 stand for the terms' texts.
func form(tmpl string, args ...term) string {
	var b strings.Builder
	b.Grow(len(tmpl) + 8*len(args))
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c == '$' && i+1 < len(tmpl) && tmpl[i+1] >= '1' && tmpl[i+1] <= '9' {
			b.WriteString(args[tmpl[i+1]-'1'].s)
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// sheetRow is one row as the formulas see it: its quantities (ε, δ, μ, ρ,
// the baseline, …) as terms over its input cells. Each accessor checks that
// the row's value of the quantity is exactly what the term computes; when
// it is not, it clears ok and the formula being built is void.
type sheetRow struct {
	s        *SheetBinding
	in       *resolve.Inputs
	cells    []table.Cell
	formulas []string // the row's formulas so far, in output order
	mech     release.Mechanism
	ok       bool
	// cell says, per field, whether its cell is a number a formula can
	// use: 0 not looked at yet, 1 yes, -1 no.
	cell [release.NumFields]int8
}

// need voids the formula unless cond holds.
func (x *sheetRow) need(cond bool) {
	if !cond {
		x.ok = false
	}
}

func (x *sheetRow) has(f release.Field) bool { return x.in.Set[f] }

// zero reports whether the field is empty or 0 (δ of a pure release).
func (x *sheetRow) zero(f release.Field) bool { return !x.in.Set[f] || x.in.Num[f] == 0 }

// ref is the cell of an input field on this row; it must hold a number.
func (x *sheetRow) ref(f release.Field) term {
	i := x.s.b.Column(f)
	if i < 0 || !x.in.Set[f] {
		x.ok = false
		return term{"0", 0}
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
	x.need(x.cell[f] > 0)
	return term{x.s.ref[f], x.in.Num[f]}
}

// output is the cell of an earlier output column of the row, which must be
// a live formula itself (so that the two follow the same edits).
func (x *sheetRow) output(name string) term {
	for k, o := range x.s.outputs {
		if o.Name == name {
			at := x.s.first + HeadWidth + k
			x.need(x.formulas[at] != "")
			return term{x.s.outRef[k], x.cells[at].Num}
		}
	}
	x.ok = false
	return term{"0", 0}
}

// orOne is the cell of an input whose empty value means 1 (sensitivity).
func (x *sheetRow) orOne(f release.Field) term {
	if !x.has(f) {
		return lit(1)
	}
	return x.ref(f)
}

// composed is t·compositions when the row has compositions (the k-fold ε
// of a pure guarantee, the k-fold ρ or ε_α), computed as riskbatch does.
func (x *sheetRow) composed(t term) term {
	if !x.has(release.FieldCompositions) {
		return t
	}
	c := x.ref(release.FieldCompositions)
	return term{"(" + t.s + "*" + c.s + ")", c.v * t.v}
}

// laplaceEps is ε = sensitivity/laplace_scale of a Laplace row.
func (x *sheetRow) laplaceEps() term {
	sens, scale := x.orOne(release.FieldSensitivity), x.ref(release.FieldLaplaceScale)
	return term{"(" + sens.s + "/" + scale.s + ")", sens.v / scale.v}
}

// eps is the ε of the row's (ε, δ) view (eps_at_delta) where it is the
// row's own: pure, laplace and rr rows with δ empty (k·ε), approx rows of
// one composition.
func (x *sheetRow) eps() term {
	var e term
	x.need(!x.has(release.FieldReportDelta)) // read from the profile at another δ
	switch x.mech {
	case release.MechanismPure, release.MechanismExponential, release.MechanismRR:
		x.need(x.zero(release.FieldDelta))
		e = x.composed(x.ref(release.FieldEpsilon))
	case release.MechanismLaplace:
		x.need(x.zero(release.FieldDelta))
		e = x.composed(x.laplaceEps())
	case release.MechanismApprox:
		x.need(!x.has(release.FieldCompositions))
		e = x.ref(release.FieldEpsilon)
	default:
		x.ok = false
	}
	x.need(e.v <= maxSheetExp)
	return e
}

// pureEps is the ε of a pure guarantee (pure, laplace, rr with δ empty).
func (x *sheetRow) pureEps() term {
	x.need(x.mech != release.MechanismApprox)
	return x.eps()
}

// delta is the δ of the row's (ε, δ) view: the delta cell, which a
// spreadsheet reads as 0 when it is empty (the literal 0 where the table
// has no delta column), except for approx rows of several compositions
// (k·δ).
func (x *sheetRow) delta() term {
	x.need(!x.has(release.FieldReportDelta))
	switch {
	case x.mech == release.MechanismApprox, x.mech == release.MechanismGaussian && x.has(release.FieldEpsilon):
		// Per step: c compositions report at c·δ.
		x.need(!x.has(release.FieldCompositions))
	case x.mech == release.MechanismPure || x.mech == release.MechanismExponential || x.mech == release.MechanismLaplace || x.mech == release.MechanismRR:
	default:
		x.need(x.has(release.FieldDelta)) // the other mechanisms have no ε without δ
	}
	if x.has(release.FieldDelta) {
		return x.ref(release.FieldDelta)
	}
	if r := x.s.ref[release.FieldDelta]; r != "" {
		return term{r, 0} // an empty cell
	}
	return lit(0)
}

// mu is μ of a Gaussian curve: sensitivity/sigma (gaussian), mu (gdp),
// √K·√2/sigma (marginals, K = C(d, k) − C(d − d′, k)), times
// √compositions.
func (x *sheetRow) mu() term {
	var m term
	switch x.mech {
	case release.MechanismGaussian:
		x.need(!x.has(release.FieldMu))
		sens, sigma := x.orOne(release.FieldSensitivity), x.ref(release.FieldSigma)
		m = term{"(" + sens.s + "/" + sigma.s + ")", sens.v / sigma.v}
	case release.MechanismGDP:
		m = x.ref(release.FieldMu)
	case release.MechanismMarginals:
		d, k, u, sigma := x.ref(release.FieldColumnsTotal), x.ref(release.FieldMarginalK), x.ref(release.FieldColumnsUnknown), x.ref(release.FieldSigma)
		x.need(numeric.Binomial(int(d.v), int(k.v)) < 1<<53) // COMBIN is exact below 2^53
		q := curve.MarginalQueries(int(d.v), int(k.v), int(u.v))
		// COMBIN(n, k) fails for k > n, where the count is 0.
		m = term{form("(SQRT(COMBIN($1,$2)-IF($1-$3<$2,0,COMBIN($1-$3,$2)))*SQRT(2)/$4)", d, k, u, sigma), math.Sqrt(q) * math.Sqrt2 / sigma.v}
	default:
		x.ok = false
		return m
	}
	if x.has(release.FieldCompositions) {
		c := x.ref(release.FieldCompositions)
		m = term{"(" + m.s + "*SQRT(" + c.s + "))", m.v * math.Sqrt(c.v)}
	}
	return m
}

// rho is the zCDP ρ: rho·compositions (zcdp) or μ²/2 (Gaussian rows).
func (x *sheetRow) rho() term {
	if x.mech == release.MechanismZCDP {
		return x.composed(x.ref(release.FieldRho))
	}
	m := x.mu()
	return term{"(" + m.s + "^2/2)", m.v * m.v / 2}
}

// base is the baseline: the baseline cell, or 1/candidates; not a prior's.
func (x *sheetRow) base() term {
	x.need(!x.has(release.FieldPrior))
	switch {
	case x.has(release.FieldBaseline) && !x.has(release.FieldCandidates):
		return x.ref(release.FieldBaseline)
	case x.has(release.FieldCandidates) && !x.has(release.FieldBaseline):
		c := x.ref(release.FieldCandidates)
		return term{"(1/" + c.s + ")", 1 / c.v}
	}
	x.ok = false
	return term{"0", 0}
}

// candidates is M of the candidates cell (not of a uniform prior).
func (x *sheetRow) candidates() term {
	x.need(!x.has(release.FieldPrior))
	m := x.ref(release.FieldCandidates)
	x.need(m.v <= 1<<31) // the bounds clip M there
	return m
}

// confidence is the row's confidence cell, else the run's default level.
func (x *sheetRow) confidence() term {
	if x.has(release.FieldConfidence) {
		return x.ref(release.FieldConfidence)
	}
	return lit(x.s.b.Confidence())
}

// curveKind names the trade-off curves a spreadsheet evaluates.
type curveKind int

const (
	curveEpsDelta curveKind = iota + 1
	curveGaussian
	curveLaplace
	curveRR
)

// sheetCurve is the row's trade-off curve f in closed form.
type sheetCurve struct {
	kind       curveKind
	e, d, m, k term // ε, δ (EpsDelta); μ (Gaussian); ε (Laplace); ε, k (rr)
}

// curve is the row's trade-off curve where it has a closed form: f_{ε,δ}
// (pure and approx), G_μ, Laplace and k-ary randomized response, each of
// one composition (Gaussian curves compose to G_{μ√k}).
func (x *sheetRow) curve() sheetCurve {
	var c sheetCurve
	x.need(!x.has(release.FieldExtraStages)) // a mixture of mechanisms has no closed form
	switch x.mech {
	case release.MechanismPure, release.MechanismExponential, release.MechanismApprox:
		x.need(!x.has(release.FieldCompositions))
		c = sheetCurve{kind: curveEpsDelta, e: x.ref(release.FieldEpsilon), d: x.delta()}
	case release.MechanismGaussian, release.MechanismGDP, release.MechanismMarginals:
		return sheetCurve{kind: curveGaussian, m: x.mu()}
	case release.MechanismLaplace:
		x.need(!x.has(release.FieldCompositions))
		c = sheetCurve{kind: curveLaplace, e: x.laplaceEps()}
	case release.MechanismRR:
		x.need(!x.has(release.FieldCompositions))
		c = sheetCurve{kind: curveRR, e: x.ref(release.FieldEpsilon), k: x.ref(release.FieldRRCategories)}
	default:
		x.ok = false
	}
	x.need(c.e.v <= maxSheetExp)
	return c
}

// success is 1 − f(b), the success bound of Kulynych et al. Thm 3.2 at
// baseline b (see each curve's Advantage).
func (x *sheetRow) success(c sheetCurve, b term) term {
	var f string
	switch c.kind {
	case curveEpsDelta: // min{1, δ + e^ε·b, 1 − e^{−ε}·(1 − δ − b)}
		f = form("MIN(1,$2+EXP($1)*$3,1-EXP(-$1)*(1-$2-$3))", c.e, c.d, b)
	case curveGaussian: // Φ(μ + Φ⁻¹(b))
		x.need(b.v >= minSheetQuantile && b.v <= 1-maxSheetQuantileGap)
		f = form("NORMSDIST($1+NORMSINV($2))", c.m, b)
	case curveLaplace: // b·e^ε below e^{−ε}/2, 1 − e^{−ε}/(4b) up to 1/2, 1 − e^{−ε}(1 − b) beyond
		f = form("IF($2<EXP(-$1)/2,$2*EXP($1),IF($2<=0.5,1-EXP(-$1)/(4*$2),1-EXP(-$1)*(1-$2)))", c.e, b)
	case curveRR: // min{b·e^ε, b + η, 1 − e^{−ε}(1 − b)}, η = (e^ε − 1)/(e^ε + k − 1)
		f = form("MIN($2*EXP($1),$2+(EXP($1)-1)/(EXP($1)+$3-1),1-EXP(-$1)*(1-$2))", c.e, b, c.k)
	default:
		x.ok = false
	}
	return term{s: f}
}

// worst is η = max_α 1 − f(α) − α, Kulynych et al. Thm 3.4.
func (x *sheetRow) worst(c sheetCurve) string {
	switch c.kind {
	case curveEpsDelta:
		return form("(EXP($1)-1+2*$2)/(EXP($1)+1)", c.e, c.d)
	case curveGaussian:
		return form("2*NORMSDIST($1/2)-1", c.m)
	case curveLaplace:
		return form("1-EXP(-$1/2)", c.e)
	case curveRR:
		return form("(EXP($1)-1)/(EXP($1)+$2-1)", c.e, c.k)
	}
	x.ok = false
	return ""
}

// binarySuccess is 1 − R_f(π), Kulynych et al. Thm D.1, with the closed
// forms of BayesRisk; λ = ln(π/(1 − π)).
func (x *sheetRow) binarySuccess(c sheetCurve, pi term) string {
	switch c.kind {
	case curveEpsDelta: // R = (1 − δ)·min{π, 1 − π, 1/(1 + e^ε)}
		return form("1-(1-$2)*MIN($3,1-$3,1/(1+EXP($1)))", c.e, c.d, pi)
	case curveGaussian: // R = π·Φ(−λ/μ − μ/2) + (1 − π)·Φ(λ/μ − μ/2)
		x.need(c.m.v > 0 && pi.v <= 1-minSheetGap)
		return form("1-($2*NORMSDIST(-LN($2/(1-$2))/$1-$1/2)+(1-$2)*NORMSDIST(LN($2/(1-$2))/$1-$1/2))", c.m, pi)
	case curveLaplace: // R = √(π(1 − π))·e^{−ε/2} if |λ| ≤ ε, else min(π, 1 − π)
		x.need(pi.v <= 1-minSheetGap)
		return form("1-IF(ABS(LN($2/(1-$2)))<=$1,SQRT($2*(1-$2))*EXP(-$1/2),MIN($2,1-$2))", c.e, pi)
	}
	x.ok = false // rr: numerical
	return ""
}

// reroZCDP is Balle et al.'s bound for ρ-zCDP, Kulynych et al. Cor. B.1:
// exp(−(√ln(1/b) − √ρ)²) when ρ < ln(1/b), else 1. (Spreadsheets give
// unary minus precedence over ^, hence 0 − (…)^2.)
func (x *sheetRow) reroZCDP() string {
	rho, b := x.rho(), x.base()
	x.need(b.v > 0)
	return form("IF($1>=-LN($2),1,EXP(0-(SQRT(-LN($2))-SQRT($1))^2))", rho, b)
}

// reroRDP is Balle et al.'s bound for one (t, ε_α)-RDP guarantee,
// Kulynych et al. Thm B.2: min(1, (b·e^{ε_α})^{(t−1)/t}); other rows with a
// zCDP view use reroZCDP.
func (x *sheetRow) reroRDP() string {
	if x.mech != release.MechanismRDP {
		return x.reroZCDP()
	}
	t, e, b := x.ref(release.FieldRDPOrder), x.composed(x.ref(release.FieldRDPEpsilon)), x.base()
	x.need(b.v > 0 && e.v <= maxSheetExp)
	return form("MIN(1,EXP((1-1/$1)*(LN($2)+$3)))", t, b, e)
}
