// Package writers writes evaluated tables as XLSX (through excelize's
// stream writer), CSV, TSV or Parquet. Every writer writes to a temporary
// file beside the target and renames it into place on Close, so a failed
// or interrupted run never leaves a half-written file at the target path.
package writers

import (
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
}

// Writer receives the header once, then every row in order.
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
