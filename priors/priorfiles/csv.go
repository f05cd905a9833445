package priorfiles

import (
	"io"

	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// csvBatchRows is the number of records of a batch of csvBatches.
const csvBatchRows = 4096

// csvBatches reads a CSV or TSV table for build.Priors a batch of records
// at a time, only the text of the fields the build uses
// (readers.FieldRecords): no cell is made for the other fields. A field's
// text is numbered as its Text cell would be.
type csvBatches struct {
	readers.Table
	fr     readers.FieldRecords
	size   int // records per batch; 0: csvBatchRows
	nsel   int
	fields []string // of the batch's records, nsel each
	rows   []int
	err    error // of the record after the batch's good ones, or nil
	end    error // io.EOF, or a read error that ended the stream, once met
	batch  csvBatch
}

// Select chooses the columns read (build.Batches).
func (c *csvBatches) Select(cols []int) error {
	c.nsel = len(cols)
	return c.fr.SelectColumns(cols)
}

// NextBatch reads up to csvBatchRows records (build.Batches). A record
// with an error ends its batch, as its last row (see csvBatch).
func (c *csvBatches) NextBatch() (build.Batch, error) {
	if c.end != nil {
		return nil, c.end
	}
	c.fields, c.rows, c.err = c.fields[:0], c.rows[:0], nil
	size := c.size
	if size <= 0 {
		size = csvBatchRows
	}
	for len(c.rows) < size {
		k := len(c.fields)
		c.fields = append(c.fields, make([]string, c.nsel)...)
		row, err := c.fr.NextFields(c.fields[k:])
		if err == io.EOF {
			c.end, c.fields = err, c.fields[:k]
			break
		}
		c.rows = append(c.rows, row)
		if err != nil {
			c.err = err
			break
		}
	}
	if len(c.rows) == 0 {
		return nil, c.end
	}
	c.batch = csvBatch{c}
	return &c.batch, nil
}

// csvBatch is a batch of csvBatches: its records in order, the last of
// which is an error when c.err is set (IDs and Cell return the error at
// its row).
type csvBatch struct{ c *csvBatches }

func (b *csvBatch) Len() int      { return len(b.c.rows) }
func (b *csvBatch) Row(i int) int { return b.c.rows[i] }

// IDs numbers the values of column j (build.Batch).
func (b *csvBatch) IDs(j int, vals build.Values, ids []uint32) (int, error) {
	c := b.c
	n := len(ids)
	if c.err != nil {
		n--
	}
	for i := range n {
		ids[i] = vals.Text(c.fields[i*c.nsel+j])
	}
	if c.err != nil {
		return n, c.err
	}
	return n, nil
}

// Cell returns the cell of row i in column j (build.Batch).
func (b *csvBatch) Cell(j, i int) (table.Cell, error) {
	c := b.c
	if c.err != nil && i == len(c.rows)-1 {
		return table.Cell{}, c.err
	}
	if f := c.fields[i*c.nsel+j]; f != "" {
		return table.TextCell(f), nil
	}
	return table.Cell{}, nil
}
