package readers

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

const (
	// maxSheetRows and maxSheetCols are the dimensions of an Excel sheet.
	maxSheetRows = 1 << 20
	maxSheetCols = 1 << 14
)

// An XLSX workbook is read straight from its zip archive: each worksheet's
// XML is decompressed and parsed as a stream, one row at a time, so a sheet
// is never held in memory; only the workbook index, its relationships and
// the shared strings table are. (excelize's Rows iterator streams too, but
// returns every cell as an untyped string, so that a boolean, a number and
// a text that looks like a number cannot be told apart, and excelize
// unpacks every part of the archive when it opens it.)
//
// Sheets: with Options.Sheet, that sheet only (an exact name, else a name
// equal under Unicode case folding, as Excel compares sheet names), whatever
// its header; otherwise every worksheet whose header Options.Accept
// approves, in workbook order (hidden sheets included). A sheet without any
// non-empty cell is never selected automatically.
//
// Header: the row with the most names Options.Known approves among the
// first 20 non-empty rows, else the first non-empty row (see openSheet);
// rows above it are not read, and HeaderNote says so. Header names are the
// cells' text (a number as its shortest decimal form) trimmed of
// surrounding space; the header ends at its last non-empty cell. Column
// kinds are Empty (unknown): a sheet does not declare them; with
// Options.ColumnKinds they are the kinds the cells share (see findKinds).
//
// Rows keep the row number the spreadsheet shows. Rows whose cells are all
// empty (or only spaces) are not returned, since sheets often carry empty
// formatted rows. A data cell right of the header's last column is an
// error for its row, unless it is empty.
//
// Cells: a number is a Number cell, or a Date, Timestamp or TimeOfDay cell
// when its number format shows a date or time (see serialCell; the
// workbook's 1904 date system is honoured); a shared, inline or formula
// string is Text; a boolean is Bool; an error value such as #DIV/0! is
// Text holding it; a date cell in ISO 8601 form (t="d", rare) is a Date,
// Timestamp or TimeOfDay cell. A formula cell holds its cached value, the
// one last computed by the spreadsheet application, and its formula in
// Cell.Formula (a shared formula moved to the cell; an array formula's
// cells only their values); a formula without a cached value is computed
// (see calcEngine), or is an error for its row that names the cell and
// the formula. A cell that cannot be decoded is an error for its row only.
//
// Limits: the archive may hold at most Limits.XLSXParts files and list as
// many sheets; each part read may unpack to at most Limits.XLSXSheetBytes
// (a worksheet, streamed) or Limits.XLSXPartBytes (the other parts, held
// in memory), with a compression ratio of at most Limits.XLSXRatio, and
// the parts read together to at most Limits.XLSXTotalBytes: beyond these
// Open fails. A row's XML may hold at most Limits.RowBytes (beyond, the
// sheet's stream ends with an error) and a cell's text Limits.CellBytes
// (beyond, the cell is an error for its row). These are checked against
// the sizes the archive declares, which cannot lie: archive/zip refuses
// a part that unpacks to more than its declared size.
//
// A sheet's stream is opened when its first row is read, not at Open, so
// that a workbook of many sheets does not hold a decompressor per sheet.
type xlsxSheet struct {
	wb        *workbook
	ref       sheetRef
	name      string // sheet name
	cols      []table.Column
	header    int          // ordinal of the header among the sheet's <row> elements
	headerRow int          // the header's row number
	above     [2]int       // the first and last non-empty rows above the header (0: none)
	s         *sheetStream // nil until the first call to Next
	err       error        // io.EOF once the stream ended
	closed    bool
}

// headerScanRows is how many non-empty rows at the top of a sheet are
// candidates for its header.
const headerScanRows = 20

// openSheet finds a sheet's header row, and closes its stream until the
// first call to Next. It returns nil, nil for a sheet without a non-empty
// cell. The sheet's part is first charged to budget.
//
// The header is, among the first headerScanRows non-empty rows, the one
// with the most cells that known approves (the first of those with as
// many), so that a title row or a row of group labels above the header
// ("Prior" over baseline and candidates) is not taken for it. Without
// known, or when no row has a known name, it is the first non-empty row.
func openSheet(wb *workbook, ref sheetRef, known func(string) bool, budget *partBudget) (*xlsxSheet, error) {
	if err := budget.charge(ref.part); err != nil {
		return nil, err
	}
	pos := table.Position{File: wb.name, Sheet: ref.name, Column: -1}
	if ref.part == nil {
		return nil, &table.Error{Pos: pos, Err: errors.New("the workbook is damaged: the sheet's part is missing")}
	}
	t := &xlsxSheet{wb: wb, ref: ref, name: ref.name}
	s, err := t.openStream()
	if err != nil {
		return nil, err
	}
	defer s.close()
	cands, cerr := t.headerCandidates(s, known)
	if cerr != nil {
		return nil, cerr
	}
	if len(cands) == 0 {
		return nil, nil
	}
	best := 0
	for i, c := range cands {
		if c.known > cands[best].known {
			best = i
		}
	}
	h := cands[best]
	if h.err != nil {
		return nil, t.cellError(h.num, h.errCol, h.err)
	}
	t.header, t.headerRow = h.ordinal, h.num
	for _, c := range cands[:best] {
		if len(c.names) > 0 || c.err != nil {
			if t.above[0] == 0 {
				t.above[0] = c.num
			}
			t.above[1] = c.num
		}
	}
	t.cols = make([]table.Column, len(h.names))
	for i := range t.cols {
		t.cols[i].Name = h.names[i]
	}
	return t, nil
}

// headerCandidate is a non-empty row at the top of a sheet, which may be
// its header.
type headerCandidate struct {
	ordinal, num int      // ordinal among the <row> elements, row number
	names        []string // its cells' text, up to the last non-empty one
	err          error    // the first cell that could not be decoded
	errCol       int
	known        int // how many names known approves
}

// headerCandidates reads the first headerScanRows non-empty rows of the
// sheet's stream s (only the first without known).
func (t *xlsxSheet) headerCandidates(s *sheetStream, known func(string) bool) ([]headerCandidate, error) {
	var cands []headerCandidate
	for i := 0; len(cands) < headerScanRows; i++ {
		row, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(cands) > 0 && known != nil {
				break // the damage is reported when the rows are read
			}
			return nil, t.fatal(s, err)
		}
		last := -1
		for i, c := range row.cells {
			if !c.IsEmpty() {
				last = i
			}
		}
		if last < 0 && row.err == nil {
			continue
		}
		c := headerCandidate{ordinal: i, num: row.num, err: row.err, errCol: row.errCol}
		for _, cell := range row.cells[:last+1] {
			name := strings.TrimSpace(cell.String())
			c.names = append(c.names, name)
			if known != nil && name != "" && known(name) {
				c.known++
			}
		}
		cands = append(cands, c)
		if known == nil {
			break
		}
	}
	return cands, nil
}

// HeaderNote says where the header was found when rows with content stand
// above it ("header on row 3; rows 1–2 above it are not read"), and is ""
// otherwise.
func (t *xlsxSheet) HeaderNote() string {
	switch {
	case t.above[0] == 0:
		return ""
	case t.above[0] == t.above[1]:
		return fmt.Sprintf("header on row %d; row %d above it is not read", t.headerRow, t.above[0])
	}
	return fmt.Sprintf("header on row %d; rows %d–%d above it are not read", t.headerRow, t.above[0], t.above[1])
}

// openStream starts reading the sheet's XML from its beginning.
func (t *xlsxSheet) openStream() (*sheetStream, *table.Error) {
	s, err := openSheetStream(t.ref.part, t.wb)
	if err != nil {
		var le *LimitError
		if !errors.As(err, &le) {
			err = fmt.Errorf("cannot read the sheet: %w", err)
		}
		return nil, &table.Error{Pos: table.Position{File: t.wb.name, Sheet: t.name, Column: -1}, Err: err}
	}
	s.calc = func(col, row int, _ string) (table.Cell, error) {
		return t.wb.calc.compute(t.name, col+1, row)
	}
	return s, nil
}

// File returns the workbook's name as given to Open.
func (t *xlsxSheet) File() string { return t.wb.name }

// Sheet returns the sheet's name.
func (t *xlsxSheet) Sheet() string { return t.name }

// Columns returns the header's columns; their kinds are Empty (unknown)
// unless Options.ColumnKinds found them.
func (t *xlsxSheet) Columns() []table.Column { return t.cols }

// Next returns the next row that has a non-empty cell. An error of type
// *table.Error about one row (an undecodable cell, a value right of the
// header) concerns that row only, and the next call reads on; an error
// about the sheet's XML ends the stream: the next call returns io.EOF.
func (t *xlsxSheet) Next() (table.Row, error) {
	if t.err != nil {
		return table.Row{}, t.err
	}
	if t.closed {
		return table.Row{}, &table.Error{Pos: table.Position{File: t.wb.name, Sheet: t.name, Column: -1}, Err: errors.New("read after close")}
	}
	if t.s == nil {
		if err := t.start(); err != nil {
			t.err = io.EOF // the error is reported once
			return table.Row{}, err
		}
	}
	for {
		row, err := t.s.next()
		if err != nil {
			t.err = io.EOF // a damaged sheet's error is reported once
			if err == io.EOF {
				return table.Row{}, io.EOF
			}
			return table.Row{}, t.fatal(t.s, err)
		}
		n := len(t.cols)
		pos := table.Position{File: t.wb.name, Sheet: t.name, Row: row.num, Column: -1}
		cells := make([]table.Cell, n)
		copy(cells, row.cells)
		if row.err != nil {
			// The readable cells under the header come with the error, so
			// the caller can keep the row as an error row.
			return table.Row{Pos: pos, Cells: cells}, t.cellError(row.num, row.errCol, row.err)
		}
		if allEmpty(row.cells) {
			continue
		}
		for i := n; i < len(row.cells); i++ {
			if !row.cells[i].IsEmpty() {
				return table.Row{Pos: pos, Cells: cells}, t.cellError(row.num, i, fmt.Errorf("this cell (%q) is right of the header's last column %s, and has no header", clip(row.cells[i].String()), table.ColumnLetter(n-1)))
			}
		}
		return table.Row{Pos: pos, Cells: cells}, nil
	}
}

// start opens the sheet's stream on the first call to Next, and skips the
// rows up to the header, read by openSheet. Its errors end the stream.
func (t *xlsxSheet) start() error {
	s, err := t.openStream()
	if err != nil {
		err.Err = fatalError{err.Err}
		return err
	}
	t.s = s
	for range t.header + 1 {
		if _, err := s.next(); err != nil {
			if err == io.EOF {
				err = errors.New("the sheet changed while it was read")
			}
			return t.fatal(s, err)
		}
	}
	return nil
}

// Close releases the sheet, and the file once every sheet is closed. It
// may be called more than once.
func (t *xlsxSheet) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	err := t.s.close()
	t.s = nil
	if cerr := t.wb.closer.release(); err == nil {
		err = cerr
	}
	return err
}

// fatal is the error that ends the sheet's stream s, at the row being
// read.
func (t *xlsxSheet) fatal(s *sheetStream, err error) error {
	row := s.row
	if !s.inRow {
		row++ // between rows: the error is about the next one
	}
	var le *LimitError
	if !errors.As(err, &le) {
		err = fmt.Errorf("the sheet is damaged: %w", err)
	}
	return &table.Error{
		Pos: table.Position{File: t.wb.name, Sheet: t.name, Row: row, Column: -1},
		Err: fatalError{err},
	}
}

// cellError is an error about one cell.
func (t *xlsxSheet) cellError(row, col int, err error) error {
	pos := table.Position{File: t.wb.name, Sheet: t.name, Row: row, Column: col}
	if col >= 0 && col < len(t.cols) {
		pos.ColumnName = t.cols[col].Name
	}
	return &table.Error{Pos: pos, Err: err}
}
