package cellfiles

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles"
)

const secret = "SECRET-c0ffee"

// tree makes the folders of the tests: data (the input's folder) with
// vals.csv, a sub folder, a link to a file outside and a named pipe;
// outside with a file holding a secret; and returns their paths (links
// followed, as the messages give them).
func tree(t *testing.T) (data, outside string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("links and named pipes need other means here")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, outside = filepath.Join(root, "data"), filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(data, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(data, "vals.csv"), "x,y\n0,1\n1,0\n")
	write(filepath.Join(data, "sub", "deep.csv"), "x\n0\n1\n")
	write(filepath.Join(data, "bad.csv"), "x\n1\n"+secret+"\n")
	write(filepath.Join(outside, "secret.csv"), "x\n"+secret+"\n")
	if err := os.Symlink(filepath.Join("..", "outside", "secret.csv"), filepath.Join(data, "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("vals.csv", filepath.Join(data, "inner.csv")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(data, "pipe.csv"), 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	return data, outside
}

// TestResolve: what a cell may name, and the exact refusal of everything
// else, with and without an allowed folder.
func TestResolve(t *testing.T) {
	data, outside := tree(t)
	in := filepath.Join(data, "in.csv")
	plain, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	allowing, err := New(Options{Allowed: []string{outside, "/dev"}})
	if err != nil {
		t.Fatal(err)
	}
	secretPath := filepath.Join(outside, "secret.csv")
	for _, tc := range []struct {
		ref            string
		plain, allowed string // the refusal ("" for none): without and with the allowed folders
		file           string // the file named, when allowed
	}{
		{ref: "vals.csv", file: "vals.csv"},
		{ref: "./vals.csv", file: "vals.csv"},
		{ref: "sub/deep.csv", file: "sub/deep.csv"},
		{ref: "inner.csv", file: "vals.csv"}, // a link that stays inside
		{
			ref:     secretPath,
			plain:   secretPath + " is outside the input's folder " + data + "; pass --data-dir " + outside + " to allow it",
			allowed: "", file: secretPath,
		},
		{
			ref:     "../outside/secret.csv",
			plain:   "../outside/secret.csv is outside the input's folder " + data + "; pass --data-dir " + outside + " to allow it",
			allowed: "", file: secretPath,
		},
		{
			ref:     "link.csv",
			plain:   "link.csv leads to " + secretPath + ", outside the input's folder " + data + "; pass --data-dir " + outside + " to allow it",
			allowed: "", file: secretPath,
		},
		{
			ref:     "sub/../vals.csv",
			plain:   "sub/../vals.csv: a cell names a file relative to the input's folder " + data + ", without an absolute path or ..; pass --data-dir " + data + " to allow it",
			allowed: "sub/../vals.csv: a cell names a file relative to the input's folder " + data + ", without an absolute path or ..; pass --data-dir " + data + " to allow it",
		},
		{
			ref:     filepath.Join(data, "vals.csv"),
			plain:   filepath.Join(data, "vals.csv") + ": a cell names a file relative to the input's folder " + data + ", without an absolute path or ..; pass --data-dir " + data + " to allow it",
			allowed: filepath.Join(data, "vals.csv") + ": a cell names a file relative to the input's folder " + data + ", without an absolute path or ..; pass --data-dir " + data + " to allow it",
		},
		{
			ref:     "/dev/zero",
			plain:   "/dev/zero is outside the input's folder " + data + "; pass --data-dir /dev to allow it",
			allowed: "/dev/zero is not a regular file (a device or a pipe is never read from a cell)",
		},
		{
			ref:     "pipe.csv",
			plain:   "pipe.csv is not a regular file (a device or a pipe is never read from a cell)",
			allowed: "pipe.csv is not a regular file (a device or a pipe is never read from a cell)",
		},
		{ref: "sub", plain: "sub is a folder, not a table file", allowed: "sub is a folder, not a table file"},
		{
			ref:     "missing.csv",
			plain:   "missing.csv does not exist in the input's folder " + data,
			allowed: "missing.csv does not exist in the input's folder " + data,
		},
		{
			ref:     filepath.Join(outside, "missing.csv"),
			plain:   filepath.Join(outside, "missing.csv") + " is outside the input's folder " + data + "; pass --data-dir " + outside + " to allow it",
			allowed: filepath.Join(outside, "missing.csv") + " does not exist",
		},
	} {
		for _, c := range []struct {
			l    *Loader
			want string
		}{{plain, tc.plain}, {allowing, tc.allowed}} {
			got, _, err := c.l.Resolve(in, tc.ref)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%s (allowed %d): %v", tc.ref, len(c.l.allowed), err)
			case c.want == "" && got != filepath.Join(data, tc.file) && got != tc.file:
				t.Errorf("%s: resolved to %s, want %s", tc.ref, got, tc.file)
			case c.want != "" && (err == nil || err.Error() != c.want):
				t.Errorf("%s (allowed %d): %v, want %q", tc.ref, len(c.l.allowed), err, c.want)
			}
		}
	}
}

// TestRelativeToInput: a relative reference is found in the input's
// folder, whatever the working folder.
func TestRelativeToInput(t *testing.T) {
	data, _ := tree(t)
	t.Chdir(filepath.Dir(data))
	l, _ := New(Options{})
	got, _, err := l.Resolve(filepath.Join("data", "in.csv"), "vals.csv")
	if err != nil || got != filepath.Join(data, "vals.csv") {
		t.Errorf("%s, %v", got, err)
	}
	if _, _, err := l.Resolve("", "data/vals.csv"); err != nil {
		t.Errorf("no source: the working folder: %v", err)
	}
	if _, _, err := l.Resolve("gs://bucket/in.csv", "vals.csv"); err == nil || err.Error() != "vals.csv: files named in cells are read only beside input files on this machine, and gs://bucket/in.csv is not" {
		t.Errorf("remote input: %v", err)
	}
}

// TestOutputNamed: a cell naming the run's output, by any spelling, is
// refused and remembered.
func TestOutputNamed(t *testing.T) {
	data, _ := tree(t)
	in := filepath.Join(data, "in.csv")
	for _, out := range []string{filepath.Join(data, "vals.csv"), filepath.Join(data, "inner.csv"), filepath.Join(data, "new.csv")} {
		l, _ := New(Options{Outputs: []string{out}})
		if l.OutputNamed() != nil {
			t.Fatal("a clash before any cell")
		}
		ref := "vals.csv"
		if filepath.Base(out) == "new.csv" {
			ref = "new.csv"
			os.WriteFile(out, []byte("x\n1\n2\n"), 0o644) // made after New
		}
		want := ref + " names the output file " + out + "; riskbatch never overwrites a file it reads, choose another -o"
		if _, err := l.OpenData(in, ref); err == nil || err.Error() != want {
			t.Errorf("-o %s: %v, want %q", out, err, want)
		}
		if c := l.OutputNamed(); c == nil || *c != (OutputNamed{Source: in, Ref: ref, Output: out}) {
			t.Errorf("-o %s: OutputNamed %+v", out, c)
		}
	}
}

// TestOpenData reads a file a cell names and never quotes a file in its
// errors.
func TestOpenData(t *testing.T) {
	data, _ := tree(t)
	in := filepath.Join(data, "in.csv")
	l, _ := New(Options{})
	dt, err := l.OpenData(in, "vals.csv")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range dt.Columns() {
		got = append(got, c.Name)
	}
	for _, r := range testfiles.AllRows(t, dt) {
		for _, c := range r {
			got = append(got, c.String())
		}
	}
	if strings.Join(got, " ") != "x y 0 1 1 0" {
		t.Errorf("read %q", got)
	}
	if err := dt.Close(); err != nil {
		t.Error(err)
	}
	// A file the readers refuse: its position, not the readers' message.
	os.WriteFile(filepath.Join(data, "broken.xlsx"), []byte(secret), 0o644)
	if _, err := l.OpenData(in, "broken.xlsx"); err == nil || err.Error() != "file broken.xlsx: not a table riskbatch can read (CSV, TSV, XLSX or Parquet)" {
		t.Errorf("broken workbook: %v", err)
	}
	if _, err := New(Options{Allowed: []string{filepath.Join(data, "nope")}}); err == nil || err.Error() != "--data-dir "+filepath.Join(data, "nope")+": the folder does not exist" {
		t.Errorf("missing --data-dir: %v", err)
	}
	if _, err := New(Options{Allowed: []string{filepath.Join(data, "vals.csv")}, Flag: "--data_dir"}); err == nil || err.Error() != "--data_dir "+filepath.Join(data, "vals.csv")+": not a folder" {
		t.Errorf("--data-dir naming a file: %v", err)
	}
}
