package evaluate

import (
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// BenchmarkEvaluate measures rows per second for each mechanism family,
// through the whole row path (binding, parsing the text cells, resolving
// the mechanism, every registered column). Rows of one family share their
// parameters except the baseline, as in a sweep; DP-SGD rows hit the
// per-run accounting cache after the first.
//
//	go test -run '^$' -bench Evaluate -benchtime 2s ./evaluate
func BenchmarkEvaluate(b *testing.B) {
	families := []struct {
		name string
		row  map[string]string
	}{
		{"pure", map[string]string{"epsilon": "1", "baseline": "0.1", "target_advantage": "0.05"}},
		{"approx", map[string]string{"epsilon": "1", "delta": "1e-5", "baseline": "0.1", "target_advantage": "0.05"}},
		{"gaussian", map[string]string{"sigma": "2", "delta": "1e-5", "baseline": "0.1", "target_advantage": "0.05"}},
		{"gaussian-candidates", map[string]string{"sigma": "2", "delta": "1e-5", "candidates": "100"}},
		{"gdp", map[string]string{"mu": "0.5", "delta": "1e-5", "baseline": "0.1", "target_advantage": "0.05"}},
		{"laplace", map[string]string{"laplace_scale": "2", "baseline": "0.1"}},
		{"rr", map[string]string{"epsilon": "1", "rr_categories": "4", "baseline": "0.1"}},
		{"zcdp", map[string]string{"rho": "0.5", "delta": "1e-5", "baseline": "0.1"}},
		{"rdp", map[string]string{"rdp_order": "2", "rdp_epsilon": "0.5", "delta": "1e-5", "baseline": "0.1"}},
		{"dpsgd", map[string]string{"noise_multiplier": "1", "sample_rate": "0.01", "steps": "1000", "delta": "1e-5", "baseline": "0.1"}},
		{"marginals", map[string]string{"marginal_k": "3", "columns_total": "16", "columns_unknown": "1", "sigma": "54", "delta": "1e-5", "baseline": "0.1"}},
		{"approx-composed", map[string]string{"epsilon": "0.1", "delta": "1e-7", "compositions": "100", "baseline": "0.1"}},
		{"tail-100-targets", map[string]string{"epsilon": "1", "delta": "1e-5", "baseline": "0.56", "targets": "100", "successes": "84"}},
	}
	for _, f := range families {
		b.Run(f.name, func(b *testing.B) {
			e := New()
			var cols []table.Column
			var cells []table.Cell
			for k, v := range f.row {
				cols = append(cols, table.Column{Name: k})
				cells = append(cells, table.TextCell(v))
			}
			bind, err := e.Bind(cols)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]table.Cell, e.Width())
			if st := bind.Evaluate(cells, dst); st == StatusError {
				b.Fatalf("%s: %s", f.name, dst[1].Str)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				bind.Evaluate(cells, dst)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
