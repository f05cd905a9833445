// Package cellfiles opens the files that cells of an input table name (the
// pmp_data column, and any later column like it) and confines them. A cell
// names a file relative to the folder of the table it is in and may not
// leave that folder: an absolute path, a ".." component, or a link that
// leads out is refused unless the file lies in a folder the user allowed
// (--data-dir). So is anything but a regular file (a device or a pipe could
// block the run or never end), and the file the run writes.
//
// A table received from someone else must not be able to read files of the
// machine it is evaluated on into its output: a refusal names the cell's
// reference and the rule, and no message of this package quotes the
// content of a file. The command line and the Beam pipeline share the
// package, so a cell means the same file for both.
//
// The package decides which file a cell may name and opens it; reading
// the file's tables is handed in (Options.Read), so that the package
// links no file format: the programs pass package readers' (see package
// cellfiles/cellreaders).
package cellfiles

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/table"
)

// DefaultFlag is the option that allows a folder, as messages name it.
const DefaultFlag = "--data-dir"

// ReadFunc reads the tables of a file a cell names: size bytes from r,
// the file opened and checked by the Loader. name is the cell's reference,
// to be the file's name in positions; format is "" to go by name's
// extension, or the extension of the file the reference leads to when the
// reference has none. Closing the tables must not close r: the Loader
// closes the file when the table it keeps is closed. An error that is a
// *table.Error gives its row to the Loader's message; its text is never
// shown, since it could quote the file.
type ReadFunc func(name string, r io.ReaderAt, size int64, format string) ([]evaluate.DataTable, error)

// Options configure a Loader.
type Options struct {
	// Allowed are folders, besides an input's own, whose files (and the
	// files below them) cells may name, by absolute path or with "..".
	Allowed []string
	// Outputs are the files the run writes: a cell naming one is refused,
	// so that the run never reads a file it replaces. They need not exist.
	Outputs []string
	// Read reads the tables of a file once it is opened (the programs
	// pass cellreaders.Read, with their limits). Without it, OpenData
	// refuses every file after the checks of Resolve.
	Read ReadFunc
	// Flag names the option that allows a folder, for messages (default
	// DefaultFlag).
	Flag string
}

// Loader opens files named in cells under its rules; it implements
// evaluate.DataLoader. It is safe for concurrent use.
type Loader struct {
	allowed []folder
	outputs []output
	read    ReadFunc
	flag    string

	mu    sync.Mutex
	clash *OutputNamed // the first cell found naming an output
}

// OutputNamed is a cell that named a file the run writes.
type OutputNamed struct {
	Source string // the file of the table the cell is in
	Ref    string // the cell's text
	Output string // the output it names, as given in Options.Outputs
}

// OutputNamed returns the first cell that named an output, if any. Such a
// cell is refused like any other; a program should also refuse to replace
// the output (its file is one the table refers to).
func (l *Loader) OutputNamed() *OutputNamed {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.clash
}

// folder is an allowed folder: its absolute path as given and with links
// followed.
type folder struct{ named, real string }

// output is a file the run writes: its path with links followed, and the
// file when it exists already.
type output struct {
	named, real string
	info        fs.FileInfo
}

// New checks the allowed folders (each must exist and be a folder) and
// returns the Loader of opts.
func New(opts Options) (*Loader, error) {
	l := &Loader{read: opts.Read, flag: opts.Flag}
	if l.flag == "" {
		l.flag = DefaultFlag
	}
	for _, d := range opts.Allowed {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", l.flag, d, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s %s: the folder does not exist", l.flag, d)
			}
			return nil, fmt.Errorf("%s %s: %w", l.flag, d, unwrapPath(err))
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s %s: not a folder", l.flag, d)
		}
		l.allowed = append(l.allowed, folder{named: abs, real: real})
	}
	for _, o := range opts.Outputs {
		out := output{named: o, real: realPath(o)}
		if fi, err := os.Stat(o); err == nil {
			out.info = fi
		}
		l.outputs = append(l.outputs, out)
	}
	return l, nil
}

// realPath is path made absolute with every link followed, as far as the
// path exists (the rest is kept as written).
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	dir, base := filepath.Split(abs)
	if dir != "" && dir != abs {
		return filepath.Join(realPath(filepath.Clean(dir)), base)
	}
	return abs
}

// Resolve applies the rules to ref, the text of a cell of a table read
// from the file source (its path as given; "" for none: the working
// folder), and returns the file it names with links followed, and that
// file's information.
func (l *Loader) Resolve(source, ref string) (string, fs.FileInfo, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", nil, errors.New("no file named")
	}
	if strings.Contains(source, "://") {
		return "", nil, fmt.Errorf("%s: files named in cells are read only beside input files on this machine, and %s is not", ref, source)
	}
	named := filepath.Dir(source)
	if source == "" {
		named = "."
	}
	base, err := filepath.Abs(named)
	if err != nil {
		return "", nil, fmt.Errorf("%s: the input's folder: %w", ref, err)
	}
	baseReal := base
	if r, err := filepath.EvalSymlinks(base); err == nil {
		baseReal = r
	}
	p := filepath.FromSlash(ref)
	absolute := filepath.IsAbs(p)
	dotdot := hasDotDot(p)
	path := filepath.Join(base, p)
	if absolute {
		path = filepath.Clean(p)
	}
	if (absolute || dotdot) && !l.inAllowed(path) {
		if within(base, path) || within(baseReal, path) {
			return "", nil, fmt.Errorf("%s: a cell names a file relative to the input's folder %s, without an absolute path or ..; pass %s %s to allow it", ref, base, l.flag, filepath.Dir(path))
		}
		return "", nil, fmt.Errorf("%s is outside the input's folder %s; pass %s %s to allow it", ref, base, l.flag, filepath.Dir(path))
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if absolute {
				return "", nil, fmt.Errorf("%s does not exist", ref)
			}
			return "", nil, fmt.Errorf("%s does not exist in the input's folder %s", ref, base)
		}
		return "", nil, fmt.Errorf("%s cannot be opened: %w", ref, unwrapPath(err))
	}
	if !within(baseReal, real) && !l.inAllowed(real) {
		return "", nil, fmt.Errorf("%s leads to %s, outside the input's folder %s; pass %s %s to allow it", ref, real, base, l.flag, filepath.Dir(real))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", nil, fmt.Errorf("%s cannot be opened: %w", ref, unwrapPath(err))
	}
	if fi.IsDir() {
		return "", nil, fmt.Errorf("%s is a folder, not a table file", ref)
	}
	if !fi.Mode().IsRegular() {
		return "", nil, fmt.Errorf("%s is not a regular file (a device or a pipe is never read from a cell)", ref)
	}
	for _, o := range l.outputs {
		if o.real == real || o.info != nil && os.SameFile(o.info, fi) {
			l.mu.Lock()
			if l.clash == nil {
				l.clash = &OutputNamed{Source: source, Ref: ref, Output: o.named}
			}
			l.mu.Unlock()
			return "", nil, fmt.Errorf("%s names the output file %s; riskbatch never overwrites a file it reads, choose another -o", ref, o.named)
		}
	}
	return real, fi, nil
}

// inAllowed reports whether path is in or below an allowed folder.
func (l *Loader) inAllowed(path string) bool {
	for _, a := range l.allowed {
		if within(a.named, path) || within(a.real, path) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or below it (both absolute and
// clean).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// hasDotDot reports whether a path has a ".." component.
func hasDotDot(p string) bool {
	for _, c := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if c == ".." {
			return true
		}
	}
	return false
}

// unwrapPath drops the path from an *fs.PathError.
func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		err = pe.Err
	}
	return err
}

// OpenData opens the first table of the file that ref names (see Resolve)
// with the Loader's ReadFunc. Its messages name ref and positions, never
// what the file holds.
func (l *Loader) OpenData(source, ref string) (evaluate.DataTable, error) {
	ref = strings.TrimSpace(ref)
	real, info, err := l.Resolve(source, ref)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened: %w", ref, unwrapPath(err))
	}
	st, err := f.Stat()
	if err != nil || !os.SameFile(st, info) {
		_ = f.Close()
		return nil, fmt.Errorf("%s changed while it was opened", ref)
	}
	if l.read == nil {
		_ = f.Close()
		return nil, fmt.Errorf("file %s: this program reads no files named in cells", ref)
	}
	format := ""
	if filepath.Ext(ref) == "" {
		format = strings.TrimPrefix(filepath.Ext(real), ".")
	}
	tables, err := l.read(ref, f, st.Size(), format)
	if err != nil {
		_ = f.Close()
		return nil, unreadable(ref, err)
	}
	if len(tables) == 0 {
		_ = f.Close()
		return nil, fmt.Errorf("file %s: no table", ref)
	}
	for _, t := range tables[1:] {
		_ = t.Close()
	}
	return &fileTable{DataTable: tables[0], f: f}, nil
}

// unreadable is the error for a file the ReadFunc refused: its position
// when known, not the ReadFunc's message, which may quote the file.
func unreadable(ref string, err error) error {
	var te *table.Error
	if errors.As(err, &te) && te.Pos.Row > 0 {
		return fmt.Errorf("file %s, row %d: not a table riskbatch can read (CSV, TSV, XLSX or Parquet)", ref, te.Pos.Row)
	}
	return fmt.Errorf("file %s: not a table riskbatch can read (CSV, TSV, XLSX or Parquet)", ref)
}

// fileTable is a table of a file this package opened: closing it closes
// the file.
type fileTable struct {
	evaluate.DataTable
	f *os.File
}

func (t *fileTable) Close() error {
	err := t.DataTable.Close()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}
