package registry

import (
	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/table"
)

// datasetColumns is the output column that marks the rows of a dataset
// group. Its value is not a function of the row: the command fills it
// from the group's total (Total, MarkMember) once the group is complete:
// it is ByDataset.
func datasetColumns() []OutputColumn {
	return []OutputColumn{{
		Name: DatasetWorstAdvantage, Family: "fdp", Format: table.Probability, Round: resolve.RoundUp,
		Brief:     "the `fdp_worst_advantage` of the row's dataset total: every release of the dataset composed",
		Source:    "Kulynych et al. 2025, Thm 3.4 on the composed curve",
		Sheet:     formula.Form{Advantage: true},
		Meaning:   "baseline-free bound on the advantage of any attack that sees every release of the row's dataset (the rows with the same dataset cell, composed): the fdp_worst_advantage of the dataset's total row, written on each of its rows and on the total row; empty for a row in no dataset, a row with status error, and the rows of a dataset whose total could not be computed",
		Formula:   "η = max_α (1 − f(α) − α) with f the trade-off curve of the composition of the dataset's rows: G_μ with μ = √(Σ_i n_i/σ_i²) when every row is Gaussian (Dong, Roth & Su 2022, Cor. 3.3), else the PLD accountant of the rows' stages",
		Citation:  kulynych + ", Thm 3.4, Eq. (12), applied to the composed curve; Dong, Roth & Su 2022, \"Gaussian Differential Privacy\", Cor. 3.3",
		Needs:     "dataset, and " + mechanismParams,
		Assumes:   "the dataset's rows are releases about the same people, composed adaptively; as fdp_success",
		ByDataset: true,
	}}
}

// DatasetWorstAdvantage names the output column that marks every row of a
// dataset group with its total's fdp_worst_advantage.
const DatasetWorstAdvantage = "dataset_worst_advantage"
