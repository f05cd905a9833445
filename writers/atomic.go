package writers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/riskbatch/riskbatch/table"
)

// atomicFile is a temporary file beside target that becomes target on
// commit.
type atomicFile struct {
	target string
	f      *os.File // nil once committed or aborted
}

// createAtomic creates the temporary file for target. It fails at once when
// target is a directory or its directory does not exist or is not writable.
func createAtomic(target string) (*atomicFile, error) {
	dir, base := filepath.Split(target)
	if base == "" || base == "." || base == ".." {
		return nil, fmt.Errorf("writers: %q is not a file name", target)
	}
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(target); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("writers: %s is a directory", target)
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("writers: creating a temporary file for %s: %w", target, err)
	}
	return &atomicFile{target: target, f: f}, nil
}

// name returns the temporary file's path ("" once closed).
func (a *atomicFile) name() string {
	if a.f == nil {
		return ""
	}
	return a.f.Name()
}

// commit syncs and closes the temporary file and renames it to the target.
// On any failure the temporary file is removed and the target left alone.
// The new file gets the permissions of the file it replaces, or 0644.
func (a *atomicFile) commit() error {
	if a.f == nil {
		return fmt.Errorf("writers: %s: already closed", a.target)
	}
	f := a.f
	a.f = nil
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(a.target); err == nil && fi.Mode().IsRegular() {
		mode = fi.Mode().Perm()
	}
	err := f.Chmod(mode)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), a.target)
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("writers: finishing %s: %w", a.target, err)
	}
	syncDir(filepath.Dir(a.target))
	return nil
}

// abort closes and removes the temporary file. It is a no-op once the file
// has been committed or aborted.
func (a *atomicFile) abort() error {
	if a.f == nil {
		return nil
	}
	f := a.f
	a.f = nil
	cerr := f.Close()
	if err := os.Remove(f.Name()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("writers: removing %s: %w", f.Name(), err)
	}
	if cerr != nil && !errors.Is(cerr, os.ErrClosed) {
		return fmt.Errorf("writers: closing %s: %w", f.Name(), cerr)
	}
	return nil
}

// syncDir makes a rename in dir durable where the system allows it; errors
// are ignored (some systems cannot sync a directory).
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// lifecycle holds what every writer shares: the temporary file, the
// columns, the count of rows and the first error, after which the writer
// refuses to go on.
type lifecycle struct {
	out    *atomicFile
	cols   []table.Column
	header bool
	rows   int64 // data rows written
	err    error // the first failure; sticky
	done   bool  // Close or Abort was called
}

// fail records err as the writer's failure (the first one wins) and
// returns it.
func (l *lifecycle) fail(err error) error {
	if l.err == nil {
		l.err = err
	}
	return err
}

// usable reports the error that forbids a further call, if any.
func (l *lifecycle) usable() error {
	if l.done {
		return fmt.Errorf("writers: %s: writer already closed", l.out.target)
	}
	return l.err
}

// beginHeader checks a WriteHeader call and records the columns.
func (l *lifecycle) beginHeader(cols []table.Column) error {
	if err := l.usable(); err != nil {
		return err
	}
	if l.header {
		return l.fail(fmt.Errorf("writers: %s: header written twice", l.out.target))
	}
	if len(cols) == 0 {
		return l.fail(fmt.Errorf("writers: %s: a table needs at least one column", l.out.target))
	}
	l.cols = append([]table.Column(nil), cols...)
	l.header = true
	return nil
}

// beginRow checks a Write call.
func (l *lifecycle) beginRow(cells []table.Cell) error {
	if err := l.usable(); err != nil {
		return err
	}
	if !l.header {
		return l.fail(fmt.Errorf("writers: %s: row written before the header", l.out.target))
	}
	if len(cells) != len(l.cols) {
		return l.fail(fmt.Errorf("writers: %s: data row %d has %d cells, the header %d columns",
			l.out.target, l.rows+1, len(cells), len(l.cols)))
	}
	return nil
}

// beginClose checks a Close call. When it returns an error the temporary
// file has been removed.
func (l *lifecycle) beginClose() error {
	if l.done {
		return fmt.Errorf("writers: %s: writer already closed", l.out.target)
	}
	l.done = true
	err := l.err
	if err == nil && !l.header {
		err = fmt.Errorf("writers: %s: closed before the header was written", l.out.target)
	}
	if err != nil {
		_ = l.out.abort()
		return err
	}
	return nil
}

// beginAbort marks the writer done; it reports whether there is anything
// left to abort.
func (l *lifecycle) beginAbort() bool {
	if l.done && l.out.f == nil {
		return false
	}
	l.done = true
	return true
}
