package registry

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// derivedColumns show the parameters riskbatch derived from a mechanism
// stated as papers state it (stated.go): the Laplace scale of an ε, the σ
// of a Gaussian calibrated to (ε, δ), DP-SGD's sample rate and steps from
// its batches and epochs. Every bound of the row is computed from them;
// they are empty, without a message, on rows that state the parameter
// itself.
func derivedColumns() []OutputColumn {
	return sharing("derived", derivedBrief, derivedSource, []OutputColumn{
		{
			Name: "derived_laplace_scale", Format: table.Real,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismLaplace}, Asks: AskStatedScale},
			Meaning:  "the Laplace noise scale b of a laplace row stated by its epsilon: the b its exact curve is computed from (through ε = sensitivity/b)",
			Formula:  "b = sensitivity/ε (sensitivity: L1, default 1)",
			Citation: "Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, Thm 3.6",
			Needs:    "mechanism laplace (or laplace_scale's absence with epsilon), epsilon; sensitivity",
			Assumes:  "the neighbouring relation the sensitivity was computed for",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				if math.IsInf(r.DerivedScale, 1) {
					return 0, resolve.Skip{Why: "ε = 0: the Laplace scale is infinite (no information is released)"}
				}
				return r.DerivedScale, resolve.Skip{}
			},
		},
		{
			Name: "derived_sigma", Format: table.Real,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismGaussian}, Asks: AskStatedSigma},
			Meaning:  "the noise standard deviation σ of a gaussian row stated by epsilon and delta, calibrated as its calibration column says: the σ every Gaussian column of the row (and pmp_data) is computed from, with μ = sensitivity/σ",
			Formula:  "analytic (default): the smallest σ with Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ) ≤ δ, rounded down (a smaller σ is the pessimistic side); classic: σ = Δ·√(2 ln(1.25/δ))/ε, rounded down, which guarantees (ε, δ)-DP only for ε < 1 (the row's message warns at ε ≥ 1)",
			Citation: "Balle & Wang 2018, \"Improving the Gaussian mechanism for differential privacy: analytical calibration and optimal denoising\", Thm 8 and Alg. 1; Dwork & Roth 2014, Thm A.1",
			Needs:    "mechanism gaussian (or calibration), epsilon, delta > 0; sensitivity (L2, default 1), calibration",
			Assumes:  "the neighbouring relation the sensitivity was computed for; the release adds at least this σ (any larger σ also meets (ε, δ))",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				return r.DerivedSigma, resolve.Skip{Note: r.DerivedNote, Bare: r.DerivedNote != ""}
			},
		},
		{
			Name: "derived_sample_rate", Format: table.Probability,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}, Asks: AskBatchSize},
			Meaning:  "the Poisson sampling probability q of a dpsgd row stated by batch_size and dataset_size: the q its accountant uses",
			Formula:  "q = batch_size/dataset_size",
			Citation: "TensorFlow Privacy, compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy (q = batch_size / n); Abadi et al. 2016",
			Needs:    "batch_size, dataset_size",
			Assumes:  "Poisson sampling with the expected batch size, add/remove neighbours (Opacus's default sampler takes q = 1/len(data_loader): fill sample_rate if it differs)",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return r.DerivedSampleRate }),
		},
		{
			Name: "derived_steps", Format: table.Count,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}, Asks: AskEpochs},
			Meaning:  "the number of DP-SGD steps of a dpsgd row stated by epochs: the steps its accountant composes",
			Formula:  "steps = ⌈epochs·dataset_size/batch_size⌉, computed exactly",
			Citation: "TensorFlow Privacy, compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy (steps = int(math.ceil(epochs * n / batch_size)))",
			Needs:    "epochs, batch_size, dataset_size",
			Assumes:  "every epoch has dataset_size/batch_size steps in expectation, rounded up over the run (the pessimistic side)",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return float64(r.DerivedSteps) }),
		},
	})
}

// The summary of the column table of docs/outputs.md that the derived columns share.
const (
	derivedBrief  = "the parameters riskbatch derives from a mechanism stated as papers state it: the Laplace scale of an ε, the σ of a Gaussian calibrated to (ε, δ), DP-SGD's sample rate and steps from batches and epochs"
	derivedSource = "Balle & Wang 2018; Dwork & Roth 2014; TensorFlow Privacy"
)
