package writers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// atomicFile is where a writer's bytes go: a temporary file beside the
// target that becomes the target on commit, or a stream (standard output,
// a pipe, a device) written as the writer goes.
//
// A target named through symbolic links is written where the links lead:
// the temporary file is made in the folder of the final file and renamed
// onto it, so the links stay links.
type atomicFile struct {
	target string // the output as named, for messages
	final  string // the file renamed onto (target with links followed); "" for a stream
	// f is what the writer writes into: the temporary file, the stream
	// itself, or (spool) a temporary file copied to the stream on commit.
	// nil once committed or aborted.
	f *os.File
	// stream is the stream output, nil for a file.
	stream *os.File
	// ownStream is set when this package opened stream (a device or a
	// pipe named by path) and so closes it.
	ownStream bool
	// spool is set when f is a temporary copy of a stream's content: a
	// workbook is written out of order, which a stream cannot take.
	spool bool
	// spoolName is the spool's path while it still has one (it is
	// removed at once where the system allows an open file to lose its
	// name).
	spoolName string
}

// openOutput opens the output of a writer of format for path, or for
// opts.stream when CreateStream set it.
//
// A path naming a pipe, a character device or a socket is a stream too;
// any other path gets a temporary file in the folder of the file it names
// (links followed), after the temporary files that killed runs left there
// are removed (see removeStale). It fails at once when the path is a
// folder, or its folder does not exist or is not writable, and it refuses
// to write a binary format (XLSX, Parquet) to a terminal.
func openOutput(path string, opts Options, format string) (*atomicFile, error) {
	seekable := format == FormatXLSX
	if opts.stream != nil {
		return openStream(path, opts.stream, false, format, seekable)
	}
	base := filepath.Base(path)
	if path == "" || strings.HasSuffix(path, string(filepath.Separator)) || base == "." || base == ".." {
		return nil, fmt.Errorf("cannot write %q: not a file name", path)
	}
	final, err := followLinks(path)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(final); err == nil {
		switch {
		case fi.IsDir():
			return nil, fmt.Errorf("cannot write %s: it is a folder", path)
		case !fi.Mode().IsRegular():
			f, err := os.OpenFile(final, os.O_WRONLY, 0)
			if err != nil {
				return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
			}
			out, err := openStream(path, f, true, format, seekable)
			if err != nil {
				_ = f.Close()
			}
			return out, err
		}
	}
	dir := filepath.Dir(final)
	if fi, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("cannot write %s: the folder %s does not exist", path, folderName(path, final))
		}
		return nil, fmt.Errorf("cannot write %s: the folder %s: %w", path, folderName(path, final), unwrapPath(err))
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("cannot write %s: %s is not a folder", path, folderName(path, final))
	}
	f, err := createTemp(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: cannot create a file in the folder %s: %w", path, folderName(path, final), unwrapPath(err))
	}
	return &atomicFile{target: path, final: final, f: f}, nil
}

// folderName names the folder an output goes in, for messages: the folder
// as the user wrote it, unless links lead elsewhere.
func folderName(path, final string) string {
	if final != path {
		return filepath.Dir(final)
	}
	return filepath.Dir(path)
}

// unwrapPath drops the path from an *fs.PathError, whose message would
// name the temporary file or repeat the target.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// openStream makes the output that writes to stream. A workbook is
// spooled to a temporary file (it is written out of order) and copied to
// the stream on commit; other formats are written to the stream directly.
func openStream(name string, stream *os.File, own bool, format string, seekable bool) (*atomicFile, error) {
	if (format == FormatXLSX || format == FormatParquet) && isTerminal(stream.Fd()) {
		what := "an XLSX workbook"
		if format == FormatParquet {
			what = "a Parquet file"
		}
		return nil, fmt.Errorf("cannot write %s to %s: it is a terminal; redirect the output to a file or a pipe, or name a file with -o", what, name)
	}
	out := &atomicFile{target: name, f: stream, stream: stream, ownStream: own}
	if !seekable {
		return out, nil
	}
	dir := os.TempDir()
	spool, err := createTemp(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: cannot create a temporary file in %s: %w", name, dir, unwrapPath(err))
	}
	out.f, out.spool, out.spoolName = spool, true, spool.Name()
	// Where an open file may lose its name, a killed run leaves nothing.
	if os.Remove(spool.Name()) == nil {
		out.spoolName = ""
	}
	return out, nil
}

// maxLinks bounds the symbolic links followed to an output's final file.
const maxLinks = 40

// followLinks returns the file that path names once every symbolic link
// is followed: the file to replace. It may not exist yet (a link to a
// file still to be made).
func followLinks(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("cannot write %s: reading the link %s: %w", path, p, unwrapPath(err))
		}
		if !filepath.IsAbs(dest) {
			dir := filepath.Dir(p)
			// ".." in a link is taken from the folder the link is
			// really in, as the system does.
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			dest = filepath.Join(dir, dest)
		}
		p = dest
	}
	return "", fmt.Errorf("cannot write %s: more than %d links in a row", path, maxLinks)
}

// closed reports whether the output was committed or aborted.
func (a *atomicFile) closed() bool { return a.f == nil }

// commit makes the output final. A file output is synced, closed and
// renamed onto the final file; on any failure the temporary file is
// removed and the target left alone. The new file gets the permissions of
// the file it replaces, or 0644. A stream output copies the spool, if any,
// to the stream.
func (a *atomicFile) commit() error {
	if a.f == nil {
		return fmt.Errorf("writers: %s: already closed", a.target)
	}
	f := a.f
	a.f = nil
	if a.stream != nil {
		return a.finishStream(f)
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(a.final); err == nil && fi.Mode().IsRegular() {
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
		err = os.Rename(f.Name(), a.final)
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("writers: finishing %s: %w", a.target, unwrapLink(err))
	}
	syncDir(filepath.Dir(a.final))
	return nil
}

// unwrapLink drops the paths from an *os.LinkError, whose message would
// name the temporary file.
func unwrapLink(err error) error {
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return le.Err
	}
	return err
}

// finishStream copies the spool f (when there is one) to the stream and
// closes what this package opened.
func (a *atomicFile) finishStream(f *os.File) error {
	var err error
	if a.spool {
		if _, err = f.Seek(0, io.SeekStart); err == nil {
			_, err = io.Copy(a.stream, f)
		}
		a.dropSpool(f)
	}
	if a.ownStream {
		if cerr := a.stream.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("writers: writing %s: %w", a.target, unwrapPath(err))
	}
	return nil
}

// dropSpool closes and removes the spool.
func (a *atomicFile) dropSpool(f *os.File) {
	_ = f.Close()
	if a.spoolName != "" {
		_ = os.Remove(a.spoolName)
	}
}

// abort closes and removes the temporary file (what went to a stream
// stays there). It is a no-op once the output has been committed or
// aborted.
func (a *atomicFile) abort() error {
	if a.f == nil {
		return nil
	}
	f := a.f
	a.f = nil
	if a.stream != nil {
		if a.spool {
			a.dropSpool(f)
		}
		if a.ownStream {
			_ = a.stream.Close()
		}
		return nil
	}
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
	if l.done && l.out.closed() {
		return false
	}
	l.done = true
	return true
}
