package priorfiles_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// Rows whose count is 0 are not records: row by row the build does not
// number their values at all. A batch numbers the values of all its rows
// before it reads their counts, and the order of the value ids decides
// both when a default attribute passes MaxCategories values and the order
// in which a marginal's entropy is summed. These tests pin that the build
// from batches counts as the build row by row does, and as a plain count
// of the records does.

// zeroCountCSV has a count column cnt whose zero rows hold a value ("x")
// that no record has, before the records' second value.
const zeroCountCSV = "v,cnt\na,1\nx,0\nb,1\nb,2\nx,0\na,0\n"

// TestZeroCountRowsNotValues builds the priors of zeroCountCSV with at
// most 2 values per default attribute: its records have 2 values of v
// (a once, b three times), so v is an attribute, whatever the batch size.
// Before the batch build numbered only the values of counted records, it
// took "x" for a third value and dropped v.
func TestZeroCountRowsNotValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "zero.csv")
	if err := os.WriteFile(path, []byte(zeroCountCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	// The independent count: value → records, over the raw lines.
	want := map[string]int64{}
	var records int64
	for _, line := range strings.Split(strings.TrimSpace(zeroCountCSV), "\n")[1:] {
		v, n, _ := strings.Cut(line, ",")
		c, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if c > 0 {
			want[v] += c
			records += c
		}
	}
	opts := build.Options{CountColumn: "cnt", MaxCategories: len(want)}
	for _, batch := range []int{0, 1, 2, 3, 4} {
		t.Run(fmt.Sprintf("batch%d", batch), func(t *testing.T) {
			ropts := readers.Options{BatchRows: batch}
			sameAsRowBuild(t, path, ropts, opts)
			res, err := priorfiles.BuildFile(path, ropts, opts)
			if err != nil {
				t.Fatal(err)
			}
			if notes := strings.Join(res.Notes, "\n"); strings.Contains(notes, "distinct values") {
				t.Errorf("notes drop an attribute:\n%s", notes)
			}
			e := res.Entry("zero:v")
			if e == nil {
				t.Fatalf("no entry zero:v among %d", len(res.Entries))
			}
			// H = −Σ q log2 q over the counts of want (1/4 and 3/4).
			var h float64
			for _, c := range want {
				q := float64(c) / float64(records)
				h -= q * math.Log2(q)
			}
			if e.Records != records || e.Support != len(want) || e.BestGuess != "b" || e.Baseline != 0.75 || !priorstest.Near(e.EntropyBits, h) {
				t.Errorf("records %d, support %d, best %q, baseline %v, entropy %v; want %d, %d, \"b\", 0.75, %v",
					e.Records, e.Support, e.BestGuess, e.Baseline, e.EntropyBits, records, len(want), h)
			}
		})
	}
}

// TestZeroCountRowsSweep compares the two builds, with a count column
// that is 0 in a quarter of the rows, on the Parquet file of
// TestColumnarParquet at several sizes and batch sizes. With 1000 rows
// and whole row groups, the batch build summed the entropy of u64 in
// another order (a value first met in a row of count 0 got an earlier
// id), and entropy_bits differed in its last digit.
func TestZeroCountRowsSweep(t *testing.T) {
	// The first size and batch sizes by default, all in the long run.
	sizes := []int{1000, 1, 5, 100, 701, 1400, 2000, 3000}
	sizes = sizes[:testenv.Count(1, len(sizes))]
	batches := []int{0, 64, 1, 7, 700}
	batches = batches[:testenv.Count(2, len(batches))]
	opts := build.Options{CountColumn: "cnt", Given: []string{"i32"}, Ordinal: []string{"f64"}, Tolerance: 0.5, Smoothing: 0.5}
	for _, n := range sizes {
		path := columnarParquet(t, n)
		for _, batch := range batches {
			t.Run(fmt.Sprintf("rows%d/batch%d", n, batch), func(t *testing.T) {
				sameAsRowBuild(t, path, readers.Options{BatchRows: batch}, opts)
			})
		}
	}
}
