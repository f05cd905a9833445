package build_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
)

// catalogData is a test vector for Swanberg et al. 2025: known value a with
// joint counts [30, 10, 10] and b with [5, 25, 20] over the three joint
// values (L,L), (L,R), (R,R) of the unknown columns U1, U2. Records come
// interleaved so that the order of rows matters. With count, the same data
// pre-aggregated (value, count).
func catalogData(count bool) string {
	joint := [][2]string{{"L", "L"}, {"L", "R"}, {"R", "R"}}
	counts := map[string][]int{"a": {30, 10, 10}, "b": {5, 25, 20}}
	var b strings.Builder
	if count {
		b.WriteString("K,U1,U2,n\n")
		for _, k := range []string{"a", "b"} {
			for j, c := range counts[k] {
				fmt.Fprintf(&b, "%s,%s,%s,%d\n", k, joint[j][0], joint[j][1], c)
			}
		}
		return b.String()
	}
	b.WriteString("K,U1,U2\n")
	left := map[string][]int{"a": {30, 10, 10}, "b": {5, 25, 20}}
	for more := true; more; {
		more = false
		for _, k := range []string{"a", "b"} {
			for j := range joint {
				if left[k][j] > 0 {
					left[k][j]--
					fmt.Fprintf(&b, "%s,%s,%s\n", k, joint[j][0], joint[j][1])
					more = true
				}
			}
		}
	}
	return b.String()
}

// The joint guess: p = 0.6 for records with a and 0.5 for b (by hand: 30/50, 25/50),
// recomputed here by counting the rows; the product of the per-column
// maxima (0.48 and 0.54) is not what Build returns.
func TestCatalogJointConditional(t *testing.T) {
	text := catalogData(false)
	lines := strings.Split(strings.TrimSpace(text), "\n")[1:]
	joint := map[string]map[string]int{}
	col := [2]map[string]map[string]int{{}, {}}
	for _, l := range lines {
		f := strings.Split(l, ",")
		if joint[f[0]] == nil {
			joint[f[0]] = map[string]int{}
			col[0][f[0]], col[1][f[0]] = map[string]int{}, map[string]int{}
		}
		joint[f[0]][f[1]+","+f[2]]++
		col[0][f[0]][f[1]]++
		col[1][f[0]][f[2]]++
	}
	maxFrac := func(m map[string]int) float64 {
		best, n := 0, 0
		for _, c := range m {
			best, n = max(best, c), n+c
		}
		return float64(best) / float64(n)
	}
	want := map[string]float64{}
	for k := range joint {
		want[k] = maxFrac(joint[k])
		product := maxFrac(col[0][k]) * maxFrac(col[1][k])
		if math.Abs(product-want[k]) < 0.01 {
			t.Fatalf("test data: the product of maxima equals the joint maximum for %s", k)
		}
	}
	if want["a"] != 0.6 || want["b"] != 0.5 {
		t.Fatalf("direct counting gives %v, the catalog 0.6 and 0.5", want)
	}
	for _, count := range []bool{false, true} {
		opts := build.Options{Name: "cat", Columns: []string{"U1", "U2"}, Joint: [][]string{{"U1", "U2"}}, Given: []string{"K"}}
		var res *build.Result
		if count {
			opts.CountColumn = "n"
			res = priorstest.BuildCSV(t, "agg.csv", catalogData(true), opts)
		} else {
			res = priorstest.BuildCSV(t, "cat.csv", text, opts)
		}
		e := priorstest.Entry(t, res, "cat:U1,U2|K")
		n := map[float64]int64{}
		for rp := range e.PriorRows() {
			n[rp.P] += rp.Targets
			if k := rp.Known[0]; rp.P != want[k] {
				t.Errorf("count %v row %d (K = %s): p = %v, want %v", count, rp.Row, k, rp.P, want[k])
			}
		}
		if n[0.6] != 50 || n[0.5] != 50 || len(n) != 2 {
			t.Errorf("count %v: targets by p %v, want 50 at 0.6 and 50 at 0.5", count, n)
		}
		if !priorstest.Near(e.Baseline, 0.55) || e.MaxP != 0.6 || e.Support != 3 || e.Cells != 2 {
			t.Errorf("count %v: baseline %v max %v support %d cells %d", count, e.Baseline, e.MaxP, e.Support, e.Cells)
		}
		// The per-column conditionals are the per-column maxima.
		for i, c := range []string{"U1", "U2"} {
			ce := priorstest.Entry(t, res, "cat:"+c+"|K")
			for d := range ce.CellDistributions() {
				if w := maxFrac(col[i][d.Known[0]]); !priorstest.Near(d.P, w) {
					t.Errorf("%s given K = %s: p = %v, want %v", c, d.Known[0], d.P, w)
				}
			}
		}
		// The joint marginal: 35 (L,L), 35 (L,R), 30 (R,R) → p = 0.35.
		m := priorstest.Entry(t, res, "cat:U1,U2")
		if m.Baseline != 0.35 || m.Records != 100 {
			t.Errorf("count %v: joint marginal %v over %d", count, m.Baseline, m.Records)
		}
	}
}

// Additive smoothing: P(u | k) = (count + α)/(n_k + α·m) with m the
// attribute's observed support, computed here by hand; the unobserved
// values of a cell are listed in the frequency table with α/(n_k + α·m).
func TestSmoothing(t *testing.T) {
	text := "k,u\nx,A\nx,A\nx,B\ny,C\n"
	const alpha = 0.5
	res := priorstest.BuildCSV(t, "s.csv", text, build.Options{Columns: []string{"u"}, Given: []string{"k"}, Smoothing: alpha})
	e := priorstest.Entry(t, res, "s:u|k")
	// m = 3 (A, B, C). Cell x: n = 3, best A: (2 + .5)/(3 + 1.5). Cell y: (1 + .5)/(1 + 1.5).
	want := map[string]float64{"x": 2.5 / 4.5, "y": 1.5 / 2.5}
	for rp := range e.PriorRows() {
		if !priorstest.Near(rp.P, want[rp.Known[0]]) {
			t.Errorf("row %d: p = %v, want %v", rp.Row, rp.P, want[rp.Known[0]])
		}
	}
	if !e.Smoothed || !strings.Contains(strings.Join(res.Notes, " "), "not safe upper bounds") {
		t.Errorf("smoothing not flagged: %v", res.Notes)
	}
	m := priorstest.Entry(t, res, "s:u")
	if !priorstest.Near(m.Baseline, 2.5/5.5) { // (2 + .5)/(4 + 1.5)
		t.Errorf("smoothed marginal %v", m.Baseline)
	}
	// The frequency table lists every value of the support in every cell.
	var freq build.OutputTable
	for _, o := range res.Outputs() {
		if o.Name == build.FrequenciesTable {
			freq = o
		}
	}
	got := map[string]float64{}
	for row := range freq.Rows {
		if row[0].Str == "s:u|k" {
			got[row[3].Str+"/"+row[4].Str] = row[6].Num
		}
	}
	wantFreq := map[string]float64{"x/A": 2.5 / 4.5, "x/B": 1.5 / 4.5, "x/C": 0.5 / 4.5, "y/C": 1.5 / 2.5, "y/A": 0.5 / 2.5, "y/B": 0.5 / 2.5}
	for k, w := range wantFreq {
		if !priorstest.Near(got[k], w) {
			t.Errorf("frequency %s = %v, want %v", k, got[k], w)
		}
	}
	if len(got) != len(wantFreq) {
		t.Errorf("frequencies %v", got)
	}
}

// Cells with fewer than MinCellCount records are flagged in the summary
// and on their records.
func TestSmallCells(t *testing.T) {
	var b strings.Builder
	b.WriteString("k,u\n")
	for i := range 12 {
		fmt.Fprintf(&b, "big,%d\n", i%2)
	}
	b.WriteString("small,1\nsmall,1\nsmall,0\n")
	res := priorstest.BuildCSV(t, "c.csv", b.String(), build.Options{Columns: []string{"u"}, Given: []string{"k"}})
	e := priorstest.Entry(t, res, "c:u|k")
	if e.SmallCells != 1 || e.SmallCellRecords != 3 || len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "fewer than 5") {
		t.Errorf("small cells %d records %d warnings %q", e.SmallCells, e.SmallCellRecords, e.Warnings)
	}
	flagged := 0
	for rp := range e.PriorRows() {
		if (rp.Warning != "") != (rp.Known[0] == "small") {
			t.Errorf("row %d (%s): warning %q", rp.Row, rp.Known[0], rp.Warning)
		}
		if rp.Warning != "" {
			flagged++
			if !priorstest.Near(rp.P, 2.0/3) || rp.CellRecords != 3 {
				t.Errorf("row %d: p %v cell %d", rp.Row, rp.P, rp.CellRecords)
			}
		}
	}
	if flagged != 3 {
		t.Errorf("%d records flagged, want 3", flagged)
	}
	res = priorstest.BuildCSV(t, "c.csv", b.String(), build.Options{Columns: []string{"u"}, Given: []string{"k"}, MinCellCount: -1})
	if e := priorstest.Entry(t, res, "c:u|k"); e.SmallCells != 0 || len(e.Warnings) != 0 {
		t.Errorf("MinCellCount < 0 still flags: %v", e.Warnings)
	}
}
