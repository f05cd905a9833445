package priorfiles_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// TestBuildInputsFromFiles: the inputs of priors/build's tests, whose
// values those tests check on tables held in memory and read row by row,
// give the same priors (or the same error) from a CSV file read column by
// column (BuildFile, and records in batches of 1 and 3).
func TestBuildInputsFromFiles(t *testing.T) {
	var ids strings.Builder
	ids.WriteString("id,color,size\n")
	for i := range 30 {
		fmt.Fprintf(&ids, "%d,%s,%d\n", i, []string{"red", "blue"}[i%2], i%4)
	}
	var raw, agg strings.Builder
	raw.WriteString("k,u\n")
	agg.WriteString("k,u,count\n")
	for _, c := range []struct {
		k, u string
		n    int
	}{{"a", "x", 7}, {"b", "y", 4}, {"a", "y", 2}, {"c", "z", 3}, {"b", "x", 1}, {"b", "z", 4}} {
		raw.WriteString(strings.Repeat(c.k+","+c.u+"\n", c.n))
		fmt.Fprintf(&agg, "%s,%s,%d\n", c.k, c.u, c.n)
	}
	agg.WriteString("d,x,0\n") // a row of count 0 is no record
	var zipf strings.Builder
	zipf.WriteString("w\n")
	for i, c := range []int{40, 20, 13, 10, 8} {
		zipf.WriteString(strings.Repeat(fmt.Sprintf("v%d\n", i), c))
	}
	const (
		missing = "k,u\nx,A\nx,\nx,\n,B\n,B\n,A\nx,A\n"
		errs    = "a,b,n\nx,1,2\ny,two,1\n"
	)
	given := build.Options{Columns: []string{"u"}, Given: []string{"k"}}
	cases := []struct {
		name, text string
		opts       build.Options
	}{
		{"default columns", ids.String(), build.Options{MaxCategories: 10}},
		{"all columns", ids.String(), build.Options{MaxCategories: -1}},
		{"named column", ids.String(), build.Options{Columns: []string{"ID"}, MaxCategories: 3}},
		{"missing left out", missing, given},
		{"missing as value", missing, build.Options{Columns: []string{"u"}, Given: []string{"k"}, MissingAsValue: true}},
		{"raw", raw.String(), build.Options{Name: "t", Columns: []string{"u"}, Given: []string{"k"}}},
		{"aggregated", agg.String(), build.Options{Name: "t", Columns: []string{"u"}, Given: []string{"k"}, CountColumn: "count"}},
		{"zipf", zipf.String(), build.Options{ZipfDomain: map[string]float64{"W": 100}}},
		{"bad zipf domain", zipf.String(), build.Options{ZipfDomain: map[string]float64{"w": 3}}},
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
