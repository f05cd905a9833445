package priorfiles_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// TestBuildInputsFromFiles: the inputs of priors/build's tests, whose
// values those tests check on tables held in memory and read row by row,
// give the same priors (or the same error) from a CSV file read column by
// column (BuildFile, and records in batches of 1 and 3).
func TestBuildInputsFromFiles(t *testing.T) {
	ids, missing, errs, zipf := priorstest.IDsCSV(), priorstest.MissingCSV, priorstest.ErrorsCSV, priorstest.ZipfCSV()
	raw, agg := priorstest.AggregatedCSV()
	given := build.Options{Columns: []string{"u"}, Given: []string{"k"}}
	cases := []struct {
		name, text string
		opts       build.Options
	}{
		{"default columns", ids, build.Options{MaxCategories: 10}},
		{"all columns", ids, build.Options{MaxCategories: -1}},
		{"named column", ids, build.Options{Columns: []string{"ID"}, MaxCategories: 3}},
		{"missing left out", missing, given},
		{"missing as value", missing, build.Options{Columns: []string{"u"}, Given: []string{"k"}, MissingAsValue: true}},
		{"raw", raw, build.Options{Name: "t", Columns: []string{"u"}, Given: []string{"k"}}},
		{"aggregated", agg, build.Options{Name: "t", Columns: []string{"u"}, Given: []string{"k"}, CountColumn: "count"}},
		{"zipf", zipf, build.Options{ZipfDomain: map[string]float64{"W": 100}}},
		{"bad zipf domain", zipf, build.Options{ZipfDomain: map[string]float64{"w": 3}}},
		{"bad unknown column", errs, build.Options{Columns: []string{"zz"}}},
		{"bad ordinal text", errs, build.Options{Ordinal: []string{"b"}}},
		{"bad NaN smoothing", errs, build.Options{Smoothing: math.NaN()}},
		{"bad count text", errs, build.Options{CountColumn: "b"}},
		{"bad negative count", "a,n\nx,-1\n", build.Options{CountColumn: "n"}},
		{"bad fractional count", "a,n\nx,1.5\n", build.Options{CountColumn: "n"}},
		{"bad empty count", "a,n\nx,\n", build.Options{CountColumn: "n"}},
	}
	dir := t.TempDir()
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("in%d.csv", i))
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := memtable.CSV(path, c.text)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := build.Priors([]priors.Rows{m}, c.opts)
		for _, batch := range []int{0, 1, 3} {
			t.Run(fmt.Sprintf("%s/batch%d", c.name, batch), func(t *testing.T) {
				got, gerr := priorfiles.BuildFile(path, readers.Options{}, c.opts)
				if batch > 0 {
					got, gerr = batchBuild(path, readers.Options{BatchRows: batch}, c.opts)
				}
				sameBuild(t, got, gerr, want, werr)
			})
		}
	}
}

// TestBuildMalformedRecord: a CSV record with too many fields stops the
// build with its position (a table in memory cannot hold one).
func TestBuildMalformedRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.csv")
	if err := os.WriteFile(path, []byte("a,b\nx,1\ny,2,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{0, 1} {
		_, err := batchBuild(path, readers.Options{BatchRows: batch}, build.Options{})
		var te *table.Error
		if !errors.As(err, &te) || te.Pos.Row != 3 {
			t.Errorf("batch %d: malformed record: %v", batch, err)
		}
	}
}
