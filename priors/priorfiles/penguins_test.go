package priorfiles_test

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// readPenguins reads the sample with encoding/csv, independently of
// package readers: the header and the data rows.
func readPenguins(t *testing.T) ([]string, [][]string) {
	t.Helper()
	recs := readback.ReadCSV(t, penguinsPath, 0)
	return recs[0], recs[1:]
}

// directConditional counts the target column given the known columns by
// hand: per record (data row i is file row i+2) whose target is not empty,
// p_i = max_u count(k_i, u)/count(k_i). It returns the per-row p, the cell
// counts, and the marginal counts.
func directConditional(header []string, rows [][]string, target string, given []string) (map[int]float64, map[string]map[string]int, map[string]int) {
	col := func(name string) int { return slices.Index(header, name) }
	tc := col(target)
	cells := map[string]map[string]int{}
	marginal := map[string]int{}
	keyOf := func(r []string) string {
		var parts []string
		for _, g := range given {
			parts = append(parts, strings.TrimSpace(r[col(g)]))
		}
		return strings.Join(parts, "\x00")
	}
	for _, r := range rows {
		v := strings.TrimSpace(r[tc])
		if v == "" {
			continue
		}
		k := keyOf(r)
		if cells[k] == nil {
			cells[k] = map[string]int{}
		}
		cells[k][v]++
		marginal[v]++
	}
	ps := map[int]float64{}
	for i, r := range rows {
		if strings.TrimSpace(r[tc]) == "" {
			continue
		}
		c := cells[keyOf(r)]
		best, n := 0, 0
		for _, x := range c {
			best = max(best, x)
			n += x
		}
		ps[i+2] = float64(best) / float64(n)
	}
	return ps, cells, marginal
}

func TestPenguinsConditionals(t *testing.T) {
	header, rows := readPenguins(t)
	for _, tc := range []struct {
		target string
		given  []string
		key    string
	}{
		{"Sex", []string{"Species", "Island"}, "penguins:Sex|Species,Island"},
		{"Species", []string{"Island"}, "penguins:Species|Island"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			res, err := priorfiles.BuildFile(penguinsPath, readers.Options{}, build.Options{Columns: []string{tc.target}, Given: tc.given})
			if err != nil {
				t.Fatal(err)
			}
			wantPs, cells, marginal := directConditional(header, rows, tc.target, tc.given)

			// The marginal: frequencies, baseline, support, entropy.
			m := priorstest.Entry(t, res, "penguins:"+tc.target)
			total := 0
			for _, c := range marginal {
				total += c
			}
			if m.Records != int64(total) || m.Support != len(marginal) || m.Missing != int64(len(rows)-total) {
				t.Errorf("marginal: records %d support %d missing %d, want %d %d %d", m.Records, m.Support, m.Missing, total, len(marginal), len(rows)-total)
			}
			best, h := 0, 0.0
			for _, f := range m.Frequencies() {
				if marginal[f.Value] != int(f.Count) || !priorstest.Near(f.P, float64(f.Count)/float64(total)) {
					t.Errorf("marginal %q: count %d p %v, want %d", f.Value, f.Count, f.P, marginal[f.Value])
				}
			}
			for _, c := range marginal {
				best = max(best, c)
				q := float64(c) / float64(total)
				h -= q * math.Log2(q)
			}
			if !priorstest.Near(m.Baseline, float64(best)/float64(total)) || !priorstest.Near(m.EntropyBits, h) || marginal[m.BestGuess] != best {
				t.Errorf("marginal baseline %v entropy %v guess %q, want %v %v", m.Baseline, m.EntropyBits, m.BestGuess, float64(best)/float64(total), h)
			}

			// The conditional: cells, per-record p_i, population baseline.
			e := priorstest.Entry(t, res, tc.key)
			if e.Cells != len(cells) || e.Records != int64(total) {
				t.Errorf("cells %d records %d, want %d %d", e.Cells, e.Records, len(cells), total)
			}
			for d := range e.CellDistributions() {
				want := cells[strings.Join(d.Known, "\x00")]
				if len(d.Values) != len(want) {
					t.Errorf("cell %q: %d values, want %d", d.Known, len(d.Values), len(want))
				}
				for _, f := range d.Values {
					if want[f.Value] != int(f.Count) || !priorstest.Near(f.P, float64(f.Count)/float64(d.Records)) {
						t.Errorf("cell %q value %q: %d (p %v), want %d", d.Known, f.Value, f.Count, f.P, want[f.Value])
					}
				}
			}
			gotPs, order := priorstest.RowPs(e)
			if len(gotPs) != len(wantPs) || !slices.IsSorted(order) {
				t.Fatalf("%d prior rows (sorted %v), want %d in row order", len(gotPs), slices.IsSorted(order), len(wantPs))
			}
			sum := 0.0
			maxP := 0.0
			for row, want := range wantPs {
				if got, ok := gotPs[row]; !ok || !priorstest.Near(got, want) {
					t.Errorf("row %d: p = %v, want %v", row, got, want)
				}
				sum += want
				maxP = max(maxP, want)
			}
			if !priorstest.Near(e.Baseline, sum/float64(len(wantPs))) || !priorstest.Near(e.MaxP, maxP) {
				t.Errorf("population baseline %v max %v, want %v %v", e.Baseline, e.MaxP, sum/float64(len(wantPs)), maxP)
			}

			// Through a written prior table and back.
			out := filepath.Join(t.TempDir(), "priors.csv")
			tables := writeAndLoad(t, out, res)
			p, err := tables.Lookup(strings.ToLower(tc.key))
			if err != nil {
				t.Fatal(err)
			}
			var want []float64
			for _, r := range order {
				want = append(want, wantPs[r])
			}
			if got := p.Ps(); !slices.Equal(got, want) {
				t.Errorf("loaded p vector differs: %d values, want %d", len(got), len(want))
			}
			pm, err := tables.Lookup("penguins:" + tc.target)
			if err != nil || pm.Targets() != total || !priorstest.Near(pm.Max(), float64(best)/float64(total)) {
				t.Errorf("loaded marginal: %d targets max %v (%v), want %d %v", pm.Targets(), pm.Max(), err, total, float64(best)/float64(total))
			}
		})
	}
}
