// Package readers streams the rows of CSV, TSV, XLSX and Parquet files into
// the shared row model of package table, keeping the provenance of every row
// (file, sheet, 1-based row, column) for error messages.
package readers

import (
	"io"
	"sync/atomic"

	"github.com/riskbatch/riskbatch/table"
)

// Options control how a file is opened.
type Options struct {
	// Format is "csv", "tsv", "xlsx" or "parquet"; empty means: from the
	// file name's extension.
	Format string
	// Sheet selects one XLSX sheet by name. When empty, every sheet whose
	// header row Accept approves is read, in workbook order. A named sheet
	// is matched exactly, else ignoring case as Excel does, and is read
	// whatever its header (Accept is not consulted); a name that matches no
	// sheet is an error listing the workbook's sheets.
	Sheet string
	// Accept reports whether a header row names columns the caller knows.
	// Nil accepts every sheet.
	Accept func(header []string) bool
	// Known reports whether a header cell names a column the caller knows.
	// An XLSX sheet's header is the row, among its first 20 non-empty
	// ones, with the most known names (title rows and rows of group labels
	// above it are not read; see HeaderNoter). Nil, or no known name in
	// those rows: the first non-empty row.
	Known func(name string) bool
	// Encoding names the character encoding of CSV and TSV files:
	// "utf-8", "utf-16le", "utf-16be", "utf-16" (byte order mark, else
	// big-endian), "windows-1252", "iso-8859-1", "iso-8859-15",
	// "mac-roman", or another name of the IANA registry that
	// golang.org/x/text decodes. Empty: chosen from the file (see Open).
	Encoding string
	// Delimiter is the field delimiter of CSV and TSV files, one ASCII
	// character; 0: chosen from the file (see Open).
	Delimiter rune
	// ColumnKinds makes the XLSX reader read each sheet once more before
	// its first row, to give every column the kind all its non-empty
	// cells share (see findKinds); without it an XLSX column's kind is
	// Empty (unknown). For a writer that types its columns (Parquet); it
	// costs a second pass over the sheet's XML. Other formats ignore it:
	// CSV and TSV columns are Text, Parquet's are declared.
	ColumnKinds bool
	// BatchRows is the number of rows Parquet reads per record batch
	// (0: a default of a few thousand).
	BatchRows int
	// Limits bound what the file may make the reader unpack, parse or
	// hold in memory; zero fields take their defaults (see Limits).
	Limits Limits
	// BytesRead, when not nil, has every byte read from the file added to
	// it as the tables read on (it may be shared by several files and read
	// by another goroutine), so that a caller can show how far the reading
	// is against the file's size.
	BytesRead *atomic.Int64
	// Stdin is what Open reads for the path "-" (StdinPath), named
	// "standard input" (StdinName) in positions; nil: "-" is a file name.
	// Its format is Format, else its content's (see Open).
	Stdin io.Reader
}

// Table is one stream of rows: a CSV/TSV/Parquet file, or one XLSX sheet.
// Next returns rows in file order and io.EOF after the last one. A row
// whose cells cannot be decoded is an error of type *table.Error naming its
// position; such an error is returned for that row only where the format
// allows reading on (a malformed CSV/TSV record, an XLSX cell that cannot
// be decoded or has no header), otherwise (a damaged file) it ends the
// stream. A row error that does not end the stream comes with the row's
// readable cells under the header (Row.Cells), so that the caller can keep
// the row, as an error row, instead of dropping it. Every error is returned once: after an error that ends the
// stream, Next returns io.EOF, so a loop that records errors and goes on
// until io.EOF always ends.
//
// Row numbers (table.Position.Row) are 1-based and count the header as a
// row, as a spreadsheet shows them; each format's reader documents how it
// numbers rows (see Open). A Table is not safe for concurrent use; distinct
// tables from one Open may be read concurrently.
type Table interface {
	File() string            // the file's path as given
	Sheet() string           // the sheet name, or "" for formats without sheets
	Columns() []table.Column // header names, in order, with kinds where the format declares them
	Next() (table.Row, error)
	Close() error
}

// RowsReader is a Table that reads a run of rows at once, faster than
// row by row: a Parquet file. NextRows appends up to n rows to rows, the
// rows that calls of Next would return, and returns the longer slice. An
// error is returned as Next returns it, after the rows before the one it
// names, and ends the stream when Next's would; io.EOF comes with no
// rows.
type RowsReader interface {
	NextRows(rows []table.Row, n int) ([]table.Row, error)
}

// RowCounter is a Table that knows its number of data rows before reading
// them: a Parquet file, from its footer.
type RowCounter interface {
	NumRows() int64
}

// HeaderNoter is implemented by tables whose header need not be their
// first row (XLSX sheets). HeaderNote says where the header was found when
// rows with content stand above it, which are not read ("header on row 3;
// rows 1–2 above it are not read"), and is "" otherwise.
type HeaderNoter interface {
	HeaderNote() string
}
