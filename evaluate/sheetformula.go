package evaluate

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/internal/numtext"
	"github.com/riskbatch/riskbatch/internal/xlformula"
	"github.com/riskbatch/riskbatch/table"
)

// Live workbooks. An output column whose bound has a closed form that a
// spreadsheet computes with its own functions (EXP, LN, NORMSDIST, …) is
// written as a formula over the row's input cells, with riskbatch's value
// as the formula's cached result: the workbook opens showing riskbatch's
// numbers and recomputes them when an analyst edits ε, δ, σ or the
// baseline. The formula of a column lives on its registry entry
// (OutputColumn.Sheet); SheetBinding writes it for one row at a time, in
// terms of the row's columns by name, as Excel's structured references to
// a table row do ([@epsilon], see xlformula.ThisRow). Where the columns and
// the row land on a sheet is the workbook writer's business: it binds
// each name to its cell.
//
// A formula is written for a row only when all of these hold:
//
//   - the row's status is ok or partial and the cell has a value;
//   - every input the value depends on is a cell of the row that the
//     formula references (a baseline typed as baseline or as candidates,
//     not derived from a prior; a Gaussian μ from sigma and sensitivity or
//     from mu, not both; no compositions where the formula has none), and
//     each referenced cell holds a number (or text that is a plain decimal
//     number, which the workbook writes as a number: see NumberColumns);
//   - the inputs lie where spreadsheet arithmetic is safe: ε ≤ 700 (e^ε
//     overflows near 709.8), baselines of Gaussian curves in
//     [1e-300, 1 − 1e-15] (the domain of NORMSINV), and the ranges named
//     on each formula where a spreadsheet would lose precision.
//
// Everywhere else the cell holds the value alone. The formulas reproduce
// riskbatch's values to 1e-9 absolute (riskbatch rounds its upper bounds
// up by a few ulps and computes tails without cancellation; a spreadsheet
// that recalculates may differ in the last digits).
//
// The formulas use only functions of Excel 2007's file format, which every
// spreadsheet reads by their plain names: the normal distribution is
// NORMSDIST(x) and NORMSINV(p), not NORM.S.DIST(x,TRUE) and NORM.S.INV(p).
// Those two are Excel 2010 functions, which a file must name
// _xlfn.NORM.S.DIST and _xlfn.NORM.S.INV; and Gnumeric (1.12) has no
// NORM.S.DIST under either name (#NAME? once it recalculates). They are
// the same functions: Excel 2010 gave NORMSDIST and NORMSINV the improved
// algorithms of their new names (Microsoft, "What's new: changes made to
// Excel functions"), and LibreOffice computes both pairs with the same
// code.

// maxSheetExp is the largest exponent a formula passes to EXP: e^700 ≈
// 1e304 still fits a double, e^710 does not.
const maxSheetExp = 700

// Gaussian baselines outside [minSheetQuantile, 1 − maxSheetQuantileGap]
// are beyond what NORMSINV accepts or resolves.
const (
	minSheetQuantile    = 1e-300
	maxSheetQuantileGap = 1e-15
)

// minSheetGap bounds 1 − x from below where a formula divides by 1 − x
// (1 − baseline, 1 − target_advantage): the cancellation in 1 − x then
// costs at most ~1e-10 absolute. (LibreOffice even rounds a difference of
// nearly equal numbers to 0: 1 − (1 − 1e-15) is 0 there.)
const minSheetGap = 1e-6

// maxSheetRecords bounds records in pso_baseline's (1 − w)^(records − 1),
// whose relative error grows as records × 1e-16.
const maxSheetRecords = 1e6

// SheetForm says how an output column is written in a workbook besides its
// value.
type SheetForm struct {
	// Advantage marks a bound on an attack's advantage (success beyond the
	// baseline), the quantity target_advantage and riskbatch's --threshold
	// are stated in; the workbook shades these cells against them.
	Advantage bool
	// Rows names the rows whose cell is a live formula, for the column's
	// note; empty for a column that is always written as a value because
	// it needs numerical work (root finding, optimisation, convolution).
	Rows string
	// formula returns the column's spreadsheet formula for one row,
	// without the leading "=", in terms of the row's quantities (see
	// sheetRow), which refer to the row's cells by column name; a failed
	// requirement of x makes it void.
	formula func(x *sheetRow) string
}

// The rows a formula covers, for the notes. A test checks them against the
// rows that get formulas.
const (
	sheetRowsCurve  = "pure, exponential, approx, laplace and rr rows of one composition, and gaussian, gdp and marginals rows"
	sheetRowsBinary = "pure, exponential, approx and laplace rows of one composition, and gaussian, gdp and marginals rows"
	sheetRowsEps    = "pure, exponential, laplace and rr rows with delta empty, and approx rows of one composition"
	sheetRowsPure   = "pure, exponential, laplace and rr rows with delta empty"
	sheetRowsRho    = "zcdp, gaussian, gdp and marginals rows"
	sheetRowsRDP    = "rdp, zcdp, gaussian, gdp and marginals rows"
	sheetRowsDelta  = "pure, exponential, laplace and rr rows, approx rows of one composition, and gaussian, gdp, marginals, zcdp, rdp and dpsgd rows with a delta"
	sheetRowsAll    = "every row"
)

// withSheet sets how a column is written in a workbook.
func withSheet(s SheetForm, c OutputColumn) OutputColumn {
	c.Sheet = s
	return c
}

// Describe says how the column's cells are written in a workbook, for its
// header note and the Columns sheet.
func (s SheetForm) Describe() string {
	if s.formula == nil {
		return "In the workbook: value (numerical)."
	}
	return "In the workbook: a live formula on " + s.Rows +
		" (with the inputs it needs typed in the row); elsewhere the value."
}

// SheetBinding maps the header of an output table (input columns, then the
// evaluator's Columns) to the inputs and outputs, to write the table as a
// live workbook. Formulas is not safe for concurrent use (a writer calls
// it for one row at a time); the other methods are.
type SheetBinding struct {
	b       *Binding
	first   int               // header index of the status column
	ref     [numFields]string // this-row reference to each input field's column; "" if absent
	outRef  []string          // this-row reference to each output column
	outputs []OutputColumn
	named   map[string]Mechanism // mechanism cells already looked up
}

// maxNamedMechanisms bounds SheetBinding.named: a table names its
// mechanisms in a handful of spellings.
const maxNamedMechanisms = 64

// BindSheet matches an output table's header: the input columns, then the
// evaluator's Columns() (status, message and the outputs) at its end.
func (e *Evaluator) BindSheet(header []table.Column) (*SheetBinding, error) {
	first := len(header) - e.Width()
	if first < 0 {
		return nil, errors.New("evaluate: the header is shorter than the evaluator's columns")
	}
	for k, c := range e.Columns() {
		if header[first+k].Name != c.Name {
			return nil, fmt.Errorf("evaluate: header column %d is %q where the evaluator writes %q", first+k, header[first+k].Name, c.Name)
		}
	}
	b, err := e.Bind(header[:first])
	if err != nil {
		return nil, err
	}
	s := &SheetBinding{b: b, first: first, outputs: e.outputs, named: map[string]Mechanism{}}
	for f := range s.ref {
		if i := b.index[f]; i >= 0 {
			s.ref[f] = xlformula.ThisRow(header[i].Name)
		}
	}
	for _, o := range e.outputs {
		s.outRef = append(s.outRef, xlformula.ThisRow(o.Name))
	}
	return s, nil
}

// Field returns the header index of an input field's column, or -1.
func (s *SheetBinding) Field(f Field) int { return s.b.index[f] }

// NumberColumns returns the header indexes of the numeric inputs (every
// input of the contract but id, mechanism and prior). A workbook writes
// their text cells that hold a plain decimal number as numbers, as it
// must for formulas to use them: CSV and TSV inputs carry no types.
func (s *SheetBinding) NumberColumns() []int {
	var cols []int
	for f := Field(0); f < numFields; f++ {
		if i := s.b.index[f]; i >= 0 && !s.b.vocab.Column(f).Text {
			cols = append(cols, i)
		}
	}
	sort.Ints(cols)
	return cols
}

// Advantages returns the header indexes of the output columns that bound an
// attack's advantage (SheetForm.Advantage).
func (s *SheetBinding) Advantages() []int {
	var cols []int
	for k, o := range s.outputs {
		if o.Sheet.Advantage {
			cols = append(cols, s.first+2+k)
		}
	}
	return cols
}

// OutputColumns returns the header indexes of the output columns (those
// after status and message) for which keep is true.
func (s *SheetBinding) OutputColumns(keep func(OutputColumn) bool) []int {
	var cols []int
	for k, o := range s.outputs {
		if keep(o) {
			cols = append(cols, s.first+2+k)
		}
	}
	return cols
}

// Describe returns what the header note of column col says about its cells
// in a workbook ("" for inputs, status and message).
func (s *SheetBinding) Describe(col int) string {
	k := col - s.first - 2
	if k < 0 || k >= len(s.outputs) {
		return ""
	}
	return s.outputs[k].Sheet.Describe()
}

// Formulas sets formulas[i] to the spreadsheet formula of cells[i] (without
// "="), which refers to the row's cells by their header names
// (xlformula.ThisRow), or to "" where the cell is written as a value (see
// the package comment on live workbooks).
func (s *SheetBinding) Formulas(cells []table.Cell, formulas []string) {
	for i := range formulas {
		formulas[i] = ""
	}
	if len(cells) != len(formulas) || len(cells) < s.first+2+len(s.outputs) {
		return
	}
	switch Status(cells[s.first].String()) {
	case StatusOK, StatusPartial:
	default:
		return
	}
	in, ok := s.b.parseInputs(cells)
	if !ok {
		return
	}
	mech, ok := s.mechanism(&in)
	if !ok {
		return
	}
	x := sheetRow{s: s, in: &in, cells: cells, formulas: formulas, mech: mech}
	for k, o := range s.outputs {
		at := s.first + 2 + k
		if o.Sheet.formula == nil || cells[at].Kind != table.Number {
			continue
		}
		x.ok = true
		if f := o.Sheet.formula(&x); x.ok {
			formulas[at] = f
		}
	}
}

// mechanism is the row's mechanism, as Evaluate finds it.
func (s *SheetBinding) mechanism(in *inputs) (Mechanism, bool) {
	if !in.set[FieldMechanism] {
		var problems rowError
		spec := s.b.mechanism(in, &problems)
		if spec == nil {
			return "", false
		}
		return spec.name, true
	}
	text := in.text[FieldMechanism]
	if m, ok := s.named[text]; ok {
		return m, true
	}
	spec, err := lookupMechanism(s.b.specs, s.b.mechIndex, text)
	if err != nil {
		return "", false
	}
	if len(s.named) < maxNamedMechanisms {
		s.named[text] = spec.name
	}
	return spec.name, true
}

// parseInputs reads a row's input cells as Evaluate does; false when a
// cell is not a valid number (such a row is an error row anyway).
func (b *Binding) parseInputs(cells []table.Cell) (inputs, bool) {
	var in inputs
	for f := Field(0); f < numFields; f++ {
		i := b.index[f]
		if i < 0 || i >= len(cells) || cells[i].IsEmpty() {
			continue
		}
		col := b.vocab.Column(f)
		if col.Text {
			in.text[f] = strings.TrimSpace(cells[i].String())
			in.set[f] = true
			continue
		}
		v, err := cellNumber(cells[i], b.format(col.Percent))
		if err != nil || !col.Domain.Contains(v) {
			return in, false
		}
		in.num[f], in.set[f] = v, true
	}
	return in, true
}

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
	in       *inputs
	cells    []table.Cell
	formulas []string // the row's formulas so far, in output order
	mech     Mechanism
	ok       bool
	// cell says, per field, whether its cell is a number a formula can
	// use: 0 not looked at yet, 1 yes, -1 no.
	cell [numFields]int8
}

// need voids the formula unless cond holds.
func (x *sheetRow) need(cond bool) {
	if !cond {
		x.ok = false
	}
}

func (x *sheetRow) has(f Field) bool { return x.in.set[f] }

// zero reports whether the field is empty or 0 (δ of a pure release).
func (x *sheetRow) zero(f Field) bool { return !x.in.set[f] || x.in.num[f] == 0 }

// ref is the cell of an input field on this row; it must hold a number.
func (x *sheetRow) ref(f Field) term {
	i := x.s.b.index[f]
	if i < 0 || !x.in.set[f] {
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
			usable = ok && v == x.in.num[f]
		}
		x.cell[f] = -1
		if usable {
			x.cell[f] = 1
		}
	}
	x.need(x.cell[f] > 0)
	return term{x.s.ref[f], x.in.num[f]}
}

// output is the cell of an earlier output column of the row, which must be
// a live formula itself (so that the two follow the same edits).
func (x *sheetRow) output(name string) term {
	for k, o := range x.s.outputs {
		if o.Name == name {
			at := x.s.first + 2 + k
			x.need(x.formulas[at] != "")
			return term{x.s.outRef[k], x.cells[at].Num}
		}
	}
	x.ok = false
	return term{"0", 0}
}

// orOne is the cell of an input whose empty value means 1 (sensitivity).
func (x *sheetRow) orOne(f Field) term {
	if !x.has(f) {
		return lit(1)
	}
	return x.ref(f)
}

// composed is t·compositions when the row has compositions (the k-fold ε
// of a pure guarantee, the k-fold ρ or ε_α), computed as riskbatch does.
func (x *sheetRow) composed(t term) term {
	if !x.has(FieldCompositions) {
		return t
	}
	c := x.ref(FieldCompositions)
	return term{"(" + t.s + "*" + c.s + ")", c.v * t.v}
}

// laplaceEps is ε = sensitivity/laplace_scale of a Laplace row.
func (x *sheetRow) laplaceEps() term {
	sens, scale := x.orOne(FieldSensitivity), x.ref(FieldLaplaceScale)
	return term{"(" + sens.s + "/" + scale.s + ")", sens.v / scale.v}
}

// eps is the ε of the row's (ε, δ) view (eps_at_delta) where it is the
// row's own: pure, laplace and rr rows with δ empty (k·ε), approx rows of
// one composition.
func (x *sheetRow) eps() term {
	var e term
	switch x.mech {
	case MechanismPure, MechanismExponential, MechanismRR:
		x.need(x.zero(FieldDelta))
		e = x.composed(x.ref(FieldEpsilon))
	case MechanismLaplace:
		x.need(x.zero(FieldDelta))
		e = x.composed(x.laplaceEps())
	case MechanismApprox:
		x.need(!x.has(FieldCompositions))
		e = x.ref(FieldEpsilon)
	default:
		x.ok = false
	}
	x.need(e.v <= maxSheetExp)
	return e
}

// pureEps is the ε of a pure guarantee (pure, laplace, rr with δ empty).
func (x *sheetRow) pureEps() term {
	x.need(x.mech != MechanismApprox)
	return x.eps()
}

// delta is the δ of the row's (ε, δ) view: the delta cell, which a
// spreadsheet reads as 0 when it is empty (the literal 0 where the table
// has no delta column), except for approx rows of several compositions
// (k·δ).
func (x *sheetRow) delta() term {
	switch {
	case x.mech == MechanismApprox:
		x.need(!x.has(FieldCompositions))
	case x.mech == MechanismPure || x.mech == MechanismExponential || x.mech == MechanismLaplace || x.mech == MechanismRR:
	default:
		x.need(x.has(FieldDelta)) // the other mechanisms have no ε without δ
	}
	if x.has(FieldDelta) {
		return x.ref(FieldDelta)
	}
	if r := x.s.ref[FieldDelta]; r != "" {
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
	case MechanismGaussian:
		x.need(!x.has(FieldMu))
		sens, sigma := x.orOne(FieldSensitivity), x.ref(FieldSigma)
		m = term{"(" + sens.s + "/" + sigma.s + ")", sens.v / sigma.v}
	case MechanismGDP:
		m = x.ref(FieldMu)
	case MechanismMarginals:
		d, k, u, sigma := x.ref(FieldColumnsTotal), x.ref(FieldMarginalK), x.ref(FieldColumnsUnknown), x.ref(FieldSigma)
		x.need(numeric.Binomial(int(d.v), int(k.v)) < 1<<53) // COMBIN is exact below 2^53
		q := curve.MarginalQueries(int(d.v), int(k.v), int(u.v))
		// COMBIN(n, k) fails for k > n, where the count is 0.
		m = term{form("(SQRT(COMBIN($1,$2)-IF($1-$3<$2,0,COMBIN($1-$3,$2)))*SQRT(2)/$4)", d, k, u, sigma), math.Sqrt(q) * math.Sqrt2 / sigma.v}
	default:
		x.ok = false
		return m
	}
	if x.has(FieldCompositions) {
		c := x.ref(FieldCompositions)
		m = term{"(" + m.s + "*SQRT(" + c.s + "))", m.v * math.Sqrt(c.v)}
	}
	return m
}

// rho is the zCDP ρ: rho·compositions (zcdp) or μ²/2 (Gaussian rows).
func (x *sheetRow) rho() term {
	if x.mech == MechanismZCDP {
		return x.composed(x.ref(FieldRho))
	}
	m := x.mu()
	return term{"(" + m.s + "^2/2)", m.v * m.v / 2}
}

// base is the baseline: the baseline cell, or 1/candidates; not a prior's.
func (x *sheetRow) base() term {
	x.need(!x.has(FieldPrior))
	switch {
	case x.has(FieldBaseline) && !x.has(FieldCandidates):
		return x.ref(FieldBaseline)
	case x.has(FieldCandidates) && !x.has(FieldBaseline):
		c := x.ref(FieldCandidates)
		return term{"(1/" + c.s + ")", 1 / c.v}
	}
	x.ok = false
	return term{"0", 0}
}

// candidates is M of the candidates cell (not of a uniform prior).
func (x *sheetRow) candidates() term {
	x.need(!x.has(FieldPrior))
	m := x.ref(FieldCandidates)
	x.need(m.v <= 1<<31) // the bounds clip M there
	return m
}

// confidence is the row's confidence cell, else the run's default level.
func (x *sheetRow) confidence() term {
	if x.has(FieldConfidence) {
		return x.ref(FieldConfidence)
	}
	return lit(x.s.b.confidence())
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
	switch x.mech {
	case MechanismPure, MechanismExponential, MechanismApprox:
		x.need(!x.has(FieldCompositions))
		c = sheetCurve{kind: curveEpsDelta, e: x.ref(FieldEpsilon), d: x.delta()}
	case MechanismGaussian, MechanismGDP, MechanismMarginals:
		return sheetCurve{kind: curveGaussian, m: x.mu()}
	case MechanismLaplace:
		x.need(!x.has(FieldCompositions))
		c = sheetCurve{kind: curveLaplace, e: x.laplaceEps()}
	case MechanismRR:
		x.need(!x.has(FieldCompositions))
		c = sheetCurve{kind: curveRR, e: x.ref(FieldEpsilon), k: x.ref(FieldRRCategories)}
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
	if x.mech != MechanismRDP {
		return x.reroZCDP()
	}
	t, e, b := x.ref(FieldRDPOrder), x.composed(x.ref(FieldRDPEpsilon)), x.base()
	x.need(b.v > 0 && e.v <= maxSheetExp)
	return form("MIN(1,EXP((1-1/$1)*(LN($2)+$3)))", t, b, e)
}
