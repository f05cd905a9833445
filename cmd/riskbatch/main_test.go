package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/samples"
)

// `riskbatch` alone evaluates the built-in sample (sampleWorkbook: exit 0)
// and writes every row of it, each with the status its note promises, and
// then the total row of its one dataset, census-2030.
func TestSampleRun(t *testing.T) {
	t.Parallel()
	header, rows := readAll(t, sampleWorkbook(t))
	_, sample := samples.Releases()
	if len(rows) != len(sample)+1 {
		t.Fatalf("%d rows, want the sample's %d and a total", len(rows), len(sample))
	}
	// The sample's notes say which rows are invalid on purpose and which
	// lack a baseline; every other row must evaluate fully.
	st, msg, note := column(header, "status"), column(header, "message"), column(header, "note")
	for i, r := range rows {
		want := "ok"
		switch {
		case i == len(sample):
			want = "total"
		case strings.HasPrefix(r[note], "Deliberately invalid"):
			want = "error"
		case strings.Contains(r[note], "status partial"):
			want = "partial"
		}
		if r[st] != want {
			t.Errorf("sample row %s: status %s (%s), want %s", r[0], r[st], r[msg], want)
		}
	}
}

// CSV → XLSX → Parquet → CSV keeps every input column and row; the output
// columns are recomputed at each step and agree. On the sample release
// table (by default without its DP-SGD rows: sampleReleases), whose
// dataset census-2030 adds a total row: each step drops the total the
// step before wrote and writes it again, so there is one at every step.
func TestRoundTrips(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := sampleReleases(t, dir)
	inHeader, inRows := readAll(t, src)
	steps := []struct{ in, out string }{
		{src, filepath.Join(dir, "a.xlsx")},
		{filepath.Join(dir, "a.xlsx"), filepath.Join(dir, "b.parquet")},
		{filepath.Join(dir, "b.parquet"), filepath.Join(dir, "c.csv")},
	}
	var first []string
	for _, s := range steps {
		code, stderr := riskbatch(t, "eval", s.in, "-o", s.out, "-q")
		if code != exitRowErrors {
			t.Fatalf("%s → %s: exit %d (%s), want 1: the sample has error rows", s.in, s.out, code, stderr)
		}
		header, rows := readAll(t, s.out)
		if len(rows) != len(inRows)+1 {
			t.Fatalf("%s: %d rows, want %d and a total", s.out, len(rows), len(inRows))
		}
		for j, name := range inHeader {
			k := column(header, name)
			if k != j {
				t.Fatalf("%s: input column %q at %d, want %d", s.out, name, k, j)
			}
			for i := range inRows {
				if !sameValue(rows[i][k], inRows[i][j]) {
					t.Errorf("%s row %d %s = %q, input %q", s.out, i+2, name, rows[i][k], inRows[i][j])
				}
			}
		}
		fdp := column(header, "fdp_success")
		var got []string
		for _, r := range rows {
			got = append(got, r[fdp])
		}
		if first == nil {
			first = got
		} else {
			for i := range got {
				if !sameValue(got[i], first[i]) {
					t.Errorf("%s row %d: fdp_success %q, first run %q", s.out, i+2, got[i], first[i])
				}
			}
		}
	}
}

func TestBadCellsKeepRows(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	os.WriteFile(in, []byte("id,epsilon,delta,baseline,notes\n"+
		"a,1,1e-5,0.1,fine\n"+
		"b,ten,1e-5,0.1,text in epsilon\n"+
		"c,1,1,0.1,delta too large\n"+
		"d,2,,5%,percent baseline\n"+
		"e,1,,0.1,one cell too many,EXTRA\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	header, rows := evalRows(t, exitRowErrors, out, 5, "eval", in, "-o", out, "--quiet")
	st, msg := column(header, "status"), column(header, "message")
	want := []struct{ status, msg string }{{"ok", ""}, {"error", "epsilon"}, {"error", "delta"}, {"ok", ""}, {"error", "in.csv, row 6"}}
	for i, w := range want {
		if rows[i][st] != w.status || !strings.Contains(rows[i][msg], w.msg) {
			t.Errorf("row %d: %q %q, want %q with %q", i+2, rows[i][st], rows[i][msg], w.status, w.msg)
		}
	}
	if rows[4][0] != "e" || rows[4][column(header, "notes")] != "one cell too many" {
		t.Errorf("the row with a cell too many lost its cells: %v", rows[4])
	}
	if rows[3][column(header, "notes")] != "percent baseline" {
		t.Errorf("pass-through column lost")
	}
}

func TestUnreadableInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.xlsx")
	os.WriteFile(bad, []byte("this is not a workbook"), 0o644)
	out := filepath.Join(dir, "out.xlsx")
	for _, args := range [][]string{
		{"eval", bad, "-o", out},
		{"eval", filepath.Join(dir, "missing.csv"), "-o", out},
		{"eval", filepath.Join(dir, "x.unknown"), "-o", out},
	} {
		code, stderr := riskbatch(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 || !strings.Contains(stderr, filepath.Base(args[1])) {
			t.Errorf("%v: stderr %q: want one line naming the file", args, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: output written for an unreadable input", args)
		}
	}
}

func TestNeverOverwritesInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	content := []byte("epsilon,baseline\n1,0.1\n")
	os.WriteFile(in, content, 0o644)
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(in, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	for _, out := range []string{in, link, filepath.Join(dir, ".", "in.csv")} {
		code, stderr := riskbatch(t, "eval", in, "-o", out)
		if code != exitUsage || !strings.Contains(stderr, "never overwrites") {
			t.Errorf("-o %s: exit %d, %q", out, code, stderr)
		}
	}
	if got, _ := os.ReadFile(in); !bytes.Equal(got, content) {
		t.Errorf("input changed")
	}
}

// Several inputs go into one table with a source column; the order of rows
// is the input order whatever the number of workers.
func TestSeveralInputsAndWorkers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,mu,baseline\n")
	for i := 0; i < 3000; i++ {
		b.WriteString("r" + itoa(i) + "," + itoa(i%7+1) + "e-1,0." + itoa(i%9+1) + "\n")
	}
	a := filepath.Join(dir, "a.csv")
	os.WriteFile(a, []byte(b.String()), 0o644)
	c := filepath.Join(dir, "c.csv")
	os.WriteFile(c, []byte("epsilon,id,extra\n1,x,hello\n"), 0o644)
	var outs [][]byte
	for _, workers := range []string{"1", "7"} {
		out := filepath.Join(dir, "out"+workers+".csv")
		if code, stderr := riskbatch(t, "eval", a, c, "-o", out, "--workers", workers, "-q"); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		data, _ := os.ReadFile(out)
		outs = append(outs, data)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Errorf("output differs between 1 and 7 workers")
	}
	header, rows := readAll(t, filepath.Join(dir, "out1.csv"))
	if strings.Join(header[:6], ",") != "id,mu,baseline,epsilon,extra,source" {
		t.Errorf("header %v", header)
	}
	if len(rows) != 3001 || rows[2999][0] != "r2999" || rows[3000][0] != "x" || rows[3000][5] != c {
		t.Errorf("rows: %d, last %v", len(rows), rows[len(rows)-1])
	}
}

func TestColumnsCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"riskbatch", "columns"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"fdp_success", "Thm 3.2", "onerun_eps_protect", "target_advantage", "epsilon"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("columns output lacks %q", want)
		}
	}
}

// riskbatch priors on the penguins data, then eval joined on its keys:
// joined rows give the same bounds as rows with the equivalent baseline
// typed in; a missing key is a row error naming the key and the tables.
func TestPriorsJoin(t *testing.T) {
	dir := t.TempDir()
	pt := filepath.Join(dir, "p.csv")
	if code, stderr := riskbatch(t, "priors", filepath.Join("..", "..", "samples", "penguins.csv"), "--given", "Species,Island", "-o", pt, "-q"); code != exitOK {
		t.Fatalf("priors: exit %d: %s", code, stderr)
	}
	_, prows := readAll(t, pt)
	// The marginal prior of Sex: direct count in the data (the test counts
	// it itself): the largest share among birds whose sex is recorded.
	counts := map[string]int{}
	total := 0
	_, data := readAll(t, filepath.Join("..", "..", "samples", "penguins.csv"))
	for _, r := range data {
		if r[6] != "" {
			counts[r[6]]++
			total++
		}
	}
	best := 0
	for _, c := range counts {
		best = max(best, c)
	}
	var sexP string
	for _, r := range prows {
		if r[0] == "penguins:Sex" {
			sexP = r[1]
		}
	}
	if p, _ := parseFloat(sexP); math.Abs(p-float64(best)/float64(total)) > 1e-15 {
		t.Fatalf("penguins:Sex p = %s, direct count %d/%d", sexP, best, total)
	}
	rel := filepath.Join(dir, "rel.csv")
	os.WriteFile(rel, []byte("id,epsilon,delta,prior,baseline,target_advantage\n"+
		"joined,1,1e-5,penguins:Sex,,0.05\n"+
		"typed,1,1e-5,,"+sexP+",0.05\n"+
		"missing,1,1e-5,penguins:sexx,,\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	code, stderr := riskbatch(t, "eval", rel, "--priors", pt, "-o", out, "-q")
	if code != exitRowErrors {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	header, rows := readAll(t, out)
	for _, col := range []string{"fdp_success", "fdp_advantage", "onerun_posterior", "onerun_advantage", "onerun_eps_protect"} {
		j := column(header, col)
		if rows[0][j] == "" || rows[0][j] != rows[1][j] {
			t.Errorf("%s: joined %q, typed %q", col, rows[0][j], rows[1][j])
		}
	}
	msg := rows[2][column(header, "message")]
	if !strings.Contains(msg, `"penguins:sexx"`) || !strings.Contains(msg, "p.csv") {
		t.Errorf("missing key message %q", msg)
	}
}

// The multi-target one-run bounds from a heterogeneous prior table:
// Thm 3.5 of Swanberg et al. 2025 (values computed independently):
// p_i = linspace(0.3, 0.9, 100),
// ε = 1, δ = 1e-5 → v_UB at 5%, 50%, 95% = 72, 79, 85; and the homogeneous
// p = 0.56, n = 100 case (their §6.2 'SEX' column, bound 84) → 71, 78, 84 with B35(84) = 0.074001.
func TestOneRunTailColumns(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("prior,p\n")
	for i := 0; i < 100; i++ {
		b.WriteString("lin," + strconv.FormatFloat(0.3+0.6*float64(i)/99, 'g', -1, 64) + "\n")
	}
	pt := filepath.Join(dir, "p.csv")
	os.WriteFile(pt, []byte(b.String()), 0o644)
	rel := filepath.Join(dir, "rel.csv")
	os.WriteFile(rel, []byte("id,epsilon,delta,prior,baseline,targets,successes\n"+
		"het,1,1e-5,lin,,,\n"+
		"hom,1,1e-5,,0.56,100,84\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	if code, stderr := riskbatch(t, "eval", rel, "--priors", pt, "--confidence", "0.05,0.5,0.95", "-o", out, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, rows := readAll(t, out)
	for i, want := range [][]string{{"72", "79", "85"}, {"71", "78", "84"}} {
		for j, c := range []string{"5", "50", "95"} {
			if got := rows[i][column(header, "onerun_successes_ub_"+c)]; got != want[j] {
				t.Errorf("row %s: onerun_successes_ub_%s = %s, catalog %s", rows[i][0], c, got, want[j])
			}
		}
	}
	if got := rows[1][column(header, "onerun_successes_ub")]; got != "84" {
		t.Errorf("onerun_successes_ub at the highest level = %s, want 84", got)
	}
	p, _ := parseFloat(rows[1][column(header, "onerun_tail_prob")])
	if math.Abs(p-0.074001) > 1e-6 {
		t.Errorf("onerun_tail_prob(84) = %v, catalog B35 = 0.074001", p)
	}
}
