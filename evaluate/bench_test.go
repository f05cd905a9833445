package evaluate

import (
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// benchFamilies are the rows of the benchmarks, one per mechanism family
// (and a few costly variants): rows of one family share their parameters
// except the baseline, as in a sweep; DP-SGD rows hit the per-run
// accounting cache after the first.
var benchFamilies = []struct {
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

// benchRow binds a benchmark row and evaluates it once (so that the run's
// caches are warm, as after the first row of a sweep), failing on an
// error row.
func benchRow(b *testing.B, e *Evaluator, row map[string]string) (*Binding, []table.Cell, []table.Cell) {
	b.Helper()
	var cols []table.Column
	var cells []table.Cell
	for k, v := range row {
		cols = append(cols, table.Column{Name: k})
		cells = append(cells, table.TextCell(v))
	}
	bind, err := e.Bind(cols)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]table.Cell, e.Width())
	if st := bind.Evaluate(cells, dst); st == StatusError {
		b.Fatalf("%v: %s", row, dst[1].Str)
	}
	return bind, cells, dst
}

// reportRows reports the rows evaluated (b.N) per second of wall time and
// per second of the process's CPU time since cpu (cpuSeconds): the second
// is the cost of a row on one core, whatever else the machine runs.
func reportRows(b *testing.B, cpu float64) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if used := cpuSeconds() - cpu; cpu > 0 && used > 0 {
		b.ReportMetric(float64(b.N)/used, "rows/cpu-s")
	}
}

// BenchmarkEvaluate measures rows per second for each mechanism family,
// through the whole row path (binding, parsing the text cells, resolving
// the mechanism, every registered column).
//
//	go test -run '^$' -bench Evaluate -benchtime 2s ./evaluate
func BenchmarkEvaluate(b *testing.B) {
	for _, f := range benchFamilies {
		b.Run(f.name, func(b *testing.B) {
			bind, cells, dst := benchRow(b, New(), f.row)
			b.ResetTimer()
			cpu := cpuSeconds()
			for i := 0; i < b.N; i++ {
				bind.Evaluate(cells, dst)
			}
			reportRows(b, cpu)
		})
	}
}

// BenchmarkColumnFamily measures rows per second for each family of output
// columns alone (Evaluator.Select of the family, as --columns does), over
// one row of every mechanism family of BenchmarkEvaluate in turn: what a
// family costs on a mixed table.
//
//	go test -run '^$' -bench ColumnFamily -benchtime 2s ./evaluate
func BenchmarkColumnFamily(b *testing.B) {
	for _, g := range New().Groups() {
		if g.Kind != "family" {
			continue
		}
		b.Run(g.Name, func(b *testing.B) {
			e, err := New().Select(g.Name)
			if err != nil {
				b.Fatal(err)
			}
			type bound struct {
				bind       *Binding
				cells, dst []table.Cell
			}
			var rows []bound
			for _, f := range benchFamilies {
				bind, cells, dst := benchRow(b, e, f.row)
				rows = append(rows, bound{bind, cells, dst})
			}
			b.ResetTimer()
			cpu := cpuSeconds()
			for i := 0; i < b.N; i++ {
				r := &rows[i%len(rows)]
				r.bind.Evaluate(r.cells, r.dst)
			}
			reportRows(b, cpu)
		})
	}
}

// sweepRows are n rows of the closed-form sweep that riskbatch-bench
// evaluates (internal/benchinput.ClosedForm): pure, approx, gaussian and
// gdp rows in turn, each with its own parameters and baseline, as text
// cells (as the CSV reader gives them) under sweepColumns.
func sweepRows(n int) [][]table.Cell {
	rng := rand.New(rand.NewSource(1))
	rows := make([][]table.Cell, n)
	for i := range rows {
		f := func(format string, v float64) table.Cell { return table.TextCell(fmt.Sprintf(format, v)) }
		row := make([]table.Cell, len(sweepColumns))
		row[0] = table.TextCell(fmt.Sprint("r", i))
		row[6] = f("%.6g", rng.Float64()*0.5)
		switch i % 4 {
		case 0:
			row[1], row[2] = table.TextCell("pure"), f("%.4g", rng.Float64()*10)
		case 1:
			row[1], row[2], row[3] = table.TextCell("approx"), f("%.4g", rng.Float64()*10), table.TextCell("1e-5")
		case 2:
			row[1], row[3], row[4] = table.TextCell("gaussian"), table.TextCell("1e-5"), f("%.4g", 0.5+rng.Float64()*10)
		default:
			row[1], row[3], row[5] = table.TextCell("gdp"), table.TextCell("1e-5"), f("%.4g", rng.Float64()*3)
		}
		rows[i] = row
	}
	return rows
}

// sweepColumns are the columns of sweepRows.
var sweepColumns = []string{"id", "mechanism", "epsilon", "delta", "sigma", "mu", "baseline"}

// BenchmarkSweep measures rows per second over the closed-form sweep of
// riskbatch-bench, rows with their own parameters (so that the run's
// caches miss, as in a real sweep), one evaluator for the run: every
// column, and the three columns of riskbatch-bench's --columns case.
// Profile it with -cpuprofile:
//
//	go test -run '^$' -bench Sweep -benchtime 2s -cpu 1 ./evaluate
func BenchmarkSweep(b *testing.B) {
	cols := make([]table.Column, len(sweepColumns))
	for i, name := range sweepColumns {
		cols[i] = table.Column{Name: name}
	}
	rows := sweepRows(1 << 16)
	for _, c := range []struct {
		name      string
		selectors []string
	}{
		{"every-column", nil},
		{"three-columns", []string{"fdp_advantage", "adp_advantage", "eps_at_delta"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := New()
			if c.selectors != nil {
				var err error
				if e, err = e.Select(c.selectors...); err != nil {
					b.Fatal(err)
				}
			}
			bind, err := e.Bind(cols)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]table.Cell, e.Width())
			b.ResetTimer()
			cpu := cpuSeconds()
			for i := 0; i < b.N; i++ {
				if st := bind.Evaluate(rows[i%len(rows)], dst); st == StatusError {
					b.Fatalf("row %d: %s", i%len(rows), dst[1].Str)
				}
			}
			reportRows(b, cpu)
		})
	}
}

// BenchmarkGaussianCandidatesDistinct measures rows per second of Gaussian
// rows with a uniform prior over M = 100 candidates whose σ all differ, so
// that the run's Fano cache never hits: each row searches the Rényi orders
// of Guo et al.'s order-optimised Fano bound.
//
//	go test -run '^$' -bench GaussianCandidatesDistinct -benchtime 2s ./evaluate
func BenchmarkGaussianCandidatesDistinct(b *testing.B) {
	e := New()
	cols := []table.Column{{Name: "sigma"}, {Name: "delta"}, {Name: "candidates"}}
	bind, err := e.Bind(cols)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]table.Cell, e.Width())
	cells := []table.Cell{{}, table.TextCell("1e-5"), table.TextCell("100")}
	b.ResetTimer()
	cpu := cpuSeconds()
	for i := 0; i < b.N; i++ {
		cells[0] = table.TextCell(strconv.FormatFloat(5+float64(i)*1e-6, 'g', -1, 64))
		if st := bind.Evaluate(cells, dst); st == StatusError {
			b.Fatalf("row %d: %s", i, dst[1].Str)
		}
	}
	reportRows(b, cpu)
}
