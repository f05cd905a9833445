package build_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
	"github.com/riskbatch/riskbatch/table"
)

// By default every column with at most MaxCategories values is an
// attribute; others are dropped and said so in the notes.
func TestBuildDefaultColumns(t *testing.T) {
	ids := priorstest.IDsCSV()
	res := priorstest.BuildCSV(t, "d.csv", ids, build.Options{MaxCategories: 10})
	var keys []string
	for _, e := range res.Entries {
		keys = append(keys, e.Key)
	}
	if !slices.Equal(keys, []string{"d:color", "d:size"}) {
		t.Errorf("keys %q", keys)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), `column "id" has more than 10 distinct values`) {
		t.Errorf("notes %q", res.Notes)
	}
	res = priorstest.BuildCSV(t, "d.csv", ids, build.Options{MaxCategories: -1})
	if e := priorstest.Entry(t, res, "d:id"); e.Support != 30 || !priorstest.Near(e.Baseline, 1.0/30) {
		t.Errorf("id: support %d baseline %v", e.Support, e.Baseline)
	}
	// Named columns are never bounded.
	res = priorstest.BuildCSV(t, "d.csv", ids, build.Options{Columns: []string{"ID"}, MaxCategories: 3})
	if e := priorstest.Entry(t, res, "d:id"); e.Support != 30 {
		t.Errorf("named id: support %d", e.Support)
	}
}

// Missing attribute values are left out by default and a value of their
// own with MissingAsValue; a missing known value is always a value.
func TestBuildMissing(t *testing.T) {
	text := priorstest.MissingCSV
	res := priorstest.BuildCSV(t, "m.csv", text, build.Options{Columns: []string{"u"}, Given: []string{"k"}})
	m := priorstest.Entry(t, res, "m:u")
	if m.Records != 5 || m.Missing != 2 || !priorstest.Near(m.Baseline, 3.0/5) {
		t.Errorf("left out: records %d missing %d baseline %v", m.Records, m.Missing, m.Baseline)
	}
	c := priorstest.Entry(t, res, "m:u|k")
	ps, rows := priorstest.RowPs(c)
	// Rows 2 and 8 are x,A (cell x: A A → 1); rows 5, 6, 7 are "",B/B/A (2/3).
	want := map[int]float64{2: 1, 5: 2.0 / 3, 6: 2.0 / 3, 7: 2.0 / 3, 8: 1}
	if len(ps) != len(want) || !slices.Equal(rows, []int{2, 5, 6, 7, 8}) {
		t.Errorf("rows %v", rows)
	}
	for r, w := range want {
		if !priorstest.Near(ps[r], w) {
			t.Errorf("row %d: p %v want %v", r, ps[r], w)
		}
	}
	res = priorstest.BuildCSV(t, "m.csv", text, build.Options{Columns: []string{"u"}, Given: []string{"k"}, MissingAsValue: true})
	m = priorstest.Entry(t, res, "m:u")
	if m.Records != 7 || m.Missing != 0 || m.Support != 3 || !priorstest.Near(m.Baseline, 3.0/7) {
		t.Errorf("as value: records %d missing %d support %d baseline %v", m.Records, m.Missing, m.Support, m.Baseline)
	}
	c = priorstest.Entry(t, res, "m:u|k")
	ps, _ = priorstest.RowPs(c)
	// Cell x: A, "", "", A → 2/4.
	if len(ps) != 7 || !priorstest.Near(ps[3], 0.5) {
		t.Errorf("as value: %v", ps)
	}
}

// Errors: unknown columns (listing the header), bad numbers and counts
// (with their positions), malformed options.
func TestBuildErrors(t *testing.T) {
	text := priorstest.ErrorsCSV
	for name, tc := range map[string]struct {
		opts build.Options
		want string
		row  int
		col  string
	}{
		"unknown column":  {build.Options{Columns: []string{"zz"}}, `"zz" is not a column; the columns are "a", "b", "n"`, 0, ""},
		"unknown given":   {build.Options{Given: []string{"zz"}}, "known column", 0, ""},
		"ordinal text":    {build.Options{Ordinal: []string{"b"}}, `"two" is not a number`, 3, "b"},
		"joint of one":    {build.Options{Joint: [][]string{{"a"}}}, "at least two columns", 0, ""},
		"joint twice":     {build.Options{Joint: [][]string{{"a", "A"}}}, "twice", 0, ""},
		"negative E":      {build.Options{Tolerance: -1}, "tolerance", 0, ""},
		"NaN smoothing":   {build.Options{Smoothing: math.NaN()}, "smoothing", 0, ""},
		"zipf unknown":    {build.Options{Columns: []string{"a"}, ZipfDomain: map[string]float64{"b": 10}}, "not an exact-match attribute", 0, ""},
		"zipf too small":  {build.Options{Columns: []string{"a"}, ZipfDomain: map[string]float64{"a": 1}}, "whole number ≥ 2", 0, ""},
		"count attribute": {build.Options{Columns: []string{"n"}, CountColumn: "n"}, "count column", 0, ""},
		"count as given":  {build.Options{Given: []string{"n"}, CountColumn: "n"}, "count column", 0, ""},
		"count text":      {build.Options{CountColumn: "b"}, `the count "two" is not a number`, 3, "b"},
	} {
		_, err := build.Priors(priorstest.OpenCSV(t, "e.csv", text), tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
			continue
		}
		if tc.row > 0 {
			var te *table.Error
			if !errors.As(err, &te) || te.Pos.Row != tc.row || te.Pos.ColumnName != tc.col || te.Pos.File != "e.csv" {
				t.Errorf("%s: position %+v, want row %d column %s", name, te, tc.row, tc.col)
			}
		}
	}
	for name, text := range map[string]string{
		"negative count":   "a,n\nx,-1\n",
		"fractional count": "a,n\nx,1.5\n",
		"empty count":      "a,n\nx,\n",
	} {
		_, err := build.Priors(priorstest.OpenCSV(t, "e.csv", text), build.Options{CountColumn: "n"})
		var te *table.Error
		if !errors.As(err, &te) || te.Pos.Row != 2 || te.Pos.ColumnName != "n" {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := build.Priors(nil, build.Options{}); err == nil {
		t.Errorf("no tables: no error")
	}
	// A record with too many fields: TestBuildMalformedRecord in
	// priorfiles, whose files can hold one.
	// A second table without a column the first has.
	tables := append(priorstest.OpenCSV(t, "one.csv", "a,b\nx,1\n"), priorstest.OpenCSV(t, "two.csv", "a\nx\n")...)
	if _, err := build.Priors(tables, build.Options{}); err == nil || !strings.Contains(err.Error(), "two.csv") {
		t.Errorf("missing column in the second table: %v", err)
	}
}

// Pre-aggregated (value, count) rows give the same priors as the raw rows.
func TestBuildAggregatedEqualsRaw(t *testing.T) {
	raw, agg := priorstest.AggregatedCSV() // with a row of count 0, which is no record
	opts := build.Options{Name: "t", Columns: []string{"u"}, Given: []string{"k"}}
	r1 := priorstest.BuildCSV(t, "raw.csv", raw, opts)
	opts.CountColumn = "count"
	r2 := priorstest.BuildCSV(t, "agg.csv", agg, opts)
	if r1.Records != 21 || r2.Records != 21 || r2.Rows != 6 {
		t.Fatalf("records %d %d rows %d", r1.Records, r2.Records, r2.Rows)
	}
	for _, key := range []string{"t:u", "t:u|k"} {
		e1, e2 := priorstest.Entry(t, r1, key), priorstest.Entry(t, r2, key)
		if e1.Baseline != e2.Baseline || e1.MaxP != e2.MaxP || e1.EntropyBits != e2.EntropyBits || e1.Records != e2.Records || e1.Support != e2.Support {
			t.Errorf("%s: raw %+v, aggregated %+v", key, *e1, *e2)
		}
		expand := func(e *build.Entry) map[float64]int64 {
			m := map[float64]int64{}
			for rp := range e.PriorRows() {
				m[rp.P] += rp.Targets
			}
			return m
		}
		if a, b := expand(e1), expand(e2); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: targets by p %v vs %v", key, a, b)
		}
	}
	// By hand: cells a (7/9), b (4/9), c (1): baseline (7 + 4 + 3)/21.
	if e := priorstest.Entry(t, r2, "t:u|k"); !priorstest.Near(e.Baseline, 14.0/21) || e.MaxP != 1 {
		t.Errorf("aggregated baseline %v max %v", e.Baseline, e.MaxP)
	}
}

// Several tables: each record's source is kept, and the prior table says
// which table a record comes from.
func TestBuildSeveralTables(t *testing.T) {
	tables := append(priorstest.OpenCSV(t, "one.csv", "k,u\nx,A\nx,B\n"), priorstest.OpenCSV(t, "two.csv", "u,k\nA,x\nA,y\n")...)
	res, err := build.Priors(tables, build.Options{Columns: []string{"u"}, Given: []string{"k"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "one" || !slices.Equal(res.Sources, []string{"one.csv", "two.csv"}) {
		t.Errorf("name %q sources %q", res.Name, res.Sources)
	}
	var got []string
	for rp := range priorstest.Entry(t, res, "one:u|k").PriorRows() {
		got = append(got, fmt.Sprintf("%s:%d:%v", rp.Source, rp.Row, rp.P))
	}
	// Cell x: A, B, A → 2/3; cell y: A → 1.
	p := fmt.Sprint(2.0 / 3)
	if want := []string{"one.csv:2:" + p, "one.csv:3:" + p, "two.csv:2:" + p, "two.csv:3:1"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	var cols []string
	for _, c := range res.Outputs()[0].Columns {
		cols = append(cols, c.Name)
	}
	if !slices.Equal(cols, []string{"prior", "p", "targets", "row", "source", "k", "best_guess", "cell_records", "warning"}) {
		t.Errorf("prior table columns %q", cols)
	}
}

// Zipf fits: over the observed values, or a stated domain.
func TestBuildZipf(t *testing.T) {
	text := priorstest.ZipfCSV()
	res := priorstest.BuildCSV(t, "z.csv", text, build.Options{ZipfDomain: map[string]float64{"W": 100}})
	e := priorstest.Entry(t, res, "z:w")
	fc := make([]float64, len(priorstest.ZipfCounts))
	for i, c := range priorstest.ZipfCounts {
		fc[i] = float64(c)
	}
	want, _ := priors.FitZipf(fc, 100)
	if e.Zipf == nil || e.Zipf.S != want.S || e.Zipf.Observed || e.Zipf.N != 100 {
		t.Errorf("zipf %+v, want %+v", e.Zipf, want)
	}
	if _, err := build.Priors(priorstest.OpenCSV(t, "z.csv", text), build.Options{ZipfDomain: map[string]float64{"w": 3}}); err == nil {
		t.Errorf("a stated domain below the observed values: no error")
	}
}

// Dates and exact decimals (a Parquet date column, an unsigned 64-bit
// count beyond int64) are values like any other, compared by their text:
// they once counted as missing.
func TestBuildTypedCells(t *testing.T) {
	day := func(d int64) table.Cell { return table.Cell{Kind: table.Date, Int: d} }
	dec := func(s string) table.Cell { return table.Cell{Kind: table.Decimal, Str: s} }
	m := memtable.New("mem", []string{"day", "big"})
	for i := range 4 {
		m.Cells = append(m.Cells, []table.Cell{day(int64(19000 + i%2)), dec([]string{"18446744073709551615", "1"}[min(i, 1)])})
	}
	res, err := build.Priors([]priors.Rows{m}, build.Options{Columns: []string{"day", "big"}})
	if err != nil {
		t.Fatal(err)
	}
	// day: two dates, two records each; big: one record of 2^64 − 1 and three of 1.
	if e := priorstest.Entry(t, res, "mem:day"); e.Support != 2 || !priorstest.Near(e.Baseline, 0.5) {
		t.Errorf("day: support %d baseline %v", e.Support, e.Baseline)
	}
	if e := priorstest.Entry(t, res, "mem:big"); e.Support != 2 || !priorstest.Near(e.Baseline, 0.75) {
		t.Errorf("big: support %d baseline %v", e.Support, e.Baseline)
	}
}
