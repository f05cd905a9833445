package writers

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// smallCols and smallRows are a table whose CSV text is smallCSV.
func smallCols() []table.Column {
	return []table.Column{{Name: "id", Kind: table.Text}, {Name: "x", Kind: table.Number}}
}

func smallRows() [][]table.Cell {
	return [][]table.Cell{{text("a"), num(0.5)}, {text("b"), num(2)}}
}

const smallCSV = "id,x\na,0.5\nb,2\n"

// readBack reads the first table of a file's bytes as rows of cell text,
// header first.
func readBack(t *testing.T, name string, data []byte) [][]string {
	t.Helper()
	tables, err := readers.OpenReader(name, bytes.NewReader(data), int64(len(data)), readers.Options{})
	if err != nil {
		t.Fatalf("reading back %s: %v", name, err)
	}
	defer func() {
		for _, tb := range tables {
			tb.Close()
		}
	}()
	var out [][]string
	var header []string
	for _, c := range tables[0].Columns() {
		header = append(header, c.Name)
	}
	out = append(out, header)
	for _, r := range readback.AllRows(t, tables[0]) {
		var row []string
		for _, c := range r {
			row = append(row, c.String())
		}
		out = append(out, row)
	}
	return out
}

// collect reads a pipe's other end to the end, in the background.
func collect(r *os.File) <-chan []byte {
	ch := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		r.Close()
		ch <- b
	}()
	return ch
}

// ownSpools lists this process's temporary entries in the system's
// temporary folder.
func ownSpools(t *testing.T) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(os.TempDir(), TempPrefix+strconv.Itoa(os.Getpid())+"-*"))
	return m
}

// TestStreams writes each format to a pipe with CreateStream: CSV (the
// default when neither the format nor the name says), TSV and Parquet go
// straight into the pipe, a workbook is spooled and copied on Close; each
// reads back with the values written and no temporary file is left.
func TestStreams(t *testing.T) {
	want := [][]string{{"id", "x"}, {"a", "0.5"}, {"b", "2"}}
	for _, format := range []string{"", FormatTSV, FormatXLSX, FormatParquet} {
		t.Run("format="+format, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			got := collect(r)
			out, err := CreateStream(w, "standard output", Options{Format: format})
			if err != nil {
				t.Fatal(err)
			}
			fill(t, out, smallCols(), smallRows())
			if err := out.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(nil); err != nil {
				t.Errorf("Close closed the stream: %v", err)
			}
			w.Close()
			data := <-got
			switch format {
			case "":
				if string(data) != smallCSV {
					t.Errorf("CSV %q, want %q", data, smallCSV)
				}
			case FormatTSV:
				if string(data) != strings.ReplaceAll(smallCSV, ",", "\t") {
					t.Errorf("TSV %q", data)
				}
			default:
				rows := readBack(t, "stream."+format, data)
				if strings.Join(flat(rows), "|") != strings.Join(flat(want), "|") {
					t.Errorf("read back %q, want %q", rows, want)
				}
				if !WrittenByRiskbatchBytes(t, format, data) {
					t.Errorf("the %s stream lacks riskbatch's mark", format)
				}
			}
			if s := ownSpools(t); len(s) != 0 {
				t.Errorf("temporary files left: %v", s)
			}
		})
	}
}

func flat(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, ","))
	}
	return out
}

// WrittenByRiskbatchBytes writes data to a file and asks
// WrittenByRiskbatch about it.
func WrittenByRiskbatchBytes(t *testing.T, format string, data []byte) bool {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f."+format)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return WrittenByRiskbatch(path, nil)
}

// TestStreamPath: a path naming a pipe or a device is streamed (CSV
// without an extension), never replaced by a regular file.
func TestStreamPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes or /dev/null here")
	}
	w := mustCreate(t, os.DevNull, Options{})
	fill(t, w, smallCols(), smallRows())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("%s is now %v (%v)", os.DevNull, fi.Mode(), err)
	}
	fifo := filepath.Join(t.TempDir(), "rows.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	w = mustCreate(t, fifo, Options{})
	fill(t, w, smallCols(), smallRows())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != smallCSV {
		t.Errorf("through the named pipe: %q, want %q", b, smallCSV)
	}
	if names := dirNames(t, filepath.Dir(fifo)); len(names) != 1 {
		t.Errorf("folder of the pipe holds %v", names)
	}
}

// TestSymlinkWrittenThrough: an output named through links is written
// where they lead: the links stay links, the final file gets the new
// content and keeps its permissions, the temporary file is made beside the
// final file, and a dangling link gets its file.
func TestSymlinkWrittenThrough(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges here")
	}
	for _, ext := range []string{".csv", ".xlsx", ".parquet"} {
		t.Run(ext, func(t *testing.T) {
			linkDir, targetDir := t.TempDir(), t.TempDir()
			target := filepath.Join(targetDir, "real"+ext)
			if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(target, 0o640); err != nil {
				t.Fatal(err)
			}
			// out → hop (relative) → real
			hop := filepath.Join(targetDir, "hop"+ext)
			if err := os.Symlink("real"+ext, hop); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(linkDir, "out"+ext)
			if err := os.Symlink(hop, link); err != nil {
				t.Fatal(err)
			}
			w := mustCreate(t, link, Options{})
			fill(t, w, smallCols(), smallRows())
			want := 3 // the temporary file, hop and real
			if ext == ".xlsx" {
				want = 4 // and excelize's folder for its spill files
			}
			if names := dirNames(t, targetDir); len(names) != want || !strings.HasPrefix(names[0], TempPrefix) || !strings.HasPrefix(names[want-3], TempPrefix) {
				t.Errorf("while writing, the target's folder holds %v, want the temporary file beside real%s", names, ext)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			for _, l := range []string{link, hop} {
				if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer a link: %v %v", l, fi.Mode(), err)
				}
			}
			if dest, _ := os.Readlink(link); dest != hop {
				t.Errorf("link now points to %q", dest)
			}
			data, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if rows := readBack(t, "real"+ext, data); strings.Join(flat(rows), "|") != "id,x|a,0.5|b,2" {
				t.Errorf("target holds %q", rows)
			}
			if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
				t.Errorf("target mode %v, want the old 0640", fi.Mode().Perm())
			}
			if names := dirNames(t, linkDir); len(names) != 1 {
				t.Errorf("link's folder holds %v", names)
			}
			if names := dirNames(t, targetDir); len(names) != 2 {
				t.Errorf("target's folder holds %v", names)
			}
		})
	}
	// A dangling link: the file it names is made, with 0644.
	dir := t.TempDir()
	link := filepath.Join(dir, "new.csv")
	if err := os.Symlink("made.csv", link); err != nil {
		t.Fatal(err)
	}
	w := mustCreate(t, link, Options{})
	fill(t, w, smallCols(), smallRows())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.csv")); string(b) != smallCSV {
		t.Errorf("made.csv holds %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the dangling link was replaced")
	}
}

// TestMissingFolder: a missing folder, a folder that is a file and a
// target that is a folder are named as such, not the temporary file.
func TestMissingFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "out", "x.csv"), "cannot write " + filepath.Join(dir, "out", "x.csv") + ": the folder " + filepath.Join(dir, "out") + " does not exist"},
		{filepath.Join(file, "x.csv"), "cannot write " + filepath.Join(file, "x.csv") + ": " + file + " is not a folder"},
		{dir, "cannot write " + dir + ": it is a folder"},
	} {
		for _, ext := range []string{"csv", "xlsx", "parquet"} {
			_, err := Create(tc.path, Options{Format: ext})
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s as %s: %v, want %q", tc.path, ext, err, tc.want)
			}
		}
	}
	// Relative: the folder as the user wrote it.
	t.Chdir(dir)
	if _, err := Create(filepath.Join("out", "x.csv"), Options{}); err == nil || err.Error() != "cannot write out/x.csv: the folder out does not exist" {
		t.Errorf("relative: %v", err)
	}
}

// TestStaleTemporaryFiles: creating an output removes the temporary
// entries killed runs left in its folder (a dead process of this machine,
// or too old to check) and keeps those of live runs, fresh entries of
// other machines, and everything else.
func TestStaleTemporaryFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no sleep program")
	}
	live, dead := testenv.LiveAndDeadPIDs(t)
	if !processGone(dead) || processGone(live) {
		t.Fatalf("processGone(%d dead) = %v, processGone(%d live) = %v", dead, processGone(dead), live, processGone(live))
	}
	dir := t.TempDir()
	host := hostTag()
	other := "0badf00d"
	if other == host {
		other = "0badf00e"
	}
	old := time.Now().Add(-2 * staleAge)
	entries := []struct {
		name   string
		dir    bool
		old    bool
		remove bool
	}{
		{name: TempPrefix + strconv.Itoa(dead) + "-" + host + "-111", remove: true},             // killed run here
		{name: TempPrefix + strconv.Itoa(dead) + "-" + host + "-222", dir: true, remove: true},  // its spill folder
		{name: TempPrefix + strconv.Itoa(live) + "-" + host + "-333", old: true},                // a live run, however old
		{name: TempPrefix + strconv.Itoa(os.Getpid()) + "-" + host + "-444"},                    // this run
		{name: TempPrefix + strconv.Itoa(dead) + "-" + other + "-555"},                          // another machine, fresh
		{name: TempPrefix + strconv.Itoa(dead) + "-" + other + "-666", old: true, remove: true}, // another machine, old
		{name: TempPrefix + "excelize-777", old: true, remove: true},                            // no owner in the name, old
		{name: TempPrefix + "excelize-888"},                                                     // no owner in the name, fresh
		{name: ".out.csv.123.tmp", old: true},                                                   // not ours
		{name: "notes.txt", old: true},                                                          // not ours
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.name)
		if e.dir {
			if err := os.MkdirAll(filepath.Join(p, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(p, "sub", "spill"), []byte("x"), 0o644)
		} else if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if e.old {
			os.Chtimes(p, old, old)
		}
	}
	w := mustCreate(t, filepath.Join(dir, "out.csv"), Options{})
	defer w.Abort()
	for _, e := range entries {
		_, err := os.Lstat(filepath.Join(dir, e.name))
		if gone := errors.Is(err, os.ErrNotExist); gone != e.remove {
			t.Errorf("%s: removed %v, want %v", e.name, gone, e.remove)
		}
	}
}

// TestTempOwner reads the owner of temporary entries from their names.
func TestTempOwner(t *testing.T) {
	for _, tc := range []struct {
		name string
		pid  int
		host string
		ok   bool
	}{
		{TempPrefix + "123-abcdef01-999", 123, "abcdef01", true},
		{TempPrefix + "123-abcdef01-", 123, "abcdef01", true},
		{TempPrefix + "123-abcdef01", 0, "", false},
		{TempPrefix + "0-abcdef01-9", 0, "", false},
		{TempPrefix + "x-abcdef01-9", 0, "", false},
		{TempPrefix + "123-abc-9", 0, "", false},
		{".other-123-abcdef01-9", 0, "", false},
	} {
		pid, host, ok := tempOwner(tc.name)
		if pid != tc.pid || host != tc.host || ok != tc.ok {
			t.Errorf("%s: %d %q %v", tc.name, pid, host, ok)
		}
	}
}

// TestReplaceable: riskbatch's own outputs may be replaced (workbooks by
// their application, Parquet files by their key-value metadata, CSV and
// TSV by the caller's header rule), and so may a missing or empty file;
// anything else is a *ForeignFileError.
func TestReplaceable(t *testing.T) {
	dir := t.TempDir()
	header := func(names []string) bool { return len(names) == 2 && names[0] == "id" && names[1] == "x" }
	write := func(name string, opts Options) string {
		p := filepath.Join(dir, name)
		w := mustCreate(t, p, opts)
		fill(t, w, smallCols(), smallRows())
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ours := []string{
		write("ours.xlsx", Options{}),
		write("ours.parquet", Options{}),
		write("ours.csv", Options{}),
		write("ours.tsv", Options{}),
		write("ours-parquet.csv", Options{Format: FormatParquet}), // by content, not by name
		filepath.Join(dir, "missing.csv"),
	}
	tmpl := filepath.Join(dir, "template.xlsx")
	if err := WriteTemplate(tmpl, "Releases", []TemplateColumn{{Name: "epsilon"}}, nil, nil); err != nil {
		t.Fatal(err)
	}
	ours = append(ours, tmpl)
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, nil, 0o644)
	ours = append(ours, empty)
	for _, p := range ours {
		if err := Replaceable(p, header); err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}

	// A workbook of another program (excelize without riskbatch's mark).
	foreignXLSX := filepath.Join(dir, "theirs.xlsx")
	f := excelize.NewFile()
	f.SetCellValue("Sheet1", "A1", "epsilon")
	if err := f.SaveAs(foreignXLSX); err != nil {
		t.Fatal(err)
	}
	// A workbook riskbatch wrote that a script then filled in and saved
	// (its properties still name riskbatch), and one whose archive keeps
	// riskbatch's comment but has an entry changed.
	edited := filepath.Join(dir, "edited.xlsx")
	g := testfiles.OpenXLSX(t, filepath.Join(dir, "ours.xlsx"))
	g.SetCellValue("Results", "A2", "edited")
	if err := g.SaveAs(edited); err != nil {
		t.Fatal(err)
	}
	if app, _ := g.GetAppProps(); app.Application != Marker {
		t.Fatalf("the script's workbook names %q as its application", app.Application)
	}
	tampered, sheet := filepath.Join(dir, "tampered.xlsx"), "xl/worksheets/sheet1.xml"
	testfiles.RewriteZip(t, filepath.Join(dir, "ours.xlsx"), tampered, func(name string, b []byte) []byte {
		if name != sheet {
			return b
		}
		return bytes.Replace(b, []byte("<v>2</v>"), []byte("<v>3</v>"), 1)
	})
	if bytes.Equal(testfiles.ZipPart(t, tampered, sheet), testfiles.ZipPart(t, filepath.Join(dir, "ours.xlsx"), sheet)) {
		t.Fatalf("%s: %s not changed", tampered, sheet)
	}
	foreignCSV := filepath.Join(dir, "theirs.csv")
	os.WriteFile(foreignCSV, []byte("epsilon,delta\n1,0\n"), 0o644)
	notCSV := filepath.Join(dir, "binary.csv")
	os.WriteFile(notCSV, []byte{0, 1, 2, '"', 3}, 0o644)
	for _, p := range []string{foreignXLSX, edited, tampered, foreignCSV, notCSV} {
		err := Replaceable(p, header)
		var fe *ForeignFileError
		if !errors.As(err, &fe) || err.Error() != p+" exists and was not written by riskbatch" {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
	// Without a header rule no CSV is riskbatch's.
	if err := Replaceable(filepath.Join(dir, "ours.csv"), nil); err == nil {
		t.Error("a CSV recognised without a header rule")
	}
	// A link to a foreign file is judged by the file.
	link := filepath.Join(dir, "link.xlsx")
	if err := os.Symlink(foreignXLSX, link); err == nil {
		if err := Replaceable(link, header); err == nil || err.Error() != link+" exists and was not written by riskbatch" {
			t.Errorf("link to a foreign workbook: %v", err)
		}
	}
}
