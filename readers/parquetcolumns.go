package readers

import (
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/riskbatch/riskbatch/table"
)

// ColumnBatches is a Table that can also be read as Arrow record batches
// of some of its columns, without the cells of the others being decoded:
// a Parquet file (Open's Parquet tables implement it). A program that
// needs a few columns of a wide file reads only their column chunks.
type ColumnBatches interface {
	// SelectColumns chooses the columns ReadBatch reads: indexes in
	// Columns, increasing, at least one. It must be called once, before
	// the first read; Next may not be called afterwards.
	SelectColumns(cols []int) error
	// ReadBatch returns the next record batch of the selected columns (in
	// the order of the selection) and the row number of its first row (its
	// rows are consecutive, numbered as Next numbers them), or io.EOF after
	// the last. The batch is valid until the next call, and must not be
	// released. String and binary columns come as Arrow dictionary arrays
	// over their values, so that a dictionary-encoded column chunk is read
	// without decoding each value. Errors end the stream, as for Next: the
	// same checks of the row groups apply, to the selected columns.
	ReadBatch() (arrow.RecordBatch, int, error)
}

// SelectColumns chooses the columns ReadBatch reads (see ColumnBatches).
func (t *parquetTable) SelectColumns(cols []int) error {
	if t.sel != nil || t.rg >= 0 {
		return fileError(t.name, errors.New("SelectColumns after reading began"))
	}
	if len(cols) == 0 {
		return fileError(t.name, errors.New("SelectColumns: no columns"))
	}
	for i, c := range cols {
		if c < 0 || c >= len(t.cols) || (i > 0 && c <= cols[i-1]) {
			return fileError(t.name, fmt.Errorf("SelectColumns: %v are not increasing column indexes below %d", cols, len(t.cols)))
		}
	}
	md, _, err := t.footer.metadata(nil, t.size, nil)
	if err != nil {
		return fileError(t.name, fmt.Errorf("not a readable Parquet file: %w", err))
	}
	sch := md.Schema
	t.leaves, t.dictLeaves = nil, nil
	for leaf := range sch.NumColumns() {
		root := sch.ColumnRoot(leaf)
		top := sch.Root().FieldIndexByField(root)
		if !slices.Contains(cols, top) {
			continue
		}
		t.leaves = append(t.leaves, leaf)
		col := sch.Column(leaf)
		flat := col.Path() == root.Name()
		src, _ := t.cols[top].Source.(arrow.DataType)
		if flat && col.PhysicalType() == parquet.Types.ByteArray && src != nil &&
			(src.ID() == arrow.STRING || src.ID() == arrow.BINARY) {
			t.dictLeaves = append(t.dictLeaves, leaf)
		}
	}
	t.sel = slices.Clone(cols)
	t.recycle = newRecycler()
	return nil
}

// ReadBatch returns the next batch of the selected columns (see
// ColumnBatches).
func (t *parquetTable) ReadBatch() (rec arrow.RecordBatch, first int, err error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	if t.sel == nil {
		return nil, 0, fileError(t.name, errors.New("ReadBatch before SelectColumns"))
	}
	defer t.settle(&err)
	t.i = t.n // the rest of the current batch is read
	if err := t.advance(); err != nil {
		return nil, 0, err
	}
	first = int(t.rows) + 2
	t.rows += int64(t.n - t.i)
	t.i = t.n
	return t.rr.RecordBatch(), first, nil
}

// fileColumn is the index in Columns of column j of the batches read.
func (t *parquetTable) fileColumn(j int) int {
	if t.sel != nil && j >= 0 && j < len(t.sel) {
		return t.sel[j]
	}
	return j
}

// ArrowCells returns the cells of the values of an Arrow array as the
// Parquet reader makes them (see kindOf): cell(i) is the cell of row i,
// or an error for a value that cannot be read (a nested value that cannot
// be written as JSON).
func ArrowCells(arr arrow.Array) (cell func(i int) (table.Cell, error), err error) {
	var bad error
	g, err := getterFor(arr, &bad)
	if err != nil {
		return nil, err
	}
	return func(i int) (table.Cell, error) {
		c := g(i)
		if bad != nil {
			err := bad
			bad = nil
			return table.Cell{}, err
		}
		return c, nil
	}, nil
}
