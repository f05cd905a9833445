package evaluate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/table"
)

// The total of a dataset group: its members' stages composed, the inputs
// the group's rows agree on, and its output row.

// Total is the composition of one dataset group, collected row by row.
type Total struct {
	// Dataset is the group's dataset cell.
	Dataset string
	// Rows counts the rows of the group; Composed those composed.
	Rows, Composed int
	stages         []pld.Stage // distinct stages, in order of first appearance
	tooLarge       string      // why the stages overflow a row, once they do
	left           names       // rows with status error
	cannot         names       // rows whose mechanism cannot be composed
	cannotWhy      string      // the first of their reasons
	attack         []fieldValue
	// evaluated is the row EvaluateTotal computed the total's bounds from
	// (synthetic), nil before or when it could not.
	evaluated []InputCell
	differ    []Field // agreed fields the rows differ on
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
		if sameStage(*u, s) {
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

// sameStage reports whether two stages are releases of the same
// mechanism with the same parameters (their counts aside).
func sameStage(a, b pld.Stage) bool {
	a.Steps, b.Steps = 0, 0
	return a == b
}

// Stages writes the total's stages in the grammar of extra_stages
// ("gaussian(4)x2; laplace(1, 0.2)x10"), every number exact.
func (t *Total) Stages() string { return stagesText(t.stages) }

// stagesText writes stages in the grammar of extra_stages, every number
// in the shortest form that reads back to the same float64: a Gaussian
// stage by its noise multiplier (sensitivity 1), a Laplace stage of ε as
// laplace(1, ε) (scale 1, sensitivity ε: ε exactly, where 1/ε might not
// read back to the same ε).
func stagesText(stages []pld.Stage) string {
	parts := make([]string, len(stages))
	for i, s := range stages {
		parts[i] = stageText(s) + "x" + strconv.Itoa(s.Steps)
	}
	return strings.Join(parts, "; ")
}

// stageText writes one release of a stage.
func stageText(s pld.Stage) string {
	switch s.Mechanism {
	case pld.Laplace:
		return "laplace(1, " + exactNumber(s.Epsilon) + ")"
	case pld.RandomizedResponse:
		return "rr(" + exactNumber(s.Epsilon) + ", " + strconv.Itoa(s.Categories) + ")"
	case pld.EpsilonDelta:
		if s.Delta == 0 {
			return "pure(" + exactNumber(s.Epsilon) + ")"
		}
		return "approx(" + exactNumber(s.Epsilon) + ", " + exactNumber(s.Delta) + ")"
	}
	if s.SampleRate == 1 {
		return "gaussian(" + exactNumber(s.NoiseMultiplier) + ")"
	}
	return "dpsgd(" + exactNumber(s.NoiseMultiplier) + ", " + exactNumber(s.SampleRate) + ")"
}

func exactNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// InputCell is one input-side cell of a total row: the field's column
// gets the cell, when the output has it.
type InputCell struct {
	Field Field
	Cell  table.Cell
}

// MechanismComposed is the mechanism cell of a total row: the composition
// of its dataset's rows, whose stages its extra_stages cell and message
// list.
const MechanismComposed = "composed"

// composedCells are the input-side cells a total row shows of its
// composition: mechanism "composed", the stages in the grammar of
// extra_stages, and the attack fields every composed row agrees on (the
// δ at which it reports its ε among them). No mechanism's parameters: the
// row synthetic evaluates states the composition as one of its stages'
// mechanisms with the others as extra stages, which is how it is
// computed, not what was released.
func (t *Total) composedCells() []InputCell {
	row := []InputCell{{FieldMechanism, table.TextCell(MechanismComposed)}}
	if len(t.stages) > 0 {
		row = append(row, InputCell{FieldExtraStages, table.TextCell(t.Stages())})
	}
	for _, a := range t.attack {
		if a.text != "" {
			row = append(row, InputCell{a.field, table.TextCell(a.text)})
		} else {
			row = append(row, InputCell{a.field, table.NumberCell(a.num)})
		}
	}
	return row
}

// synthetic is the total as one input row, the composition written as a
// row: a gdp row of μ = √(Σ_i n_i/σ_i²) when every stage is a plain
// Gaussian (exact, Dong, Roth & Su 2022, Cor. 3.3; every operation rounded
// up, as μ bounds the risk from above); else a row whose own
// mechanism is one of the stages (its host, see hostStage) and whose
// extra_stages are the others, composed by curve.Compose. The agreed
// attack fields follow. ok is false when no stage can be the row's own
// mechanism (only (ε, δ) stages with δ > 0, whose δ would be read as the
// row's reporting δ).
func (t *Total) synthetic() (row []InputCell, ok bool) {
	num := func(f Field, v float64) { row = append(row, InputCell{f, table.NumberCell(v)}) }
	text := func(f Field, v string) { row = append(row, InputCell{f, table.TextCell(v)}) }
	plain := true
	for _, s := range t.stages {
		plain = plain && s.Mechanism == pld.SubsampledGaussian && s.SampleRate == 1
	}
	if plain {
		var sum float64
		for _, s := range t.stages {
			sum = numeric.AddUp(sum, numeric.DivUp(numeric.DivUp(float64(s.Steps), s.NoiseMultiplier), s.NoiseMultiplier))
		}
		text(FieldMechanism, string(MechanismGDP))
		num(FieldMu, numeric.SqrtUp(sum))
	} else {
		h := hostStage(t.stages)
		if h < 0 {
			return nil, false
		}
		host := t.stages[h]
		switch host.Mechanism {
		case pld.SubsampledGaussian:
			text(FieldMechanism, string(MechanismDPSGD))
			num(FieldNoiseMultiplier, host.NoiseMultiplier)
			num(FieldSampleRate, host.SampleRate)
			num(FieldSteps, float64(host.Steps))
		case pld.Laplace: // scale 1, sensitivity ε: ε exactly
			text(FieldMechanism, string(MechanismLaplace))
			num(FieldLaplaceScale, 1)
			num(FieldSensitivity, host.Epsilon)
			num(FieldCompositions, float64(host.Steps))
		case pld.RandomizedResponse:
			text(FieldMechanism, string(MechanismRR))
			num(FieldEpsilon, host.Epsilon)
			num(FieldRRCategories, float64(host.Categories))
			num(FieldCompositions, float64(host.Steps))
		default: // (ε, 0)
			text(FieldMechanism, string(MechanismPure))
			num(FieldEpsilon, host.Epsilon)
			num(FieldCompositions, float64(host.Steps))
		}
		rest := slices.Delete(slices.Clone(t.stages), h, h+1)
		if len(rest) > 0 {
			text(FieldExtraStages, stagesText(rest))
		}
	}
	for _, a := range t.attack {
		if a.text != "" {
			text(a.field, a.text)
		} else {
			num(a.field, a.num)
		}
	}
	return row, true
}

// hostStage is the index of the stage a total row states as its own
// mechanism, or -1: a subsampled Gaussian first (the accountant of dpsgd
// rows), then Laplace, randomized response and pure ε, in the order of
// the stages. An (ε, δ) stage with δ > 0 cannot be the host: the row's
// delta cell is the δ at which the whole composition reports its ε.
func hostStage(stages []pld.Stage) int {
	for _, kind := range []pld.Kind{pld.SubsampledGaussian, pld.Laplace, pld.RandomizedResponse, pld.EpsilonDelta} {
		for i, s := range stages {
			if s.Mechanism == kind && (kind != pld.EpsilonDelta || s.Delta == 0) {
				return i
			}
		}
	}
	return -1
}

// EvaluateTotal evaluates a group's total row into dst (Width() cells:
// status total, the message, the headline, the bounds of the composition)
// and returns the input-side cells to show with it: the dataset, the
// mechanism "composed", the stages composed (extra_stages) and the attack
// fields its rows agree on (see composedCells). The row it evaluates (the
// composition written as one row of one of the stages' mechanisms, see
// synthetic) is not shown: its parameters are not what was released. The
// message says which rows were composed, which were left out, and why any
// bound is empty.
func (e *Evaluator) EvaluateTotal(t *Total, dst []table.Cell) []InputCell {
	clear(dst)
	shown := []InputCell{{FieldDataset, table.TextCell(t.Dataset)}, {FieldID, table.TextCell(t.Dataset)}}
	msg := []string{"total of dataset " + strconv.Quote(t.Dataset) + ": " + strconv.Itoa(t.Composed) + " of " + strconv.Itoa(t.Rows) + " rows composed"}
	if len(t.stages) > 0 {
		msg[0] += ", stages " + t.Stages()
	}
	if t.left.n > 0 {
		msg = append(msg, "left out (status error): "+t.left.String())
	}
	var why string
	switch {
	case t.cannot.n > 0:
		why = "not computed: rows " + t.cannot.String() + " cannot be composed (" + t.cannotWhy + ")"
	case t.tooLarge != "":
		why = "not computed: " + t.tooLarge
	case t.Composed == 0:
		why = "not computed: no row of the dataset could be composed"
	}
	var row []InputCell
	if why == "" {
		var ok bool
		if row, ok = t.synthetic(); !ok {
			why = "not computed: its stages are all (ε, δ) guarantees with δ > 0, which no row can state as its own mechanism beside a reporting δ; add them as extra_stages of one of its rows"
		}
	}
	if why == "" {
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
			t.evaluated = row
		}
	}
	shown = append(shown, t.composedCells()...)
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
		t.worst = dst[HeadWidth+k]
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
	if k := e.outputIndex(DatasetWorstAdvantage); k >= 0 && HeadWidth+k < len(dst) {
		dst[HeadWidth+k] = worst
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
