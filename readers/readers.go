// Package readers streams the rows of CSV, TSV, XLSX and Parquet files into
// the shared row model of package table, keeping the provenance of every row
// (file, sheet, 1-based row, column) for error messages.
package readers

import (
	"github.com/riskbatch/riskbatch/table"
)

// Options control how a file is opened.
type Options struct {
	// Format is "csv", "tsv", "xlsx" or "parquet"; empty means: from the
	// file name's extension.
	Format string
	// Sheet selects one XLSX sheet by name. When empty, every sheet whose
	// header row Accept approves is read, in workbook order.
	Sheet string
	// Accept reports whether a header row (the first row of a sheet) names
	// columns the caller knows. Nil accepts every sheet.
	Accept func(header []string) bool
	// BatchRows is the number of rows Parquet reads per record batch
	// (0: a default of a few thousand).
	BatchRows int
}

// Table is one stream of rows: a CSV/TSV/Parquet file, or one XLSX sheet.
// Next returns rows in file order and io.EOF after the last one. A row
// whose cells cannot be decoded is an error of type *table.Error naming its
// position; such an error is returned for that row only where the format
// allows reading on (CSV), otherwise it ends the stream.
type Table interface {
	File() string            // the file's path as given
	Sheet() string           // the sheet name, or "" for formats without sheets
	Columns() []table.Column // header names, in order, with kinds where the format declares them
	Next() (table.Row, error)
	Close() error
}
