package evaluate

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/dataset"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/table"
)

// The output columns of a dataset's goal seek. Their values are not
// functions of the row: the run that composes the dataset solves its
// target and fills them (MarkSolved, EvaluatePlanned), so the registry's
// functions leave them empty.

// The names of the goal-seek columns.
const (
	SolvedValue       = "solved_value"
	DatasetNoiseScale = "dataset_noise_scale"
)

// plannedColumn is one planned_* column: the parameter it restates, and
// whether the noise scale multiplies it (a noise) or divides it (an ε, a μ).
type plannedColumn struct {
	name, param string
	field       Field
	noise       bool
}

// plannedSlack is how much more noise the planned parameters have than
// the noise scale gives, relatively: typed in, a row rounds them (b to
// ε = Δ/b, σ to σ/Δ) where the scaled total did not, and the PLD
// accountant's bound and error are not monotone in the last bits of its
// inputs (by about 1e-14 of the risk); 4e-9 more noise lowers the risk
// by far more than that, and keeps the planned parameters within 4e-9 of
// the scale that meets the target exactly.
const plannedSlack = 4e-9

func plannedColumns() []plannedColumn {
	return []plannedColumn{
		{"planned_sigma", "sigma", FieldSigma, true},
		{"planned_mu", "mu", FieldMu, false},
		{"planned_laplace_scale", "laplace_scale", FieldLaplaceScale, true},
		{"planned_epsilon", "epsilon", FieldEpsilon, false},
		{"planned_noise_multiplier", "noise_multiplier", FieldNoiseMultiplier, true},
	}
}

const goalSeekCitation = "Dong, Roth & Su 2022, \"Gaussian Differential Privacy\", Cor. 3.3 (Gaussian-only datasets, closed form); " + kulynych + ", Thm 3.2, Thm 3.4 and App. G (the PLD accountant's composition, its error counted against the target)"

func goalSeekColumns() []OutputColumn {
	silent := func(*Release) (float64, skip) { return 0, skip{silent: true} }
	cols := []OutputColumn{
		{
			Name: SolvedValue, Family: "fdp", Format: table.Real,
			Brief:    "the value of the row's `solve` parameter that meets its dataset's target with the least noise (the most ε, μ, steps, epochs, compositions)",
			Source:   "Kulynych et al. 2025, Thm 3.2, 3.4 on the composed curve",
			Meaning:  "on the row whose solve cell names its one empty parameter: the value riskbatch solved for, with which the row and its dataset's total row are evaluated; the total meets the dataset's target at it, and one step (steps, epochs, compositions) or 1e-9 relatively (σ, b, noise multiplier, ε, μ) more aggressive it does not; empty, with the reason in the message, where no value meets the target",
			Formula:  "Gaussian-only datasets: σ = Δ·√c/√(M² − S) (μ-GDP: μ_total² = Σ_i c_i/m_i², M the largest μ_total meeting the target, S the other rows' sum), narrowed to adjacent floats against the total row; otherwise the boundary bracketed and bisected, the total composed by the PLD accountant at each value tried with its error counted against the target",
			Citation: goalSeekCitation,
			Needs:    "dataset, solve, and one of dataset_target_advantage, dataset_target_success, dataset_target_epsilon on the dataset's rows",
			Assumes:  "the dataset's rows are releases about the same people, composed adaptively; as fdp_success",
			compute:  silent,
		},
		{
			Name: DatasetNoiseScale, Family: "fdp", Format: table.Real, Round: RoundUp,
			Brief:    "the one factor on all of a dataset's noise (σ, b, noise multiplier; ε and μ divided by it) that meets its target exactly: below 1, room to spare",
			Source:   "Kulynych et al. 2025, Thm 3.2, 3.4 on the composed curve",
			Meaning:  "on every row of a dataset with a target and no solve row, and on its total row: the smallest factor s such that the dataset's total meets the target when every noise standard deviation, Laplace scale and noise multiplier of its rows is multiplied by s and every ε and μ divided by it (the δ of (ε, δ) stages unchanged); above 1 the dataset needs that much more noise, below 1 it has room to spare; each row's parameter at that scale is in its planned_* column",
			Formula:  "Gaussian-only datasets: s = μ_total/M, narrowed to adjacent floats; otherwise the boundary bracketed and bisected on the PLD accountant's composition, its error counted against the target",
			Citation: goalSeekCitation,
			Needs:    "dataset, and one of dataset_target_advantage, dataset_target_success, dataset_target_epsilon on the dataset's rows",
			Assumes:  "as solved_value; rounded up (more noise)",
			compute:  silent,
		},
	}
	for _, p := range plannedColumns() {
		how := "times dataset_noise_scale·(1 + 4e-9), rounded up"
		if !p.noise {
			how = "divided by dataset_noise_scale·(1 + 4e-9), rounded down"
		}
		round := RoundUp
		if !p.noise {
			round = RoundDown
		}
		cols = append(cols, OutputColumn{
			Name: p.name, Family: "fdp", Format: table.Real, Round: round,
			Brief:    "each row's own parameter at `dataset_noise_scale`: `planned_sigma`, `planned_mu`, `planned_laplace_scale`, `planned_epsilon`, `planned_noise_multiplier`",
			Source:   "Kulynych et al. 2025, Thm 3.2, 3.4 on the composed curve",
			Meaning:  "the row's " + p.param + " at its dataset's dataset_noise_scale (" + how + "), for the rows that state their release by it; the extra_stages of a row scale alike",
			Formula:  p.param + " " + how,
			Citation: goalSeekCitation,
			Needs:    "as dataset_noise_scale; a row stating " + p.param,
			Assumes:  "as dataset_noise_scale",
			compute:  silent,
		})
	}
	return cols
}

// MarkSolved writes a dataset's solved value into the solved_value cell of
// its solve row's (or its total row's) output cells (Width() cells, from
// the status).
func (e *Evaluator) MarkSolved(dst []table.Cell, v float64) { e.setOutput(dst, SolvedValue, v) }

// MarkNoiseScale writes a dataset's noise scale into the
// dataset_noise_scale cell of one of its rows' output cells.
func (e *Evaluator) MarkNoiseScale(dst []table.Cell, s float64) {
	e.setOutput(dst, DatasetNoiseScale, numeric.RoundUp(s, 0, math.Inf(1)))
}

func (e *Evaluator) setOutput(dst []table.Cell, name string, v float64) {
	if k := e.outputIndex(name); k >= 0 && HeadWidth+k < len(dst) {
		dst[HeadWidth+k] = table.NumberCell(v)
	}
}

// EvaluatePlanned is Evaluate of a row of a dataset whose noise must be
// scaled by s to meet its target: the row's own parameter at that scale
// (times 1 + plannedSlack) goes to its planned_* column (the one it states its release by: sigma
// for gaussian and marginals rows, also when calibrated from ε and δ; mu;
// laplace_scale, or epsilon for a laplace row stated by ε; epsilon for
// pure, approx, rr and exponential rows; noise_multiplier), and s to
// dataset_noise_scale.
func (b *Binding) EvaluatePlanned(cells []table.Cell, dst []table.Cell, s float64) Status {
	return b.evaluateThen(cells, rowOut{cells: dst}, func(r *Release) {
		if r == nil {
			return
		}
		var in inputs
		b.readCells(cells, &in)
		var f Field = -1
		v := 0.0
		switch r.Mechanism {
		case MechanismGaussian, MechanismMarginals:
			f, v = FieldSigma, r.sigma
			if in.has(FieldSigma) {
				v = in.num[FieldSigma]
			}
		case MechanismGDP:
			f, v = FieldMu, in.num[FieldMu]
		case MechanismLaplace:
			f, v = FieldEpsilon, in.num[FieldEpsilon]
			if in.has(FieldLaplaceScale) {
				f, v = FieldLaplaceScale, in.num[FieldLaplaceScale]
			}
		case MechanismPure, MechanismApprox, MechanismRR, MechanismExponential:
			f, v = FieldEpsilon, in.num[FieldEpsilon]
		case MechanismDPSGD:
			f, v = FieldNoiseMultiplier, in.num[FieldNoiseMultiplier]
		}
		b.MarkNoiseScale(dst, s)
		for _, p := range plannedColumns() {
			if p.field != f || !(v > 0) {
				continue
			}
			planned := numeric.MulUp(s, 1+plannedSlack)
			if p.noise {
				b.setOutput(dst, p.name, numeric.MulUp(v, planned))
			} else {
				b.setOutput(dst, p.name, dataset.DivDown(v, planned))
			}
		}
	})
}
