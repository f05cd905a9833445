package samples

import (
	"math"

	"github.com/riskbatch/riskbatch/table"
)

// Releases returns the sample release table: its columns and rows. Each row
// is a realistic case, explained in its note column; the last rows are
// deliberately invalid to show how riskbatch reports a bad cell.
func Releases() ([]table.Column, [][]table.Cell) {
	names := []string{"id", "mechanism", "epsilon", "delta", "sigma", "sensitivity", "mu", "baseline", "candidates", "target_advantage", "note"}
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n, Kind: table.Number, Role: table.Input}
	}
	cols[0].Kind, cols[1].Kind, cols[10].Kind = table.Text, table.Text, table.Text

	type release struct {
		id, mechanism                                                        string
		epsilon, delta, sigma, sensitivity, mu, baseline, candidates, target float64
		note                                                                 string
	}
	none := math.NaN() // an empty cell
	rows := []release{
		{"local-survey", "pure", 1, none, none, none, none, 0.5, none, 0.05,
			"Pure ε-DP local release of a yes/no survey answer (randomized response at ε = 1); the attacker guesses the answer, baseline 1/2."},
		{"count-query", "gaussian", none, 1e-6, 10, 1, none, none, 100, 0.05,
			"Gaussian noise with σ = 10 on a count (L2 sensitivity 1); the attacker singles out one of 100 candidates; ε reported at δ = 1e-6."},
		{"census-2020-state", "gdp", none, 1e-10, none, none, math.Sqrt(2 * 1.0001), 0.01, none, none,
			"US 2020 Census, state level: ρ = 1.0001 zCDP from Gaussian noise, i.e. μ = √(2ρ); δ = 1e-10 as the Census Bureau reports. Worst-case advantage 0.52 (Kulynych et al.)."},
		{"model-eps1", "approx", 1, 1e-5, none, none, none, 0.1, none, 0.05,
			"Model trained with DP at ε = 1, δ = 1e-5; the attacker infers an attribute with 10 equally likely values."},
		{"model-eps3", "approx", 3, 1e-5, none, none, none, 0.1, none, 0.05,
			"The same model at ε = 3."},
		{"model-eps8", "approx", 8, 1e-5, none, none, none, 0.1, none, 0.05,
			"The same model at ε = 8: typical of large-scale DP training."},
		{"rare-disease", "approx", 1, 1e-5, none, none, none, 1e-4, none, 0.05,
			"Inferring a diagnosis with prevalence 1 in 10,000 from the ε = 1 model: a rare-disease baseline of 1e-4."},
		{"canary-9-digit", "pure", 10, none, none, none, none, none, 1e9, 0.05,
			"A uniformly drawn 9-digit secret (canary): baseline 1e-9. ε_protect ≈ 17.8 (Swanberg et al. §5.3)."},
		{"gdp-no-baseline", "", none, none, none, none, 0.5, none, none, none,
			"μ-GDP with no baseline and no mechanism column: riskbatch infers gdp and reports only the baseline-free bound (status partial)."},
		{"bad-mechanism", "gausian", none, 1e-5, 2, none, none, 0.1, none, none,
			"Deliberately invalid: a typo in mechanism. The row is kept with status error."},
		{"bad-delta", "approx", 1, 1.5, none, none, none, 0.1, none, none,
			"Deliberately invalid: δ must be below 1."},
		{"bad-sigma", "gaussian", none, 1e-5, -2, none, none, 0.1, none, none,
			"Deliberately invalid: a negative σ."},
		{"bad-baseline", "pure", 1, none, none, none, none, 1.2, none, none,
			"Deliberately invalid: a baseline above 1."},
		{"contradictory", "pure", 1, none, 3, none, none, 0.1, none, none,
			"Deliberately invalid: mechanism pure with a σ filled in; riskbatch will not guess which one is right."},
		{"ambiguous", "", 2, none, none, none, 1, 0.1, none, none,
			"Deliberately invalid: ε and μ both filled and no mechanism to say which describes the release."},
	}
	out := make([][]table.Cell, len(rows))
	for i, r := range rows {
		num := func(v float64) table.Cell {
			if math.IsNaN(v) {
				return table.Cell{}
			}
			return table.NumberCell(v)
		}
		text := func(s string) table.Cell {
			if s == "" {
				return table.Cell{}
			}
			return table.TextCell(s)
		}
		out[i] = []table.Cell{text(r.id), text(r.mechanism), num(r.epsilon), num(r.delta), num(r.sigma), num(r.sensitivity),
			num(r.mu), num(r.baseline), num(r.candidates), num(r.target), text(r.note)}
	}
	return cols, out
}
