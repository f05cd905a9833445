package writers

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/table"
)

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
	st, err := newTextStyles(f)
	if err != nil {
		return wrap(err)
	}
	ncols, widths := textWidths(rows)
	sw, err := newTextStream(f, name, len(rows), ncols, widths)
	if err != nil {
		return wrap(err)
	}
	cells := make([]excelize.Cell, ncols)
	vals := make([]interface{}, ncols)
	for r, row := range rows {
		style := st.body
		switch {
		case r == 0:
			style = st.head
		case isTextLine(rows, r):
			style = st.line
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
					if x > 0 && x < 1 && !isTextLine(rows, r) {
						cellStyle = st.prob
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
		if lines := wrappedLines(row, widths); lines > 1 && !isTextLine(rows, r) {
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

// textStyles are the cell styles of a text sheet: its header row, its
// wrapped text, its fractions and its lines.
type textStyles struct{ head, body, prob, line int }

// newTextStyles adds the styles of a text sheet to f.
func newTextStyles(f *excelize.File) (st textStyles, err error) {
	st.head, err = f.NewStyle(&excelize.Style{
		Font:      styleFont(f, true, ""),
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{inputHeaderFill}},
		Border:    []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "top", WrapText: true},
	})
	if err != nil {
		return st, err
	}
	st.body, err = f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}})
	if err != nil {
		return st, err
	}
	// A fraction in (0, 1) (the Summary's bounds) is shown as the data
	// sheet shows probabilities, not with General's 15 digits.
	probFmt := ProbabilityNumFmt
	st.prob, err = f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}, CustomNumFmt: &probFmt})
	if err != nil {
		return st, err
	}
	// A row of one cell below the first is a line of text: it does not
	// widen its column and runs over the empty cells to its right.
	st.line, err = f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}})
	return st, err
}

// isTextLine reports whether row r of a text sheet is a line of text: a
// row of one cell below the first.
func isTextLine(rows [][]string, r int) bool { return r > 0 && len(rows[r]) == 1 }

// textWidths returns the number of columns of a text sheet and the width
// of each, in characters: its longest line of text (lines of text aside),
// between minColWidth and docsMaxColWidth.
func textWidths(rows [][]string) (ncols int, widths []int) {
	for r, row := range rows {
		ncols = max(ncols, len(row))
		if isTextLine(rows, r) {
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
	return ncols, widths
}

// newTextStream starts the stream writer of a text sheet of nrows rows
// and ncols columns: its used range, its column widths, and its header
// row frozen when rows follow it.
func newTextStream(f *excelize.File, name string, nrows, ncols int, widths []int) (*excelize.StreamWriter, error) {
	if nrows > 0 && ncols > 0 {
		// The stream writer declares the used range it was told of.
		if err := f.SetSheetDimension(name, "A1:"+table.ColumnLetter(ncols-1)+strconv.Itoa(nrows)); err != nil {
			return nil, err
		}
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return nil, err
	}
	for j, width := range widths {
		if err := sw.SetColWidth(j+1, j+1, float64(width)); err != nil {
			return nil, err
		}
	}
	if nrows > 1 {
		if err := sw.SetPanes(&excelize.Panes{
			Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
			Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
		}); err != nil {
			return nil, err
		}
	}
	return sw, nil
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
