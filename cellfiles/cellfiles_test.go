package cellfiles

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/table"
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

// memRead is a ReadFunc for the tests: it reads CSV text into memory
// (package memtable) and records the format it was asked for. A file
// named .xlsx, or one holding the secret, it refuses as a reader would:
// with a message quoting the file, and the row for the secret.
func memRead(formats *[]string) ReadFunc {
	return func(name string, r io.ReaderAt, size int64, format string) ([]evaluate.DataTable, error) {
		*formats = append(*formats, format)
		data, err := io.ReadAll(io.NewSectionReader(r, 0, size))
		if err != nil {
			return nil, err
		}
		if i := strings.Index(string(data), secret); i >= 0 {
			return nil, &table.Error{Pos: table.Position{File: name, Row: strings.Count(string(data[:i]), "\n") + 1}, Err: errors.New(string(data))}
		}
		if strings.HasSuffix(name, ".xlsx") {
			return nil, errors.New("not a zip file: " + string(data))
		}
		if size == 0 {
			return nil, nil
		}
		t, err := memtable.CSV(name, string(data))
		if err != nil {
			return nil, err
		}
		return []evaluate.DataTable{t, memtable.New(name+"#2", nil)}, nil
	}
}

// TestOpenData opens a file a cell names, hands it to the ReadFunc, keeps
// the first table, and never quotes a file in its errors. (The files read
// with package readers: TestCellFilesRead in cmd/riskbatch.)
func TestOpenData(t *testing.T) {
	data, _ := tree(t)
	in := filepath.Join(data, "in.csv")
	var formats []string
	l, _ := New(Options{Read: memRead(&formats)})
	dt, err := l.OpenData(in, "vals.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got := readback.Text(t, dt); got != "x y 0 1 1 0" {
		t.Errorf("read %q", got)
	}
	if err := dt.Close(); err != nil {
		t.Error(err)
	}
	// A reference without an extension: the format of the file it leads to.
	os.Symlink("vals.csv", filepath.Join(data, "noext"))
	if dt, err := l.OpenData(in, "noext"); err != nil || dt.Close() != nil {
		t.Errorf("noext: %v", err)
	}
	if want := []string{"", "csv"}; !reflect.DeepEqual(formats, want) {
		t.Errorf("formats asked %q, want %q", formats, want)
	}
	// A file the ReadFunc refuses: its position, not the ReadFunc's message.
	os.WriteFile(filepath.Join(data, "broken.xlsx"), []byte(secret), 0o644)
	os.WriteFile(filepath.Join(data, "empty.csv"), nil, 0o644)
	for ref, want := range map[string]string{
		"broken.xlsx": "file broken.xlsx, row 1: not a table riskbatch can read (CSV, TSV, XLSX or Parquet)",
		"bad.csv":     "file bad.csv, row 3: not a table riskbatch can read (CSV, TSV, XLSX or Parquet)",
		"empty.csv":   "file empty.csv: no table",
	} {
		if _, err := l.OpenData(in, ref); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", ref, err, want)
		}
	}
	os.WriteFile(filepath.Join(data, "plain.xlsx"), []byte("x\n1\n"), 0o644)
	if _, err := l.OpenData(in, "plain.xlsx"); err == nil || err.Error() != "file plain.xlsx: not a table riskbatch can read (CSV, TSV, XLSX or Parquet)" {
		t.Errorf("broken workbook: %v", err)
	}
	noRead, _ := New(Options{})
	if _, err := noRead.OpenData(in, "vals.csv"); err == nil || err.Error() != "file vals.csv: this program reads no files named in cells" {
		t.Errorf("no ReadFunc: %v", err)
	}
	if _, err := New(Options{Allowed: []string{filepath.Join(data, "nope")}}); err == nil || err.Error() != "--data-dir "+filepath.Join(data, "nope")+": the folder does not exist" {
		t.Errorf("missing --data-dir: %v", err)
	}
	if _, err := New(Options{Allowed: []string{filepath.Join(data, "vals.csv")}, Flag: "--data_dir"}); err == nil || err.Error() != "--data_dir "+filepath.Join(data, "vals.csv")+": not a folder" {
		t.Errorf("--data-dir naming a file: %v", err)
	}
}
