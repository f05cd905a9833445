package evaluate

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// MarkSolved writes a dataset's solved value into the solved_value cell of
// its solve row's (or its total row's) output cells (Width() cells, from
// the status).
func (e *Evaluator) MarkSolved(dst []table.Cell, v float64) {
	e.setOutput(dst, registry.SolvedValue, v)
}

// MarkNoiseScale writes a dataset's noise scale into the
// dataset_noise_scale cell of one of its rows' output cells.
func (e *Evaluator) MarkNoiseScale(dst []table.Cell, s float64) {
	e.setOutput(dst, registry.DatasetNoiseScale, numeric.RoundUp(s, 0, math.Inf(1)))
}

func (e *Evaluator) setOutput(dst []table.Cell, name string, v float64) {
	if k := e.outputIndex(name); k >= 0 && HeadWidth+k < len(dst) {
		dst[HeadWidth+k] = table.NumberCell(v)
	}
}

// EvaluatePlanned is Evaluate of a row of a dataset whose noise must be
// scaled by s to meet its target: the row's own parameter at that scale
// (times 1 + registry.PlannedSlack) goes to its planned_* column (the one it states its release by: sigma
// for gaussian and marginals rows, also when calibrated from ε and δ; mu;
// laplace_scale, or epsilon for a laplace row stated by ε; epsilon for
// pure, approx, rr and exponential rows; noise_multiplier), and s to
// dataset_noise_scale.
func (b *Binding) EvaluatePlanned(cells []table.Cell, dst []table.Cell, s float64) Status {
	return b.evaluateThen(cells, rowOut{cells: dst}, func(r *resolve.Release) {
		if r == nil {
			return
		}
		var in resolve.Inputs
		b.h.ReadCells(cells, &in)
		var f release.Field = -1
		v := 0.0
		switch r.Mechanism {
		case release.MechanismGaussian, release.MechanismMarginals:
			f, v = release.FieldSigma, r.Sigma
			if in.Has(release.FieldSigma) {
				v = in.Num[release.FieldSigma]
			}
		case release.MechanismGDP:
			f, v = release.FieldMu, in.Num[release.FieldMu]
		case release.MechanismLaplace:
			f, v = release.FieldEpsilon, in.Num[release.FieldEpsilon]
			if in.Has(release.FieldLaplaceScale) {
				f, v = release.FieldLaplaceScale, in.Num[release.FieldLaplaceScale]
			}
		case release.MechanismPure, release.MechanismApprox, release.MechanismRR, release.MechanismExponential:
			f, v = release.FieldEpsilon, in.Num[release.FieldEpsilon]
		case release.MechanismDPSGD:
			f, v = release.FieldNoiseMultiplier, in.Num[release.FieldNoiseMultiplier]
		}
		b.MarkNoiseScale(dst, s)
		for _, p := range registry.PlannedColumns() {
			if p.Field != f || !(v > 0) {
				continue
			}
			planned := numeric.MulUp(s, 1+registry.PlannedSlack)
			if p.Noise {
				b.setOutput(dst, p.Name, numeric.MulUp(v, planned))
			} else {
				b.setOutput(dst, p.Name, numeric.DivDown(v, planned))
			}
		}
	})
}
