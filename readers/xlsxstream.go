package readers

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// A worksheet's XML read as a stream, one <row> and one <c> at a time,
// each row's XML within Limits.RowBytes.

// rowBudget fails with a *LimitError (max-row-bytes) once more than max
// bytes were read since the last reset: encoding/xml holds a whole token
// (a text, a tag with its attributes) in memory, so that without it one
// endless token would be held whole.
type rowBudget struct {
	r        io.Reader
	n, max   int64
	exceeded bool
}

func (b *rowBudget) Read(p []byte) (int, error) {
	if b.n >= b.max {
		b.exceeded = true
		return 0, limitError(limitRowBytes, b.max, "this row's XML is too long")
	}
	if rest := b.max - b.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

// sheetStream parses a worksheet's XML one row at a time.
type sheetStream struct {
	rc       io.ReadCloser
	budget   *rowBudget
	d        *xml.Decoder
	sst      []string
	sstLong  map[int]int64
	cellMax  int64
	styles   *styles
	date1904 bool
	// calc computes a formula without a cached value at 0-based column
	// col of row; nil: such a formula is an error.
	calc func(col, row int, formula string) (table.Cell, error)
	// onFormula, when not nil, is told of every formula cell.
	onFormula func(col, row int, formula string, cached bool)
	shared    map[string]sharedFormula // the shared formulas met, by si
	row       int                      // number of the last row started
	rows      int                      // <row> elements started
	inRow     bool                     // reading a <row> element
	buf       []table.Cell             // cells of the current row, reused
	done      bool
}

// sheetRow is one <row> of a sheet.
type sheetRow struct {
	num    int
	cells  []table.Cell // valid until the next call to next
	err    error        // the first cell that could not be decoded
	errCol int
}

// openSheetStream starts reading a worksheet part of the workbook.
func openSheetStream(f *zip.File, wb *workbook) (*sheetStream, error) {
	if err := checkPart(f, wb.lim.XLSXSheetBytes, limitXLSXSheetBytes, wb.lim); err != nil {
		return nil, err
	}
	rc, err := openPart(f)
	if err != nil {
		return nil, err
	}
	budget := &rowBudget{r: rc, max: wb.lim.RowBytes}
	d := xml.NewDecoder(budget)
	return &sheetStream{rc: rc, budget: budget, d: d, sst: wb.sst, sstLong: wb.sstLong, cellMax: wb.lim.CellBytes, styles: wb.styles, date1904: wb.date1904}, nil
}

// close releases the stream. It may be called more than once, and on nil.
func (s *sheetStream) close() error {
	if s == nil || s.rc == nil {
		return nil
	}
	err := s.rc.Close()
	s.rc, s.done = nil, true
	return err
}

// next returns the next <row>, or io.EOF after the last one.
func (s *sheetStream) next() (sheetRow, error) {
	if s.done {
		return sheetRow{}, io.EOF
	}
	s.budget.n = 0 // a budget for everything up to the end of the next row
	for {
		tok, err := s.d.RawToken()
		if err == io.EOF {
			s.done = true
			return sheetRow{}, io.EOF
		}
		if err != nil {
			s.done = true
			return sheetRow{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "row" {
				s.inRow = true
				row, err := s.readRow(t)
				if err != nil {
					s.done = true
					return row, err
				}
				s.inRow = false
				return row, nil
			}
		case xml.EndElement:
			if t.Name.Local == "sheetData" {
				s.done = true
				return sheetRow{}, io.EOF
			}
		}
	}
}

// readRow reads a <row> element up to its end.
func (s *sheetStream) readRow(start xml.StartElement) (sheetRow, error) {
	num := s.row + 1
	s.rows++
	if v, ok := attr(start, "r"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > maxSheetRows {
			return sheetRow{}, fmt.Errorf("row %q: invalid row number", clip(v))
		}
		num = n
	}
	s.row = num
	if num > maxSheetRows || s.rows > maxSheetRows {
		return sheetRow{}, fmt.Errorf("the sheet has more than the %s rows a sheet can hold", groupDigits(maxSheetRows))
	}
	row := sheetRow{num: num, errCol: -1}
	s.buf = s.buf[:0]
	col := -1
	depth := 0
	for {
		tok, err := s.d.RawToken()
		if err != nil {
			return sheetRow{}, unexpected(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 && t.Name.Local == "c" {
				c, cell, cerr, err := s.readCell(t, col)
				if err != nil {
					return sheetRow{}, err
				}
				col = c
				if cerr != nil {
					if row.err == nil {
						row.err, row.errCol = cerr, c
					}
					continue
				}
				for len(s.buf) <= c {
					s.buf = append(s.buf, table.Cell{})
				}
				s.buf[c] = cell
				continue
			}
			depth++
		case xml.EndElement:
			if depth == 0 {
				row.cells = s.buf
				return row, nil
			}
			depth--
		}
	}
}

// sharedFormula is the master cell of a shared formula: the formula as
// written there, and where (0-based column, row).
type sharedFormula struct {
	text     string
	col, row int
}

// rawCell is a <c> element as read.
type rawCell struct {
	col, row    int // 0-based column, 1-based row
	typ, style  string
	v, inline   string
	hasV, hasIS bool
	f           string // the <f> element's text
	hasF        bool
	fType, fSI  string // its t and si attributes
}

// readCell reads a <c> element up to its end. prev is the column of the
// previous cell of the row. It returns the cell's column and value, or an
// error about the cell (cerr), or an error about the XML (err).
func (s *sheetStream) readCell(start xml.StartElement, prev int) (col int, cell table.Cell, cerr, err error) {
	col = prev + 1
	if ref, ok := attr(start, "r"); ok {
		c, ok := columnOf(ref)
		if !ok {
			cerr = fmt.Errorf("invalid cell reference %q", ref)
		} else {
			col = c
		}
	}
	if cerr == nil && col >= maxSheetCols {
		cerr = fmt.Errorf("cell is beyond the last column %s", table.ColumnLetter(maxSheetCols-1))
	}
	rc := rawCell{col: col, row: s.row}
	rc.typ, _ = attr(start, "t")
	rc.style, _ = attr(start, "s")
	var long int64 // the length of a value longer than s.cellMax
	for {
		tok, err := s.d.RawToken()
		if err != nil {
			return col, cell, nil, unexpected(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			var err error
			var n int64
			switch t.Name.Local {
			case "v":
				rc.hasV = true
				rc.v, n, err = text(s.d, s.cellMax)
			case "f":
				rc.hasF = true
				rc.fType, _ = attr(t, "t")
				rc.fSI, _ = attr(t, "si")
				rc.f, n, err = text(s.d, s.cellMax)
			case "is":
				rc.hasIS = true
				rc.inline, n, err = richText(s.d, s.cellMax)
			default:
				_, _, err = text(s.d, 0) // skip, e.g. <extLst>
			}
			if err != nil {
				return col, cell, nil, err
			}
			if n > s.cellMax {
				long = n
			}
		case xml.EndElement:
			if cerr == nil && long > 0 {
				cerr = limitError(limitCellBytes, s.cellMax, "this cell holds %s of text", byteSize(long))
			}
			if cerr != nil {
				return col, cell, cerr, nil
			}
			cell, cerr = s.decodeCell(rc)
			return col, cell, cerr, nil
		}
	}
}
