package writers

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/table"
)

// Excel's limits.
const (
	// MaxCellChars is the most characters (UTF-16 code units) an Excel cell
	// holds; longer text is cut and ends with TruncatedMarker.
	MaxCellChars = excelize.TotalCellChars
	// MaxSheetRows is the most rows of an Excel sheet, the header included;
	// further rows continue on "Results (2)", "Results (3)", ... each with
	// the header repeated.
	MaxSheetRows = excelize.TotalRows
	// TruncatedMarker ends a text cut to MaxCellChars.
	TruncatedMarker = " …[truncated]"
)

// ProbabilityNumFmt is the number format of Probability columns (and of
// the Summary's and the Curves' fractions): four significant digits in
// view, the cell keeping the full value. Below 0.01 (tiny ones included)
// in scientific notation (2.203E-05), below 0.1 with five decimals
// (0.03988), else four (0.5205). No non-zero probability is ever shown as
// 0. The conditions follow a recalculated value.
const ProbabilityNumFmt = "[<0.01]0.000E+00;[<0.1]0.00000;0.0000"

// Cell fills (RGB) of the XLSX output.
const (
	inputHeaderFill   = "D9D9D9" // grey: columns passed through
	outputHeaderFill  = "BDD7EE" // light blue: status, message and outputs
	errorFill         = "FFC7CE" // light red: error rows
	errorFont         = "9C0006"
	partialFill       = "FFEB9C" // light amber: partial rows
	partialFont       = "9C5700"
	commentAuthor     = "riskbatch"
	maxExactInteger   = 1 << 53 // integers beyond are written as text
	minColWidth       = 10
	maxColWidth       = 40
	messageColWidth   = 60
	probabilityWidth  = 12
	generalNumWidth   = 11 // the most characters Excel's General format shows
	widthSampleRows   = 200
	docsMaxColWidth   = 80
	docsPagesWide     = 2 // the Columns sheet's printed width, in pages
	commentWidthPx    = 320
	commentCharsPerLn = 48
)

// xlsxWriter writes an XLSX workbook with excelize's stream writer.
//
// The data sheet (Options.SheetName, "Results" by default) is the first
// and active sheet. Its header row is bold and frozen, with an autofilter
// over the table; input columns have a grey header, status, message and
// output columns a blue one. A header whose Column.Note is not empty
// carries the note as a comment. Numbers are written as numbers, in full
// precision, in the column's format: Probability → ProbabilityNumFmt,
// Count → "0", Real outputs 4 significant digits (realNumFmt), others
// (inputs: as typed) General; integers beyond ±2^53, which Excel cannot
// hold exactly, are written as text. Rows whose status is "error" are
// filled light red across, "partial" rows light amber; the status is
// centred. Text beyond MaxCellChars is truncated (with TruncatedMarker);
// rows beyond MaxSheetRows continue on further sheets, each with the same
// set-up. Options.Docs becomes a "Columns" sheet after the data sheets,
// and a header note that refers to it names the row that documents its
// column.
//
// Column widths come from the header and from the first widthSampleRows
// rows, which are held until the widths are known (the stream writer
// fixes widths before the first row). Options.Outline folds columns into
// collapsed outline groups, decided when a sheet is finished (see
// headWriter). Every sheet prints in landscape, the data sheets one page
// wide with the header row on every page (see printSetup).
//
// Options.Formulas makes cells live: a cell with a formula is written as
// the formula with the cell's value as its cached result, so a spreadsheet
// shows riskbatch's value and recomputes it when the row's inputs change.
// Options.Shading adds green, amber and red conditional formats;
// Options.Summary and Options.Charts make the Summary sheet, whose charts
// read their data from the Curves sheet.
type xlsxWriter struct {
	lifecycle
	sheetName string
	docs      [][]string
	docsRow   map[string]int // sheet row of the Columns sheet documenting a column
	summary   func() [][]string
	charts    func() *Charts
	formulas  FormulaSource
	numbers   []int // Options.NumberColumns
	shading   *Shading
	maxRows   int // rows per sheet, the header included; set before WriteHeader

	f       *excelize.File
	sw      *excelize.StreamWriter // the current sheet's; nil between sheets
	sheet   string                 // the current sheet's name
	sheets  int                    // data sheets started
	row     int                    // the last row written on the current sheet
	lastCol string                 // letter of the last column

	headerStyle []int    // per column
	colFmt      []string // per column: the number format of its data cells
	real        []bool   // per column: a Real output column (format by value)
	numeric     []bool   // per column: plain numbers in text are numbers
	statusCol   int      // -1 when there is none
	styles      map[styleKey]int
	outline     *Outline
	filled      []int // per column: the data rows of the current sheet with a value in it
	count       []int

	shades shadeStyles

	sampling bool            // rows are held in pending until the widths are known
	pending  []pendingRow    // the first rows
	widths   []float64       // per column, from the header and the first rows
	fbuf     []string        // the formulas of the current row
	cells    []excelize.Cell // reused for every row
	vals     []interface{}
	cut      int64 // cells truncated

	tmpDir    string                // excelize's temporary files, beside the output
	dims      map[string]*sheetHead // placeholder dimension of a data sheet → its used range and columns
	asValues  int64                 // input formulas written as their values
	origin    RowOrigin             // of the row being written
	inputCols []bool                // per column: an input column
}

// pendingRow is a row held until the column widths are known.
type pendingRow struct {
	cells  []table.Cell
	origin RowOrigin
}

func newXLSX(path string, opts Options) (*xlsxWriter, error) {
	name := opts.SheetName
	if name == "" {
		name = DefaultSheetName
	}
	if err := checkSheetName(name); err != nil {
		return nil, fmt.Errorf("writers: %s: sheet name %q: %w", path, name, err)
	}
	if opts.Docs != nil && strings.EqualFold(name, DocsSheetName) {
		return nil, fmt.Errorf("writers: %s: sheet name %q is taken by the column documentation", path, name)
	}
	if (opts.Summary != nil || opts.Charts != nil) && strings.EqualFold(name, SummarySheetName) ||
		opts.Charts != nil && strings.EqualFold(name, CurvesSheetName) {
		return nil, fmt.Errorf("writers: %s: sheet name %q is taken by the summary", path, name)
	}
	out, err := openOutput(path, opts, FormatXLSX)
	if err != nil {
		return nil, err
	}
	// excelize spills a large sheet to temporary files: beside the output,
	// not in the system's temporary folder, so that they count against the
	// output's disk and are found next to it if the run is killed (named
	// like every temporary entry, so that a later run removes them: see
	// removeStale). Close and Abort remove the folder.
	tmp, err := os.MkdirTemp(filepath.Dir(out.f.Name()), tempPattern())
	if err != nil {
		_ = out.abort()
		return nil, fmt.Errorf("writers: creating a temporary folder for %s: %w", path, err)
	}
	return &xlsxWriter{
		tmpDir:    tmp,
		lifecycle: lifecycle{out: out},
		sheetName: name,
		docs:      opts.Docs,
		summary:   opts.Summary,
		charts:    opts.Charts,
		formulas:  opts.Formulas,
		numbers:   opts.NumberColumns,
		shading:   opts.Shading,
		outline:   opts.Outline,
		maxRows:   MaxSheetRows,
		statusCol: -1,
	}, nil
}

// checkSheetName applies Excel's rules for sheet names.
func checkSheetName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("blank")
	case utf16Len(name) > excelize.MaxSheetNameLength:
		return fmt.Errorf("longer than %d characters", excelize.MaxSheetNameLength)
	case strings.HasPrefix(name, "'") || strings.HasSuffix(name, "'"):
		return fmt.Errorf("begins or ends with an apostrophe")
	case strings.ContainsAny(name, `:\/?*[]`):
		return fmt.Errorf(`contains one of : \ / ? * [ ]`)
	}
	return nil
}

// continuationName names the n-th data sheet (n ≥ 2): "Results (2)".
func continuationName(base string, n int) string {
	suffix := " (" + strconv.Itoa(n) + ")"
	base, _ = cutUTF16(base, excelize.MaxSheetNameLength-len(suffix))
	return base + suffix
}

// WriteHeader creates the styles; the data sheet starts once the first
// rows have fixed the column widths.
func (w *xlsxWriter) WriteHeader(cols []table.Column) error {
	if err := w.beginHeader(cols); err != nil {
		return err
	}
	if w.maxRows < 2 || w.maxRows > MaxSheetRows {
		w.maxRows = MaxSheetRows
	}
	if w.shading != nil {
		if err := w.shading.check(len(cols)); err != nil {
			return w.fail(fmt.Errorf("writers: %s: %w", w.out.target, err))
		}
	}
	if w.outline != nil {
		if err := w.outline.check(len(cols)); err != nil {
			return w.fail(fmt.Errorf("writers: %s: %w", w.out.target, err))
		}
	}
	w.f = excelize.NewFile(excelize.Options{TmpDir: w.tmpDir})
	if err := w.setup(); err != nil {
		return w.fail(fmt.Errorf("writers: starting the workbook %s: %w", w.out.target, err))
	}
	w.sampling = true
	return nil
}

// startData fixes the column widths from the header and the rows held so
// far, starts the data sheet and writes those rows.
func (w *xlsxWriter) startData() error {
	w.sampling = false
	w.widths = make([]float64, len(w.cols))
	for i, c := range w.cols {
		w.widths[i] = colWidth(c)
		if c.Role == table.Message {
			continue
		}
		for _, row := range w.pending {
			w.widths[i] = max(w.widths[i], min(float64(w.cellWidth(row.cells[i], i)+2), maxColWidth))
		}
	}
	if err := w.startSheet(); err != nil {
		return err
	}
	for _, row := range w.pending {
		w.origin = row.origin
		if err := w.writeRow(row.cells); err != nil {
			return err
		}
	}
	w.pending = nil
	return nil
}

// cellWidth is the number of characters a cell shows in its column's
// format.
func cellWidth(c table.Cell, f table.Format) int {
	switch c.Kind {
	case table.Text:
		longest := 0
		for _, l := range strings.Split(c.Str, "\n") {
			longest = max(longest, utf8.RuneCountInString(l))
			if longest >= maxColWidth {
				break
			}
		}
		return longest
	case table.Integer:
		return len(strconv.FormatInt(c.Int, 10))
	case table.Bool:
		return len("FALSE")
	case table.Date:
		return len("2006-01-02")
	case table.Timestamp:
		return len("2006-01-02 15:04:05")
	case table.TimeOfDay:
		return len("15:04:05")
	case table.Decimal, table.Nested:
		return min(utf8.RuneCountInString(c.Str), maxColWidth)
	case table.Number:
		switch f {
		case table.Probability:
			return len("0.000000") // and 1.23E-05
		case table.Count:
			return len(strconv.FormatFloat(math.Round(c.Num), 'f', 0, 64))
		}
		return min(len(strconv.FormatFloat(c.Num, 'g', -1, 64)), generalNumWidth)
	}
	return 0
}

// setup names the first sheet and creates the styles.
func (w *xlsxWriter) setup() error {
	if err := w.f.SetSheetName(w.f.GetSheetName(0), w.sheetName); err != nil {
		return err
	}
	header := func(fill string) (int, error) {
		return w.f.NewStyle(&excelize.Style{
			Font:      styleFont(w.f, true, ""),
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{fill}},
			Border:    []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}},
			Alignment: &excelize.Alignment{Vertical: "center", WrapText: true},
		})
	}
	inHeader, err := header(inputHeaderFill)
	if err != nil {
		return err
	}
	outHeader, err := header(outputHeaderFill)
	if err != nil {
		return err
	}
	n := len(w.cols)
	w.headerStyle = make([]int, n)
	w.colFmt = make([]string, n)
	w.real = make([]bool, n)
	w.filled = make([]int, n)
	w.inputCols = make([]bool, n)
	for i, c := range w.cols {
		w.headerStyle[i] = inHeader
		if c.Role != table.Input {
			w.headerStyle[i] = outHeader
		} else {
			w.inputCols[i] = true
		}
		switch c.Format {
		case table.Probability:
			w.colFmt[i] = ProbabilityNumFmt
		case table.Count:
			w.colFmt[i] = countNumFmt
		case table.Real:
			// Inputs are shown as typed.
			w.real[i] = c.Role != table.Input
		}
		if c.Role == table.Status && w.statusCol < 0 {
			w.statusCol = i
		}
	}
	w.lastCol = table.ColumnLetter(n - 1)
	w.cells = make([]excelize.Cell, n)
	w.vals = make([]interface{}, n)
	if w.formulas != nil {
		w.fbuf = make([]string, n)
	}
	w.numeric = make([]bool, n)
	for _, i := range w.numbers {
		if i < 0 || i >= n {
			return fmt.Errorf("number column %d is outside the header's %d columns", i, n)
		}
		w.numeric[i] = true
	}
	if w.shading != nil {
		if w.shades, err = newShadeStyles(w.f); err != nil {
			return err
		}
	}
	if len(w.docs) > 1 {
		w.docsRow = map[string]int{}
		for r, row := range w.docs[1:] {
			if len(row) == 0 {
				continue
			}
			// "epsilon (also eps)" documents epsilon.
			name, _, _ := strings.Cut(row[0], " (")
			if _, dup := w.docsRow[name]; !dup {
				w.docsRow[name] = r + 2
			}
		}
	}
	return nil
}

// colWidth is a column's width in characters.
func colWidth(c table.Column) float64 {
	if c.Role == table.Message {
		return messageColWidth
	}
	width := utf8.RuneCountInString(c.Name) + 3 // room for the filter button
	if c.Format == table.Probability && width < probabilityWidth {
		width = probabilityWidth
	}
	return float64(min(max(width, minColWidth), maxColWidth))
}

// startSheet starts the next data sheet: widths, frozen header, header row
// and its comments.
func (w *xlsxWriter) startSheet() error {
	w.sheets++
	name := w.sheetName
	if w.sheets > 1 {
		name = continuationName(w.sheetName, w.sheets)
		if _, err := w.f.NewSheet(name); err != nil {
			return fmt.Errorf("writers: %s: adding sheet %q: %w", w.out.target, name, err)
		}
	}
	// The stream writer writes the sheet's <dimension> (its used range)
	// when it starts, before the rows are known: a placeholder, unique to
	// the sheet, is written there and replaced by the real range as the
	// archive is written (see zipSink).
	placeholder := "XFD" + strconv.Itoa(MaxSheetRows-w.sheets)
	if err := w.f.SetSheetDimension(name, placeholder); err != nil {
		return fmt.Errorf("writers: %s: starting sheet %q: %w", w.out.target, name, err)
	}
	if w.dims == nil {
		w.dims = map[string]*sheetHead{}
	}
	w.dims[placeholder] = &sheetHead{dim: "A1:" + w.lastCol + "1"}
	if err := printSetup(w.f, name, 1, true); err != nil {
		return fmt.Errorf("writers: %s: page set-up of sheet %q: %w", w.out.target, name, err)
	}
	sw, err := w.f.NewStreamWriter(name)
	if err != nil {
		return fmt.Errorf("writers: %s: starting sheet %q: %w", w.out.target, name, err)
	}
	w.sw, w.sheet, w.row = sw, name, 0
	clear(w.filled)
	w.count = make([]int, len(w.cols))
	wrap := func(err error) error {
		return fmt.Errorf("writers: %s: writing the header of sheet %q: %w", w.out.target, name, err)
	}
	for i := range w.cols {
		if err := sw.SetColWidth(i+1, i+1, w.widths[i]); err != nil {
			return wrap(err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return wrap(err)
	}
	for i, c := range w.cols {
		text, cut := truncate(c.Name)
		if cut {
			w.cut++
		}
		w.cells[i] = excelize.Cell{StyleID: w.headerStyle[i], Value: text}
		w.vals[i] = &w.cells[i]
	}
	if err := sw.SetRow("A1", w.vals); err != nil {
		return wrap(err)
	}
	w.row = 1
	// Comments are kept in the workbook's own parts and referenced from
	// the worksheet element that Flush writes, so they can be added while
	// the sheet streams.
	for i, c := range w.cols {
		c.Note = w.note(i)
		if c.Note == "" {
			continue
		}
		if err := w.f.AddComment(name, noteComment(table.ColumnLetter(i)+"1", c)); err != nil {
			return wrap(fmt.Errorf("note of column %q: %w", c.Name, err))
		}
	}
	return nil
}

// note is the header note of column i: the column's note, what the
// formula source says of its cells, and the row of the Columns sheet that
// documents it, in place of a bare reference to that sheet.
func (w *xlsxWriter) note(i int) string {
	c := w.cols[i]
	note := c.Note
	if w.formulas != nil {
		if d := w.formulas.Describe(i); d != "" && note != "" {
			note += "\n" + d
		}
	}
	n, ok := w.docsRow[strings.TrimSpace(c.Name)]
	if note == "" || !ok {
		return note
	}
	bare := "See the " + DocsSheetName + " sheet."
	lines := strings.Split(note, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != bare {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n") + "\nSee the " + DocsSheetName + " sheet, row " + strconv.Itoa(n) + "."
}

// noteComment is the comment that shows a column's note on its header:
// the column name in bold, then the note.
func noteComment(cell string, c table.Column) excelize.Comment {
	name, _ := cutUTF16(c.Name, 255)
	note, _ := truncate(c.Note)
	if room := MaxCellChars - utf16Len(name) - 1; utf16Len(note) > room {
		note, _ = cutUTF16(note, room-utf16Len(TruncatedMarker))
		note += TruncatedMarker
	}
	lines := 1
	for _, l := range strings.Split(note, "\n") {
		lines += 1 + utf8.RuneCountInString(l)/commentCharsPerLn
	}
	height := min(max(20+14*lines, 60), 400)
	return excelize.Comment{
		Cell:   cell,
		Author: commentAuthor,
		Paragraph: []excelize.RichTextRun{
			{Text: name, Font: &excelize.Font{Bold: true, Size: 9}},
			{Text: "\n" + note, Font: &excelize.Font{Size: 9}},
		},
		Width:  commentWidthPx,
		Height: uint(height),
	}
}

// endSheet puts the autofilter over the current sheet's table and flushes
// its stream.
func (w *xlsxWriter) endSheet() error {
	if w.sw == nil {
		return nil
	}
	sw := w.sw
	w.sw = nil
	ref := "A1:" + w.lastCol + strconv.Itoa(w.row)
	head := w.dims["XFD"+strconv.Itoa(MaxSheetRows-w.sheets)]
	head.dim = ref
	head.cols, head.outline = w.colsElement()
	if err := w.f.AutoFilter(w.sheet, ref, nil); err != nil {
		return fmt.Errorf("writers: %s: autofilter on sheet %q: %w", w.out.target, w.sheet, err)
	}
	// Conditional formats live in the worksheet's own element, which
	// Flush writes after the rows.
	if w.shading != nil && w.row > 1 {
		for _, col := range w.shading.Columns {
			rules := w.shading.rules(col, &w.shades)
			if rules == nil {
				break
			}
			letter := table.ColumnLetter(col)
			area := letter + "2:" + letter + strconv.Itoa(w.row)
			if err := w.f.SetConditionalFormat(w.sheet, area, rules); err != nil {
				return fmt.Errorf("writers: %s: shading %s on sheet %q: %w", w.out.target, area, w.sheet, err)
			}
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("writers: %s: finishing sheet %q: %w", w.out.target, w.sheet, err)
	}
	return nil
}

// Write appends one row: held while the first rows fix the column widths,
// then written, starting a new sheet when the current one is full.
func (w *xlsxWriter) Write(cells []table.Cell) error {
	return w.WriteFrom(cells, RowOrigin{})
}

// WriteFrom is Write for a row whose input side was read at origin, so
// that the formulas of its input cells can be kept live where they land
// (see OriginWriter).
func (w *xlsxWriter) WriteFrom(cells []table.Cell, origin RowOrigin) error {
	if err := w.beginRow(cells); err != nil {
		return err
	}
	if w.sampling {
		w.pending = append(w.pending, pendingRow{append([]table.Cell(nil), cells...), origin})
		if len(w.pending) < widthSampleRows {
			return nil
		}
		if err := w.startData(); err != nil {
			return w.fail(err)
		}
		return nil
	}
	w.origin = origin
	if err := w.writeRow(cells); err != nil {
		return w.fail(err)
	}
	return nil
}

// writeRow writes one row on the current sheet, or on a new one when it is
// full.
func (w *xlsxWriter) writeRow(cells []table.Cell) error {
	if w.row >= w.maxRows {
		if err := w.endSheet(); err != nil {
			return err
		}
		if err := w.startSheet(); err != nil {
			return err
		}
	}
	if w.formulas != nil {
		w.formulas.Formulas(cells, w.row+1, w.fbuf)
	}
	flag := flagNone
	if w.statusCol >= 0 {
		flag = rowFlagOf(cells[w.statusCol].String())
	}
	for i, c := range cells {
		v, numFmt := w.value(c)
		if c.Kind == table.Text && w.numeric[i] {
			if x, ok := table.PlainNumber(c.Str); ok {
				v = x
			}
		}
		if numFmt == "" {
			numFmt = w.colFmt[i]
			if x, ok := v.(float64); ok && w.real[i] {
				numFmt = realNumFmt(realDecimals(x))
			}
		}
		formula := ""
		if w.fbuf != nil && w.fbuf[i] != "" && len(w.fbuf[i]) <= maxFormulaChars {
			if _, isNum := v.(float64); isNum {
				formula = w.fbuf[i]
			}
		} else if c.Formula != "" && w.inputCols[i] {
			var ok bool
			if formula, ok = w.inputFormula(c.Formula, i); !ok {
				formula = ""
				w.asValues++
			} else if v == nil {
				v = "" // a formula whose value is empty: no cached value
			}
		}
		if v == nil && flag == flagNone {
			w.vals[i] = nil // nothing to write: no value, no fill
			continue
		}
		if v != nil && (v != "" || formula != "") {
			w.filled[i]++
			w.count[i]++
		}
		style, err := w.cellStyle(numFmt, flag, i == w.statusCol)
		if err != nil {
			return err
		}
		w.cells[i] = excelize.Cell{StyleID: style, Value: v, Formula: formula}
		w.vals[i] = &w.cells[i]
	}
	w.row++
	if err := w.sw.SetRow("A"+strconv.Itoa(w.row), w.vals); err != nil {
		return fmt.Errorf("writers: %s: writing data row %d (sheet %q, row %d): %w",
			w.out.target, w.rows+1, w.sheet, w.row, err)
	}
	w.rows++
	return nil
}

// value is the excelize value of a cell (nil for an empty cell) and the
// number format it needs, if any: a date or time is a serial number in a
// date or time format, a decimal a number shown with its digits.
func (w *xlsxWriter) value(c table.Cell) (interface{}, string) {
	switch c.Kind {
	case table.Number:
		return c.Num, ""
	case table.Integer:
		if c.Int > maxExactInteger || c.Int < -maxExactInteger {
			return strconv.FormatInt(c.Int, 10), ""
		}
		return c.Int, ""
	case table.Text, table.Nested:
		s, cut := truncate(c.Str)
		if cut {
			w.cut++
		}
		return s, ""
	case table.Bool:
		return c.Bool, ""
	case table.Date, table.Timestamp, table.TimeOfDay:
		if x, format, ok := serialOf(c); ok {
			return x, format
		}
		return c.String(), ""
	case table.Decimal:
		if x, format, ok := decimalNumber(c); ok {
			return x, format
		}
		s, _ := truncate(c.Str)
		return s, ""
	}
	return nil, ""
}

// Close finishes the sheets, adds the Columns sheet and writes the
// workbook into the temporary file, then renames it into place.
func (w *xlsxWriter) Close() error {
	if err := w.beginClose(); err != nil {
		w.closeFile()
		return err
	}
	err := w.finish()
	w.closeFile()
	if err != nil {
		_ = w.out.abort()
		return err
	}
	return w.out.commit()
}

// finish does the work of Close up to the rename.
func (w *xlsxWriter) finish() error {
	if w.sampling {
		if err := w.startData(); err != nil {
			return err
		}
	}
	if err := w.endSheet(); err != nil {
		return err
	}
	var charts *Charts
	if w.charts != nil {
		if charts = w.charts(); charts != nil && len(charts.Plots) > 0 {
			if err := charts.check(); err != nil {
				return fmt.Errorf("writers: %s: %w", w.out.target, err)
			}
		} else {
			charts = nil
		}
	}
	if w.summary != nil || charts != nil {
		var rows [][]string
		if w.summary != nil {
			rows = w.summary()
		}
		if err := w.writeTextSheet(SummarySheetName, rows, charts); err != nil {
			return err
		}
	}
	if w.docs != nil {
		if err := w.writeTextSheet(DocsSheetName, w.docs, nil); err != nil {
			return err
		}
	}
	if charts != nil {
		if err := w.writeCurves(charts); err != nil {
			return err
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	if err := w.f.SetDocProps(&excelize.DocProperties{
		Creator: commentAuthor, LastModifiedBy: commentAuthor, Created: now, Modified: now,
	}); err != nil {
		return fmt.Errorf("writers: %s: document properties: %w", w.out.target, err)
	}
	if err := markWorkbook(w.f); err != nil {
		return fmt.Errorf("writers: %s: document properties: %w", w.out.target, err)
	}
	// excelize assembles the archive in memory unless it is given a
	// ZipWriter: hand it one that writes straight into the temporary file,
	// so that memory does not grow with the size of the workbook.
	// The used ranges are put in above the mark, so that its fingerprint is
	// of the entries as the archive holds them.
	zs := &zipSink{Writer: zip.NewWriter(w.out.f)}
	w.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return &dimensionZip{ZipWriter: markZip(zs), dims: w.dims} })
	if err := w.f.Write(io.Discard); err != nil {
		return fmt.Errorf("writers: writing the workbook %s: %w", w.out.target, err)
	}
	if !zs.closed {
		return fmt.Errorf("writers: writing the workbook %s: archive not finished", w.out.target)
	}
	if len(zs.big) > 0 {
		if err := markZip64(w.out.f, zs.big); err != nil {
			return fmt.Errorf("writers: writing the workbook %s: %w", w.out.target, err)
		}
	}
	return nil
}

// writeTextSheet writes rows of text as a sheet with a bold first row:
// the Columns sheet (Options.Docs) and the Summary sheet (Options.Summary,
// with the plots of Options.Charts right of its rows). Cells that read as
// numbers are written as numbers.
func (w *xlsxWriter) writeTextSheet(name string, rows [][]string, charts *Charts) error {
	var before func(int) error
	if charts != nil {
		before = func(ncols int) error { return w.addCharts(name, ncols, charts) }
	}
	// Printed (or exported to PDF) at the default scale, the charts right
	// of the Summary's table fall across page edges: it prints one
	// landscape page wide, as many pages down as it needs. The Columns
	// sheet, long text in many columns, prints two pages wide (on one its
	// text would be too small to read), its header row on every page. Set
	// on the new sheet before textSheet streams it.
	if _, err := w.f.NewSheet(name); err != nil {
		return fmt.Errorf("writers: %s: writing sheet %q: %w", w.out.target, name, err)
	}
	wide, titles := docsPagesWide, true
	if name == SummarySheetName {
		wide, titles = 1, false // its first row is its title
	}
	if err := printSetup(w.f, name, wide, titles); err != nil {
		return fmt.Errorf("writers: %s: page set-up of sheet %q: %w", w.out.target, name, err)
	}
	cut, err := textSheet(w.f, name, rows, before)
	w.cut += cut
	if err != nil {
		return fmt.Errorf("writers: %s: writing sheet %q: %w", w.out.target, name, err)
	}
	return nil
}

// textSheet writes rows of text as a new sheet of f with the stream
// writer (see writeTextSheet) and returns how many cells it truncated.
// before, when not nil, runs before the sheet is flushed, with the number
// of columns of its table.
func textSheet(f *excelize.File, name string, rows [][]string, before func(ncols int) error) (cut int64, err error) {
	wrap := func(err error) (int64, error) { return cut, err }
	if _, err := f.NewSheet(name); err != nil {
		return wrap(err)
	}
	head, err := f.NewStyle(&excelize.Style{
		Font:      styleFont(f, true, ""),
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{inputHeaderFill}},
		Border:    []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "top", WrapText: true},
	})
	if err != nil {
		return wrap(err)
	}
	body, err := f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}})
	if err != nil {
		return wrap(err)
	}
	// A fraction in (0, 1) (the Summary's bounds) is shown as the data
	// sheet shows probabilities, not with General's 15 digits.
	probFmt := ProbabilityNumFmt
	prob, err := f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}, CustomNumFmt: &probFmt})
	if err != nil {
		return wrap(err)
	}
	// A row of one cell below the first is a line of text: it does not
	// widen its column and runs over the empty cells to its right.
	line, err := f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}})
	if err != nil {
		return wrap(err)
	}
	isLine := func(r int) bool { return r > 0 && len(rows[r]) == 1 }
	ncols := 0
	var widths []int
	for r, row := range rows {
		ncols = max(ncols, len(row))
		if isLine(r) {
			continue
		}
		for j, s := range row {
			if j >= len(widths) {
				widths = append(widths, minColWidth)
			}
			longest := 0
			for _, l := range strings.Split(s, "\n") {
				longest = max(longest, utf8.RuneCountInString(l))
			}
			widths[j] = min(max(widths[j], longest+2), docsMaxColWidth)
		}
	}
	if len(rows) > 0 && ncols > 0 {
		// The stream writer declares the used range it was told of.
		if err := f.SetSheetDimension(name, "A1:"+table.ColumnLetter(ncols-1)+strconv.Itoa(len(rows))); err != nil {
			return wrap(err)
		}
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return wrap(err)
	}
	for j, width := range widths {
		if err := sw.SetColWidth(j+1, j+1, float64(width)); err != nil {
			return wrap(err)
		}
	}
	if len(rows) > 1 {
		if err := sw.SetPanes(&excelize.Panes{
			Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
			Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
		}); err != nil {
			return wrap(err)
		}
	}
	cells := make([]excelize.Cell, ncols)
	vals := make([]interface{}, ncols)
	for r, row := range rows {
		style := body
		switch {
		case r == 0:
			style = head
		case isLine(r):
			style = line
		}
		for j := range vals {
			var v interface{}
			cellStyle := style
			if j < len(row) {
				s, truncated := truncate(row[j])
				if truncated {
					cut++
				}
				v = s
				if x, err := strconv.ParseFloat(s, 64); err == nil && r > 0 {
					v = x // a number stays a number
					if x > 0 && x < 1 && !isLine(r) {
						cellStyle = prob
					}
				}
			}
			cells[j] = excelize.Cell{StyleID: cellStyle, Value: v}
			vals[j] = &cells[j]
		}
		// Spreadsheets do not fit the height of a row to wrapped text
		// when they open a file: give a row the lines its longest cell
		// needs at its column's width.
		var opts []excelize.RowOpts
		if lines := wrappedLines(row, widths); lines > 1 && !isLine(r) {
			opts = append(opts, excelize.RowOpts{Height: float64(min(lines, maxTextRowLines)) * textLineHeight})
		}
		if err := sw.SetRow("A"+strconv.Itoa(r+1), vals, opts...); err != nil {
			return wrap(err)
		}
	}
	if before != nil {
		if err := before(ncols); err != nil {
			return wrap(err)
		}
	}
	if err := sw.Flush(); err != nil {
		return wrap(err)
	}
	return cut, nil
}

// Heights of wrapped text rows, in points.
const (
	textLineHeight  = 13
	maxTextRowLines = 24
)

// wrappedLines estimates how many lines the longest cell of a row takes,
// wrapped at its column's width (in characters; some room for margins).
func wrappedLines(row []string, widths []int) int {
	most := 1
	for j, s := range row {
		if j >= len(widths) {
			break
		}
		room := max(widths[j]-2, 1)
		lines := 0
		for _, l := range strings.Split(s, "\n") {
			lines += max(1, (utf8.RuneCountInString(l)+room-1)/room)
		}
		most = max(most, lines)
	}
	return most
}

// closeFile releases excelize's temporary files and their folder.
func (w *xlsxWriter) closeFile() {
	if w.f != nil {
		_ = w.f.Close()
		w.f = nil
	}
	if w.tmpDir != "" {
		_ = os.RemoveAll(w.tmpDir)
		w.tmpDir = ""
	}
}

// Abort removes the temporary files.
func (w *xlsxWriter) Abort() error {
	if !w.beginAbort() {
		return nil
	}
	w.closeFile()
	return w.out.abort()
}

// TruncatedCells returns how many cells (headers, data and the Columns
// sheet) were cut to MaxCellChars so far.
func (w *xlsxWriter) TruncatedCells() int64 { return w.cut }

// FormulasAsValues returns how many input formulas were written as their
// values alone, so far (see OriginWriter).
func (w *xlsxWriter) FormulasAsValues() int64 { return w.asValues }

// truncate cuts s to MaxCellChars UTF-16 code units, ending it with
// TruncatedMarker, and reports whether it did.
func truncate(s string) (string, bool) {
	// A string has no more UTF-16 code units than UTF-8 bytes.
	if len(s) <= MaxCellChars || utf16Len(s) <= MaxCellChars {
		return s, false
	}
	head, _ := cutUTF16(s, MaxCellChars-utf16Len(TruncatedMarker))
	return head + TruncatedMarker, true
}

// utf16Len is the length of s in UTF-16 code units, as Excel counts.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// cutUTF16 returns the longest prefix of s of at most n UTF-16 code units
// that does not split a character, and whether it is shorter than s.
func cutUTF16(s string, n int) (string, bool) {
	units := 0
	for i, r := range s {
		k := utf16.RuneLen(r)
		if units+k > n {
			return s[:i], true
		}
		units += k
	}
	return s, false
}

// zipSink is the ZipWriter handed to excelize: a zip.Writer on the
// temporary file that remembers which entries outgrew 4 GiB, and that
// writes the real used range into each data sheet's <dimension> element
// in place of the placeholder the sheet was started with, and its final
// <cols> (dims; see headWriter).
type zipSink struct {
	*zip.Writer
	cur     *countWriter
	curName string
	big     []string // entries of more than math.MaxUint32 bytes
	closed  bool
}

// Create starts an entry.
func (z *zipSink) Create(name string) (io.Writer, error) {
	if err := z.endEntry(); err != nil {
		return nil, err
	}
	w, err := z.Writer.Create(name)
	if err != nil {
		return nil, err
	}
	z.cur, z.curName = &countWriter{w: w}, name
	return z.cur, nil
}

// Close finishes the archive.
func (z *zipSink) Close() error {
	if err := z.endEntry(); err != nil {
		return err
	}
	if err := z.Writer.Close(); err != nil {
		return err
	}
	z.closed = true
	return nil
}

func (z *zipSink) endEntry() error {
	if z.cur != nil && z.cur.n > math.MaxUint32 {
		z.big = append(z.big, z.curName)
	}
	z.cur = nil
	return nil
}

// dimensionZip is a ZipWriter that puts each data sheet's real used range
// and column layout into the worksheet entries it passes on (see
// headWriter).
type dimensionZip struct {
	excelize.ZipWriter
	dims map[string]*sheetHead
	dim  *headWriter
}

// Create starts an entry, after finishing the previous one.
func (z *dimensionZip) Create(name string) (io.Writer, error) {
	if err := z.endEntry(); err != nil {
		return nil, err
	}
	w, err := z.ZipWriter.Create(name)
	if err != nil || len(z.dims) == 0 || !strings.HasPrefix(name, "xl/worksheets/") || !strings.HasSuffix(name, ".xml") {
		return w, err
	}
	z.dim = &headWriter{w: w, heads: z.dims}
	return z.dim, nil
}

// Close finishes the last entry and the archive.
func (z *dimensionZip) Close() error {
	if err := z.endEntry(); err != nil {
		return err
	}
	return z.ZipWriter.Close()
}

func (z *dimensionZip) endEntry() error {
	if z.dim == nil {
		return nil
	}
	err := z.dim.flush()
	z.dim = nil
	return err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// markZip64 sets the "version needed" of the local headers of the named
// entries to 4.5 (ZIP64), as excelize does when it writes the archive
// itself: archive/zip leaves 2.0 there, and Excel reports a file whose
// local and central headers disagree as corrupt.
func markZip64(f *os.File, names []string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return fmt.Errorf("reading back the archive: %w", err)
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	for _, zf := range zr.File {
		if !want[zf.Name] {
			continue
		}
		data, err := zf.DataOffset()
		if err != nil {
			return err
		}
		off, err := localHeader(f, data, zf.Name)
		if err != nil {
			return err
		}
		if _, err := f.WriteAt([]byte{45, 0}, off+4); err != nil {
			return err
		}
	}
	return nil
}

// localHeader finds the offset of the local file header of the entry
// named name whose data starts at data: the header is 30 bytes, the name
// and an extra field of unknown length.
func localHeader(f *os.File, data int64, name string) (int64, error) {
	fixed := int64(30 + len(name))
	start := max(data-fixed-math.MaxUint16, 0)
	buf := make([]byte, data-start)
	if _, err := f.ReadAt(buf, start); err != nil {
		return 0, err
	}
	for extra := 0; extra <= math.MaxUint16; extra++ {
		i := int64(len(buf)) - fixed - int64(extra)
		if i < 0 {
			break
		}
		h := buf[i:]
		if bytes.HasPrefix(h, []byte("PK\x03\x04")) &&
			int(h[26])|int(h[27])<<8 == len(name) &&
			int(h[28])|int(h[29])<<8 == extra &&
			string(h[30:30+len(name)]) == name {
			return start + i, nil
		}
	}
	return 0, fmt.Errorf("no local header for %s", name)
}
