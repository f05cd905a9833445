package priorfiles_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest/csvtest"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// WriteResult in every format: the prior table loads back to the entries'
// p vectors; the frequency and summary tables have a row per value and per
// key.
func TestWriteResultRoundTrip(t *testing.T) {
	t.Parallel()
	res, err := priorfiles.BuildFile(penguinsPath, readers.Options{}, build.Options{
		Given: []string{"Species", "Island"}, Ordinal: []string{"Body Mass (g)"}, Tolerance: 100,
		Joint: [][]string{{"Sex", "Island"}, {"Sex", "Flipper Length (mm)"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantFreq, wantPriors := 0, 0
	for _, e := range res.Entries {
		if e.Conditional() {
			for d := range e.CellDistributions() {
				wantFreq += len(d.Values)
			}
		} else {
			wantFreq += len(e.Frequencies())
		}
		for range e.PriorRows() {
			wantPriors++
		}
	}
	for _, format := range []string{"csv", "tsv", "xlsx", "parquet"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out."+format)
		if err := priorfiles.WriteResult(path, res, ""); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		pp, fp, sp, err := priorfiles.OutputPaths(path, "")
		if err != nil || pp != path || fp != filepath.Join(dir, "out-frequencies."+format) || sp != filepath.Join(dir, "out-summary."+format) {
			t.Errorf("%s: paths %s %s %s (%v)", format, pp, fp, sp, err)
		}
		tables, _, err := priorfiles.Load([]string{path})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if tables.Len() != len(res.Entries) {
			t.Errorf("%s: %d keys loaded, want %d", format, tables.Len(), len(res.Entries))
		}
		for _, e := range res.Entries {
			p, err := tables.Lookup(e.Key)
			if err != nil {
				t.Errorf("%s: %v", format, err)
				continue
			}
			var want []float64
			for rp := range e.PriorRows() {
				for range rp.Targets {
					want = append(want, rp.P)
				}
			}
			if got := p.Ps(); !slices.Equal(got, want) || p.Max() != e.MaxP {
				t.Errorf("%s %s: %d values (max %v), want %d (max %v)", format, e.Key, len(got), p.Max(), len(want), e.MaxP)
			}
		}
		for file, want := range map[string]int{pp: wantPriors, fp: wantFreq, sp: len(res.Entries)} {
			if got := countRows(t, file); got != want {
				t.Errorf("%s: %d rows, want %d", file, got, want)
			}
		}
	}
	// Nothing is left behind but the three files.
	dir := t.TempDir()
	if err := priorfiles.WriteResult(filepath.Join(dir, "p"), res, "csv"); err != nil {
		t.Fatal(err)
	}
	names, _ := os.ReadDir(dir)
	var got []string
	for _, n := range names {
		got = append(got, n.Name())
	}
	if !slices.Equal(got, []string{"p", "p-frequencies.csv", "p-summary.csv"}) {
		t.Errorf("files %q", got)
	}
	if err := priorfiles.WriteResult(filepath.Join(dir, "x.json"), res, ""); err == nil {
		t.Errorf("unknown format: no error")
	}
}

// countRows counts the data rows of a file with package readers.
func countRows(t *testing.T, path string) int {
	t.Helper()
	tables, err := readers.Open(path, readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tb := range tables {
		if tb.Sheet() == "Columns" {
			tb.Close()
			continue
		}
		n += len(readback.AllRows(t, tb))
		tb.Close()
	}
	return n
}

// A known column named like a column of the prior table is renamed so that
// the loader still finds prior and p.
func TestKnownColumnRenamed(t *testing.T) {
	res := csvtest.BuildCSV(t, "r.csv", "p,u\n1,A\n1,B\n2,A\n", build.Options{Columns: []string{"u"}, Given: []string{"p"}})
	var cols []string
	for _, c := range res.Outputs()[0].Columns {
		cols = append(cols, c.Name)
	}
	if !slices.Contains(cols, "known p") {
		t.Errorf("columns %q", cols)
	}
	path := filepath.Join(t.TempDir(), "r.csv")
	ts := writeAndLoad(t, path, res)
	if p, err := ts.Lookup("r:u|p"); err != nil || !slices.Equal(p.Ps(), []float64{0.5, 0.5, 1}) {
		t.Errorf("r:u|p: %v %v", p.Ps(), err)
	}
}
