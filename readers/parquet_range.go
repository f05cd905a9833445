package readers

import (
	"errors"
	"fmt"
)

// RowGroups returns the number of rows of each row group of a Parquet
// table of Open, in file order, as its footer declares them; ok is false
// for a table of another format. A caller that reads a large file in parts
// side by side (the Beam pipeline) cuts it into runs of row groups with it
// and reads each run with LimitRowGroups.
func RowGroups(t Table) (rows []int64, ok bool) {
	pt, ok := t.(*parquetTable)
	if !ok {
		return nil, false
	}
	rows = make([]int64, len(pt.footer.groups))
	for g, ref := range pt.footer.groups {
		rows[g] = ref.rows
	}
	return rows, true
}

// LimitRowGroups makes a Parquet table of Open read only its row groups
// from, from+1, …, to-1, before its first row is read. Rows keep the
// numbers they have in the whole file (the first row of group from is row
// 2 plus the rows of the groups before it), and errors name the row groups
// by their index in the file, so that the parts of a file read separately
// give the rows, cells and messages that reading it whole gives. Each row
// group is checked as when the file is read whole (its rows against its
// metadata); a table limited to the last groups also checks that the rows
// up to the end of the file are as many as the footer declares.
// NumRows then counts the rows of the groups before to.
func LimitRowGroups(t Table, from, to int) error {
	pt, ok := t.(*parquetTable)
	if !ok {
		return fmt.Errorf("%s: only a Parquet table can be read by row groups", t.File())
	}
	f := pt.footer
	switch {
	case from < 0 || to < from || to > len(f.groups):
		return fmt.Errorf("%s: row groups %d to %d: the file has %d", pt.name, from, to-1, len(f.groups))
	case pt.rg != -1 || pt.rows != 0 || pt.err != nil || pt.closed:
		return fileError(pt.name, errors.New("row groups limited after rows were read"))
	}
	var before, upTo int64
	for g, ref := range f.groups[:to] {
		if g < from {
			before += ref.rows
		}
		upTo += ref.rows
	}
	// A footer of the groups before to: advance stops after group to-1 and
	// checks the rows read against upTo; the indices stay the file's.
	pt.footer = &parquetFooter{head: f.head, tail: f.tail, groups: f.groups[:to], numRows: upTo}
	pt.rg, pt.rows = from-1, before
	return nil
}
