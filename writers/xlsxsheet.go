package writers

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/table"
)

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
		w.rowCells = newRowCells(w.cols)
	}
	w.wrap = make([]bool, n)
	for i, c := range w.cols {
		w.wrap[i] = sentences(c)
	}
	w.foldedOut = make([]bool, n)
	if w.outline != nil {
		for _, i := range w.outline.Columns {
			w.foldedOut[i] = true
		}
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

// sentences reports whether a column holds sentences, which its cells wrap
// in a column of messageColWidth: the message, and a text the evaluator
// writes (headline_says).
func sentences(c table.Column) bool {
	return c.Role == table.Message || c.Role == table.Output && c.Kind == table.Text
}

// colWidth is a column's width in characters.
func colWidth(c table.Column) float64 {
	if sentences(c) {
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
	if err := printSetup(w.f, name, 0, true); err != nil { // scaled in endSheet
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

// endSheet puts the autofilter over the current sheet's table, sets the
// scale it prints at from its unfolded columns (printScale) and flushes
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
	fold := w.folded()
	head.cols, head.outline = w.colsElement(fold)
	// The page set-up is in the worksheet element that Flush writes.
	scale := printScale(w.widths, fold)
	if err := w.f.SetPageLayout(w.sheet, &excelize.PageLayoutOptions{AdjustTo: &scale}); err != nil {
		return fmt.Errorf("writers: %s: print scale of sheet %q: %w", w.out.target, w.sheet, err)
	}
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
