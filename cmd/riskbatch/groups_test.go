package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// groupsInput is a table of two interleaved datasets, a row in none and
// a row in error: A is G_μ of μ = √(1/2² + 1/4²), B of μ = √(1 + 1/3²)
// (Dong, Roth & Su 2022, Cor. 3.3), B's row b-bad is left out.
const groupsInput = `id,dataset,mechanism,sigma,mu,baseline
a1,A,gaussian,2,,0.1
b1,B,gdp,,1,0.1
alone,,gaussian,1,,0.1
a2,A,gaussian,4,,0.1
b-bad,B,gaussian,-3,,0.1
b2,B,gaussian,3,,0.1
`

// groupsWant are the ids of groupsInput's output rows, in order: the
// rows as read, then the totals in order of their datasets' first row.
var groupsWant = []string{"a1", "b1", "alone", "a2", "b-bad", "b2", "A", "B"}

// columnsOf indexes a header by name.
func columnsOf(header []string) map[string]int {
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	return col
}

// worstOf is η = 2Φ(μ/2) − 1 (Kulynych et al. 2025, Prop. A.1).
func worstOf(mu float64) float64 { return math.Erf(mu / 2 / math.Sqrt2) }

// checkGroups checks an output of groupsInput: the rows in order, the
// totals' status and advantage, and the marks (when marked).
func checkGroups(t *testing.T, out string, want []string, marked bool) {
	t.Helper()
	header, rows := readAll(t, out)
	col := columnsOf(header)
	var ids []string
	for _, r := range rows {
		ids = append(ids, r[col["id"]])
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("%s: rows %q; want %q", out, ids, want)
	}
	mus := map[string]float64{"A": math.Sqrt(0.25 + 1.0/16), "B": math.Sqrt(1 + 1.0/9)}
	totals := map[string]string{}
	for _, r := range rows {
		id, status := r[col["id"]], r[col["status"]]
		if mu, ok := mus[id]; ok {
			if status != "total" {
				t.Errorf("%s: row %s has status %q; want total", out, id, status)
			}
			got, err := strconv.ParseFloat(r[col["fdp_worst_advantage"]], 64)
			if w := worstOf(mu); err != nil || got < w || got > w+1e-12 {
				t.Errorf("%s: total %s: fdp_worst_advantage %q; want 2Φ(μ/2) − 1 = %.17g", out, id, r[col["fdp_worst_advantage"]], w)
			}
			totals[id] = r[col["fdp_worst_advantage"]]
		}
	}
	for _, r := range rows {
		d, mark := r[col["dataset"]], r[col["dataset_worst_advantage"]]
		want := ""
		switch {
		case d == "" || r[col["status"]] == "error":
		case r[col["status"]] == "total" || marked:
			want = totals[d]
		}
		if mark != want {
			t.Errorf("%s: row %s: dataset_worst_advantage %q; want %q", out, r[col["id"]], mark, want)
		}
	}
}

// Each row of a dataset is marked with its total, and the totals follow
// the rows, in CSV, XLSX and Parquet alike (status total read back).
func TestGroupsTotals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "in.csv"), groupsInput)
	for _, ext := range []string{"csv", "xlsx", "parquet"} {
		out := filepath.Join(dir, "out."+ext)
		mustRun(t, exitRowErrors, "eval", in, "-o", out, "-q")
		checkGroups(t, out, groupsWant, true)
	}
	header, rows := readAll(t, filepath.Join(dir, "out.csv"))
	msg := rows[7][columnsOf(header)["message"]]
	if !strings.Contains(msg, `total of dataset "B": 2 of 3 rows composed`) || !strings.Contains(msg, "left out (status error): b-bad") {
		t.Errorf("total B's message %q; want the rows composed and the row left out", msg)
	}
	// riskbatch's own output evaluated again: its total rows are dropped
	// and computed again, not composed with their datasets' rows. A CSV
	// input's first pass reads only the fields it needs; the others read
	// whole rows.
	for _, ext := range []string{"csv", "xlsx", "parquet"} {
		again := filepath.Join(dir, "again."+ext)
		code, stderr := riskbatch(t, "eval", filepath.Join(dir, "out."+ext), "-o", again)
		if code != exitRowErrors || !strings.Contains(stderr, "2 total rows of a previous run (status total) dropped") {
			t.Errorf("the output evaluated again: exit %d, %q; want exit 1 and a note of the 2 totals dropped", code, stderr)
		}
		checkGroups(t, again, groupsWant, true)
	}
}

// With --sorted-groups each total follows its group's last row, and the
// rows are not marked; a dataset that comes back stops the run.
func TestGroupsSorted(t *testing.T) {
	dir := t.TempDir()
	sorted := "id,dataset,mechanism,sigma,mu,baseline\na1,A,gaussian,2,,0.1\na2,A,gaussian,4,,0.1\nalone,,gaussian,1,,0.1\n" +
		"b1,B,gdp,,1,0.1\nb-bad,B,gaussian,-3,,0.1\nb2,B,gaussian,3,,0.1\n"
	in := writeFile(t, filepath.Join(dir, "sorted.csv"), sorted)
	out := filepath.Join(dir, "out.csv")
	mustRun(t, exitRowErrors, "eval", in, "-o", out, "-q", "--sorted-groups")
	checkGroups(t, out, []string{"a1", "a2", "A", "alone", "b1", "b-bad", "b2", "B"}, false)

	in = writeFile(t, filepath.Join(dir, "interleaved.csv"), groupsInput)
	code, stderr := riskbatch(t, "eval", in, "-o", filepath.Join(dir, "bad.csv"), "-q", "--sorted-groups")
	if code != exitUsage || !strings.Contains(stderr, `interleaved.csv, row 5: dataset "A" appears again`) {
		t.Errorf("interleaved datasets with --sorted-groups: exit %d, %q; want exit 2 naming row 5 and dataset A", code, stderr)
	}
	if exists(dir, "bad.csv") {
		t.Error("interleaved datasets with --sorted-groups: an output was written")
	}
}

// An input that cannot be read twice (a pipe) is refused with a dataset
// column, unless --sorted-groups says one pass is enough.
func TestGroupsPipe(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.csv")
	mkfifo(t, pipe)
	go func() { _ = os.WriteFile(pipe, []byte(groupsInput), 0o600) }()
	code, stderr := riskbatch(t, "eval", pipe, "-o", filepath.Join(dir, "out.csv"), "-q")
	if code != exitUsage || !strings.Contains(stderr, "not a file that can be read again") || !strings.Contains(stderr, "--sorted-groups") {
		t.Errorf("a pipe with a dataset column: exit %d, %q; want exit 2 suggesting a file or --sorted-groups", code, stderr)
	}
	sorted := "id,dataset,mechanism,sigma\na1,A,gaussian,2\na2,A,gaussian,4\n"
	go func() { _ = os.WriteFile(pipe, []byte(sorted), 0o600) }()
	out := filepath.Join(dir, "sorted.csv")
	mustRun(t, exitOK, "eval", pipe, "-o", out, "-q", "--sorted-groups")
	header, rows := readAll(t, out)
	if col := columnsOf(header); len(rows) != 3 || rows[2][col["status"]] != "total" {
		t.Errorf("a sorted pipe: rows %q; want a1, a2 and the total", rows)
	}
}

// A workbook's total rows stand out: bold on a fill of their own.
func TestGroupsWorkbookStyle(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "in.csv"), groupsInput)
	out := filepath.Join(dir, "out.xlsx")
	mustRun(t, exitRowErrors, "eval", in, "-o", out, "-q")
	f := testfiles.OpenXLSX(t, out)
	sheet := f.GetSheetName(0)
	styleOf := func(ref string) *excelize.Style { t.Helper(); return testfiles.StyleOf(t, f, sheet, ref) }
	// Row 8 is total A (header row 1, six input rows); row 2 is a1
	// (partial: no delta).
	total, ok := styleOf("A8"), styleOf("A2")
	if v, _ := f.GetCellValue(sheet, "A8"); v != "A" {
		t.Fatalf("A8 = %q; want the total of A", v)
	}
	if total.Font == nil || !total.Font.Bold || len(total.Fill.Color) == 0 || !strings.EqualFold(total.Fill.Color[0], "E2EFDA") {
		t.Errorf("a total row's style: font %+v, fill %+v; want bold on E2EFDA", total.Font, total.Fill)
	}
	if ok.Font != nil && ok.Font.Bold || len(ok.Fill.Color) > 0 && strings.EqualFold(ok.Fill.Color[0], "E2EFDA") {
		t.Errorf("a member row's style: font %+v, fill %+v; want it unlike a total's", ok.Font, ok.Fill)
	}
	rows, err := f.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, r := range rows {
		if len(r) == 4 && (r[0] == "A" || r[0] == "B") {
			listed = append(listed, strings.Join(r[:3], " "))
		}
	}
	if want := []string{"A 2 2", "B 3 2"}; !slices.Equal(listed, want) {
		t.Errorf("the Summary lists datasets %q; want %q (dataset, rows, composed)", listed, want)
	}
}
