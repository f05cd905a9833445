// Package celldata reads the tables that cells name or hold: a release
// row's pmp_data cell names a table file (opened by the Loader the program
// hands the evaluator) or writes the table in the cell, and the PMP
// parameters of data-dependent practical membership privacy are computed
// from it, once per table and parameters (Cache).
package celldata

import "github.com/riskbatch/riskbatch/table"

// Files named in cells. A release row's pmp_data cell may name a table
// file; the evaluator reads no files itself: it asks the Loader that
// the program running it handed in (evaluate.WithDataLoader), which decides where a
// cell may point. riskbatch's commands and its Beam pipeline share one
// (package cellfiles): a cell names a file relative to the folder of the
// table it is in, and may not leave that folder.

// Table is a table a cell names, opened by a Loader: the header,
// then the rows in order (io.EOF at the end).
//
// The messages of the errors Next returns are never shown: they could
// quote the file, which the user did not name on the command line. The
// evaluator reports the position instead.
type Table interface {
	Columns() []table.Column
	Next() (table.Row, error)
	Close() error
}

// Loader opens the tables that cells name.
type Loader interface {
	// OpenData opens the table that ref, the text of a cell of a table
	// read from the file source (its path as given; "" when the table has
	// no file), names. The error's message becomes the row's message,
	// after "pmp_data: ": it must name the cell's reference and the
	// problem, and quote nothing from the file.
	OpenData(source, ref string) (Table, error)
}
