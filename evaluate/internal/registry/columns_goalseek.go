package registry

import (
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// The output columns of a dataset's goal seek. Their values are not
// functions of the row: the run that composes the dataset solves its
// target and fills them (MarkSolved, EvaluatePlanned); they are ByDataset.

// The names of the goal-seek columns.
const (
	SolvedValue       = "solved_value"
	DatasetNoiseScale = "dataset_noise_scale"
)

// PlannedColumn is one planned_* column: the parameter it restates, and
// whether the noise scale multiplies it (a noise) or divides it (an ε, a μ).
type PlannedColumn struct {
	Name, Param string
	Field       release.Field
	Noise       bool
}

// PlannedSlack is how much more noise the planned parameters have than
// the noise scale gives, relatively: typed in, a row rounds them (b to
// ε = Δ/b, σ to σ/Δ) where the scaled total did not, and the PLD
// accountant's bound and error are not monotone in the last bits of its
// inputs (by about 1e-14 of the risk); 4e-9 more noise lowers the risk
// by far more than that, and keeps the planned parameters within 4e-9 of
// the scale that meets the target exactly.
const PlannedSlack = 4e-9

// PlannedColumns are the planned_* columns.
func PlannedColumns() []PlannedColumn {
	return []PlannedColumn{
		{"planned_sigma", "sigma", release.FieldSigma, true},
		{"planned_mu", "mu", release.FieldMu, false},
		{"planned_laplace_scale", "laplace_scale", release.FieldLaplaceScale, true},
		{"planned_epsilon", "epsilon", release.FieldEpsilon, false},
		{"planned_noise_multiplier", "noise_multiplier", release.FieldNoiseMultiplier, true},
	}
}

const goalSeekCitation = "Dong, Roth & Su 2022, \"Gaussian Differential Privacy\", Cor. 3.3 (Gaussian-only datasets, closed form); " + kulynych + ", Thm 3.2, Thm 3.4 and App. G (the PLD accountant's composition, its error counted against the target)"

func goalSeekColumns() []OutputColumn {
	cols := []OutputColumn{
		{
			Name: SolvedValue, Family: "fdp", Format: table.Real,
			Brief:     "the value of the row's `solve` parameter that meets its dataset's target with the least noise (the most ε, μ, steps, epochs, compositions)",
			Source:    "Kulynych et al. 2025, Thm 3.2, 3.4 on the composed curve",
			Meaning:   "on the row whose solve cell names its one empty parameter: the value riskbatch solved for, with which the row and its dataset's total row are evaluated; the total meets the dataset's target at it, and one step (steps, epochs, compositions) or 1e-9 relatively (σ, b, noise multiplier, ε, μ) more aggressive it does not; empty, with the reason in the message, where no value meets the target",
			Formula:   "Gaussian-only datasets: σ = Δ·√c/√(M² − S) (μ-GDP: μ_total² = Σ_i c_i/m_i², M the largest μ_total meeting the target, S the other rows' sum), narrowed to adjacent floats against the total row; otherwise the boundary bracketed and bisected, the total composed by the PLD accountant at each value tried with its error counted against the target",
			Citation:  goalSeekCitation,
			Needs:     "dataset, solve, and one of dataset_target_advantage, dataset_target_success, dataset_target_epsilon on the dataset's rows",
			Assumes:   "the dataset's rows are releases about the same people, composed adaptively; as fdp_success",
			ByDataset: true,
		},
		{
			Name: DatasetNoiseScale, Family: "fdp", Format: table.Real, Round: resolve.RoundUp,
			Brief:     "the one factor on all of a dataset's noise (σ, b, noise multiplier; ε and μ divided by it) that meets its target exactly: below 1, room to spare",
			Source:    "Kulynych et al. 2025, Thm 3.2, 3.4 on the composed curve",
			Meaning:   "on every row of a dataset with a target and no solve row, and on its total row: the smallest factor s such that the dataset's total meets the target when every noise standard deviation, Laplace scale and noise multiplier of its rows is multiplied by s and every ε and μ divided by it (the δ of (ε, δ) stages unchanged); above 1 the dataset needs that much more noise, below 1 it has room to spare; each row's parameter at that scale is in its planned_* column",
			Formula:   "Gaussian-only datasets: s = μ_total/M, narrowed to adjacent floats; otherwise the boundary bracketed and bisected on the PLD accountant's composition, its error counted against the target",
			Citation:  goalSeekCitation,
			Needs:     "dataset, and one of dataset_target_advantage, dataset_target_success, dataset_target_epsilon on the dataset's rows",
			Assumes:   "as solved_value; rounded up (more noise)",
			ByDataset: true,
		},
	}
	for _, p := range PlannedColumns() {
		how := "times dataset_noise_scale·(1 + 4e-9), rounded up"
		if !p.Noise {
			how = "divided by dataset_noise_scale·(1 + 4e-9), rounded down"
		}
		round := resolve.RoundUp
		if !p.Noise {
			round = resolve.RoundDown
		}
		cols = append(cols, OutputColumn{
			Name: p.Name, Family: "fdp", Format: table.Real, Round: round,
			Brief:     "each row's own parameter at `dataset_noise_scale`: `planned_sigma`, `planned_mu`, `planned_laplace_scale`, `planned_epsilon`, `planned_noise_multiplier`",
			Source:    "Kulynych et al. 2025, Thm 3.2, 3.4 on the composed curve",
			Meaning:   "the row's " + p.Param + " at its dataset's dataset_noise_scale (" + how + "), for the rows that state their release by it; the extra_stages of a row scale alike",
			Formula:   p.Param + " " + how,
			Citation:  goalSeekCitation,
			Needs:     "as dataset_noise_scale; a row stating " + p.Param,
			Assumes:   "as dataset_noise_scale",
			ByDataset: true,
		})
	}
	return cols
}
