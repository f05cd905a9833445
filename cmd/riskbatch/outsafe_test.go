package main

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/writers"
)

// realTempDir is a temporary folder named with its links followed, as
// messages name resolved paths.
func realTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// snapshot records the names and contents of a folder's files (links as
// their targets), to check that a refused run changed nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			dest, _ := os.Readlink(p)
			out[e.Name()] = "link to " + dest
			continue
		}
		if e.IsDir() {
			out[e.Name()] = "folder"
			continue
		}
		b, _ := os.ReadFile(p)
		out[e.Name()] = string(b)
	}
	return out
}

func sameSnapshot(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

const (
	releasesCSV = "id,epsilon,baseline\nr1,1,0.1\nr2,2,0.2\n"
	dataCSV     = "sex,age\nf,30\nm,31\nf,30\nf,32\n"
)

// TestOutputNeverARead: -o never names a file the run reads, whatever the
// spelling: the input as given, with ./ or a/../, through a symbolic or a
// hard link, in another case where the file system ignores case; a
// --priors table and the frequency table loaded beside it; for `priors`,
// any of the three files it writes. The refusal is exit 2 with one line
// naming both, --force does not lift it, and nothing changes.
func TestOutputNeverARead(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("links need privileges here")
	}
	dir := realTempDir(t)
	in := writeFile(t, filepath.Join(dir, "in.csv"), releasesCSV)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink("in.csv", link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.csv")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, filepath.Join(dir, "data.csv"), dataCSV)
	pri := filepath.Join(dir, "pri.csv")
	if code, stderr := riskbatch(t, "priors", data, "-o", pri, "--columns", "sex", "-q"); code != exitOK {
		t.Fatalf("priors: exit %d: %s", code, stderr)
	}
	freq := filepath.Join(dir, "pri-frequencies.csv")
	xfreq := writeFile(t, filepath.Join(dir, "X-frequencies.csv"), dataCSV)
	xsum := writeFile(t, filepath.Join(dir, "X-summary.csv"), dataCSV)
	x := filepath.Join(dir, "X.csv")
	dataLink := filepath.Join(dir, "data-link.csv")
	if err := os.Symlink(data, dataLink); err != nil {
		t.Fatal(err)
	}
	const never = "; riskbatch never overwrites a file it reads, choose another -o"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"eval", in, "-o", in}, in + ": the output is the input file " + in + never},
		{[]string{"eval", in, "-o", dir + "/./in.csv"}, dir + "/./in.csv: the output is the input file " + in + never},
		{[]string{"eval", in, "-o", dir + "/sub/../in.csv"}, dir + "/sub/../in.csv: the output is the input file " + in + never},
		{[]string{"eval", in, "-o", link}, link + ": the output is the input file " + in + never},
		{[]string{"eval", in, "-o", hard}, hard + ": the output is the input file " + in + never},
		{[]string{"eval", link, "-o", in}, in + ": the output is the input file " + link + never},
		{[]string{"eval", in, "--priors", pri, "-o", pri}, pri + ": the output is the --priors table " + pri + never},
		{[]string{"eval", in, "--priors", pri, "-o", freq}, freq + ": the output is the frequency table read with a --priors table " + freq + never},
		{[]string{"priors", data, "-o", data}, data + ": the output is the data file " + data + never},
		{[]string{"priors", dataLink, "-o", data}, data + ": the output is the data file " + dataLink + never},
		{[]string{"priors", xfreq, "-o", x}, xfreq + " (written beside " + x + "): the output is the data file " + xfreq + never},
		{[]string{"priors", xsum, "-o", x}, xsum + " (written beside " + x + "): the output is the data file " + xsum + never},
	}
	// Case only where the file system ignores it.
	if st, err := os.Stat(filepath.Join(dir, "IN.CSV")); err == nil {
		if orig, _ := os.Stat(in); os.SameFile(st, orig) {
			up := filepath.Join(dir, "IN.CSV")
			cases = append(cases, struct {
				args []string
				want string
			}{[]string{"eval", in, "-o", up}, up + ": the output is the input file " + in + never})
		}
	}
	before := snapshot(t, dir)
	for _, tc := range cases {
		for _, force := range []bool{false, true} {
			args := slices.Clone(tc.args)
			if force {
				args = append(args, "--force")
			}
			code, stderr := riskbatch(t, args...)
			if code != exitUsage || stderr != "riskbatch: "+tc.want+"\n" {
				t.Errorf("%v: exit %d, stderr %q\nwant %q", args, code, stderr, "riskbatch: "+tc.want+"\n")
			}
			if after := snapshot(t, dir); !sameSnapshot(before, after) {
				t.Fatalf("%v changed the folder", args)
			}
		}
	}
}

// TestOutputNamedInCell: a pmp_data cell naming the output file is an
// error of its row, and the run then refuses to replace that file (exit 2,
// one line naming the output, the cell and the input), even with --force.
func TestOutputNamedInCell(t *testing.T) {
	dir := realTempDir(t)
	vals := writeFile(t, filepath.Join(dir, "vals.csv"), "x,y\n0,1\n1,0\n")
	in := writeFile(t, filepath.Join(dir, "in.csv"), "id,sigma,delta,baseline,pmp_data\nr1,1,1e-5,0.5,vals.csv\n")
	before := snapshot(t, dir)
	for _, out := range []string{vals, dir + "/./vals.csv"} {
		code, stderr := riskbatch(t, "eval", in, "-o", out, "--force", "-q")
		want := "riskbatch: " + out + ": the output is the file that pmp_data vals.csv names in " + in + "; riskbatch never overwrites a file it reads, choose another -o\n"
		if code != exitUsage || stderr != want {
			t.Errorf("-o %s: exit %d, %q\nwant %q", out, code, stderr, want)
		}
		if after := snapshot(t, dir); !sameSnapshot(before, after) {
			t.Errorf("-o %s changed the folder", out)
		}
	}
}

// TestStdout: -o - streams CSV (the default), TSV, XLSX and Parquet to
// standard output when it is not a terminal; the rows are those of the
// same run written to a file, and progress and notes stay on stderr.
func TestStdout(t *testing.T) {
	dir := realTempDir(t)
	in := writeFile(t, filepath.Join(dir, "in.csv"), releasesCSV)
	for _, format := range []string{"csv", "tsv", "xlsx", "parquet"} {
		t.Run(format, func(t *testing.T) {
			file := filepath.Join(dir, "out."+format)
			if code, stderr := riskbatch(t, "eval", in, "-o", file, "-q"); code != exitOK {
				t.Fatalf("to a file: exit %d: %s", code, stderr)
			}
			args := []string{"eval", in, "-o", "-"}
			if format != "csv" {
				args = append(args, "--format", format)
			}
			// A pipe for CSV and Parquet, a buffer (through the pipe that
			// run makes for a writer that is not a file) for the others.
			var got []byte
			var code int
			var stderr string
			if format == "csv" || format == "parquet" {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan []byte)
				go func() { b, _ := io.ReadAll(r); done <- b }()
				code, stderr = riskbatchTo(t, w, args...)
				w.Close()
				got = <-done
			} else {
				var buf bytes.Buffer
				code, stderr = riskbatchTo(t, &buf, args...)
				got = buf.Bytes()
			}
			if code != exitOK || stderr != "riskbatch: 2 rows: 2 ok, 0 partial, 0 error → standard output\n" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			want, _ := os.ReadFile(file)
			if format == "csv" || format == "tsv" {
				if !bytes.Equal(got, want) {
					t.Errorf("standard output %q\nfile %q", got, want)
				}
				return
			}
			if a, b := tableText(t, "x."+format, got), tableText(t, "x."+format, want); a != b || !strings.Contains(a, "r2") {
				t.Errorf("standard output reads\n%s\nthe file\n%s", a, b)
			}
			if !writers.WrittenByRiskbatch(writeBytes(t, filepath.Join(dir, "stream."+format), got), nil) {
				t.Error("the streamed file lacks riskbatch's mark")
			}
		})
	}
	// The template too.
	var buf bytes.Buffer
	if code, stderr := riskbatchTo(t, &buf, "template", "-o", "-"); code != exitOK || !strings.HasSuffix(stderr, "→ standard output\n") {
		t.Fatalf("template -o -: exit %d, %q", code, stderr)
	}
	if !writers.WrittenByRiskbatch(writeFile(t, filepath.Join(dir, "tpl.xlsx"), buf.String()), nil) || !strings.Contains(tableText(t, "t.xlsx", buf.Bytes()), "epsilon") {
		t.Error("template on standard output: not riskbatch's workbook")
	}
	// priors writes three files: no standard output.
	data := writeFile(t, filepath.Join(dir, "data.csv"), dataCSV)
	if code, stderr := riskbatch(t, "priors", data, "-o", "-"); code != exitUsage || stderr != "riskbatch: priors: -o -: the prior table cannot go to standard output, as its frequency table and summary are written beside it; name a file\n" {
		t.Errorf("priors -o -: exit %d, %q", code, stderr)
	}
}

// tableText reads the first table of a file's bytes as lines of cells.
func tableText(t *testing.T, name string, data []byte) string {
	t.Helper()
	tables, err := readers.OpenReader(name, bytes.NewReader(data), int64(len(data)), readers.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range tables[0].Columns() {
		b.WriteString(c.Name + "|")
	}
	for {
		r, err := tables[0].Next()
		if err != nil {
			break
		}
		b.WriteString("\n")
		for _, c := range r.Cells {
			b.WriteString(cellText(c) + "|")
		}
	}
	for _, tb := range tables {
		tb.Close()
	}
	return b.String()
}

// TestHelperProcess is not a test: run as a child by TestDevStdout and
// TestInterruptRemovesTemporaryOutput, it is riskbatch with the arguments
// after "--".
func TestHelperProcess(t *testing.T) {
	if os.Getenv("RISKBATCH_HELPER_PROCESS") != "1" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(append([]string{"riskbatch"}, args...), os.Stdin, os.Stdout, os.Stderr))
}

// child runs riskbatch in a child process with the given standard output.
func child(t *testing.T, stdout io.Writer, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "RISKBATCH_HELPER_PROCESS=1")
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), stderr.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// TestDevStdout: -o /dev/stdout writes to standard output, a pipe or a
// file (it wrote nothing before); standard output redirected into the
// input is refused.
func TestDevStdout(t *testing.T) {
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skip("no /dev/stdout here")
	}
	dir := realTempDir(t)
	in := writeFile(t, filepath.Join(dir, "in.csv"), releasesCSV)
	file := filepath.Join(dir, "out.csv")
	if code, stderr := riskbatch(t, "eval", in, "-o", file, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, _ := os.ReadFile(file)
	var pipe bytes.Buffer // exec connects it through a pipe
	if code, stderr := child(t, &pipe, "eval", in, "-o", "/dev/stdout"); code != exitOK || stderr != "riskbatch: 2 rows: 2 ok, 0 partial, 0 error → standard output\n" {
		t.Fatalf("to a pipe: exit %d, %q", code, stderr)
	}
	if !bytes.Equal(pipe.Bytes(), want) {
		t.Errorf("to a pipe: %q, want %q", pipe.Bytes(), want)
	}
	redirected := filepath.Join(dir, "redirected.csv")
	f, err := os.Create(redirected)
	if err != nil {
		t.Fatal(err)
	}
	code, stderr := child(t, f, "eval", in, "-o", "/dev/stdout", "-q")
	f.Close()
	if got, _ := os.ReadFile(redirected); code != exitOK || !bytes.Equal(got, want) {
		t.Errorf("to a file: exit %d %q, %q", code, stderr, got)
	}
	f, err = os.OpenFile(in, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	code, stderr = child(t, f, "eval", in, "-o", "/dev/stdout", "-q")
	f.Close()
	if code != exitUsage || stderr != "riskbatch: standard output: the output is the input file "+in+"; riskbatch never overwrites a file it reads, choose another -o\n" {
		t.Errorf("into the input: exit %d, %q", code, stderr)
	}
	if got, _ := os.ReadFile(in); string(got) != releasesCSV {
		t.Errorf("the input changed: %q", got)
	}
}

// TestOutputThroughLink: -o naming a link writes the file the link points
// to, keeps the link and the file's permissions.
func TestOutputThroughLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("links need privileges here")
	}
	dir := realTempDir(t)
	in := writeFile(t, filepath.Join(dir, "in.csv"), releasesCSV)
	in2 := writeFile(t, filepath.Join(dir, "in2.csv"), "id,epsilon,baseline\nlinked,3,0.3\n")
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	target := filepath.Join(dir, "real", "out.csv")
	if code, stderr := riskbatch(t, "eval", in, "-o", target, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	os.Chmod(target, 0o600)
	link := filepath.Join(dir, "out.csv")
	if err := os.Symlink(filepath.Join("real", "out.csv"), link); err != nil {
		t.Fatal(err)
	}
	if code, stderr := riskbatch(t, "eval", in2, "-o", link, "-q"); code != exitOK {
		t.Fatalf("through the link: exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v", err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	header, rows := readAll(t, target)
	if len(rows) != 1 || rows[0][column(header, "id")] != "linked" {
		t.Errorf("target holds %v %v", header, rows)
	}
	if names := snapshot(t, filepath.Join(dir, "real")); len(names) != 1 {
		t.Errorf("temporary files left: %v", names)
	}
}

// hostTag is writers' tag of this machine in temporary names (an FNV-1a
// hash of the host name; see writers.TempPrefix).
func hostTag() string {
	name, _ := os.Hostname()
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%08x", h.Sum32())
}

// TestStaleTemporaryFilesRemoved: a run removes the temporary file that a
// killed run (a process that has ended) left beside its output, and keeps
// the one of a run still going.
func TestStaleTemporaryFilesRemoved(t *testing.T) {
	live, dead := testenv.LiveAndDeadPIDs(t)
	dir := realTempDir(t)
	in := writeFile(t, filepath.Join(dir, "in.csv"), releasesCSV)
	stale := writeFile(t, filepath.Join(dir, writers.TempPrefix+strconv.Itoa(dead)+"-"+hostTag()+"-1"), "left by a killed run")
	fresh := writeFile(t, filepath.Join(dir, writers.TempPrefix+strconv.Itoa(live)+"-"+hostTag()+"-2"), "being written")
	if code, stderr := riskbatch(t, "eval", in, "-o", filepath.Join(dir, "out.xlsx"), "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	if b, err := os.ReadFile(fresh); err != nil || string(b) != "being written" {
		t.Errorf("the live run's temporary file: %q %v", b, err)
	}
}

// TestMissingOutputFolder: the missing folder is named, not the temporary
// file.
func TestMissingOutputFolder(t *testing.T) {
	dir := realTempDir(t)
	writeFile(t, filepath.Join(dir, "in.csv"), releasesCSV)
	t.Chdir(dir)
	for _, out := range []string{"out/x.csv", "out/x.xlsx"} {
		code, stderr := riskbatch(t, "eval", "in.csv", "-o", out, "-q")
		if want := "riskbatch: cannot write " + out + ": the folder out does not exist\n"; code != exitUsage || stderr != want {
			t.Errorf("-o %s: exit %d, %q, want %q", out, code, stderr, want)
		}
	}
	if code, stderr := riskbatch(t, "template", "-o", "out/t.xlsx", "-q"); code != exitUsage || stderr != "riskbatch: cannot write out/t.xlsx: the folder out does not exist\n" {
		t.Errorf("template: exit %d, %q", code, stderr)
	}
}

// foreignFile writes a file of format that riskbatch did not write.
func foreignFile(t *testing.T, path, format string) {
	t.Helper()
	switch format {
	case "csv":
		writeFile(t, path, "name,amount\nrent,900\n")
	case "tsv":
		writeFile(t, path, "name\tamount\nrent\t900\n")
	case "xlsx":
		f := excelize.NewFile()
		f.SetCellValue("Sheet1", "A1", "my numbers")
		if err := f.SaveAs(path); err != nil {
			t.Fatal(err)
		}
	case "parquet":
		testfiles.WriteFloatsParquet(t, path, "amount", 900)
	}
}

// TestForce: eval, priors and template refuse to replace a file riskbatch
// did not write, unless --force, and replace their own files without it.
func TestForce(t *testing.T) {
	t.Parallel()
	dir := realTempDir(t)
	in := writeFile(t, filepath.Join(dir, "in.csv"), releasesCSV)
	refusal := func(path string) string {
		return "riskbatch: " + path + " exists and was not written by riskbatch; pass --force to replace it, or choose another -o\n"
	}
	for _, format := range []string{"csv", "tsv", "xlsx", "parquet"} {
		out := filepath.Join(dir, "out."+format)
		foreignFile(t, out, format)
		before, _ := os.ReadFile(out)
		if code, stderr := riskbatch(t, "eval", in, "-o", out, "-q"); code != exitUsage || stderr != refusal(out) {
			t.Errorf("%s: exit %d, %q", format, code, stderr)
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
			t.Errorf("%s: the file changed", format)
		}
		if code, stderr := riskbatch(t, "eval", in, "-o", out, "-q", "--force"); code != exitOK {
			t.Errorf("%s --force: exit %d, %q", format, code, stderr)
		}
		// Now riskbatch's: replaced without --force, also with other
		// confidence levels (more columns).
		for _, extra := range [][]string{nil, {"--confidence", "0.5,0.95"}} {
			if code, stderr := riskbatch(t, append([]string{"eval", in, "-o", out, "-q"}, extra...)...); code != exitOK {
				t.Errorf("%s %v over its own output: exit %d, %q", format, extra, code, stderr)
			}
		}
	}
	// A prior table riskbatch wrote (CSV: recognised by its header) may be
	// replaced by eval's output, and by priors again.
	data := writeFile(t, filepath.Join(dir, "data.csv"), dataCSV)
	pri := filepath.Join(dir, "pri.csv")
	for range 2 {
		if code, stderr := riskbatch(t, "priors", data, "-o", pri, "--columns", "sex", "-q"); code != exitOK {
			t.Fatalf("priors: exit %d, %q", code, stderr)
		}
	}
	summary := filepath.Join(dir, "pri-summary.csv")
	foreignFile(t, summary, "csv")
	if code, stderr := riskbatch(t, "priors", data, "-o", pri, "--columns", "sex", "-q"); code != exitUsage || stderr != refusal(summary) {
		t.Errorf("priors over a foreign summary: exit %d, %q", code, stderr)
	}
	if code, stderr := riskbatch(t, "priors", data, "-o", pri, "--columns", "sex", "-q", "--force"); code != exitOK {
		t.Errorf("priors --force: exit %d, %q", code, stderr)
	}
	if code, stderr := riskbatch(t, "eval", in, "-o", pri, "-q"); code != exitOK {
		t.Errorf("eval over a prior table: exit %d, %q", code, stderr)
	}
}

// TestTemplateForce: `riskbatch template` replaces a template it wrote
// that nobody filled in, and refuses a workbook of that name that someone
// filled in (by a script, or saved by a spreadsheet program) or that
// riskbatch never wrote, unless --force. The openpyxl step runs with
// RISKBATCH_LONG_TESTS=1.
func TestTemplateForce(t *testing.T) {
	dir := realTempDir(t)
	t.Chdir(dir)
	const name = "releases.xlsx"
	want := "riskbatch: releases.xlsx exists and was not written by riskbatch; pass --force to replace it, or choose another -o\n"
	if code, stderr := riskbatch(t, "template", "-q"); code != exitOK {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	if code, stderr := riskbatch(t, "template", "-q"); code != exitOK {
		t.Fatalf("over its own template: exit %d, %q", code, stderr)
	}
	// Filled in by a script (excelize keeps the workbook's properties).
	f := testfiles.OpenXLSX(t, name)
	f.SetCellValue("Releases", "A20", "my-release")
	if err := f.SaveAs(name); err != nil {
		t.Fatal(err)
	}
	filled, _ := os.ReadFile(name)
	if code, stderr := riskbatch(t, "template", "-q"); code != exitUsage || stderr != want {
		t.Errorf("filled by a script: exit %d, %q", code, stderr)
	}
	if code, stderr := riskbatch(t, "template", "-o", name, "-q"); code != exitUsage || stderr != want {
		t.Errorf("-o %s: exit %d, %q", name, code, stderr)
	}
	if got, _ := os.ReadFile(name); !bytes.Equal(got, filled) {
		t.Error("the filled-in workbook changed")
	}
	// A workbook of the user's own.
	foreignFile(t, name, "xlsx")
	if code, stderr := riskbatch(t, "template", "-q"); code != exitUsage || stderr != want {
		t.Errorf("the user's workbook: exit %d, %q", code, stderr)
	}
	if code, stderr := riskbatch(t, "template", "-q", "--force"); code != exitOK {
		t.Errorf("--force: exit %d, %q", code, stderr)
	}
	if !writers.WrittenByRiskbatch(name, nil) {
		t.Error("--force did not write the template")
	}
	// Saved again by openpyxl, as a Python script filling it in would
	// (a Python start with openpyxl is slow).
	if !testenv.Long() {
		t.Logf("the openpyxl round trip runs with %s=1", testenv.LongEnv)
		return
	}
	python := testenv.Python(t, "openpyxl")
	script := "import openpyxl, sys\nwb = openpyxl.load_workbook(sys.argv[1])\nwb['Releases']['A20'] = 'py-release'\nwb.save(sys.argv[1])\n"
	if out, err := exec.Command(python, "-c", script, name).CombinedOutput(); err != nil {
		t.Fatalf("openpyxl: %v: %s", err, out)
	}
	if code, stderr := riskbatch(t, "template", "-q"); code != exitUsage || stderr != want {
		t.Errorf("saved by openpyxl: exit %d, %q", code, stderr)
	}
}

// TestCellFilesConfined: pmp_data names files relative to the input's
// folder (not the working folder); an absolute path, "..", a link out, a
// device or a pipe is an error of its row naming the cell, unless
// --data-dir allows the folder; and no output or message ever holds the
// content of a file the user did not name.
func TestCellFilesConfined(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("links and named pipes need other means here")
	}
	const secret = "SECRET-5eed"
	root := realTempDir(t)
	data, outside := filepath.Join(root, "data"), filepath.Join(root, "outside")
	os.MkdirAll(data, 0o755)
	os.MkdirAll(outside, 0o755)
	writeFile(t, filepath.Join(data, "vals.csv"), "x,y\n0,0.5\n0.5,0\n")
	secretFile := writeFile(t, filepath.Join(outside, "secret.csv"), "x "+secret+"\n"+secret+"\n")
	if err := os.Symlink(filepath.Join("..", "outside", "secret.csv"), filepath.Join(data, "link.csv")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(data, "pipe.csv"))
	rows := [][2]string{
		{"inside", "vals.csv"},
		{"absolute", secretFile},
		{"up", "../outside/secret.csv"},
		{"link", "link.csv"},
		{"device", "/dev/zero"},
		{"pipe", "pipe.csv"},
		{"missing", "missing.csv"},
	}
	var b strings.Builder
	b.WriteString("id,sigma,delta,baseline,pmp_data\n")
	for _, r := range rows {
		b.WriteString(r[0] + ",1,1e-5,0.5," + r[1] + "\n")
	}
	writeFile(t, filepath.Join(data, "in.csv"), b.String())
	t.Chdir(root) // the input is data/in.csv: its cells are read from data
	outsideMsg := func(ref, dir string) string {
		return "pmp_data: " + ref + " is outside the input's folder " + data + "; pass --data-dir " + dir + " to allow it"
	}
	notRegular := "pmp_data: pipe.csv is not a regular file (a device or a pipe is never read from a cell)"
	missing := "pmp_data: missing.csv does not exist in the input's folder " + data
	notNumber := func(ref string) string {
		return "pmp_data file " + ref + ", row 2, column 1: not a number"
	}
	for _, tc := range []struct {
		flags []string
		want  map[string][2]string // id → status, message
	}{
		{nil, map[string][2]string{
			"inside":   {"ok", ""},
			"absolute": {"error", outsideMsg(secretFile, outside)},
			"up":       {"error", outsideMsg("../outside/secret.csv", outside)},
			"link":     {"error", "pmp_data: link.csv leads to " + secretFile + ", outside the input's folder " + data + "; pass --data-dir " + outside + " to allow it"},
			"device":   {"error", outsideMsg("/dev/zero", "/dev")},
			"pipe":     {"error", notRegular},
			"missing":  {"error", missing},
		}},
		{[]string{"--data-dir", "outside", "--data-dir", "/dev"}, map[string][2]string{
			"inside":   {"ok", ""},
			"absolute": {"partial", notNumber(secretFile)},
			"up":       {"partial", notNumber("../outside/secret.csv")},
			"link":     {"partial", notNumber("link.csv")},
			"device":   {"error", "pmp_data: /dev/zero is not a regular file (a device or a pipe is never read from a cell)"},
			"pipe":     {"error", notRegular},
			"missing":  {"error", missing},
		}},
	} {
		out := filepath.Join(root, "out.csv")
		args := append([]string{"eval", filepath.Join("data", "in.csv"), "-o", out}, tc.flags...)
		code, stderr := riskbatch(t, args...)
		if code != exitRowErrors {
			t.Errorf("%v: exit %d, %q", tc.flags, code, stderr)
		}
		if strings.Contains(stderr, secret) {
			t.Errorf("%v: stderr quotes the file: %q", tc.flags, stderr)
		}
		raw, _ := os.ReadFile(out)
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("%v: the output quotes the file", tc.flags)
		}
		header, got := readAll(t, out)
		for _, r := range got {
			id, status, msg := r[column(header, "id")], r[column(header, "status")], r[column(header, "message")]
			w := tc.want[id]
			if status != w[0] || (w[1] == "" && strings.Contains(msg, "pmp_data")) || !holdsClipped(msg, w[1]) {
				t.Errorf("%v %s: %s %q, want %s %q", tc.flags, id, status, msg, w[0], w[1])
			}
			if id == "inside" && r[column(header, "pmp_data_eps")] == "" {
				t.Errorf("%v: pmp_data_eps empty for the file inside", tc.flags)
			}
		}
	}
	if code, stderr := riskbatch(t, "eval", filepath.Join("data", "in.csv"), "-o", "out.csv", "--data-dir", "nowhere"); code != exitUsage || stderr != "riskbatch: --data-dir nowhere: the folder does not exist\n" {
		t.Errorf("missing --data-dir: exit %d, %q", code, stderr)
	}
}

// holdsClipped reports whether a row's message holds want, or begins with
// the part of it that fits when the message was clipped at its limit
// ("…" at the end): long temporary paths make some messages that long.
func holdsClipped(msg, want string) bool {
	if strings.Contains(msg, want) {
		return true
	}
	head, clipped := strings.CutSuffix(msg, "…")
	return clipped && len(head) > len(want)/2 && strings.HasPrefix(want, head)
}
