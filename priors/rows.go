package priors

import (
	"errors"
	"io"
	"iter"

	"github.com/riskbatch/riskbatch/table"
)

// Rows is one table of rows already opened by a reader (see table.Rows):
// package priors reads prior tables, frequency tables and data through it
// without knowing their file format.
type Rows = table.Rows

// LoadableHeader reports whether a header is that of a prior table
// (columns prior and p) or of a frequency table (columns key, value and
// probability): the tables a Loader reads. A reader may use it to choose
// the sheets of a workbook.
func LoadableHeader(header []string) bool {
	return isPriorHeader(header) || isFrequencyHeader(header)
}

// A Loader builds Tables from prior tables and frequency tables already
// opened, file by file: File names the file whose tables follow, Read
// reads each of them, Err records an error met while opening or closing
// one, and Tables returns the result. Errors are collected in order (see
// Done); Tables joins them.
type Loader struct {
	ts    *Tables
	owner map[string]string // key → the file that defines it
	freqs *frequencyReader
	errs  []error

	path       string // the file being read
	before     int    // keys loaded before it
	priorTable bool   // whether one of its tables is a prior table
}

// NewLoader returns a Loader with no tables read.
func NewLoader() *Loader {
	return &Loader{
		ts:    &Tables{priors: map[string]*Prior{}, folded: map[string][]string{}},
		owner: map[string]string{},
		freqs: newFrequencyReader(),
	}
}

// File starts the tables of the file at path: the tables Read reads next
// belong to it. A file with a prior table is among Tables.Files, with the
// number of keys it defined.
func (l *Loader) File(path string) {
	l.endFile()
	l.path, l.before, l.priorTable = path, len(l.ts.priors), false
}

// endFile records the file read, when it had a prior table.
func (l *Loader) endFile() {
	if l.priorTable {
		l.ts.files = append(l.ts.files, loadedFile{name: l.path, keys: len(l.ts.priors) - l.before})
	}
	l.priorTable = false
}

// Read reads every row of t, a table of the current file (see File), and
// reports whether it is a prior table. A table with the columns prior and
// p is a prior table: each row adds `targets` targets (a whole number
// from 1 to MaxTargets, default 1) with prior success p to its key; p must
// be a finite number in [0, 1] (a number, or text that reads as one, such
// as "0.3" or "30%"), the key a non-empty text. Rows whose key, p and
// targets are all empty are skipped. A key may span rows of one file, in
// any order; a key defined by two files is an error. A table with the
// columns key, value and probability is a frequency table: every cell of a
// key, i.e. every combination of the other columns' values, is one
// distribution of the attribute, and the prior of that key gets them
// (Prior.Distributions). Any other table is an error saying what a prior
// table needs. Column names match ignoring case, surrounding spaces, and
// with space, "-" and "_" alike; other columns are ignored.
func (l *Loader) Read(t Rows) (priorTable bool) {
	if header := columnNames(t); isPriorHeader(header) {
		l.errs = l.ts.read(t, l.path, l.owner, l.errs)
		l.priorTable = true
		return true
	} else if isFrequencyHeader(header) {
		l.errs = l.freqs.read(t, l.path, l.errs)
	} else {
		l.errs = l.ts.read(t, l.path, l.owner, l.errs) // a named sheet: says what is missing
	}
	return false
}

// Err records an error met outside the rows, such as a file that cannot
// be opened or closed, in order among the errors of the rows.
func (l *Loader) Err(err error) {
	if err != nil {
		l.errs = append(l.errs, err)
	}
}

// Done reports whether the Loader has met as many errors as Tables
// reports (20): reading more files would add none.
func (l *Loader) Done() bool { return len(l.errs) >= maxLoadErrors }

// Tables gives each prior the distributions of its key read from the
// frequency tables and returns the tables read, or every error met (each
// naming its position, a *table.Error, joined with errors.Join). The
// Loader must not be used afterwards.
func (l *Loader) Tables() (*Tables, error) {
	l.endFile()
	ts, errs := l.ts, l.freqs.attach(l.ts, l.errs)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for key := range ts.priors {
		f := foldKey(key)
		ts.folded[f] = append(ts.folded[f], key)
	}
	return ts, nil
}

// sourceName describes a table: "file" or "file, sheet S".
func sourceName(t Rows) string {
	return table.Position{File: t.File(), Sheet: t.Sheet(), Column: -1}.String()
}

// rowsOf yields the rows of t until *errs holds maxLoadErrors errors (the
// most Tables reports), adding the error of a row that cannot be read to
// *errs and going on with the next.
func rowsOf(t Rows, errs *[]error) iter.Seq[table.Row] {
	return func(yield func(table.Row) bool) {
		for len(*errs) < maxLoadErrors {
			row, err := t.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				*errs = append(*errs, err)
				continue
			}
			if !yield(row) {
				return
			}
		}
	}
}

// cellError is an error about the cell of row in column col, named name.
func cellError(row table.Row, col int, name string, err error) error {
	pos := row.Pos
	pos.Column, pos.ColumnName = col, name
	return &table.Error{Pos: pos, Err: err}
}
