package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/writers"
)

// isLocal reports whether a path is on the local file system, as opposed
// to a store named by a scheme ("gs://bucket/…"), which is reached through
// Beam's file systems.
func isLocal(path string) bool {
	return !strings.Contains(path, "://")
}

// matchInputs expands the file patterns, in order: each pattern's matches
// sorted by name, as a shell lists them. A pattern that matches nothing
// is an error: a misspelt pattern must not pass for an empty input.
func matchInputs(ctx context.Context, patterns []string) ([]string, error) {
	var files []string
	for _, p := range patterns {
		fs, err := filesystem.New(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		names, err := fs.List(ctx, p)
		fs.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: listing the matching files: %w", p, err)
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no file matches", p)
		}
		slices.Sort(names)
		files = append(files, names...)
	}
	return files, nil
}

// input is an opened input file: its tables, and its bytes, from which
// parts of it are read (readers.OpenCSVPart).
type input struct {
	tables  []readers.Table
	r       io.ReaderAt // nil for a pipe, which is read once
	size    int64
	closers []func()
}

// also has part closed with the input.
func (in *input) also(part readers.Table) {
	in.closers = append(in.closers, func() { part.Close() })
}

// close closes the tables and the file, and removes a local copy.
func (in *input) close() {
	for i := len(in.closers) - 1; i >= 0; i-- {
		in.closers[i]()
	}
}

// openInput opens the tables of the file at path with the repository's
// readers, as eval opens them (a .gz, .zst or .bz2 file decompressed, with
// no bytes to cut into parts: r is nil). A local regular file is read in place; a
// file in another store is first copied to a local temporary file, since
// XLSX and Parquet are read out of order, and is named by its own path in
// every position.
func openInput(ctx context.Context, path string, opts readers.Options) (in *input, err error) {
	defer func() {
		// A compressed file is read decompressed as one stream: its
		// bytes cannot be cut into parts (splitFileFn evaluates it whole).
		if err == nil && readers.Compressed(path) {
			in.r = nil
		}
	}()
	in = &input{}
	closeTables := func() {
		for _, t := range in.tables {
			t.Close()
		}
	}
	if isLocal(path) {
		if f, err := os.Open(path); err == nil {
			if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
				ts, err := readers.OpenReader(path, f, st.Size(), opts)
				if err != nil {
					f.Close()
					return nil, err
				}
				in.tables, in.r, in.size = ts, f, st.Size()
				in.closers = []func(){func() { f.Close() }, closeTables}
				return in, nil
			}
			f.Close()
		}
		// A file that cannot be opened, a directory, a pipe: as eval
		// reads it or says why not.
		ts, err := readers.Open(path, opts)
		if err != nil {
			return nil, err
		}
		in.tables = ts
		in.closers = []func(){closeTables}
		return in, nil
	}
	tmp, err := os.CreateTemp("", "riskbatch-beam-input-*"+filepath.Ext(path))
	if err != nil {
		return nil, fmt.Errorf("%s: a local copy: %w", path, err)
	}
	remove := func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}
	size, err := copyFrom(ctx, path, tmp)
	if err != nil {
		remove()
		return nil, err
	}
	ts, err := readers.OpenReader(path, tmp, size, opts)
	if err != nil {
		remove()
		return nil, err
	}
	in.tables, in.r, in.size = ts, tmp, size
	in.closers = []func(){remove, closeTables}
	return in, nil
}

// readAll returns the content of the file at path, in any Beam file system.
func readAll(ctx context.Context, path string) ([]byte, error) {
	if isLocal(path) {
		return os.ReadFile(path)
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer fs.Close()
	return filesystem.Read(ctx, fs, path)
}

// exists reports whether a file exists at path, in any Beam file system.
func exists(ctx context.Context, path string) bool {
	if isLocal(path) {
		st, err := os.Stat(path)
		return err == nil && st.Mode().IsRegular()
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return false
	}
	defer fs.Close()
	_, err = fs.Size(ctx, path)
	return err == nil
}

// copyFrom copies the file at path into w and returns its size.
func copyFrom(ctx context.Context, path string, w io.Writer) (int64, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("%s: cannot open the file: %w", path, err)
	}
	defer r.Close()
	n, err := io.Copy(w, r)
	if err != nil {
		return n, fmt.Errorf("%s: cannot read the file: %w", path, err)
	}
	return n, nil
}

// fileWriter is a writers.Writer for a path in any Beam file system. A
// local path is written by the repository's writer itself, through a
// temporary file renamed into place on Close; any other path is written
// to a local temporary file that Close then copies to the store.
type fileWriter struct {
	writers.Writer
	ctx    context.Context
	target string
	local  string // the local file, when target is not local
	dir    string // the local temporary directory holding it
}

// createFile returns a writer of format for target.
func createFile(ctx context.Context, target, format string) (*fileWriter, error) {
	fw := &fileWriter{ctx: ctx, target: target}
	path := target
	if !isLocal(target) {
		dir, err := os.MkdirTemp("", "riskbatch-beam-output-")
		if err != nil {
			return nil, fmt.Errorf("%s: a local file to write: %w", target, err)
		}
		fw.dir = dir
		fw.local = filepath.Join(dir, "shard."+format)
		path = fw.local
	} else if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", target, err)
	}
	w, err := writers.Create(path, writers.Options{Format: format})
	if err != nil {
		if fw.dir != "" {
			os.RemoveAll(fw.dir)
		}
		return nil, err
	}
	fw.Writer = w
	return fw, nil
}

// Close finishes the file and, for a target in another store, copies it
// there.
func (fw *fileWriter) Close() error {
	err := fw.Writer.Close()
	if fw.local == "" || err != nil {
		if fw.dir != "" {
			os.RemoveAll(fw.dir)
		}
		return err
	}
	defer os.RemoveAll(fw.dir)
	return copyTo(fw.ctx, fw.local, fw.target)
}

// Abort drops the file; the target is left as it was.
func (fw *fileWriter) Abort() error {
	err := fw.Writer.Abort()
	if fw.dir != "" {
		os.RemoveAll(fw.dir)
	}
	return err
}

// copyTo copies the local file src to dst in its Beam file system.
func copyTo(ctx context.Context, src, dst string) error {
	fs, err := filesystem.New(ctx, dst)
	if err != nil {
		return fmt.Errorf("%s: %w", dst, err)
	}
	defer fs.Close()
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := fs.OpenWrite(ctx, dst)
	if err != nil {
		return fmt.Errorf("%s: %w", dst, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("%s: writing: %w", dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("%s: writing: %w", dst, err)
	}
	return nil
}

// rename moves a file within its Beam file system (a rename where the
// store has one, else a copy and a removal).
func rename(ctx context.Context, oldpath, newpath string) error {
	if isLocal(oldpath) {
		return os.Rename(oldpath, newpath)
	}
	fs, err := filesystem.New(ctx, oldpath)
	if err != nil {
		return fmt.Errorf("%s: %w", oldpath, err)
	}
	defer fs.Close()
	return filesystem.Rename(ctx, fs, oldpath, newpath)
}

// remove deletes a file from its Beam file system. A file already gone is
// no error.
func remove(ctx context.Context, path string) error {
	if isLocal(path) {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer fs.Close()
	r, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("%s: the file system cannot remove files", path)
	}
	if _, err := fs.Size(ctx, path); err != nil {
		return nil // gone already
	}
	return r.Remove(ctx, path)
}

// list returns the files matching a glob pattern in its Beam file system.
func list(ctx context.Context, pattern string) ([]string, error) {
	fs, err := filesystem.New(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pattern, err)
	}
	defer fs.Close()
	return fs.List(ctx, pattern)
}
