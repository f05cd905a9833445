package evaluate

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/table"
)

// TestReferenceCore evaluates every row of testdata/reference_core.csv
// through the full evaluator (header binding, cell parsing, mechanism
// resolution, registry) and compares each output with the value computed
// outside this code: testdata/gen_reference.py, an independent mpmath
// implementation at 50 significant digits of the formulas of the contract.
// The rows cover pure, approx, gaussian and gdp across ε in [0, 50],
// δ in [1e-12, 0.1], μ in [0.01, 20] and baselines in [1e-9, 0.99], plus
// extremes (ε to 700, δ to 1e-300, μ to 40, baselines to 1e-12).
//
// Tolerance (issue "riskbatch end to end", done-when): 1e-9 absolute, and
// 1e-6 relative for values below 1e-3.
func TestReferenceCore(t *testing.T) {
	recs, col := approx.ReadTable(t, "testdata/reference_core.csv")
	inputs := []string{"mechanism", "epsilon", "delta", "sigma", "sensitivity", "mu", "baseline", "target_advantage"}
	cols := make([]table.Column, len(inputs))
	for i, name := range inputs {
		cols[i] = table.Column{Name: name}
	}
	e := New()
	b, err := e.Bind(cols)
	if err != nil {
		t.Fatal(err)
	}
	outIndex := map[string]int{}
	for i, c := range e.Columns() {
		outIndex[c.Name] = i
	}
	checked := 0
	for _, rec := range recs {
		cells := make([]table.Cell, len(inputs))
		for i, name := range inputs {
			v := rec[col[name]]
			if name == "mu" && rec[col["mechanism"]] == "gaussian" {
				v = "" // informational: gaussian rows give sigma and sensitivity
			}
			if v != "" {
				cells[i] = table.TextCell(v)
			}
		}
		dst := make([]table.Cell, e.Width())
		status, _, problems, marks := b.evaluate(cells, dst, nil)
		where := strings.Join(rec[:8], ",")
		if status == StatusError {
			t.Errorf("row %s: status error: %v", where, problems)
			continue
		}
		// why[k] is the reason output k is empty, if the message gives one.
		why := map[int]string{}
		for _, m := range marks {
			if m.column >= 0 {
				why[HeadWidth+m.column] = m.text
			}
		}
		for _, name := range []string{"fdp_success", "fdp_advantage", "fdp_worst_advantage", "adp_advantage", "onerun_posterior", "onerun_advantage", "onerun_eps_protect"} {
			want := rec[col[name]]
			got := dst[outIndex[name]]
			switch want {
			case "none", "inf":
				if got.Kind != table.Empty {
					t.Errorf("row %s: %s = %v, want empty (%s)", where, name, got.Num, want)
				} else if why[outIndex[name]] == "" {
					t.Errorf("row %s: %s empty, and the message does not say why", where, name)
				}
				continue
			}
			w, err := strconv.ParseFloat(want, 64)
			if err != nil {
				t.Fatalf("reference %s = %q: %v", name, want, err)
			}
			if got.Kind != table.Number {
				t.Errorf("row %s: %s empty (%s), want %v", where, name, why[outIndex[name]], w)
				continue
			}
			if !referenceClose(got.Num, w) {
				t.Errorf("row %s: %s = %.17g, reference %.17g", where, name, got.Num, w)
			}
			checked++
		}
	}
	if checked < 6*len(recs) {
		t.Errorf("only %d values checked", checked)
	}
}

func referenceClose(got, want float64) bool {
	d := math.Abs(got - want)
	if math.Abs(want) < 1e-3 {
		return d <= 1e-6*math.Abs(want) || d <= 1e-300
	}
	return d <= 1e-9
}

// The Gaussian privacy profile agrees with the 60-digit values of
// testdata/reference_gaussian_delta.csv in log space, down to δ ≈ 1e-320.
func TestReferenceGaussianDelta(t *testing.T) {
	recs := readback.ReadCSV(t, "testdata/reference_gaussian_delta.csv", 0)
	for _, rec := range recs[1:] {
		mu, _ := strconv.ParseFloat(rec[0], 64)
		eps, _ := strconv.ParseFloat(rec[1], 64)
		log10d, _ := strconv.ParseFloat(rec[3], 64)
		got := curve.Gaussian{Mu: mu}.LogDeltaAt(eps) / math.Ln10
		if math.Abs(got-log10d) > 1e-10*math.Max(1, math.Abs(log10d)) {
			t.Errorf("μ=%v ε=%v: log10 δ = %.15g, reference %.15g", mu, eps, got, log10d)
		}
	}
}
