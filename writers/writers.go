// Package writers writes evaluated tables as XLSX (through excelize's
// stream writer), CSV, TSV or Parquet. Every writer writes to a temporary
// file beside the target and renames it into place on Close, so a failed
// or interrupted run never leaves a half-written file at the target path.
//
// All writers stream: the memory they use does not grow with the number of
// rows. The CSV and TSV writers buffer a few kilobytes, the Parquet writer
// one row group (see [DefaultParquetRowGroupRows]) and the XLSX writer
// spills the sheet data to temporary files beyond 16 MiB (excelize's stream
// writer) and writes the final archive straight into the temporary file.
// One exception: excelize keeps the in-memory buffer of every finished
// XLSX sheet until the end, some 30–40 MiB for each full sheet of
// [MaxSheetRows] rows, so an XLSX output of several million rows needs that
// much more memory per extra sheet.
package writers

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riskbatch/riskbatch/internal/compression"
	"github.com/riskbatch/riskbatch/table"
)

// Options control the output.
type Options struct {
	// Format is "csv", "tsv", "xlsx" or "parquet"; empty means: from the
	// file name's extension.
	Format string
	// SheetName names the XLSX data sheet (default "Results").
	SheetName string
	// Docs, when not nil, is written as an extra XLSX sheet named "Columns"
	// documenting every column (Docs[0] is its header row). Other formats
	// ignore it.
	Docs [][]string
	// Summary, when not nil, is called once every row is written and its
	// rows (the first is a bold header) become an XLSX sheet named
	// Summary, after the data sheets. Other formats ignore it.
	Summary func() [][]string
	// Charts, when not nil, is called after Summary; its plots are drawn
	// on the Summary sheet, right of its rows, from data written on a sheet
	// named CurvesSheetName. Other formats ignore it.
	Charts func() *Charts
	// Formulas, when not nil, gives spreadsheet formulas for data cells:
	// the XLSX writer writes such a cell as its formula with the cell's
	// value as the cached result, and adds the source's description of a
	// column to its header note. Other formats ignore it.
	Formulas FormulaSource
	// NumberColumns are the header indexes of columns of numbers whose
	// text cells holding a plain decimal number ("0.05", "1e-05"; not
	// "5%" or "1,000") the XLSX writer writes as numbers: CSV and TSV
	// inputs carry no types, and a spreadsheet cannot compute with a
	// number stored as text. Other formats ignore it.
	NumberColumns []int
	// Shading, when not nil, colours the numbers of some columns green,
	// amber or red against a limit (XLSX conditional formatting, which
	// follows edits). Other formats ignore it.
	Shading *Shading
	// Outline, when not nil, folds columns of the XLSX data sheets away:
	// hidden, in collapsed outline groups that a spreadsheet's [+] buttons
	// open (see Outline). Other formats ignore it.
	Outline *Outline

	// stream is the output of CreateStream.
	stream *os.File
}

// Outline says which columns of an XLSX data sheet open folded away, so
// that the sheet shows its headline columns on screen and on paper (hidden
// columns are not printed). Every run of adjacent folded columns becomes
// one collapsed outline group; the values stay in their cells, in the
// header's order, and the autofilter, formulas and notes are unchanged.
type Outline struct {
	// Columns are the header indexes of the columns folded on every sheet.
	Columns []int
	// Empty folds, besides, every column that holds no value on any data
	// row of its sheet (a sheet without data rows folds none).
	Empty bool
	// SparseInputs folds, besides, every input column that is empty on
	// more than half of its sheet's data rows: the parameters of a table
	// of many mechanisms, each used by a few rows.
	SparseInputs bool
}

// Writer receives the header once, then every row in order.
//
// A Writer is not safe for concurrent use. Once a call has failed the
// writer is broken: later calls return the same error and Close removes the
// temporary file. The usual pattern is
//
//	w, err := writers.Create(path, opts)
//	if err != nil { ... }
//	defer w.Abort() // a no-op after a successful Close
//	... w.WriteHeader(cols), w.Write(cells) ...
//	return w.Close()
type Writer interface {
	// WriteHeader fixes the columns. Input columns come first as read, then
	// the Status, Message and Output columns.
	WriteHeader(cols []table.Column) error
	// Write appends one row; len(cells) == len(cols).
	Write(cells []table.Cell) error
	// Close finishes the file and renames it into place.
	Close() error
	// Abort removes the temporary file; the target is left as it was.
	Abort() error
}

// RowsWriter is a Writer that also takes a run of rows at once, which it
// writes faster than row by row: the Parquet writer, which appends a run
// a column at a time. WriteRows(rows) writes what a Write of each row in
// turn would, and fails as that would.
type RowsWriter interface {
	Writer
	WriteRows(rows [][]table.Cell) error
}

// ColumnsWriter is a RowsWriter that also takes columns of a run of rows
// as Arrow arrays, which it writes as they are, without a cell per value:
// a column read from a Parquet file or the fields of a CSV column go from
// the reader to the file a column at a time. Cells stay the representation
// of the other columns (the evaluator's, and inputs the writer does not
// take as arrays).
type ColumnsWriter interface {
	RowsWriter
	// TakesArray reports whether WriteColumns takes column i as an array
	// of type dt: the writer writes that column with exactly that type
	// (the type WriteRows would write its cells with), so the values are
	// written unchanged. An array of Arrow's Null type, which stands for
	// a column null on every row, is taken for any column.
	TakesArray(i int, dt arrow.DataType) bool
	// WriteColumns writes the rows as WriteRows would, but column i of
	// every row from arrays[i] (len(rows) values) when arrays[i] is not
	// nil: the rows' cells of that column are ignored. Each array given
	// is one TakesArray accepts; the writer keeps a reference to it (the
	// caller may Release its own).
	WriteColumns(rows [][]table.Cell, arrays []arrow.Array) error
}

// NullReporter is implemented by writers that write a cell which cannot be
// represented in its column's type as a null instead of failing: the
// Parquet writer, whose columns are typed (a Text cell in a Number column,
// say). NulledCells returns how many cells were so replaced; a caller
// should warn when it is not zero.
type NullReporter interface {
	NulledCells() int64
}

// TruncationReporter is implemented by writers that cut text to fit a
// format's limit instead of failing: the XLSX writer, whose cells hold at
// most MaxCellChars characters. TruncatedCells returns how many cells were
// cut; a caller should warn when it is not zero.
type TruncationReporter interface {
	TruncatedCells() int64
}

// Format names accepted in Options.Format and recognised as extensions.
const (
	FormatCSV     = "csv"
	FormatTSV     = "tsv"
	FormatXLSX    = "xlsx"
	FormatParquet = "parquet"
)

// DefaultSheetName is the XLSX data sheet's name when Options.SheetName is
// empty.
const DefaultSheetName = "Results"

// DocsSheetName is the name of the XLSX sheet written from Options.Docs.
const DocsSheetName = "Columns"

// SummarySheetName names the XLSX sheet written from Options.Summary.
const SummarySheetName = "Summary"

// CurvesSheetName names the XLSX sheet holding the data of Options.Charts.
const CurvesSheetName = "Curves"

// Create returns a Writer for path. The format is opts.Format or, when
// that is empty, the extension of path (.csv, .tsv, .xlsx or .parquet, in
// any case). A path ending .gz or .zst is compressed with gzip or zstd, its
// format coming from the extension before (out.csv.gz is CSV); only CSV
// and TSV are compressed so (a workbook and a Parquet file are compressed
// inside), and .bz2 is refused (no writer in the standard library). The output goes to a temporary file in the folder of the file
// path names, links followed (TempPrefix…), which Close syncs and renames
// onto that file and Abort removes; the file itself is not touched before a
// successful Close, and a link named by path stays a link. Temporary files
// that killed runs left in that folder are removed first.
//
// A path that names a pipe, a character device or a socket is written as a
// stream, as by CreateStream; its format defaults to CSV when the name has
// no extension.
func Create(path string, opts Options) (Writer, error) {
	opts.stream = nil
	return create(path, opts)
}

// CreateStream returns a Writer that writes to f, an open stream such as
// standard output or a pipe; name is how messages call it ("standard
// output"). The format is opts.Format, else name's extension, else CSV.
// CSV, TSV and Parquet are written as the rows come; a workbook is written
// out of order, so it is spooled to a temporary file (nameless where the
// system allows) and copied to f on Close. XLSX and Parquet are refused
// when f is a terminal. Close does not close f. What was written before an
// error or Abort stays written: a reader of the stream must check the
// writing program's exit status.
func CreateStream(f *os.File, name string, opts Options) (Writer, error) {
	if f == nil {
		return nil, fmt.Errorf("writers: %s: no stream", name)
	}
	opts.stream = f
	return create(name, opts)
}

// create opens the output of path (or opts.stream) and the writer of its
// format.
func create(path string, opts Options) (Writer, error) {
	format, err := FormatOf(path, opts.Format)
	if err != nil && opts.Format == "" && (opts.stream != nil || isStream(path)) {
		format, err = FormatCSV, nil
	}
	if err != nil {
		return nil, err
	}
	var codec *compression.Codec
	if c, _, ok := compression.ByName(path); ok {
		switch {
		case format == FormatXLSX || format == FormatParquet:
			return nil, fmt.Errorf("writers: %s: %s output is not compressed with %s: the format is compressed inside already; name it without %s", path, formatTitle(format), c.Name, c.Ext)
		case !c.Writable():
			_, err := c.NewWriter(io.Discard)
			return nil, fmt.Errorf("writers: %s: %w", path, err)
		}
		codec = &c
	}
	var w Writer
	switch format {
	case FormatCSV:
		w, err = newDelimited(path, ',', codec, opts)
	case FormatTSV:
		w, err = newDelimited(path, '\t', codec, opts)
	case FormatXLSX:
		w, err = newXLSX(path, opts)
	case FormatParquet:
		w, err = newParquet(path, opts)
	default:
		return nil, fmt.Errorf("writers: %s: unsupported format %q", path, format)
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// formatTitle is a format's name in a sentence.
func formatTitle(format string) string {
	if format == FormatParquet {
		return "Parquet"
	}
	return strings.ToUpper(format)
}

// isStream reports whether path names (links followed) a pipe, a
// character device or a socket.
func isStream(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && !fi.Mode().IsRegular()
}

// FormatOf returns the output format for path: format itself when it is
// not empty (lower-cased, a leading dot removed), else the extension of
// path. It fails for any format other than csv, tsv, xlsx and parquet.
func FormatOf(path, format string) (string, error) {
	f := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(format), "."))
	from := "format"
	if f == "" {
		_, inner, _ := compression.ByName(path) // out.csv.gz: csv
		f = strings.ToLower(strings.TrimPrefix(filepath.Ext(inner), "."))
		from = "extension"
	}
	switch f {
	case FormatCSV, FormatTSV, FormatXLSX, FormatParquet:
		return f, nil
	}
	if f == "" {
		return "", fmt.Errorf("writers: %s: no output format given and the file name has no extension: use .csv, .tsv, .xlsx or .parquet", path)
	}
	return "", fmt.Errorf("writers: %s: unknown output %s %q: use csv, tsv, xlsx or parquet", path, from, f)
}
