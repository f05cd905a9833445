package readers

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/internal/xlformula"
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
// kinds are Empty (unknown): a sheet does not declare them.
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

// workbook is what the sheets of one workbook share.
type workbook struct {
	name     string // file name as given
	lim      Limits
	sst      []string
	sstLong  map[int]int64 // shared strings longer than lim.CellBytes: their lengths
	styles   *styles       // nil when the workbook has no styles part
	date1904 bool          // serial numbers count days from 1904-01-01
	refs     []sheetRef
	zr       *zip.Reader
	r        io.ReaderAt
	size     int64
	calc     *calcEngine
	closer   *sharedCloser
}

// hasSheet reports whether the workbook lists a sheet of that name (under
// case folding, as sheet names compare).
func (wb *workbook) hasSheet(name string) bool {
	_, ok := findSheet(wb.refs, name)
	return ok
}

// wbCloser releases what a workbook holds when its last table is closed:
// the calculation engine and the file.
type wbCloser struct {
	wb *workbook
	c  io.Closer
}

func (c wbCloser) Close() error {
	c.wb.calc.close()
	if c.c == nil {
		return nil
	}
	return c.c.Close()
}

// sheetRef is a sheet listed in the workbook.
type sheetRef struct {
	name string
	part *zip.File // nil when the relationship does not resolve
}

// openXLSX lists the workbook's sheets and opens those selected.
func openXLSX(name string, r io.ReaderAt, size int64, closer io.Closer, opts Options) ([]Table, error) {
	lim := opts.Limits
	if isOLE2(r) {
		return nil, fileError(name, errors.New(oleMessage(name)))
	}
	// The number of files is checked before archive/zip reads the central
	// directory, which it holds in memory.
	if n, ok := zipEntries(r, size); ok && n > uint64(lim.XLSXParts) {
		return nil, fileError(name, limitError(limitXLSXParts, lim.XLSXParts, "the workbook's archive holds %s files", groupDigits(clampInt64(n))))
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		return nil, fileError(name, fmt.Errorf("not an XLSX workbook (it is not a zip archive): %w", err))
	}
	if int64(len(zr.File)) > lim.XLSXParts {
		return nil, fileError(name, limitError(limitXLSXParts, lim.XLSXParts, "the workbook's archive holds %s files", groupDigits(int64(len(zr.File)))))
	}
	parts := zipParts(zr)
	if kind := zipKind(zr, parts); kind != zipXLSX && kind != zipOther {
		return nil, fileError(name, errors.New(containerMessage(kind)))
	}
	damaged := func(err error) error {
		var le *LimitError
		if errors.As(err, &le) {
			return fileError(name, err)
		}
		return fileError(name, fmt.Errorf("not a readable XLSX workbook: %w", err))
	}
	// The parts read, each sheet counted once (whether selected or only
	// opened for its header), may unpack to lim.XLSXTotalBytes together:
	// this also bounds a workbook that lists one sheet many times.
	var total int64
	charge := func(f *zip.File) error {
		if f == nil {
			return nil
		}
		total = addClamped(total, clampInt64(f.UncompressedSize64))
		if total > lim.XLSXTotalBytes {
			return fileError(name, limitError(limitXLSXTotalBytes, lim.XLSXTotalBytes, "the parts read up to %s unpack to %s in all", f.Name, byteSize(total)))
		}
		return nil
	}

	// The workbook part, from the package relationships.
	wbPath := "xl/workbook.xml"
	pkgRels, err := readRels(parts, "_rels/.rels", "", lim)
	if err != nil {
		return nil, damaged(err)
	}
	for _, r := range pkgRels {
		if strings.HasSuffix(r.typ, "/officeDocument") {
			wbPath = r.target
			break
		}
	}
	wbPart := parts[strings.ToLower(wbPath)]
	if wbPart == nil {
		return nil, damaged(fmt.Errorf("it has no workbook part %s", wbPath))
	}
	sheets, date1904, err := readWorkbook(wbPart, lim)
	if err != nil {
		return nil, damaged(err)
	}
	if err := charge(wbPart); err != nil {
		return nil, err
	}
	if int64(len(sheets)) > lim.XLSXParts {
		return nil, fileError(name, limitError(limitXLSXParts, lim.XLSXParts, "the workbook lists %s sheets", groupDigits(int64(len(sheets)))))
	}
	dir := path.Dir(wbPath)
	relsPath := path.Join(dir, "_rels", path.Base(wbPath)+".rels")
	rels, err := readRels(parts, relsPath, dir, lim)
	if err != nil {
		return nil, damaged(err)
	}
	byID := make(map[string]rel, len(rels))
	sstPath := path.Join(dir, "sharedStrings.xml")
	stylesPath := path.Join(dir, "styles.xml")
	for _, r := range rels {
		byID[r.id] = r
		switch {
		case strings.HasSuffix(r.typ, "/sharedStrings"):
			sstPath = r.target
		case strings.HasSuffix(r.typ, "/styles"):
			stylesPath = r.target
		}
	}
	wb := &workbook{name: name, lim: lim, date1904: date1904, zr: zr, r: r, size: size}
	wb.calc = &calcEngine{wb: wb}
	if p := parts[strings.ToLower(sstPath)]; p != nil {
		if wb.sst, wb.sstLong, err = readSharedStrings(p, lim); err != nil {
			return nil, damaged(err)
		}
		if err := charge(p); err != nil {
			return nil, err
		}
	}
	if p := parts[strings.ToLower(stylesPath)]; p != nil {
		if wb.styles, err = readStyles(p, lim); err != nil {
			return nil, damaged(err)
		}
		if err := charge(p); err != nil {
			return nil, err
		}
	}
	refs := make([]sheetRef, len(sheets))
	for i, s := range sheets {
		refs[i].name = s.name
		if r, ok := byID[s.rid]; ok && !r.external {
			refs[i].part = parts[strings.ToLower(r.target)]
		}
	}
	wb.refs = refs
	// The calculation engine, if a formula opened it, is released with the
	// last table, or here when no table is returned.
	ok := false
	defer func() {
		if !ok {
			wb.calc.close()
		}
	}()

	// The selected sheets.
	var out []*xlsxSheet
	if opts.Sheet != "" {
		ref, ok := findSheet(refs, opts.Sheet)
		if !ok {
			names := make([]string, len(refs))
			for i, r := range refs {
				names[i] = strconv.Quote(r.name)
			}
			return nil, &table.Error{
				Pos: table.Position{File: name, Column: -1},
				Err: fmt.Errorf("there is no sheet named %q; the workbook's sheets are %s", opts.Sheet, strings.Join(names, ", ")),
			}
		}
		if err := charge(ref.part); err != nil {
			return nil, err
		}
		t, err := openSheet(wb, ref, opts.Known)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return nil, &table.Error{Pos: table.Position{File: name, Sheet: ref.name, Column: -1}, Err: errors.New("the sheet is empty: it has no header row")}
		}
		out = append(out, t)
	} else {
		var seen []string
		for _, ref := range refs {
			if err := charge(ref.part); err != nil {
				return nil, err
			}
			t, err := openSheet(wb, ref, opts.Known)
			if err != nil {
				return nil, err
			}
			if t == nil {
				seen = append(seen, fmt.Sprintf("%q (empty)", ref.name))
				continue
			}
			header := make([]string, len(t.cols))
			for i, c := range t.cols {
				header[i] = c.Name
			}
			if opts.Accept != nil && !opts.Accept(header) {
				seen = append(seen, fmt.Sprintf("%q (header: %s)", ref.name, clipList(header, 8)))
				continue
			}
			out = append(out, t)
		}
		if len(out) == 0 {
			what := "no sheet has a header row with known columns"
			if len(refs) == 0 {
				what = "the workbook has no sheets"
			}
			if len(seen) > 0 {
				what += "; the sheets are " + strings.Join(seen, ", ")
			}
			return nil, fileError(name, errors.New(what))
		}
	}
	wb.closer = newSharedCloser(wbCloser{wb: wb, c: closer}, len(out))
	ok = true
	tables := make([]Table, len(out))
	for i, t := range out {
		tables[i] = t
	}
	return tables, nil
}

// findSheet finds a sheet by exact name, else by name under case folding.
func findSheet(refs []sheetRef, name string) (sheetRef, bool) {
	for _, r := range refs {
		if r.name == name {
			return r, true
		}
	}
	for _, r := range refs {
		if strings.EqualFold(r.name, name) {
			return r, true
		}
	}
	return sheetRef{}, false
}

// headerScanRows is how many non-empty rows at the top of a sheet are
// candidates for its header.
const headerScanRows = 20

// openSheet finds a sheet's header row, and closes its stream until the
// first call to Next. It returns nil, nil for a sheet without a non-empty
// cell.
//
// The header is, among the first headerScanRows non-empty rows, the one
// with the most cells that known approves (the first of those with as
// many), so that a title row or a row of group labels above the header
// ("Prior" over baseline and candidates) is not taken for it. Without
// known, or when no row has a known name, it is the first non-empty row.
func openSheet(wb *workbook, ref sheetRef, known func(string) bool) (*xlsxSheet, error) {
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
	type candidate struct {
		ordinal, num int
		names        []string
		err          error
		errCol       int
		known        int
	}
	var cands []candidate
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
		c := candidate{ordinal: i, num: row.num, err: row.err, errCol: row.errCol}
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

// Columns returns the header's columns; their kinds are Empty (unknown).
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
		s, err := t.openStream()
		if err != nil {
			t.err = io.EOF
			err.Err = fatalError{err.Err}
			return table.Row{}, err
		}
		t.s = s
		// Skip the rows up to the header, read by openSheet.
		for range t.header + 1 {
			if _, err := s.next(); err != nil {
				t.err = io.EOF
				if err == io.EOF {
					err = errors.New("the sheet changed while it was read")
				}
				return table.Row{}, t.fatal(s, err)
			}
		}
	}
	for {
		row, err := t.s.next()
		if err == io.EOF {
			t.err = io.EOF
			return table.Row{}, io.EOF
		}
		if err != nil {
			t.err = io.EOF // the error is reported once
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
		empty := true
		for _, c := range row.cells {
			if !c.IsEmpty() {
				empty = false
				break
			}
		}
		if empty {
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

// clipList formats at most n names.
func clipList(names []string, n int) string {
	q := make([]string, 0, min(len(names), n)+1)
	for i, s := range names {
		if i == n {
			q = append(q, fmt.Sprintf("… (%d more)", len(names)-n))
			break
		}
		q = append(q, strconv.Quote(clip(s)))
	}
	return strings.Join(q, ", ")
}

// rel is one relationship of a part.
type rel struct {
	id, typ, target string // target resolved to a path in the archive
	external        bool
}

// readRels reads a relationships part, resolving targets relative to dir.
// A missing part has no relationships.
func readRels(parts map[string]*zip.File, name, dir string, lim Limits) ([]rel, error) {
	f := parts[strings.ToLower(name)]
	if f == nil {
		return nil, nil
	}
	var out []rel
	err := scanPart(f, lim, func(d *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local != "Relationship" {
			return nil
		}
		var r rel
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "Id":
				r.id = a.Value
			case "Type":
				r.typ = a.Value
			case "Target":
				r.target = a.Value
			case "TargetMode":
				r.external = strings.EqualFold(a.Value, "External")
			}
		}
		if !r.external {
			t := strings.ReplaceAll(r.target, `\`, "/")
			if strings.HasPrefix(t, "/") {
				t = path.Clean(t)[1:]
			} else {
				t = path.Join(dir, t)
			}
			r.target = t
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, partError(name, err)
	}
	return out, nil
}

// wbSheet is a <sheet> of workbook.xml.
type wbSheet struct{ name, rid string }

// readWorkbook lists the workbook's sheets in order, and tells whether
// its dates count from 1904 (workbookPr date1904, set by old Mac Excel).
func readWorkbook(f *zip.File, lim Limits) ([]wbSheet, bool, error) {
	var out []wbSheet
	date1904 := false
	err := scanPart(f, lim, func(d *xml.Decoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "workbookPr":
			switch strings.ToLower(strings.TrimSpace(attrOr(se, "date1904"))) {
			case "1", "true", "on":
				date1904 = true
			}
			return nil
		case "sheet":
		default:
			return nil
		}
		var s wbSheet
		for _, a := range se.Attr {
			switch {
			case a.Name.Local == "name":
				s.name = a.Value
			case a.Name.Local == "id" && a.Name.Space != "":
				s.rid = a.Value
			}
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, false, partError(f.Name, err)
	}
	return out, date1904, nil
}

// readSharedStrings reads the shared strings table. Strings longer than
// lim.CellBytes are not kept: long gives their lengths by index, for the
// error of the cells that use them.
func readSharedStrings(f *zip.File, lim Limits) (sst []string, long map[int]int64, err error) {
	err = scanPart(f, lim, func(d *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local != "si" {
			return nil
		}
		s, n, err := richText(d, lim.CellBytes)
		if err != nil {
			return err
		}
		if n > lim.CellBytes {
			if long == nil {
				long = map[int]int64{}
			}
			long[len(sst)] = n
		}
		sst = append(sst, s)
		return nil
	})
	if err != nil {
		return nil, nil, partError(f.Name, err)
	}
	return sst, long, nil
}

// partError is an error reading the named part: a *LimitError already
// names it.
func partError(name string, err error) error {
	var le *LimitError
	if errors.As(err, &le) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// checkPart refuses a part that declares more than limit unpacked bytes
// (the limit called name), or a compression ratio above lim.XLSXRatio.
// What it declares binds: archive/zip fails when a part unpacks to more.
func checkPart(f *zip.File, limit int64, name string, lim Limits) error {
	size := clampInt64(f.UncompressedSize64)
	if size > limit {
		return limitError(name, limit, "the part %s unpacks to %s", f.Name, byteSize(size))
	}
	if size > ratioGrace {
		packed := clampInt64(f.CompressedSize64)
		if packed == 0 || size/packed > lim.XLSXRatio || (size/packed == lim.XLSXRatio && size%packed != 0) {
			ratio := "without end"
			if packed > 0 {
				ratio = groupDigits(size/packed) + " times its size"
			}
			return limitError(limitXLSXRatio, lim.XLSXRatio, "the part %s unpacks from %s to %s (%s), as a zip bomb does", f.Name, byteSize(packed), byteSize(size), ratio)
		}
	}
	return nil
}

// openPart opens a part that checkPart accepted. The reader fails with a
// clear error if the part unpacks to more than the archive declares.
func openPart(f *zip.File) (io.ReadCloser, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	return &declaredReader{rc: rc, f: f}, nil
}

// declaredReader explains archive/zip's refusal of a part that unpacks to
// more bytes than it declares.
type declaredReader struct {
	rc   io.ReadCloser
	f    *zip.File
	read uint64
}

func (r *declaredReader) Read(p []byte) (int, error) {
	n, err := r.rc.Read(p)
	r.read += uint64(n)
	if errors.Is(err, zip.ErrFormat) && r.read >= r.f.UncompressedSize64 {
		err = fmt.Errorf("the part %s unpacks to more than the %s its archive entry declares: the workbook is damaged or forged", r.f.Name, byteSize(clampInt64(r.f.UncompressedSize64)))
	}
	return n, err
}

func (r *declaredReader) Close() error { return r.rc.Close() }

// scanPart decodes a part held in memory (at most lim.XLSXPartBytes) and
// calls fn for each start element not consumed by an earlier call.
func scanPart(f *zip.File, lim Limits, fn func(*xml.Decoder, xml.StartElement) error) error {
	if err := checkPart(f, lim.XLSXPartBytes, limitXLSXPartBytes, lim); err != nil {
		return err
	}
	rc, err := openPart(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	for {
		// RawToken, not Token: the element readers consume nested
		// elements with RawToken, which Token's nesting check would not
		// see. Names are matched by local name, so prefixes do not matter.
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if se, ok := tok.(xml.StartElement); ok {
			if err := fn(d, se); err != nil {
				return err
			}
		}
	}
}

// richText returns the text of a string item (<si> or <is>): its <t>
// elements, those of its runs included, without phonetic readings (<rPh>).
// It keeps at most max bytes: n is the text's whole length, and the text
// is "" when n > max.
func richText(d tokenReader, max int64) (s string, n int64, err error) {
	var b strings.Builder
	depth, inT, phonetic := 0, 0, 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			return "", 0, unexpected(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "t":
				inT++
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			if depth == 0 {
				if n > max {
					return "", n, nil
				}
				return b.String(), n, nil
			}
			depth--
			switch t.Name.Local {
			case "t":
				inT--
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			if inT > 0 && phonetic == 0 {
				n += int64(len(t))
				if n <= max {
					b.Write(t)
				}
			}
		}
	}
}

// text returns the character data of an element up to its end, keeping at
// most max bytes: n is the data's whole length, and the text is "" when
// n > max.
func text(d tokenReader, max int64) (s string, n int64, err error) {
	var b strings.Builder
	depth := 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			return "", 0, unexpected(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth == 0 {
				if n > max {
					return "", n, nil
				}
				return b.String(), n, nil
			}
			depth--
		case xml.CharData:
			n += int64(len(t))
			if n <= max {
				b.Write(t)
			}
		}
	}
}

// tokenReader is the part of *xml.Decoder the element readers use.
type tokenReader interface {
	RawToken() (xml.Token, error)
}

// unexpected turns an end of input inside an element into an error.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

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

// formulaOf returns the formula of a cell: its own text, or for a cell
// that shares the formula of a master cell (t="shared" with only an si),
// the master's formula moved to the cell as a spreadsheet moves it. An
// array formula (and a data table's) gives "": its text is not the
// formula of the cell alone, so its value is kept without it.
func (s *sheetStream) formulaOf(rc rawCell) (f string, array bool, err error) {
	switch rc.fType {
	case "array", "dataTable":
		return "", true, nil
	case "shared":
		if strings.TrimSpace(rc.f) != "" {
			if s.shared == nil {
				s.shared = map[string]sharedFormula{}
			}
			s.shared[rc.fSI] = sharedFormula{text: rc.f, col: rc.col, row: rc.row}
			return rc.f, false, nil
		}
		m, ok := s.shared[rc.fSI]
		if !ok {
			return "", false, fmt.Errorf("the workbook is damaged: the shared formula %q this cell uses is not defined before it", clip(rc.fSI))
		}
		moved, ok := xlformula.Shift(m.text, rc.row-m.row, rc.col-m.col)
		if !ok {
			return "", false, fmt.Errorf("the shared formula =%s cannot be moved to this cell: a reference leaves the sheet", clip(m.text))
		}
		return moved, false, nil
	}
	return rc.f, false, nil
}

// decodeCell types a cell's value: by its type attribute, and for a
// number by its number format (a date or time format makes a Date,
// Timestamp or TimeOfDay cell). A formula's value is its cached one, or
// the one the calculation engine computes; Cell.Formula holds it.
func (s *sheetStream) decodeCell(rc rawCell) (table.Cell, error) {
	formula, array := "", false
	if rc.hasF {
		var err error
		if formula, array, err = s.formulaOf(rc); err != nil {
			return table.Cell{}, err
		}
		formula = strings.TrimPrefix(strings.TrimSpace(formula), "=")
		// openpyxl and pandas write a formula's missing value as an empty
		// <v></v>: only a string result may be empty.
		cached := rc.hasIS || rc.hasV && (strings.TrimSpace(rc.v) != "" || rc.typ == "str" || rc.typ == "inlineStr")
		if s.onFormula != nil && formula != "" {
			s.onFormula(rc.col, rc.row, formula, cached)
		}
		if !cached {
			return s.computeCell(rc, formula, array)
		}
	}
	cell, err := s.value(rc)
	if err != nil {
		return table.Cell{}, err
	}
	cell.Formula = formula
	return cell, nil
}

// computeCell is the value of a formula without a cached value.
func (s *sheetStream) computeCell(rc rawCell, formula string, array bool) (table.Cell, error) {
	where := table.ColumnLetter(rc.col) + strconv.Itoa(rc.row)
	const advice = "open the workbook in a spreadsheet application and save it, so that its formulas are calculated"
	switch {
	case array:
		return table.Cell{}, fmt.Errorf("cell %s holds an array formula without a computed value, which riskbatch does not compute; %s", where, advice)
	case formula == "":
		return table.Cell{}, fmt.Errorf("cell %s holds an empty formula without a computed value; %s", where, advice)
	case s.calc == nil:
		return table.Cell{}, fmt.Errorf("the formula =%s in cell %s has no computed value; %s", clip(formula), where, advice)
	}
	cell, err := s.calc(rc.col, rc.row, formula)
	if err != nil {
		msg := fmt.Sprintf("the formula =%s in cell %s has no computed value, and riskbatch cannot compute it: %v", clip(formula), where, err)
		var ce *calcError
		if errors.As(err, &ce) && ce.advise {
			msg += "; " + advice
		}
		if ce != nil && ce.err != nil {
			return table.Cell{}, fmt.Errorf("%s: %w", msg, ce.err)
		}
		return table.Cell{}, errors.New(msg)
	}
	if cell.Kind == table.Number {
		if t, ok := serialCell(cell.Num, s.styles.classOf(rc.style), s.date1904); ok {
			cell = t
		}
	}
	cell.Formula = formula
	return cell, nil
}

// value types a cell's cached (or plain) value.
func (s *sheetStream) value(rc rawCell) (table.Cell, error) {
	v := rc.v
	switch rc.typ {
	case "s":
		if strings.TrimSpace(v) == "" {
			return table.Cell{}, nil
		}
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(s.sst) {
			return table.Cell{}, fmt.Errorf("the workbook is damaged: shared string %q does not exist", clip(v))
		}
		if n, long := s.sstLong[i]; long {
			return table.Cell{}, limitError(limitCellBytes, s.cellMax, "this cell's text (shared string %d) holds %s", i, byteSize(n))
		}
		return textCell(s.sst[i]), nil
	case "inlineStr":
		if !rc.hasIS {
			return textCell(v), nil
		}
		return textCell(rc.inline), nil
	case "str", "e":
		return textCell(v), nil
	case "d":
		return isoCell(v), nil
	case "b":
		switch strings.TrimSpace(v) {
		case "1", "true", "TRUE":
			return table.BoolCell(true), nil
		case "0", "false", "FALSE":
			return table.BoolCell(false), nil
		case "":
			return table.Cell{}, nil
		}
		return table.Cell{}, fmt.Errorf("boolean cell holds %q", clip(v))
	case "", "n":
		t := strings.TrimSpace(v)
		if t == "" {
			return table.Cell{}, nil
		}
		x, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return table.Cell{}, fmt.Errorf("number cell holds %q", clip(v))
		}
		if c, ok := serialCell(x, s.styles.classOf(rc.style), s.date1904); ok {
			return c, nil
		}
		return table.NumberCell(x), nil
	}
	return table.Cell{}, fmt.Errorf("unknown cell type %q", clip(rc.typ))
}

// textCell is a Text cell, or an Empty one for "".
func textCell(s string) table.Cell {
	if s == "" {
		return table.Cell{}
	}
	return table.TextCell(s)
}

// attr returns the value of an attribute by local name.
func attr(se xml.StartElement, local string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

// columnOf returns the 0-based column of a cell reference such as "AB12"
// (its letters; the row digits are not checked).
func columnOf(ref string) (int, bool) {
	col, n := 0, 0
	for ; n < len(ref); n++ {
		c := ref[n]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c < 'A' || c > 'Z' {
			break
		}
		col = col*26 + int(c-'A'+1)
		if col > maxSheetCols {
			return 0, false
		}
	}
	if n == 0 {
		return 0, false
	}
	return col - 1, true
}
