package priorfiles_test

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// TestLoadDistributions writes the penguins priors (Sex and Species given
// Island, Body Mass within a window) in each format, loads the prior table
// alone, and checks that the frequency table beside it gives every key the
// distributions counted by hand from the data (directConditional).
func TestLoadDistributions(t *testing.T) {
	header, rows := readPenguins(t)
	res, err := priorfiles.BuildFile(penguinsPath, readers.Options{}, build.Options{
		Columns: []string{"Sex", "Species"}, Given: []string{"Island"},
		Ordinal: []string{"Body Mass (g)"}, Tolerance: 100,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"csv", "xlsx", "parquet"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p."+format)
			ts := writeAndLoad(t, path, res)
			for _, tc := range []struct {
				key    string
				target string
				given  []string
			}{
				{"penguins:Sex|Island", "Sex", []string{"Island"}},
				{"penguins:Species|Island", "Species", []string{"Island"}},
				{"penguins:Sex", "Sex", nil},
				{"penguins:Species", "Species", nil},
			} {
				p, err := ts.Lookup(tc.key)
				if err != nil {
					t.Fatal(err)
				}
				d := p.Distributions()
				if d == nil {
					t.Fatalf("%s: no distributions", tc.key)
				}
				_, cells, marginal := directConditional(header, rows, tc.target, tc.given)
				want := wantDistributions(cells)
				if d.Domain != len(marginal) || d.Cells != len(cells) {
					t.Errorf("%s: domain %d cells %d, want %d %d", tc.key, d.Domain, d.Cells, len(marginal), len(cells))
				}
				if len(d.Distinct) != len(want) {
					t.Fatalf("%s: %d distinct distributions, want %d", tc.key, len(d.Distinct), len(want))
				}
				for i, w := range want {
					got := d.Distinct[i]
					if got.Records != w.Records || len(got.P) != len(w.P) {
						t.Fatalf("%s #%d: records %d values %d, want %d %d", tc.key, i, got.Records, len(got.P), w.Records, len(w.P))
					}
					for j := range w.P {
						if !priorstest.Near(got.P[j], w.P[j]) {
							t.Errorf("%s #%d: P[%d] = %v, want %v", tc.key, i, j, got.P[j], w.P[j])
						}
					}
				}
			}
			// A window key's p is the mass of a window, not of a value:
			// it gets no distributions.
			for _, key := range ts.Keys() {
				p, _ := ts.Lookup(key)
				if strings.Contains(key, "~") && p.Distributions() != nil {
					t.Errorf("window key %s has distributions", key)
				}
			}
		})
	}
}

// wantDistributions groups cell counts into distinct distributions sorted
// as Distributions.Distinct is: most records first, then largest P[0].
func wantDistributions(cells map[string]map[string]int) []priors.Distribution {
	byShape := map[string]*priors.Distribution{}
	var out []*priors.Distribution
	for _, c := range cells {
		n := 0
		var counts []int
		for _, x := range c {
			counts = append(counts, x)
			n += x
		}
		slices.SortFunc(counts, func(a, b int) int { return cmp.Compare(b, a) })
		var p []float64
		for _, x := range counts {
			p = append(p, float64(x)/float64(n))
		}
		// Two cells share a distribution when their probabilities are
		// equal; compare them as exact ratios count/n.
		key := ""
		for _, x := range counts {
			key += ratioKey(x, n)
		}
		if d, ok := byShape[key]; ok {
			d.Records += int64(n)
			continue
		}
		d := &priors.Distribution{P: p, Records: int64(n)}
		byShape[key] = d
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b *priors.Distribution) int {
		if c := cmp.Compare(b.Records, a.Records); c != 0 {
			return c
		}
		return cmp.Compare(b.P[0], a.P[0])
	})
	var res []priors.Distribution
	for _, d := range out {
		res = append(res, *d)
	}
	return res
}

// ratioKey is x/n in lowest terms, as text.
func ratioKey(x, n int) string {
	a, b := x, n
	for b != 0 {
		a, b = b, a%b
	}
	return strconv.Itoa(x/a) + "/" + strconv.Itoa(n/a) + ";"
}

// TestLoadFrequencyErrors: a cell whose probabilities do not sum to 1 is
// an error naming the key; frequencies of a key without prior rows are
// ignored; inline priors have no distributions.
func TestLoadFrequencyErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	prior := write("p.csv", "prior,p\nd:a,0.5\n")
	write("p-frequencies.csv", "key,value,probability\nd:a,x,0.5\nd:a,y,0.25\n")
	if _, _, err := priorfiles.Load([]string{prior}); err == nil || !strings.Contains(err.Error(), `key "d:a"`) || !strings.Contains(err.Error(), "sum to 0.75") {
		t.Errorf("bad sum: %v", err)
	}
	write("p-frequencies.csv", "key,value,probability\nd:a,x,0.5\nd:a,y,0.5\nd:other,x,1\n")
	ts, opened, err := priorfiles.Load([]string{prior})
	if err != nil {
		t.Fatal(err)
	}
	// The frequency table found beside the prior table is among the files
	// read, which a program writing files must not replace.
	if want := []string{prior, filepath.Join(dir, "p-frequencies.csv")}; !slices.Equal(opened, want) {
		t.Errorf("opened %q, want %q", opened, want)
	}
	p, err := ts.Lookup("d:a")
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Distributions(); d == nil || d.Domain != 2 || len(d.Distinct) != 1 || d.Distinct[0].P[0] != 0.5 {
		t.Errorf("d:a distributions %+v", d)
	}
	if _, err := ts.Lookup("d:other"); err == nil {
		t.Error("a key with frequencies only became a prior")
	}
	// Given explicitly as well as beside the prior table: read once.
	ts, opened, err = priorfiles.Load([]string{prior, filepath.Join(dir, "p-frequencies.csv")})
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) != 2 {
		t.Errorf("opened %q: the frequency table twice", opened)
	}
	if p, _ := ts.Lookup("d:a"); p.Distributions() == nil || p.Distributions().Cells != 1 {
		t.Errorf("explicit frequencies: %+v", p.Distributions())
	}
	inline, err := ts.Resolve("uniform(10)")
	if err != nil || inline.Distributions() != nil {
		t.Errorf("inline prior: %v %+v", err, inline.Distributions())
	}
}
