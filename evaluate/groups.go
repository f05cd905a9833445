package evaluate

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/table"
)

// Composition across rows. Rows whose dataset cell holds the same text
// touch the same people: their releases compose, and the risk of all of
// them together is the risk of the composed mechanism. A Total collects,
// row by row, what that composition needs — each row's mechanism as a
// list of stages, identical stages merged — in memory that grows with the
// number of distinct stages of the group, not with its rows. The total
// row is then an ordinary input row, built from the stages (see
// Total.synthetic), evaluated by the same evaluator as every other row:
// every bound of a total row is the bound of the composition.
//
// A member row's mechanism becomes stages in one function per mechanism
// (memberStages); a mechanism the stage grammar of extra_stages cannot
// express yet makes the total's bounds empty, with a message naming the
// rows. That function is the one place to extend when the grammar grows.

// StatusTotal is the status of a row riskbatch appends for a dataset
// group: the composition of the group's rows.
const StatusTotal Status = "total"

// DatasetWorstAdvantage names the output column that marks every row of a
// dataset group with its total's fdp_worst_advantage.
const DatasetWorstAdvantage = "dataset_worst_advantage"

// maxTotalNames bounds the rows a total's message names (left out, or not
// composable): the count of the others is given instead, so that the
// memory of a group does not grow with its rows.
const maxTotalNames = 5

// Member is what a dataset group's total takes from one row: the group,
// the row's stages (or why it has none) and what the row says of the
// attack. The zero Member is a row in no group.
type Member struct {
	// Dataset is the row's dataset cell, trimmed; "" for a row in no group.
	Dataset string
	// name names the row in a total's message: its id, else where it is.
	name string
	// failed marks a row with status error: it is not composed.
	failed bool
	stages []pld.Stage
	// cannot is why the row's mechanism cannot be composed yet ("" if it can).
	cannot string
	attack []fieldValue
}

// fieldValue is a row's value of one input field, as read.
type fieldValue struct {
	field Field
	num   float64
	text  string
}

// agreedFields are the inputs that say what the attack is, or at which δ
// an ε is reported, rather than what the mechanism is: a total row has
// each of them when every composed row has the same value, and none of
// them when the rows differ (its bounds that need it are then empty). The
// calibration target is not among them: a calibration of a total row
// would vary its first stage only, which no member asked for.
func agreedFields() []Field {
	return []Field{FieldDelta, FieldBaseline, FieldCandidates, FieldPrior, FieldTargets, FieldSuccesses,
		FieldConfidence, FieldTolerance, FieldRecords, FieldPredicateWeight}
}

// Dataset returns a row's dataset cell, trimmed: "" when the table has no
// dataset column or the cell is empty (the row is in no group).
func (b *Binding) Dataset(cells []table.Cell) string {
	i := b.index[FieldDataset]
	if i < 0 || i >= len(cells) || cells[i].IsEmpty() {
		return ""
	}
	return strings.TrimSpace(cells[i].String())
}

// Member reads what a group's total needs of a row: the row as Evaluate
// reads it, so that a row Evaluate rejects (status error), or that a
// reader could not read whole (readErr), is a failed member. where names
// the row in messages when it has no id ("row 12").
func (b *Binding) Member(cells []table.Cell, readErr error, where string) Member {
	m := Member{Dataset: b.Dataset(cells), name: where}
	if m.Dataset == "" {
		return m
	}
	if i := b.index[FieldID]; i >= 0 && i < len(cells) && !cells[i].IsEmpty() {
		m.name = strings.TrimSpace(cells[i].String())
	}
	if readErr != nil {
		m.failed = true
		return m
	}
	in, problems := b.readCells(cells)
	var r *Release
	if len(problems) == 0 {
		r = b.resolve(&in, &problems)
	}
	if r == nil {
		m.failed = true
		return m
	}
	for _, f := range agreedFields() {
		if in.has(f) {
			m.attack = append(m.attack, fieldValue{field: f, num: in.num[f], text: in.text[f]})
		}
	}
	m.stages, m.cannot = memberStages(r.Mechanism, &in)
	return m
}

// memberStages converts a row's mechanism into stages of the extra_stages
// grammar (σ, q, steps: the Poisson-subsampled Gaussian mechanism, the
// plain Gaussian at q = 1), one function per mechanism; for a mechanism
// the grammar cannot express it returns why instead.
func memberStages(m Mechanism, in *inputs) ([]pld.Stage, string) {
	c := in.numOr(FieldCompositions, 1)
	switch m {
	case MechanismGaussian:
		return gaussianStages(in, c)
	case MechanismGDP:
		return gaussianStage(1/in.num[FieldMu], c)
	case MechanismMarginals:
		return marginalsStages(in, c)
	case MechanismDPSGD:
		return dpsgdStages(in)
	}
	return nil, "mechanism " + string(m) + " is not one the extra_stages grammar can compose yet (DP-SGD and Gaussian stages only)"
}

// gaussianStages are c releases of the Gaussian mechanism of noise σ and
// sensitivity Δ: noise multiplier σ/Δ at q = 1 (from μ = Δ/σ when the row
// gives μ).
func gaussianStages(in *inputs, c float64) ([]pld.Stage, string) {
	if in.has(FieldSigma) {
		return gaussianStage(in.num[FieldSigma]/in.numOr(FieldSensitivity, 1), c)
	}
	return gaussianStage(1/in.num[FieldMu], c)
}

// gaussianStage is n releases of a Gaussian mechanism of noise multiplier
// nm (μ = 1/nm each).
func gaussianStage(nm, n float64) ([]pld.Stage, string) {
	if !(nm > 0) || math.IsInf(nm, 1) || n > maxStageSteps {
		return nil, "its Gaussian noise is out of the range of a stage"
	}
	return []pld.Stage{{NoiseMultiplier: nm, SampleRate: 1, Steps: int(n)}}, ""
}

// marginalsStages are the K·c Gaussian marginals of a marginals row, each
// of L2 sensitivity √2 (Swanberg et al. App. A): noise multiplier σ/√2.
func marginalsStages(in *inputs, c float64) ([]pld.Stage, string) {
	k := curve.MarginalQueries(int(in.num[FieldColumnsTotal]), int(in.num[FieldMarginalK]), int(in.num[FieldColumnsUnknown]))
	return gaussianStage(in.num[FieldSigma]/math.Sqrt2, k*c)
}

// dpsgdStages are a dpsgd row's own stage and its extra stages.
func dpsgdStages(in *inputs) ([]pld.Stage, string) {
	stages := []pld.Stage{{NoiseMultiplier: in.num[FieldNoiseMultiplier], SampleRate: in.num[FieldSampleRate], Steps: int(in.num[FieldSteps])}}
	if in.has(FieldExtraStages) {
		extra, err := parseStages(in.text[FieldExtraStages])
		if err != nil {
			return nil, err.Error()
		}
		stages = append(stages, extra...)
	}
	return stages, ""
}

// Total is the composition of one dataset group, collected row by row.
type Total struct {
	// Dataset is the group's dataset cell.
	Dataset string
	// Rows counts the rows of the group; Composed those composed.
	Rows, Composed int
	stages         []pld.Stage // distinct stages, in order of first appearance
	tooLarge       string      // why the stages overflow a row, once they do
	left           names       // rows with status error
	cannot         names       // rows whose mechanism cannot be composed yet
	cannotWhy      string      // the first of their reasons
	attack         []fieldValue
	differ         []Field // agreed fields the rows differ on
	// worst is the total's fdp_worst_advantage once evaluated.
	worst table.Cell
}

// names are the first few names of a list of rows, and the count of all.
type names struct {
	first []string
	n     int
}

func (l *names) add(name string) {
	if len(l.first) < maxTotalNames {
		l.first = append(l.first, name)
	}
	l.n++
}

func (l names) String() string {
	s := strings.Join(l.first, ", ")
	if more := l.n - len(l.first); more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

// NewTotal starts the total of a dataset group.
func NewTotal(dataset string) *Total { return &Total{Dataset: dataset} }

// Add composes a member of the group into the total: its stages merged
// with those already there (identical stages add their steps), its attack
// compared with the others'. A failed member is left out and named.
func (t *Total) Add(m Member) {
	t.Rows++
	switch {
	case m.failed:
		t.left.add(m.name)
		return
	case m.cannot != "":
		if t.cannot.n == 0 {
			t.cannotWhy = m.cannot
		}
		t.cannot.add(m.name)
		return
	}
	if t.Composed == 0 {
		t.attack = m.attack
	} else {
		t.agree(m.attack)
	}
	t.Composed++
	for _, s := range m.stages {
		t.addStage(s)
	}
}

// addStage merges one stage into the total's.
func (t *Total) addStage(s pld.Stage) {
	for i := range t.stages {
		u := &t.stages[i]
		if u.NoiseMultiplier == s.NoiseMultiplier && u.SampleRate == s.SampleRate {
			if u.Steps+s.Steps > maxStageSteps {
				t.tooLarge = "its stages add up to more than 2^40 steps"
				return
			}
			u.Steps += s.Steps
			return
		}
	}
	if len(t.stages) > maxExtraStages {
		t.tooLarge = "its rows have more than " + strconv.Itoa(maxExtraStages+1) + " distinct stages"
		return
	}
	t.stages = append(t.stages, s)
}

// agree drops from the total's attack every field a member does not have
// with the same value, and records it among those that differ.
func (t *Total) agree(attack []fieldValue) {
	kept := t.attack[:0]
	for _, a := range t.attack {
		same := false
		for _, b := range attack {
			if b.field == a.field {
				same = b.num == a.num && b.text == a.text
			}
		}
		if same {
			kept = append(kept, a)
		} else {
			t.addDiffer(a.field)
		}
	}
	t.attack = kept
	for _, b := range attack {
		if !hasAttack(t.attack, b.field) {
			t.addDiffer(b.field)
		}
	}
}

func (t *Total) addDiffer(f Field) {
	if !hasField(t.differ, f) {
		t.differ = append(t.differ, f)
	}
}

func hasAttack(vs []fieldValue, f Field) bool {
	for _, v := range vs {
		if v.field == f {
			return true
		}
	}
	return false
}

// Stages writes the total's stages in the grammar of extra_stages
// ("σ, q, steps", stages separated by "; "), every number exact.
func (t *Total) Stages() string { return stagesText(t.stages) }

// stagesText writes stages in the grammar of extra_stages, every number
// in the shortest form that reads back to the same float64.
func stagesText(stages []pld.Stage) string {
	parts := make([]string, len(stages))
	for i, s := range stages {
		parts[i] = exactNumber(s.NoiseMultiplier) + ", " + exactNumber(s.SampleRate) + ", " + strconv.Itoa(s.Steps)
	}
	return strings.Join(parts, "; ")
}

func exactNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// InputCell is one input-side cell of a total row: the field's column
// gets the cell, when the output has it.
type InputCell struct {
	Field Field
	Cell  table.Cell
}

// synthetic is the total as an input row of the current grammar, the
// composition written as one row: a gdp row of μ = √(Σ_i n_i/σ_i²) when
// every stage is a plain Gaussian (q = 1; exact, Dong, Roth & Su 2022,
// Cor. 3.3), else a dpsgd row whose own stage is the first and whose
// extra_stages are the others, accounted by the PLD accountant. The
// agreed attack fields follow.
func (t *Total) synthetic() []InputCell {
	var row []InputCell
	num := func(f Field, v float64) { row = append(row, InputCell{f, table.NumberCell(v)}) }
	plain := true
	for _, s := range t.stages {
		plain = plain && s.SampleRate == 1
	}
	if plain {
		var sum float64
		for _, s := range t.stages {
			sum += float64(s.Steps) / (s.NoiseMultiplier * s.NoiseMultiplier)
		}
		row = append(row, InputCell{FieldMechanism, table.TextCell(string(MechanismGDP))})
		num(FieldMu, math.Sqrt(sum))
	} else {
		first := t.stages[0]
		row = append(row, InputCell{FieldMechanism, table.TextCell(string(MechanismDPSGD))})
		num(FieldNoiseMultiplier, first.NoiseMultiplier)
		num(FieldSampleRate, first.SampleRate)
		num(FieldSteps, float64(first.Steps))
		if len(t.stages) > 1 {
			row = append(row, InputCell{FieldExtraStages, table.TextCell(stagesText(t.stages[1:]))})
		}
	}
	for _, a := range t.attack {
		if a.text != "" {
			row = append(row, InputCell{a.field, table.TextCell(a.text)})
		} else {
			num(a.field, a.num)
		}
	}
	return row
}

// EvaluateTotal evaluates a group's total row into dst (Width() cells:
// status total, the message, the bounds of the composition) and returns
// the input-side cells to show with it: the dataset, and the composition
// written as one row (see synthetic) when it could be evaluated. The
// message says which rows were composed, which were left out, and why any
// bound is empty.
func (e *Evaluator) EvaluateTotal(t *Total, dst []table.Cell) []InputCell {
	clear(dst)
	shown := []InputCell{{FieldDataset, table.TextCell(t.Dataset)}, {FieldID, table.TextCell(t.Dataset)}}
	msg := []string{"total of dataset " + strconv.Quote(t.Dataset) + ": " + strconv.Itoa(t.Composed) + " of " + strconv.Itoa(t.Rows) + " rows composed"}
	if len(t.stages) > 0 {
		msg[0] += ", stages (σ, q, steps) " + t.Stages()
	}
	if t.left.n > 0 {
		msg = append(msg, "left out (status error): "+t.left.String())
	}
	var why string
	switch {
	case t.cannot.n > 0:
		why = "not computed: rows " + t.cannot.String() + " cannot be composed yet (" + t.cannotWhy + ")"
	case t.tooLarge != "":
		why = "not computed: " + t.tooLarge
	case t.Composed == 0:
		why = "not computed: no row of the dataset could be composed"
	}
	if why == "" {
		row := t.synthetic()
		cols := make([]table.Column, len(row))
		cells := make([]table.Cell, len(row))
		for i, c := range row {
			cols[i] = table.Column{Name: e.vocab.Column(c.Field).Name}
			cells[i] = c.Cell
		}
		b, err := e.BindTable(cols, DecimalPoint)
		if err != nil {
			why = "not computed: " + err.Error()
		} else {
			status := b.Evaluate(cells, dst)
			if m := dst[1].String(); m != "" && (len(t.differ) == 0 || status == StatusError) {
				msg = append(msg, m)
			}
			shown = append(shown, row...)
		}
	}
	if len(t.differ) > 0 {
		var fs []string
		for _, f := range t.differ {
			fs = append(fs, e.vocab.Column(f).Name)
		}
		it := "it"
		if len(fs) > 1 {
			it = "them"
		}
		msg = append(msg, "the rows differ in "+andList(fs)+", so the bounds that need "+it+" are empty")
	}
	if why != "" {
		clear(dst)
		msg = append(msg, why)
	}
	dst[0] = table.TextCell(string(StatusTotal))
	dst[1] = table.TextCell(strings.Join(msg, "; "))
	if k := e.outputIndex("fdp_worst_advantage"); k >= 0 {
		t.worst = dst[2+k]
		e.MarkMember(dst, t.worst)
	}
	return shown
}

// WorstAdvantage is the total's fdp_worst_advantage, once EvaluateTotal
// has computed it (empty when it could not).
func (t *Total) WorstAdvantage() table.Cell { return t.worst }

// MarkMember writes a group's total advantage into the
// dataset_worst_advantage cell of one of its rows' output cells (Width()
// cells, from the status).
func (e *Evaluator) MarkMember(dst []table.Cell, worst table.Cell) {
	if k := e.outputIndex(DatasetWorstAdvantage); k >= 0 && 2+k < len(dst) {
		dst[2+k] = worst
	}
}

// outputIndex is the index of the named output column, or -1.
func (e *Evaluator) outputIndex(name string) int {
	for k := range e.outputs {
		if e.outputs[k].Name == name {
			return k
		}
	}
	return -1
}

// MemberColumns are the columns of the table that Member reads, in
// increasing order: a first pass over a table's groups may read only
// these (see readers.FieldRecords).
func (b *Binding) MemberColumns() []int {
	var cols []int
	for _, bf := range b.bound {
		cols = append(cols, bf.column)
	}
	slices.Sort(cols)
	return cols
}
