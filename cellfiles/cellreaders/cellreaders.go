// Package cellreaders hands package readers to package cellfiles: Read is
// the cellfiles.ReadFunc that the riskbatch command and the Beam pipeline
// pass, so that both read the files cells name alike, under the limits of
// the run. It is a package of its own so that cellfiles, and the tests of
// the packages that use it, link no file format.
package cellreaders

import (
	"io"

	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/readers"
)

// Read returns the cellfiles.ReadFunc that reads a file with
// readers.OpenReader under limits: every table of a workbook, the one
// table of a CSV, TSV or Parquet file.
func Read(limits readers.Limits) cellfiles.ReadFunc {
	return func(name string, r io.ReaderAt, size int64, format string) ([]evaluate.DataTable, error) {
		tables, err := readers.OpenReader(name, r, size, readers.Options{Format: format, Limits: limits})
		if err != nil {
			return nil, err
		}
		out := make([]evaluate.DataTable, len(tables))
		for i, t := range tables {
			out[i] = t
		}
		return out, nil
	}
}
