package build_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
)

// Windows built from data: the marginal and, per record, the window of the
// record's cell of known values, against brute force over the rows.
func TestBuildWindows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var b strings.Builder
	b.WriteString("group,age\n")
	type rec struct {
		g   string
		age float64
		ok  bool
	}
	var recs []rec
	for range 400 {
		g := []string{"a", "b", "c"}[rng.IntN(3)]
		age := float64(rng.IntN(10)) + float64(len(g)*rng.IntN(3))
		r := rec{g, age, rng.IntN(20) != 0}
		recs = append(recs, r)
		if r.ok {
			fmt.Fprintf(&b, "%s,%v\n", g, age)
		} else {
			fmt.Fprintf(&b, "%s,\n", g)
		}
	}
	for _, e := range []float64{0, 1, 2.5, 9} {
		res := priorstest.BuildCSV(t, "ages.csv", b.String(), build.Options{Columns: []string{"group"}, Given: []string{"group"}, Ordinal: []string{"age"}, Tolerance: e})
		// Direct: the values of every record, and of each group.
		var all, allW []float64
		byGroup := map[string][]float64{}
		for _, r := range recs {
			if r.ok {
				all = append(all, r.age)
				allW = append(allW, 1)
				byGroup[r.g] = append(byGroup[r.g], r.age)
			}
		}
		m := priorstest.Entry(t, res, fmt.Sprintf("ages:age~%v", e))
		if want := priorstest.BruteWindow(all, allW, e); !priorstest.Near(m.Baseline, want) || m.Records != int64(len(all)) {
			t.Errorf("E = %v: marginal p* = %v (%d records), want %v (%d)", e, m.Baseline, m.Records, want, len(all))
		}
		c := priorstest.Entry(t, res, fmt.Sprintf("ages:age~%v|group", e))
		ps, _ := priorstest.RowPs(c)
		if len(ps) != len(all) {
			t.Fatalf("E = %v: %d prior rows, want %d", e, len(ps), len(all))
		}
		wantByGroup := map[string]float64{}
		for g, vals := range byGroup {
			ones := make([]float64, len(vals))
			for j := range ones {
				ones[j] = 1
			}
			wantByGroup[g] = priorstest.BruteWindow(vals, ones, e)
		}
		for i, r := range recs {
			if !r.ok {
				if _, ok := ps[i+2]; ok {
					t.Errorf("row %d has no age but a prior row", i+2)
				}
				continue
			}
			if want := wantByGroup[r.g]; !priorstest.Near(ps[i+2], want) {
				t.Errorf("E = %v row %d (group %s): p = %v, want %v", e, i+2, r.g, ps[i+2], want)
			}
		}
	}
}
