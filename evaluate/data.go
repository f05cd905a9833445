package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/celldata"
	"github.com/riskbatch/riskbatch/table"
)

// Files named in cells are package celldata's (celldata.Loader); these
// names keep evaluate's API.

// DataTable is a table a cell names, opened by a DataLoader
// (celldata.Table).
type DataTable = celldata.Table

// DataLoader opens the tables that cells name (celldata.Loader).
type DataLoader = celldata.Loader

// The pmp_data tables and results of a run (celldata.Cache).
type (
	pmpCache    = celldata.Cache
	pmpSource   = celldata.Source
	pmpRef      = celldata.Ref
	pmpKey      = celldata.Key
	pmpResult   = celldata.Result
	pmpRefError = celldata.RefError
)

func newPMPCache() *pmpCache { return celldata.NewCache() }

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
