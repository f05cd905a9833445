package priorfiles

import (
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/readers"
)

// RowsInBatches is Rows with CSV and TSV tables read n records at a time,
// for tests of the batches' edges.
func RowsInBatches(tables []readers.Table, n int) []priors.Rows {
	rows := Rows(tables)
	for _, r := range rows {
		if c, ok := r.(*csvBatches); ok {
			c.size = n
		}
	}
	return rows
}
