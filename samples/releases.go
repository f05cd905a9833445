package samples

import (
	"math"

	"github.com/riskbatch/riskbatch/table"
)

// Releases returns the sample release table: its columns and rows. Each row
// is a realistic case, explained in its note column; the last rows are
// deliberately invalid to show how riskbatch reports a bad cell.
func Releases() ([]table.Column, [][]table.Cell) {
	names := []string{"id", "mechanism", "epsilon", "delta", "sigma", "sensitivity", "mu", "laplace_scale", "rho",
		"rdp_order", "rdp_epsilon", "noise_multiplier", "sample_rate", "steps", "rr_categories", "marginal_k",
		"columns_total", "columns_unknown", "compositions", "baseline", "candidates", "prior", "targets", "successes",
		"records", "w", "target_advantage", "pmp_data", "extra_stages", "calibration", "batch_size", "dataset_size", "epochs", "audit", "canaries", "guesses", "correct", "options", "audit_bound", "dataset", "note"}
	cols := make([]table.Column, len(names))
	index := map[string]int{}
	for i, n := range names {
		cols[i] = table.Column{Name: n, Kind: table.Number, Role: table.Input}
		index[n] = i
	}
	for _, n := range []string{"id", "mechanism", "prior", "pmp_data", "extra_stages", "calibration", "audit", "audit_bound", "dataset", "note"} {
		cols[index[n]].Kind = table.Text
	}

	// Each release sets the columns it fills; the rest stay empty.
	type release map[string]any
	rows := []release{
		{"id": "local-survey", "mechanism": "pure", "epsilon": 1.0, "baseline": 0.5, "target_advantage": 0.05,
			"note": "Pure ε-DP local release of a yes/no survey answer (randomized response at ε = 1); the attacker guesses the answer, baseline 1/2."},
		{"id": "count-query", "mechanism": "gaussian", "delta": 1e-6, "sigma": 10.0, "sensitivity": 1.0, "candidates": 100.0, "target_advantage": 0.05,
			"note": "Gaussian noise with σ = 10 on a count (L2 sensitivity 1); the attacker singles out one of 100 candidates; ε reported at δ = 1e-6."},
		{"id": "census-2020-state", "mechanism": "gdp", "delta": 1e-10, "mu": math.Sqrt(2 * 1.0001), "baseline": 0.01,
			"note": "US 2020 Census, state level: ρ = 1.0001 zCDP from Gaussian noise, i.e. μ = √(2ρ); δ = 1e-10 as the Census Bureau reports. Worst-case advantage 0.52 (Kulynych et al.)."},
		{"id": "census-2020-state-zcdp", "mechanism": "zcdp", "delta": 1e-10, "rho": 1.0001, "baseline": 0.01,
			"note": "The same release described only by its zCDP ρ: the generic zCDP curve is looser than the Gaussian one; rero_zcdp is Balle et al.'s comparator."},
		{"id": "model-eps1", "mechanism": "approx", "epsilon": 1.0, "delta": 1e-5, "baseline": 0.1, "target_advantage": 0.05,
			"note": "Model trained with DP at ε = 1, δ = 1e-5; the attacker infers an attribute with 10 equally likely values."},
		{"id": "model-eps3", "mechanism": "approx", "epsilon": 3.0, "delta": 1e-5, "baseline": 0.1, "target_advantage": 0.05,
			"note": "The same model at ε = 3."},
		{"id": "model-eps8", "mechanism": "approx", "epsilon": 8.0, "delta": 1e-5, "baseline": 0.1, "target_advantage": 0.05,
			"note": "The same model at ε = 8: typical of large-scale DP training."},
		{"id": "dpsgd-gpt2", "mechanism": "dpsgd", "noise_multiplier": 0.5715066078978425, "sample_rate": 0.0038010957846441, "steps": 792.0, "delta": 1e-5, "baseline": 0.1,
			"note": "DP-SGD fine-tuning of GPT-2 (Kulynych et al. App. G.2: σ = 0.5715, q ≈ 0.0038, 792 steps): tight PLD accounting gives ε ≈ 3.95 at δ = 1e-5 and a worst-case advantage of 0.16; the *_rdp columns show the looser RDP values."},
		{"id": "dpsgd-cifar10", "mechanism": "dpsgd", "noise_multiplier": 8.0, "sample_rate": 8192.0 / 50000, "steps": 700.0, "extra_stages": "8, 1, 2", "delta": 1e-5, "baseline": 0.1, "target_advantage": 0.1,
			"note": "DP-SGD on CIFAR-10 (Kulynych et al. App. G.2: σ = 8, batches of 8192 of 50,000, 100 epochs) plus two Gaussian releases with σ = 8 for feature normalisation (extra_stages); the attacker infers a label (10 classes, baseline 0.1). fdp_noise_for_target calibrates σ for an advantage of at most 0.1 at that baseline; fdp_noise_reduction is the noise PLD accounting saves over RDP accounting."},
		{"id": "rare-disease", "mechanism": "approx", "epsilon": 1.0, "delta": 1e-5, "baseline": 1e-4, "target_advantage": 0.05,
			"note": "Inferring a diagnosis with prevalence 1 in 10,000 from the ε = 1 model: a rare-disease baseline of 1e-4."},
		{"id": "canary-9-digit", "mechanism": "pure", "epsilon": 10.0, "prior": "uniform(1e9)", "target_advantage": 0.05,
			"note": "A uniformly drawn 9-digit secret (canary), as the inline prior uniform(1e9): baseline 1e-9. ε_protect ≈ 17.8 (Swanberg et al. §5.3)."},
		{"id": "password-zipf", "mechanism": "approx", "epsilon": 1.0, "delta": 1e-5, "prior": "zipf(1.2, 1e9)", "target_advantage": 0.05,
			"note": "A numerical password drawn from a Zipf(1.2) law over 10^9 values; the attacker guesses the most likely one (Swanberg et al. §5.1)."},
		{"id": "acs-sex-100", "mechanism": "approx", "epsilon": 1.0, "delta": 1e-5, "baseline": 0.56, "targets": 100.0, "successes": 84.0,
			"note": "Reconstructing the SEX column of 100 records (prior success 56% each) from a release at ε = 1: with 95% confidence at most onerun_successes_ub are right (Swanberg et al. §6.2: 84)."},
		{"id": "acs-marginals", "mechanism": "marginals", "marginal_k": 3.0, "columns_total": 16.0, "columns_unknown": 1.0, "sigma": 54.06, "delta": 1e-5, "baseline": 0.56, "targets": 100.0,
			"note": "Noisy 3-way marginals of 16 ACS columns, one unknown to the attacker (105 marginals, noise σ = 54.06 per cell ≈ ε = 1 at δ = 1e-5)."},
		{"id": "laplace-query", "mechanism": "laplace", "laplace_scale": 5.0, "sensitivity": 1.0, "baseline": 0.1, "target_advantage": 0.2,
			"note": "One counting query with Laplace noise of scale 5 (ε = 0.2), as in Kulynych et al. App. G.1."},
		{"id": "laplace-15-queries", "mechanism": "laplace", "laplace_scale": 5.0, "compositions": 15.0, "baseline": 0.1,
			"note": "Fifteen such queries: composed with the optimal composition theorem (an exact Laplace composition would be tighter)."},
		{"id": "rr-4-categories", "mechanism": "rr", "epsilon": 1.0, "rr_categories": 4.0, "baseline": 0.25,
			"note": "Randomized response over 4 categories at ε = 1: its exact curve is tighter than pure ε-DP."},
		{"id": "rdp-order-2", "mechanism": "rdp", "rdp_order": 2.0, "rdp_epsilon": 0.5, "delta": 1e-5, "baseline": 0.1,
			"note": "A mechanism known only through one Rényi-DP guarantee (α = 2, ε_α = 0.5)."},
		{"id": "singling-out", "mechanism": "gdp", "mu": 0.4, "delta": 1e-5, "baseline": 0.0002, "records": 500.0, "w": 0.0002,
			"note": "Predicate singling out over 500 records with predicates of weight 1/5000 (Kulynych et al. §4.1)."},
		{"id": "mean-query-pmp", "mechanism": "gaussian", "sigma": 2.0, "sensitivity": 1.0, "delta": 1e-5, "baseline": 0.5,
			"pmp_data": "0.05, 0.1; 0.2, 0.05; 0.45, 0.45; 0, 0.25; 0.15, 0.15; 0.1, 0.4",
			"note":     "A sum query over 2-dimensional records with Gaussian noise σ = 2 (ε ≈ 2 at δ = 1e-5): pmp_data lists the attacker's parent set of 6 records (a file path works too); pmp_data_eps ≈ 0.9 is the practical membership privacy for these records (Lowy et al. Prop. 12)."},
		{"id": "median-em-pmp", "mechanism": "exponential", "epsilon": 2.0, "sensitivity": 1.0, "baseline": 0.5,
			"pmp_data": "0, 1, 2; 1, 0, 1; 2, 1, 0; 0.5, 0.5, 1.5",
			"note":     "The exponential mechanism at ε = 2 choosing among 3 outputs; pmp_data gives each of the 4 parent records' loss for each output: pmp_data_eps is its exact practical membership privacy (Lowy et al. Prop. 9)."},
		{"id": "laplace-query-eps", "mechanism": "laplace", "epsilon": 0.2, "sensitivity": 1.0, "baseline": 0.1, "target_advantage": 0.2,
			"note": "The laplace-query row as papers state it, by ε = 0.2 with sensitivity 1: riskbatch derives b = 1/0.2 = 5 (derived_laplace_scale), and every bound is laplace-query's."},
		{"id": "gaussian-eps-delta", "mechanism": "gaussian", "epsilon": 1.0, "delta": 1e-5, "sensitivity": 1.0, "calibration": "analytic", "candidates": 100.0, "target_advantage": 0.05,
			"note": "The Gaussian mechanism at ε = 1, δ = 1e-5 on a count (L2 sensitivity 1), as papers state it: the analytic calibration (Balle & Wang 2018) gives σ ≈ 3.73 (derived_sigma), from which every bound is computed; the classic one would give 4.84."},
		{"id": "dpsgd-mnist-epochs", "mechanism": "dpsgd", "noise_multiplier": 1.1, "batch_size": 256.0, "dataset_size": 60000.0, "epochs": 60.0, "delta": 1e-5, "baseline": 0.1,
			"note": "DP-SGD in the words of TensorFlow Privacy and Opacus: 60 epochs of batches of 256 over 60,000 MNIST images, noise multiplier 1.1: q = 256/60000 and ⌈60·60000/256⌉ = 14,063 steps (derived_sample_rate, derived_steps)."},
		{"id": "audit-membership", "audit": "membership", "canaries": 1000.0, "guesses": 500.0, "correct": 400.0, "delta": 1e-5, "epsilon": 0.5,
			"note": "An audit, not a release: 1000 canaries each put in one training run with probability ½; the attack guessed the membership of 500 and got 400 right. audit_eps_lb ≈ 1.198: every (ε, 1e-5)-DP claim with ε below it is refuted at 95% (Steinke et al. 2023), so the claimed ε = 0.5 is refuted."},
		{"id": "audit-membership-fdp", "audit": "membership_fdp", "canaries": 1000.0, "guesses": 500.0, "correct": 400.0, "delta": 1e-5, "epsilon": 2.0,
			"note": "The same guesses through the f-DP audit of Mahloujifar et al. 2025: ε ≥ 1.190 at δ = 1e-5 and μ ≥ 0.519 for a Gaussian mechanism; the claimed ε = 2 is not refuted (which does not confirm it)."},
		{"id": "audit-reconstruction", "audit": "reconstruction", "canaries": 1000.0, "guesses": 200.0, "correct": 120.0, "options": 10.0, "delta": 1e-5, "epsilon": 2.0,
			"note": "A reconstruction audit: each canary's secret is one of 10 values; the attack guessed 200 and got 120 right (a tenth would be chance). The claimed ε = 2 is refuted."},
		{"id": "audit-prior-sex", "audit": "prior", "baseline": 0.56, "targets": 100.0, "successes": 95.0, "delta": 1e-5, "epsilon": 1.0,
			"note": "Audit with non-uniform priors (Swanberg et al. 2025 inverted, Thm 3.5): 95 of 100 records' SEX reconstructed, each 56% likely a priori; at ε = 1 at most 84 should be (acs-sex-100), so the claim is refuted."},
		{"id": "audit-few-canaries", "audit": "membership", "canaries": 4.0, "guesses": 4.0, "correct": 4.0,
			"note": "Four canaries, all guessed right: even a perfect attack on 4 canaries cannot refute ε = 0 at 95% (2^−4 > 0.05); the message says so."},
		{"id": "gdp-no-baseline", "mu": 0.5,
			"note": "μ-GDP with no baseline, delta or mechanism column: riskbatch infers gdp and reports the bounds that need neither (status partial); the message says to add baseline and delta."},
		{"id": "census-2030-tables", "mechanism": "gaussian", "sigma": 8.0, "sensitivity": 1.0, "compositions": 12.0, "delta": 1e-6, "baseline": 0.01, "dataset": "census-2030",
			"note": "Several releases of one dataset (1/3): twelve count tables of one census, Gaussian noise σ = 8 each. The rows with dataset census-2030 are composed into one total row after the last row."},
		{"id": "census-2030-query", "mechanism": "gaussian", "sigma": 5.0, "sensitivity": 1.0, "delta": 1e-6, "baseline": 0.01, "dataset": "census-2030",
			"note": "Several releases of one dataset (2/3): one more query on the same census, σ = 5."},
		{"id": "census-2030-synthetic", "mechanism": "gdp", "mu": 0.3, "delta": 1e-6, "baseline": 0.01, "dataset": "census-2030",
			"note": "Several releases of one dataset (3/3): synthetic microdata of the same census at μ = 0.3. Each row alone looks safe; dataset_worst_advantage is the advantage of all three together (the total row: μ = √(12/8² + 1/5² + 0.3²) ≈ 0.56)."},
		{"id": "bad-mechanism", "mechanism": "gausian", "delta": 1e-5, "sigma": 2.0, "baseline": 0.1,
			"note": "Deliberately invalid: a typo in mechanism. The row is kept with status error."},
		{"id": "bad-delta", "mechanism": "approx", "epsilon": 1.0, "delta": 1.5, "baseline": 0.1,
			"note": "Deliberately invalid: δ must be below 1."},
		{"id": "bad-sigma", "mechanism": "gaussian", "delta": 1e-5, "sigma": -2.0, "baseline": 0.1,
			"note": "Deliberately invalid: a negative σ."},
		{"id": "bad-baseline", "mechanism": "pure", "epsilon": 1.0, "baseline": 1.2,
			"note": "Deliberately invalid: a baseline above 1."},
		{"id": "contradictory", "mechanism": "pure", "epsilon": 1.0, "sigma": 3.0, "baseline": 0.1,
			"note": "Deliberately invalid: mechanism pure with a σ filled in; riskbatch will not guess which one is right."},
		{"id": "ambiguous", "epsilon": 2.0, "mu": 1.0, "baseline": 0.1,
			"note": "Deliberately invalid: ε and μ both filled and no mechanism to say which describes the release."},
		{"id": "bad-audit-counts", "audit": "membership", "canaries": 100.0, "guesses": 50.0, "correct": 60.0,
			"note": "Deliberately invalid: more correct guesses than guesses."},
	}
	out := make([][]table.Cell, len(rows))
	for i, r := range rows {
		cells := make([]table.Cell, len(names))
		for name, v := range r {
			j, ok := index[name]
			if !ok {
				panic("samples: unknown column " + name) // a programming error in this table, not user input
			}
			switch x := v.(type) {
			case float64:
				cells[j] = table.NumberCell(x)
			case string:
				cells[j] = table.TextCell(x)
			}
		}
		out[i] = cells
	}
	return cols, out
}
