package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"flag"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// updateGolden rewrites testdata/golden.sha256 from the current output:
// run it only for a change that is meant to move the numbers, and say why
// in the commit.
var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.sha256 from the current output")

// goldenColumns are the input columns of the golden table: every input
// column riskbatch reads, those of releases, then those of audits.
var goldenColumns = append(goldenReleaseColumns[:len(goldenReleaseColumns):len(goldenReleaseColumns)],
	"audit", "canaries", "guesses", "correct", "options", "num_tests", "significance", "audit_bound")

// goldenReleaseColumns are the input columns of release rows.
var goldenReleaseColumns = []string{"id", "mechanism", "epsilon", "delta", "sigma", "sensitivity", "mu", "laplace_scale",
	"rho", "rdp_order", "rdp_epsilon", "noise_multiplier", "sample_rate", "steps", "extra_stages", "rr_categories",
	"marginal_k", "columns_total", "columns_unknown", "compositions", "baseline", "candidates", "prior", "targets",
	"successes", "confidence", "tolerance", "target_advantage", "records", "w", "pmp_data"}

// goldenTable returns n random release rows (header first) over every
// mechanism and every input column, with extremes, contradictions and
// malformed cells mixed in. It is fixed by its seed: the output of
// riskbatch on it is pinned by a hash, so that a change meant to move no
// number (a refactoring) is checked to move none. n/20 audit rows follow
// the n release rows.
func goldenTable(n int, seed int64) [][]string {
	r := rand.New(rand.NewSource(seed))
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	logU := func(lo, hi float64) string {
		return num(math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo))))
	}
	pick := func(vals ...string) string { return vals[r.Intn(len(vals))] }
	some := func(p float64, v string) string {
		if r.Float64() < p {
			return v
		}
		return ""
	}
	mechs := []string{"pure", "approx", "gaussian", "gdp", "laplace", "rr", "marginals", "zcdp", "rdp", "dpsgd", "exponential"}
	rows := [][]string{goldenColumns}
	for i := 0; i < n; i++ {
		m := mechs[r.Intn(len(mechs))]
		row := map[string]string{"id": "g" + strconv.Itoa(i+1)}
		if r.Float64() < 0.8 || m == "exponential" {
			row["mechanism"] = m
		}
		eps := pick("0", "1e-12", "700", "701", "-1", logU(1e-6, 60), logU(1e-3, 10), logU(1e-3, 10))
		switch m {
		case "pure", "exponential":
			row["epsilon"] = eps
			row["delta"] = some(0.2, "0")
		case "approx":
			row["epsilon"], row["delta"] = eps, pick("", "0", "1e-300", "0.9", "1", logU(1e-12, 0.2), logU(1e-12, 0.2))
		case "gaussian":
			row["sigma"] = pick(logU(1e-3, 1e4), logU(0.3, 30), "0")
			row["sensitivity"] = some(0.5, logU(1e-2, 1e2))
			row["delta"] = some(0.7, logU(1e-12, 0.2))
		case "gdp":
			row["mu"] = pick("0", "1e-8", "60", logU(1e-4, 30), logU(0.1, 3))
			row["delta"] = some(0.6, logU(1e-12, 0.2))
		case "laplace":
			row["laplace_scale"] = pick(logU(1e-2, 1e4), logU(0.3, 30))
			row["sensitivity"] = some(0.5, logU(1e-2, 1e2))
			row["delta"] = some(0.1, logU(1e-12, 0.2))
		case "rr":
			row["epsilon"], row["rr_categories"] = eps, pick("2", "3", "1000", "1e9", strconv.Itoa(2+r.Intn(100)), "1")
		case "marginals":
			d := 1 + r.Intn(30)
			row["columns_total"], row["marginal_k"], row["columns_unknown"] = strconv.Itoa(d), strconv.Itoa(1+r.Intn(d)), strconv.Itoa(r.Intn(d+2))
			row["sigma"] = logU(1e-1, 1e4)
			row["delta"] = some(0.7, logU(1e-12, 0.2))
		case "zcdp":
			row["rho"] = pick("0", "1e3", logU(1e-6, 100), logU(1e-3, 3))
			row["delta"] = some(0.7, logU(1e-12, 0.2))
		case "rdp":
			row["rdp_order"] = pick("1.0001", "2", "1e4", "1", logU(1.01, 1000))
			row["rdp_epsilon"] = pick("0", logU(1e-9, 100), logU(1e-3, 3))
			row["delta"] = some(0.7, logU(1e-12, 0.2))
		case "dpsgd":
			// A few parameter sets: each distinct accountant takes
			// about a second, and the run's caches share the rest.
			row["noise_multiplier"], row["sample_rate"], row["steps"] = pick("0.8", "1", "4"), pick("1", "0.01"), pick("1", "100")
			if !testenv.Long() {
				row["noise_multiplier"], row["sample_rate"] = "1", "1"
			}
			row["extra_stages"] = some(0.1, "8, 1, 2")
			row["delta"] = some(0.7, pick("1e-5", "1e-8"))
		}
		if m != "dpsgd" {
			row["compositions"] = some(0.25, pick("1", "2", "7", "40", "1000", "0", "1.5"))
		}
		switch r.Intn(6) {
		case 0:
			row["baseline"] = pick("0", "1", "1e-12", "0.5", "5%", logU(1e-12, 1), logU(1e-3, 0.5))
		case 1:
			row["candidates"] = pick("2", "100", "1e6", "1", strconv.Itoa(2+r.Intn(1000)))
		case 2:
			row["prior"] = pick("uniform(10)", "zipf(1.1, 1000)", "zipf(1.1, 1000, 3)", "zipf(0.5, 20)", "zipf(2, 50, 50)", "uniform(1)", "zipf(x)")
		case 3:
			row["baseline"], row["candidates"] = logU(1e-3, 0.5), "10" // both: a contradiction or a choice
		}
		if m != "dpsgd" || r.Float64() < 0.2 {
			row["targets"] = some(0.2, pick("1", "10", "1000"))
			row["successes"] = some(0.2, pick("0", "1", "5", "2000"))
			row["confidence"] = some(0.1, pick("0.5", "0.999999", "95%", "1"))
		}
		row["tolerance"] = some(0.05, pick("0", "0.1", "2"))
		row["records"] = some(0.1, pick("2", "500", "1e6"))
		row["w"] = some(0.1, pick("0", "1e-4", "0.5"))
		if m == "dpsgd" {
			row["target_advantage"] = some(0.1, pick("0.05", "1e-9"))
		} else {
			row["target_advantage"] = some(0.3, pick("0", "1", "0.05", "0.2", "1e-9", logU(1e-9, 1)))
		}
		if (m == "gaussian" || m == "exponential") && r.Float64() < 0.1 {
			row["pmp_data"] = pick("0.1, 0.2; 0.4, 0.1", "1; 2; 3; 5", "0.3, 0.1, 0.2; 0.9, 0.5, 0.1; 0.2, 0.2, 0.2; 0.4, 0.6, 0.8")
		}
		if r.Float64() < 0.02 { // a malformed cell in a random column
			row[goldenReleaseColumns[2+r.Intn(len(goldenReleaseColumns)-2)]] = pick("abc", "1,5", "NaN", "-inf", "1e999")
		}
		rows = append(rows, goldenLine(row))
	}
	// Audit rows after the releases, from a stream of their own, so that
	// the release rows are those of the table before audits.
	return append(rows, goldenAuditRows(rand.New(rand.NewSource(seed+1)), n/20, n)...)
}

// goldenLine lays out a row (column → text) in the golden table's columns.
func goldenLine(row map[string]string) []string {
	line := make([]string, len(goldenColumns))
	for j, c := range goldenColumns {
		line[j] = row[c]
	}
	return line
}

// goldenAuditRows returns n random audit rows of every method, with
// claims, significances, tests and bounds, contradictions (counts out of
// order, release columns filled) and malformed cells mixed in, numbered
// after the first `after` rows.
func goldenAuditRows(r *rand.Rand, n, after int) [][]string {
	pick := func(vals ...string) string { return vals[r.Intn(len(vals))] }
	some := func(p float64, v string) string {
		if r.Float64() < p {
			return v
		}
		return ""
	}
	var rows [][]string
	for i := range n {
		m := []int{1, 4, 10, 100, 1000, 5000}[r.Intn(6)]
		g := r.Intn(m + 1)
		c := g/2 + r.Intn(g/2+1)
		row := map[string]string{"id": "a" + strconv.Itoa(after+i+1), "audit": pick("membership", "membership_fdp", "reconstruction", "prior", "Membership FDP", "membrship")}
		row["delta"] = some(0.6, pick("0", "1e-5", "1e-8", "1e-3"))
		row["epsilon"] = some(0.5, pick("0", "0.5", "1", "2", "8"))
		row["confidence"] = some(0.2, pick("0.9", "0.95", "0.999"))
		row["significance"] = some(0.15, pick("0.05", "0.1", "1e-6"))
		row["num_tests"] = some(0.15, pick("1", "10", "1000"))
		if strings.HasPrefix(row["audit"], "prior") {
			if r.Intn(2) == 0 {
				row["prior"] = pick("uniform(10)", "zipf(1.1, 1000)", "zipf(0.5, 20, 3)")
			} else {
				row["targets"], row["baseline"] = strconv.Itoa(m), pick("0.5", "0.56", "0.1", "0.9")
			}
			row["successes"] = strconv.Itoa(r.Intn(m + 2))
			row["audit_bound"] = some(0.4, pick("thm32", "cor34", "thm35", "Thm 3.5", "thm9"))
		} else {
			row["canaries"], row["guesses"], row["correct"] = strconv.Itoa(m), strconv.Itoa(g), strconv.Itoa(c)
			if row["audit"] == "reconstruction" || r.Float64() < 0.05 {
				row["options"] = pick("2", "4", "10", "1000")
			}
		}
		if r.Float64() < 0.05 { // a contradiction: more correct than guessed
			row["correct"] = strconv.Itoa(g + 1)
		}
		if r.Float64() < 0.05 { // a release column on an audit row
			row[pick("sigma", "mechanism", "target_advantage")] = "1"
		}
		if r.Float64() < 0.05 { // a malformed cell
			row[goldenColumns[2+r.Intn(len(goldenColumns)-2)]] = pick("abc", "1,5", "NaN", "-inf", "1e999", "2.5")
		}
		rows = append(rows, goldenLine(row))
	}
	return rows
}

// TestOutputUnchanged pins the output of riskbatch eval on the embedded
// samples and on a random table of every mechanism and input column by
// their SHA-256 (testdata/golden.sha256): the CSV output, and the sheets of
// the workbook output (values and live formulas). A change that moves any
// number, message or formula fails it; when that is meant, rerun with
// -update-golden and say why in the commit. The random table has 10,000
// rows with the long tests on, 150 otherwise (its own hash); the
// samples' XLSX and Parquet copies and the random table's workbook only
// with the long tests.
func TestOutputUnchanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n := testenv.Count(150, 10000)
	name := "random" + strconv.Itoa(n) + ".csv"
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(goldenTable(n, 20261125)); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{name: filepath.Join(dir, name)}
	if err := os.WriteFile(inputs[name], buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	samples := []string{"releases.csv"}
	if testenv.Long() {
		samples = append(samples, "releases.xlsx", "releases.parquet")
	}
	for _, s := range samples {
		inputs[s] = filepath.Join("..", "..", "samples", s)
	}
	want := readGolden(t)
	type output struct{ pin, key, in, ext string } // pin: the key of its hash
	var outputs []output
	for key, in := range inputs {
		outputs = append(outputs, output{key, key, in, ".csv"})
		if key == "releases.csv" || key == name && testenv.Long() {
			// The workbook's sheets too: its live formulas are
			// written by their own code, which the CSV does not see.
			outputs = append(outputs, output{key + ".xlsx", key, in, ".xlsx"})
		}
	}
	sums := make([]string, len(outputs))
	t.Run("outputs", func(t *testing.T) { // each run of riskbatch beside the others
		for i, o := range outputs {
			t.Run(o.pin, func(t *testing.T) {
				t.Parallel()
				sums[i] = outputHash(t, dir, o.key, o.in, o.ext)
			})
		}
	})
	if t.Failed() {
		return
	}
	got := map[string]string{}
	for i, o := range outputs {
		got[o.pin] = sums[i]
	}
	if *updateGolden {
		for k, v := range want {
			if _, ok := got[k]; !ok {
				got[k] = v // the other size of the random table
			}
		}
		writeGolden(t, got)
		return
	}
	for key, sum := range got {
		w, ok := want[key]
		switch {
		case !ok:
			t.Errorf("%s: no pinned hash in testdata/golden.sha256 (run with -update-golden)", key)
		case w != sum:
			t.Errorf("%s: the output changed (sha256 %s, pinned %s); set RISKBATCH_GOLDEN_KEEP=DIR to keep the outputs and compare them with the previous version's", key, sum, w)
		}
	}
}

const goldenFile = "testdata/golden.sha256"

func readGolden(t *testing.T) map[string]string { return readPins(t, goldenFile) }

// readPins reads a file of "sha256  key" lines.
func readPins(t *testing.T, file string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			sums[f[1]] = f[0]
		}
	}
	return sums
}

func writeGolden(t *testing.T, sums map[string]string) { writePins(t, goldenFile, sums) }

// writePins writes a file of "sha256  key" lines, in key order.
func writePins(t *testing.T, file string, sums map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(sums[k] + "  " + k + "\n")
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// outputHash runs riskbatch eval on in with an output of the extension
// ext and returns the SHA-256 of what it wrote: the whole file for CSV, the
// XML of every worksheet, in name order, for XLSX (the rest of a workbook
// holds the time it was written). The runs share their accountants with
// each other and with the sample's workbook (riskbatchShared): each
// output of the same rows is still written by its own run.
func outputHash(t *testing.T, dir, key, in, ext string) string {
	t.Helper()
	out := filepath.Join(dir, "out-"+key+ext)
	code, stderr := riskbatchShared(t, "eval", in, "-o", out, "--quiet")
	if code != 0 && code != 1 {
		t.Fatalf("%s: exit %d: %s", key, code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if ext == ".xlsx" {
		data = worksheetsXML(t, data)
	}
	// The input's folder, named in some messages, is a new one each run.
	data = bytes.ReplaceAll(data, []byte(dir), []byte("TESTDIR"))
	if keep := os.Getenv("RISKBATCH_GOLDEN_KEEP"); keep != "" {
		// A folder to keep the outputs in, to compare them line by
		// line with the outputs of another version.
		if err := os.WriteFile(filepath.Join(keep, "out-"+key+ext), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// worksheetsXML returns the XML of every worksheet of a workbook, in the
// order of the parts' names.
func worksheetsXML(t *testing.T, book []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	parts := map[string]*zip.File{}
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "xl/worksheets/") && strings.HasSuffix(f.Name, ".xml") {
			names = append(names, f.Name)
			parts[f.Name] = f
		}
	}
	sort.Strings(names)
	var all bytes.Buffer
	for _, n := range names {
		rc, err := parts[n].Open()
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(n + "\n")
		_, err = io.Copy(&all, rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return all.Bytes()
}
