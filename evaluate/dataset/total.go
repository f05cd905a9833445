package dataset

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/release"
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
	attack         []FieldValue
	// evaluated is the row evaluate.Evaluator.EvaluateTotal computed the total's bounds from
	// (Synthetic), nil before or when it could not.
	evaluated []InputCell
	differ    []release.Field // agreed fields the rows differ on
	// worst is the total's fdp_worst_advantage once evaluated.
	worst table.Cell
	goal
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
	case m.Failed:
		t.left.add(m.Name)
		return
	case m.Cannot != "":
		if t.cannot.n == 0 {
			t.cannotWhy = m.Cannot
		}
		t.cannot.add(m.Name)
		return
	}
	if t.Composed == 0 {
		t.attack = m.Attack
	} else {
		t.agree(m.Attack)
	}
	t.Composed++
	t.addGoal(m)
	for _, s := range m.Stages {
		t.addStage(s)
	}
}

// addStage merges one stage into the total's: into its stages, or, after
// the row of its unknown, into those that follow it (see Total.after).
func (t *Total) addStage(s pld.Stage) {
	if t.unknown != nil {
		t.after = t.mergeStage(t.after, s)
		return
	}
	t.stages = t.mergeStage(t.stages, s)
}

// mergeStage merges one stage into a list of distinct stages
// (mergeChecked). Past the limits of a row, it records why (tooLarge) and
// leaves the list as it is.
func (t *Total) mergeStage(stages []pld.Stage, s pld.Stage) []pld.Stage {
	merged, err := mergeChecked(stages, s)
	if limit, ok := errors.AsType[*stageLimitError](err); ok {
		t.tooLarge = "its " + limit.what
		return stages
	}
	return merged
}

// agree drops from the total's attack every field a member does not have
// with the same value, and records it among those that differ.
func (t *Total) agree(attack []FieldValue) {
	kept := t.attack[:0]
	for _, a := range t.attack {
		same := false
		for _, b := range attack {
			if b.Field == a.Field {
				same = b.Num == a.Num && b.Text == a.Text
			}
		}
		if same {
			kept = append(kept, a)
		} else {
			t.addDiffer(a.Field)
		}
	}
	t.attack = kept
	for _, b := range attack {
		if !hasAttack(t.attack, b.Field) {
			t.addDiffer(b.Field)
		}
	}
}

func (t *Total) addDiffer(f release.Field) {
	if !slices.Contains(t.differ, f) {
		t.differ = append(t.differ, f)
	}
}

func hasAttack(vs []FieldValue, f release.Field) bool {
	for _, v := range vs {
		if v.Field == f {
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
		parts[i] = StageText(s) + "x" + strconv.Itoa(s.Steps)
	}
	return strings.Join(parts, "; ")
}

// StageText writes one release of a stage.
func StageText(s pld.Stage) string {
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
	Field release.Field
	Cell  table.Cell
}

// MechanismComposed is the mechanism cell of a total row: the composition
// of its dataset's rows, whose stages its extra_stages cell and message
// list.
const MechanismComposed = "composed"

// ComposedCells are the input-side cells a total row shows of its
// composition: mechanism "composed", the stages in the grammar of
// extra_stages, and the attack fields every composed row agrees on (the
// δ at which it reports its ε among them). No mechanism's parameters: the
// row Synthetic gives states the composition as one of its stages'
// mechanisms with the others as extra stages, which is how it is
// computed, not what was released.
func (t *Total) ComposedCells() []InputCell {
	row := []InputCell{{release.FieldMechanism, table.TextCell(MechanismComposed)}}
	if len(t.stages) > 0 {
		row = append(row, InputCell{release.FieldExtraStages, table.TextCell(t.Stages())})
	}
	for _, a := range t.attack {
		if a.Text != "" {
			row = append(row, InputCell{a.Field, table.TextCell(a.Text)})
		} else {
			row = append(row, InputCell{a.Field, table.NumberCell(a.Num)})
		}
	}
	return row
}

// Synthetic is the total as one input row, the composition written as a
// row: a gdp row of μ = √(Σ_i n_i/σ_i²) when every stage is a plain
// Gaussian (exact, Dong, Roth & Su 2022, Cor. 3.3; every operation rounded
// up, as μ bounds the risk from above); else a row whose own
// mechanism is one of the stages (its host, see hostStage) and whose
// extra_stages are the others, composed by curve.Compose. The agreed
// attack fields follow. ok is false when no stage can be the row's own
// mechanism (only (ε, δ) stages with δ > 0, whose δ would be read as the
// row's reporting δ).
func (t *Total) Synthetic() (row []InputCell, ok bool) {
	num := func(f release.Field, v float64) { row = append(row, InputCell{f, table.NumberCell(v)}) }
	text := func(f release.Field, v string) { row = append(row, InputCell{f, table.TextCell(v)}) }
	if mu, plain := GaussianMu(t.stages); plain {
		text(release.FieldMechanism, string(release.MechanismGDP))
		num(release.FieldMu, mu)
	} else {
		h := hostStage(t.stages)
		if h < 0 {
			return nil, false
		}
		host := t.stages[h]
		switch host.Mechanism {
		case pld.SubsampledGaussian:
			text(release.FieldMechanism, string(release.MechanismDPSGD))
			num(release.FieldNoiseMultiplier, host.NoiseMultiplier)
			num(release.FieldSampleRate, host.SampleRate)
			num(release.FieldSteps, float64(host.Steps))
		case pld.Laplace: // scale 1, sensitivity ε: ε exactly
			text(release.FieldMechanism, string(release.MechanismLaplace))
			num(release.FieldLaplaceScale, 1)
			num(release.FieldSensitivity, host.Epsilon)
			num(release.FieldCompositions, float64(host.Steps))
		case pld.RandomizedResponse:
			text(release.FieldMechanism, string(release.MechanismRR))
			num(release.FieldEpsilon, host.Epsilon)
			num(release.FieldRRCategories, float64(host.Categories))
			num(release.FieldCompositions, float64(host.Steps))
		default: // (ε, 0)
			text(release.FieldMechanism, string(release.MechanismPure))
			num(release.FieldEpsilon, host.Epsilon)
			num(release.FieldCompositions, float64(host.Steps))
		}
		rest := slices.Delete(slices.Clone(t.stages), h, h+1)
		if len(rest) > 0 {
			text(release.FieldExtraStages, stagesText(rest))
		}
	}
	for _, a := range t.attack {
		if a.Text != "" {
			text(a.Field, a.Text)
		} else {
			num(a.Field, a.Num)
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

// WorstAdvantage is the total's fdp_worst_advantage, once evaluate.Evaluator.EvaluateTotal
// has computed it (empty when it could not).
func (t *Total) WorstAdvantage() table.Cell { return t.worst }

// SetWorst records the total's fdp_worst_advantage once it is evaluated.
func (t *Total) SetWorst(c table.Cell) { t.worst = c }

// Evaluated is the row the total's bounds were computed from (see
// Synthetic), nil before or when they could not be.
func (t *Total) Evaluated() []InputCell { return t.evaluated }

// SetEvaluated records the row the total's bounds were computed from.
func (t *Total) SetEvaluated(row []InputCell) { t.evaluated = row }

// Left names the rows left out of the total (status error), and counts
// them.
func (t *Total) Left() (rows string, n int) { return t.left.String(), t.left.n }

// Cannot names the rows whose mechanism cannot be composed, counts them,
// and gives the first of their reasons.
func (t *Total) Cannot() (rows string, n int, why string) {
	return t.cannot.String(), t.cannot.n, t.cannotWhy
}

// TooLarge is why the total's stages overflow a row, once they do ("").
func (t *Total) TooLarge() string { return t.tooLarge }

// Differ lists the agreed fields the rows differ on, in the order met.
func (t *Total) Differ() []release.Field { return t.differ }
