package main

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/writers"
	"github.com/xuri/excelize/v2"
)

// sheetRows returns the rows of a workbook's sheet as excelize reads them.
func sheetRows(t *testing.T, f *excelize.File, sheet string) [][]string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatalf("sheet %s: %v", sheet, err)
	}
	return rows
}

// releaseColumns are the inputs of the random releases.
var releaseColumns = []string{"id", "mechanism", "epsilon", "delta", "sigma", "sensitivity", "mu", "laplace_scale",
	"rho", "rdp_order", "rdp_epsilon", "noise_multiplier", "sample_rate", "steps", "rr_categories", "marginal_k",
	"columns_total", "columns_unknown", "compositions", "baseline", "candidates", "records", "w",
	"target_advantage", "confidence"}

// randomReleases returns n release rows (with the header first) of every
// mechanism, with parameters spread over many orders of magnitude and
// extremes at the edges of the ranges where the workbook writes formulas,
// and the mechanism of each row (its mechanism cell is sometimes left
// empty, for riskbatch to infer).
func randomReleases(n int, seed int64) ([][]string, []string) {
	r := rand.New(rand.NewSource(seed))
	logU := func(lo, hi float64) float64 { return math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo))) }
	pick := func(p float64, extremes []float64, v float64) float64 {
		if r.Float64() < p {
			return extremes[r.Intn(len(extremes))]
		}
		return v
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	mechs := []string{"pure", "approx", "gaussian", "gdp", "laplace", "rr", "marginals", "zcdp", "rdp", "dpsgd", "exponential"}
	rows := [][]string{releaseColumns}
	var kinds []string
	for i := 0; i < n; i++ {
		m := mechs[i%len(mechs)]
		if m == "dpsgd" && (i%44 != 9 || n < 100) {
			m = "pure" // DP-SGD accounting is slow: a few rows suffice, none in a short run
		}
		row := map[string]string{"id": "r" + strconv.Itoa(i+1), "mechanism": m}
		// maybe sets key to v() with probability p.
		maybe := func(p float64, key string, v func() string) {
			if r.Float64() < p {
				row[key] = v()
			}
		}
		eps := pick(0.15, []float64{0, 1e-12, 700, 699.5, 701}, logU(1e-6, 60))
		delta := func() string { return num(pick(0.15, []float64{1e-300, 0.9}, logU(1e-12, 0.2))) }
		comps := func() {
			maybe(0.3, "compositions", func() string { return strconv.Itoa(2 + r.Intn(40)) })
		}
		switch m {
		case "pure", "exponential":
			row["epsilon"] = num(eps)
			if r.Float64() < 0.3 {
				row["delta"] = "0"
			}
			comps()
		case "approx":
			row["epsilon"], row["delta"] = num(eps), delta()
			if r.Float64() < 0.1 {
				row["delta"] = ""
			}
			if r.Float64() < 0.1 {
				row["compositions"] = "3"
			}
		case "gaussian", "laplace":
			// The noise scale from lo to 10⁴, a sensitivity and a δ
			// each with its probability.
			noise := map[string]struct {
				column                 string
				lo, sensitivity, delta float64
			}{"gaussian": {"sigma", 1e-3, 0.6, 0.7}, "laplace": {"laplace_scale", 1e-2, 0.5, 0.1}}[m]
			row[noise.column] = num(logU(noise.lo, 1e4))
			maybe(noise.sensitivity, "sensitivity", func() string { return num(logU(1e-2, 1e2)) })
			maybe(noise.delta, "delta", delta)
			comps()
		case "gdp":
			row["mu"] = num(pick(0.1, []float64{0, 1e-8, 60}, logU(1e-4, 30)))
			maybe(0.7, "delta", delta)
			comps()
		case "rr":
			row["epsilon"], row["rr_categories"] = num(eps), strconv.Itoa(2+r.Intn(1000))
			comps()
		case "marginals":
			d := 1 + r.Intn(30)
			row["columns_total"], row["marginal_k"], row["columns_unknown"] = strconv.Itoa(d), strconv.Itoa(1+r.Intn(d)), strconv.Itoa(1+r.Intn(d))
			row["sigma"] = num(logU(1e-1, 1e4))
			maybe(0.7, "delta", delta)
		case "zcdp":
			row["rho"] = num(logU(1e-6, 100))
			maybe(0.7, "delta", delta)
			comps()
		case "rdp":
			row["rdp_order"], row["rdp_epsilon"] = num(1+logU(1e-2, 1e3)), num(logU(1e-4, 100))
			maybe(0.7, "delta", delta)
			comps()
		case "dpsgd":
			row["noise_multiplier"], row["sample_rate"], row["steps"] = num(logU(0.5, 5)), num(logU(1e-3, 0.1)), strconv.Itoa(1+r.Intn(200))
			row["delta"] = num(logU(1e-8, 1e-3))
		}
		switch u := r.Float64(); {
		case u < 0.6:
			row["baseline"] = num(pick(0.15, []float64{1e-300, 1e-15, 0.5, 1 - 1e-15, 1 - 1e-6, 1, 0}, logU(1e-12, 1)))
		case u < 0.75:
			row["baseline"] = num(0.5 + 0.5*r.Float64()) // binary attributes
		case u < 0.95:
			row["candidates"] = strconv.Itoa(int(logU(2, 1e9)))
		}
		if r.Float64() < 0.3 {
			records := int(logU(2, 2e6))
			row["records"], row["w"] = strconv.Itoa(records), num(r.Float64()/float64(records))
		}
		if r.Float64() < 0.5 {
			row["target_advantage"] = num(pick(0.2, []float64{0, 0.9999, 1 - 1e-7}, r.Float64()))
		}
		if r.Float64() < 0.3 {
			row["confidence"] = num(pick(0.2, []float64{1e-7, 0.999999}, r.Float64()))
		}
		if r.Float64() < 0.1 && m != "approx" && m != "pure" && m != "exponential" {
			row["mechanism"] = "" // inferred
		}
		cells := make([]string, len(releaseColumns))
		for j, c := range releaseColumns {
			cells[j] = row[c]
		}
		rows = append(rows, cells)
		kinds = append(kinds, m)
	}
	return rows, kinds
}

// formulaCell is a cell of a riskbatch workbook that holds a formula.
type formulaCell struct {
	row, col int // 0-based, as in a CSV export of the sheet
	formula  string
	cached   float64
}

// dataSheet is the archive part of a workbook's first sheet.
const dataSheet = "xl/worksheets/sheet1.xml"

// readFormulaCells returns every formula cell of the data sheet with the
// value riskbatch cached in it.
func readFormulaCells(t *testing.T, path string) []formulaCell {
	t.Helper()
	var cells []formulaCell
	dec := xml.NewDecoder(bytes.NewReader(testfiles.ZipPart(t, path, dataSheet)))
	for tok, err := dec.Token(); err != io.EOF; tok, err = dec.Token() {
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "c" {
			continue
		}
		var c struct {
			R string  `xml:"r,attr"`
			F *string `xml:"f"`
			V string  `xml:"v"`
		}
		if err := dec.DecodeElement(&c, &se); err != nil {
			t.Fatal(err)
		}
		if c.F == nil {
			continue
		}
		col, row := splitRef(t, c.R)
		v, err := strconv.ParseFloat(c.V, 64)
		if err != nil {
			t.Fatalf("%s: formula %s caches %q, not a number", c.R, *c.F, c.V)
		}
		cells = append(cells, formulaCell{row: row - 1, col: col, formula: *c.F, cached: v})
	}
	return cells
}

// splitRef turns "AB12" into column 27 and row 12.
func splitRef(t *testing.T, ref string) (col, row int) {
	i := strings.IndexAny(ref, "0123456789")
	if i <= 0 {
		t.Fatalf("cell reference %q", ref)
	}
	for _, c := range ref[:i] {
		col = col*26 + int(c-'A'+1)
	}
	row, err := strconv.Atoi(ref[i:])
	if err != nil {
		t.Fatalf("cell reference %q", ref)
	}
	return col - 1, row
}

// cachedValue matches the cached result that follows a formula.
var cachedValue = regexp.MustCompile(`(</f>)<v>[^<]*</v>`)

// stripCached copies a workbook with the cached results of its data
// sheet's formulas removed. LibreOffice shows cached results as they are
// (it recalculates on load only when its profile says so, and ignores the
// workbook's fullCalcOnLoad); a formula without one it must compute.
func stripCached(t *testing.T, src, dst string) {
	t.Helper()
	testfiles.RewriteZip(t, src, dst, func(name string, data []byte) []byte {
		if name == dataSheet {
			return cachedValue.ReplaceAll(data, []byte("$1"))
		}
		return data
	})
}

// mechanismsNamed returns the mechanisms a SheetForm.Rows text names.
func mechanismsNamed(rows string) map[string]bool {
	named := map[string]bool{}
	for _, m := range release.MechanismNames() {
		if rows == "every row" || regexp.MustCompile(`\b`+m+`\b`).MatchString(rows) {
			named[m] = true
		}
	}
	return named
}

// The live formulas of a workbook compute, in LibreOffice and in Gnumeric,
// the values riskbatch computed, to 1e-9, on random releases of every
// mechanism whose parameters span many orders of magnitude and reach the
// edges of the ranges where formulas are written; and they are written on
// exactly the rows their columns' notes name. By default 50 releases are
// recalculated by Gnumeric; with RISKBATCH_LONG_TESTS=1, 1,000 releases by
// Gnumeric and by LibreOffice (a LibreOffice start is slow).
func TestLiveFormulasRecalculate(t *testing.T) {
	t.Parallel() // Gnumeric and LibreOffice run while the other tests do
	dir := t.TempDir()
	in := filepath.Join(dir, "releases.csv")
	rows, kinds := randomReleases(testenv.Count(50, 1000), 1)
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "live.xlsx")
	if code, stderr := riskbatch(t, "eval", in, "-o", out, "-q"); code != exitOK && code != exitRowErrors {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Run("gnumeric", func(t *testing.T) {
		checkGnumeric(t, testenv.LookPath(t, "ssconvert"), out, "Results", len(rows)-1)
	})
	testenv.SkipUnlessLong(t, "recalculation by LibreOffice")
	cells := readFormulaCells(t, out)
	recalc := filepath.Join(dir, "recalc.xlsx")
	stripCached(t, out, recalc)
	// 44,34,76,1,,0,false,true,false,false,false,1: comma, quote, UTF-8,
	// from line 1, full precision (not as shown), the first sheet only.
	testfiles.Convert(t, nil, "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,1", dir, recalc)
	csvs, _ := filepath.Glob(filepath.Join(dir, "recalc*.csv"))
	if len(csvs) != 1 {
		t.Fatalf("LibreOffice wrote %v", csvs)
	}
	lo := readback.ReadCSV(t, csvs[0], 0)
	if len(lo) != len(rows) {
		t.Fatalf("LibreOffice sees %d rows, want %d", len(lo), len(rows))
	}
	header := lo[0]

	var maxDiff, maxRel float64
	var worst formulaCell
	perColumn := map[string]int{}
	mechsWith := map[string]map[string]bool{}
	for _, c := range cells {
		got := lo[c.row][c.col]
		v, err := strconv.ParseFloat(got, 64)
		if err != nil {
			t.Errorf("row %d %s: LibreOffice computes %q for =%s (riskbatch: %v)", c.row+1, header[c.col], got, c.formula, c.cached)
			continue
		}
		if d := math.Abs(v - c.cached); d > maxDiff || math.IsNaN(d) {
			maxDiff, worst = d, c
		}
		if math.Abs(c.cached) > 1e-6 {
			maxRel = max(maxRel, math.Abs(v-c.cached)/math.Abs(c.cached))
		}
		if d := math.Abs(v - c.cached); !(d <= 1e-9) {
			t.Errorf("row %d %s: LibreOffice computes %v for =%s, riskbatch %v (difference %.3g)", c.row+1, header[c.col], v, c.formula, c.cached, d)
		}
		name := header[c.col]
		perColumn[name]++
		if mechsWith[name] == nil {
			mechsWith[name] = map[string]bool{}
		}
		mechsWith[name][kinds[c.row-1]] = true
	}
	t.Logf("%d formula cells over %d rows; largest difference %.3g (row %d %s: =%s); largest relative difference on values above 1e-6: %.3g",
		len(cells), len(rows)-1, maxDiff, worst.row+1, header[worst.col], worst.formula, maxRel)
	if len(cells) < 10*len(rows) {
		t.Errorf("only %d formula cells over %d rows", len(cells), len(rows)-1)
	}
	// Every column with a formula gets it on the mechanisms its note names,
	// and on no other; the others hold values only.
	for _, o := range evaluate.New().Outputs() {
		want := map[string]bool{}
		if o.Sheet.Rows != "" {
			want = mechanismsNamed(o.Sheet.Rows)
		}
		got := mechsWith[o.Name]
		if got == nil {
			got = map[string]bool{}
		}
		if !sameSet(got, want) {
			t.Errorf("%s: formulas on %v rows, its note names %v (%q)", o.Name, keys(got), keys(want), o.Sheet.Rows)
		}
	}
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// zipParts returns the names of a workbook's archive entries under prefix.
func zipParts(t *testing.T, path, prefix string) []string {
	t.Helper()
	return slices.DeleteFunc(testfiles.ZipNames(t, path), func(name string) bool { return !strings.HasPrefix(name, prefix) })
}

// The Summary sheet has one chart for each release it ranks, drawn from the
// Curves sheet, and one of the sample's audits; LibreOffice opens the workbook (no repair: the headless
// conversion succeeds) and keeps every sheet and chart when it saves it
// again (with RISKBATCH_LONG_TESTS=1: a LibreOffice start is slow).
func TestWorkbookCharts(t *testing.T) {
	out := sampleWorkbook(t)
	f := testfiles.OpenXLSX(t, out)
	sheets := f.GetSheetList()
	sum, err := f.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	ranked := 0
	for i, r := range sum {
		if len(r) > 0 && r[0] == "rank" {
			for _, rr := range sum[i+1:] {
				if len(rr) < 4 || rr[3] == "" {
					break
				}
				ranked++
			}
		}
	}
	charts := zipParts(t, out, "xl/charts/chart")
	if ranked == 0 || len(charts) != ranked+1 { // and the audits' (TestSummaryAuditChart)
		t.Errorf("%d charts for %d ranked releases and the audits: %v", len(charts), ranked, charts)
	}
	if want := "Releases|Summary|Columns|Curves"; strings.Join(sheets, "|") != want {
		t.Errorf("sheets %v, want %s", sheets, want)
	}

	if !testenv.Long() {
		t.Logf("LibreOffice's round trip runs with %s=1", testenv.LongEnv)
		return
	}
	resaved := filepath.Join(t.TempDir(), "resaved")
	testfiles.Convert(t, nil, "xlsx", resaved, out)
	back := filepath.Join(resaved, filepath.Base(out))
	g := testfiles.OpenXLSX(t, back)
	if got := strings.Join(g.GetSheetList(), "|"); got != strings.Join(sheets, "|") {
		t.Errorf("LibreOffice sees sheets %s, want %v", got, sheets)
	}
	if kept := zipParts(t, back, "xl/charts/chart"); len(kept) != len(charts) {
		t.Errorf("LibreOffice kept %d of the %d charts", len(kept), len(charts))
	}
}

// --values-only writes no formula; by default the closed-form bounds are
// formulas. --threshold shades the advantage columns; a threshold that is
// not a probability is a usage error. On the sample release table (by
// default without its DP-SGD rows: sampleReleases).
func TestWorkbookOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := sampleReleases(t, dir)
	live, values := filepath.Join(dir, "live.xlsx"), filepath.Join(dir, "values.xlsx")
	mustRun(t, exitRowErrors, "eval", in, "-o", live, "-q", "--threshold", "10%")
	mustRun(t, exitRowErrors, "eval", in, "-o", values, "-q", "--values-only")
	if n := len(readFormulaCells(t, live)); n == 0 {
		t.Error("no formula in the default workbook")
	}
	if n := len(readFormulaCells(t, values)); n != 0 {
		t.Errorf("%d formulas with --values-only", n)
	}
	// Both show the same values.
	hl, rl := readAll(t, live)
	hv, rv := readAll(t, values)
	if strings.Join(hl, ",") != strings.Join(hv, ",") || len(rl) != len(rv) {
		t.Fatalf("the two workbooks differ in shape")
	}
	for i := range rl {
		for j := range rl[i] {
			if !sameValue(rl[i][j], rv[i][j]) {
				t.Errorf("row %d %s: %q live, %q values only", i+2, hl[j], rl[i][j], rv[i][j])
			}
		}
	}
	f := testfiles.OpenXLSX(t, live)
	formats, err := f.GetConditionalFormats("Results")
	if err != nil {
		t.Fatal(err)
	}
	shaded := map[string]bool{}
	for area := range formats {
		letters := strings.TrimRight(strings.SplitN(area, ":", 2)[0], "0123456789")
		col, _ := splitRef(t, letters+"1")
		shaded[hl[col]] = true
	}
	for _, name := range []string{"fdp_advantage", "fdp_worst_advantage", "adp_advantage", "onerun_advantage"} {
		if !shaded[name] {
			t.Errorf("%s is not shaded (shaded: %v)", name, keys(shaded))
		}
	}
	for _, name := range []string{"fdp_success", "epsilon", "eps_at_delta"} {
		if shaded[name] {
			t.Errorf("%s is shaded", name)
		}
	}
	if code, _ := riskbatch(t, "eval", in, "-o", filepath.Join(dir, "x.xlsx"), "-q", "--threshold", "2"); code != exitUsage {
		t.Errorf("--threshold 2: exit %d, want %d", code, exitUsage)
	}
}

// A cell longer than an XLSX cell holds (32,767 characters) is cut, ends
// with the truncation marker, and the run says how many cells were cut.
func TestTruncationWarned(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "long.csv")
	long := strings.Repeat("x", 40000)
	if err := os.WriteFile(in, []byte("id,epsilon,baseline,note\nlong,1,0.1,"+long+"\nshort,1,0.1,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "long.xlsx")
	code, stderr := riskbatch(t, "eval", in, "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "1 cells longer than 32767 characters were cut") || !strings.Contains(stderr, writers.TruncatedMarker) {
		t.Errorf("stderr does not report the cut cell: %q", stderr)
	}
	f := testfiles.OpenXLSX(t, out)
	rows := sheetRows(t, f, writers.DefaultSheetName)
	note := rows[1][column(rows[0], "note")]
	if !strings.HasSuffix(note, writers.TruncatedMarker) || !strings.HasPrefix(long, strings.TrimSuffix(note, writers.TruncatedMarker)) {
		t.Errorf("the cut cell is not a marked prefix (%d characters)", len(note))
	}
	// A run without long cells says nothing about cutting.
	in2 := filepath.Join(dir, "short.csv")
	os.WriteFile(in2, []byte("id,epsilon,baseline\na,1,0.1\n"), 0o644)
	if _, stderr := riskbatch(t, "eval", in2, "-o", filepath.Join(dir, "short.xlsx")); strings.Contains(stderr, "were cut") {
		t.Errorf("stderr reports cut cells for a short input: %q", stderr)
	}
}

// The workbook's Summary sheet counts the rows by status and ranks the
// riskiest releases by fdp_worst_advantage, as the data sheet shows them.
func TestSummarySheet(t *testing.T) {
	out := sampleWorkbook(t)
	header, rows := readAll(t, out)
	f := testfiles.OpenXLSX(t, out)
	sum := sheetRows(t, f, "Summary")
	counts := map[string]int{}
	best, bestID := -1.0, ""
	for _, r := range rows {
		counts[r[column(header, "status")]]++
		if v, err := parseFloat(r[column(header, "fdp_worst_advantage")]); err == nil && v > best {
			best, bestID = v, r[0]
		}
	}
	// The Summary counts the input's rows, not the totals riskbatch adds.
	want := map[string]string{"rows": itoa(len(rows) - counts["total"]), "ok": itoa(counts["ok"])}
	for _, r := range sum {
		if len(r) > 1 && want[r[0]] != "" && r[1] != want[r[0]] {
			t.Errorf("Summary %s = %s, want %s", r[0], r[1], want[r[0]])
		}
	}
	var first []string
	for i, r := range sum {
		if len(r) > 0 && r[0] == "rank" && i+1 < len(sum) {
			first = sum[i+1]
		}
	}
	if len(first) < 4 || first[1] != bestID {
		t.Errorf("riskiest release %v, want %s (fdp_worst_advantage %v)", first, bestID, best)
	}
}
