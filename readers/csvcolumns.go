package readers

import (
	"errors"
	"fmt"
	"strings"
)

// FieldRecords is a Table whose records can also be read as the text of
// some of their fields, without a cell being made for each field: a CSV or
// TSV file (Open's CSV and TSV tables implement it). Every field is still
// split from the record and checked as Next checks it (its encoding, its
// length, the record's fields beyond the header), so that a record is an
// error exactly when Next would return one for it; only the fields of the
// columns chosen are handed over.
type FieldRecords interface {
	// SelectColumns chooses the fields NextFields returns: indexes in
	// Columns, increasing. It must be called once, before the first read;
	// Next may not be called afterwards.
	SelectColumns(cols []int) error
	// NextFields reads the next record and sets fields[j] to the text of
	// its field in column cols[j] ("" for an empty or absent field, or
	// one that is not kept); len(fields) must be len(cols). It returns
	// the record's row number, and the error Next would return for it
	// (after a *table.Error about the record, the next call reads on);
	// io.EOF after the last record.
	NextFields(fields []string) (row int, err error)
}

// SelectColumns chooses the fields NextFields returns (see FieldRecords).
func (t *delimited) SelectColumns(cols []int) error {
	if t.sel != nil {
		return fileError(t.name, errors.New("SelectColumns called twice"))
	}
	for i, c := range cols {
		if c < 0 || c >= len(t.cols) || (i > 0 && c <= cols[i-1]) {
			return fileError(t.name, fmt.Errorf("SelectColumns: %v are not increasing column indexes below %d", cols, len(t.cols)))
		}
	}
	t.sel = make([]int, len(t.cols)) // column → 1 + index in cols, or 0
	for j, c := range cols {
		t.sel[c] = j + 1
	}
	t.nsel = len(cols)
	return nil
}

// NextFields reads the next record's selected fields (see FieldRecords).
func (t *delimited) NextFields(fields []string) (int, error) {
	if t.sel == nil {
		return 0, fileError(t.name, errors.New("NextFields before SelectColumns"))
	}
	if len(fields) != t.nsel {
		return 0, fileError(t.name, fmt.Errorf("NextFields: %d fields for %d columns", len(fields), t.nsel))
	}
	rec, pos, err := t.nextRecord()
	if err != nil {
		return pos.Row, err
	}
	clear(fields)
	kept, all := 0, 0
	err = t.checkRecord(rec, &pos, func(i int, f string) {
		all += len(f)
		if j := t.sel[i]; j > 0 {
			fields[j-1] = f
			kept += len(f)
		}
	})
	if all > 2*kept+256 {
		// The fields share the record's text: a caller that keeps a
		// batch of them would keep every record whole. Copy the few
		// bytes kept when they are a small part of the record.
		for j, f := range fields {
			fields[j] = strings.Clone(f)
		}
	}
	return pos.Row, err
}
