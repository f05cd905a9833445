package evaluate

import "github.com/riskbatch/riskbatch/table"

// Files named in cells. A release row's pmp_data cell may name a table
// file; the evaluator reads no files itself: it asks the DataLoader that
// the program running it handed in (WithDataLoader), which decides where a
// cell may point. riskbatch's commands and its Beam pipeline share one
// (package cellfiles): a cell names a file relative to the folder of the
// table it is in, and may not leave that folder.

// DataTable is a table a cell names, opened by a DataLoader: the header,
// then the rows in order (io.EOF at the end).
//
// The messages of the errors Next returns are never shown: they could
// quote the file, which the user did not name on the command line. The
// evaluator reports the position instead.
type DataTable interface {
	Columns() []table.Column
	Next() (table.Row, error)
	Close() error
}

// DataLoader opens the tables that cells name.
type DataLoader interface {
	// OpenData opens the table that ref, the text of a cell of a table
	// read from the file source (its path as given; "" when the table has
	// no file), names. The error's message becomes the row's message,
	// after "pmp_data: ": it must name the cell's reference and the
	// problem, and quote nothing from the file.
	OpenData(source, ref string) (DataTable, error)
}

// WithDataLoader lets release rows name table files in cells (pmp_data):
// l opens them. Without a loader, a cell that names a file gets an error,
// and only tables written in the cell itself are used.
func WithDataLoader(l DataLoader) Option { return func(e *Evaluator) { e.data = l } }

// BindSource is BindTable for a table read from the file source (its
// path as given): the files its cells name are opened relative to it, by
// the evaluator's DataLoader.
func (e *Evaluator) BindSource(source string, cols []table.Column, suggested DecimalMark) (*Binding, error) {
	b, err := e.BindTable(cols, suggested)
	if err != nil {
		return nil, err
	}
	b.source = source
	return b, nil
}
