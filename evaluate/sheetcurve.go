package evaluate

import (
	"errors"
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/table"
)

// SuccessCurve returns the bound of the column fdp_success, 1 − f(b) (Kulynych
// et al. Thm 3.2, rounded up as the column is), at every baseline b of
// grid (each in [0, 1]), for the release an output row describes: the row is
// resolved from its input cells as Evaluate resolves it, and only its
// baseline is replaced by each b. It fails for a row that does not resolve
// (an error row).
func (s *SheetBinding) SuccessCurve(cells []table.Cell, grid []float64) ([]float64, error) {
	return successCurve(s.b, s.outputs, cells, grid)
}

// TotalSuccessCurve is SuccessCurve for a dataset's total row, once
// EvaluateTotal has computed it: the curve of the row its bounds come
// from (Total.evaluated), which the total row does not show.
func (s *SheetBinding) TotalSuccessCurve(t *Total, grid []float64) ([]float64, error) {
	if len(t.Evaluated()) == 0 {
		return nil, errors.New("evaluate: the total was not computed")
	}
	b, cells, err := s.b.bindRow(t.Evaluated())
	if err != nil {
		return nil, fmt.Errorf("evaluate: %w", err)
	}
	return successCurve(b, s.outputs, cells, grid)
}

// successCurve is SuccessCurve of a row of a table bound by b.
func successCurve(b *Binding, outputs []registry.OutputColumn, cells []table.Cell, grid []float64) ([]float64, error) {
	var col *registry.OutputColumn
	for k := range outputs {
		if outputs[k].Name == "fdp_success" {
			col = &outputs[k]
		}
	}
	if col == nil {
		return nil, errors.New("evaluate: no fdp_success column")
	}
	in, ok := b.h.ParseInputs(cells)
	if !ok {
		return nil, errors.New("evaluate: the row has an invalid input cell")
	}
	var problems resolve.RowError
	r := b.resolve(&in, &problems)
	if r == nil {
		return nil, fmt.Errorf("evaluate: %w", problems)
	}
	out := make([]float64, len(grid))
	for i, b := range grid {
		if !(b >= 0 && b <= 1) {
			return nil, fmt.Errorf("evaluate: baseline %v is not in [0, 1]", b)
		}
		r.Baseline, r.HasBaseline, r.HasAdv = b, true, false
		v, sk := col.Value(r)
		if !sk.OK() {
			return nil, fmt.Errorf("evaluate: fdp_success at baseline %v: %s", b, sk.Why)
		}
		out[i] = v
	}
	return out, nil
}
