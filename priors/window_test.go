package priors_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
)

// The reference vector for Swanberg et al. 2025 over codes 0..9:
// E = 0, 1, 2, 9 → z* = 3, 3, 3, — and p* = 0.20, 0.50, 0.70, 1.
func TestBestWindowCatalog(t *testing.T) {
	d := []float64{.05, .10, .15, .20, .15, .10, .10, .07, .05, .03}
	xs := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tc := range []struct {
		e, z, p float64
	}{{0, 3, 0.20}, {1, 3, 0.50}, {2, 3, 0.70}, {9, math.NaN(), 1}} {
		w, err := priors.BestWindow(xs, d, tc.e)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(w.P-tc.p) > 1e-12 || (!math.IsNaN(tc.z) && w.Z != tc.z) {
			t.Errorf("E = %v: z* = %v p* = %v, want %v %v", tc.e, w.Z, w.P, tc.z, tc.p)
		}
		if math.Abs(w.Z-w.Lo) > tc.e || math.Abs(w.Hi-w.Z) > tc.e {
			t.Errorf("E = %v: window [%v, %v] not within E of z = %v", tc.e, w.Lo, w.Hi, w.Z)
		}
	}
}

// bruteWindow tries every guess z among the values ± E and the midpoints
// of pairs of values (an optimal window has a value at an end, so its
// guess is one of these), summing the mass within E of z directly.
func bruteWindow(xs, ws []float64, e float64) float64 {
	var cands []float64
	for _, x := range xs {
		cands = append(cands, x-e, x, x+e)
		for _, y := range xs {
			cands = append(cands, (x+y)/2)
		}
	}
	total, best := 0.0, 0.0
	for _, w := range ws {
		total += w
	}
	for _, z := range cands {
		m := 0.0
		for i, x := range xs {
			if math.Abs(x-z) <= e*(1+1e-12)+1e-12 {
				m += ws[i]
			}
		}
		best = math.Max(best, m)
	}
	return best / total
}

func TestBestWindowBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		n := 1 + rng.IntN(30)
		xs, ws := make([]float64, n), make([]float64, n)
		for i := range xs {
			xs[i] = math.Round(rng.NormFloat64()*20) / 4 // repeats and negatives
			ws[i] = float64(rng.IntN(10))
		}
		ws[0]++ // a positive weight
		e := float64(rng.IntN(12)) / 4
		w, err := priors.BestWindow(xs, ws, e)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteWindow(xs, ws, e); math.Abs(w.P-want) > 1e-12 {
			t.Fatalf("trial %d: p* = %v, brute force %v (E = %v, xs %v, ws %v)", trial, w.P, want, e, xs, ws)
		}
	}
}

func TestBestWindowErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		xs, ws []float64
		e      float64
	}{
		"lengths":    {[]float64{1, 2}, []float64{1}, 0},
		"no weight":  {[]float64{1, 2}, []float64{0, 0}, 0},
		"empty":      {nil, nil, 1},
		"negative E": {[]float64{1}, []float64{1}, -1},
		"NaN E":      {[]float64{1}, []float64{1}, math.NaN()},
		"infinite E": {[]float64{1}, []float64{1}, math.Inf(1)},
		"NaN value":  {[]float64{math.NaN()}, []float64{1}, 0},
		"inf value":  {[]float64{math.Inf(1)}, []float64{1}, 0},
		"negative w": {[]float64{1, 2}, []float64{1, -1}, 0},
		"NaN weight": {[]float64{1}, []float64{math.NaN()}, 0},
		"inf weight": {[]float64{1}, []float64{math.Inf(1)}, 0},
	} {
		if _, err := priors.BestWindow(tc.xs, tc.ws, tc.e); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

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
		res := buildCSV(t, "ages.csv", b.String(), priors.BuildOptions{Columns: []string{"group"}, Given: []string{"group"}, Ordinal: []string{"age"}, Tolerance: e})
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
		m := entry(t, res, fmt.Sprintf("ages:age~%v", e))
		if want := bruteWindow(all, allW, e); !near(m.Baseline, want) || m.Records != int64(len(all)) {
			t.Errorf("E = %v: marginal p* = %v (%d records), want %v (%d)", e, m.Baseline, m.Records, want, len(all))
		}
		c := entry(t, res, fmt.Sprintf("ages:age~%v|group", e))
		ps, _ := rowPs(c)
		if len(ps) != len(all) {
			t.Fatalf("E = %v: %d prior rows, want %d", e, len(ps), len(all))
		}
		wantByGroup := map[string]float64{}
		for g, vals := range byGroup {
			ones := make([]float64, len(vals))
			for j := range ones {
				ones[j] = 1
			}
			wantByGroup[g] = bruteWindow(vals, ones, e)
		}
		for i, r := range recs {
			if !r.ok {
				if _, ok := ps[i+2]; ok {
					t.Errorf("row %d has no age but a prior row", i+2)
				}
				continue
			}
			if want := wantByGroup[r.g]; !near(ps[i+2], want) {
				t.Errorf("E = %v row %d (group %s): p = %v, want %v", e, i+2, r.g, ps[i+2], want)
			}
		}
	}
}
