package writers

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/table"
)

// How the XLSX output looks on screen and on paper: number formats by
// column kind, the shading of error and partial rows, the folding of
// columns into outline groups and the page set-up of every sheet.

// countNumFmt is the number format of Count columns (Excel's built-in 1).
const countNumFmt = "0"

// Real output columns (ε, μ, σ, …) show 4 significant digits: the number
// format of a value is chosen by its magnitude when it is written, as
// realNumFmt says. A value a spreadsheet recalculates keeps the format of
// the value riskbatch wrote (number formats cannot count significant
// digits; their conditions cover only two ranges).
const (
	realSignificant = 4
	realMinFixed    = 1e-3 // smaller magnitudes are shown in scientific notation
	realMaxFixed    = 1e6  // and so are these and larger ones
	realMaxDecimals = realSignificant + 2
	realScientific  = realMaxDecimals + 1 // realDecimals' answer for scientific notation
	realSciNumFmt   = "0.000E+00"
)

// realDecimals is the number of decimals that show x with realSignificant
// significant digits, or realScientific.
func realDecimals(x float64) int {
	a := math.Abs(x)
	switch {
	case a == 0 || math.IsNaN(a):
		return 0
	case a < realMinFixed || a >= realMaxFixed:
		return realScientific
	}
	d := realSignificant - 1 - int(math.Floor(math.Log10(a)))
	return min(max(d, 0), realMaxDecimals)
}

// realNumFmt is the number format of a value of a Real output column for
// the given realDecimals: "0.000" for 1.835, "0.00" for 17.78, "0" for
// 5406, "0.000E+00" for 2.2e-05.
func realNumFmt(decimals int) string {
	switch {
	case decimals == realScientific:
		return realSciNumFmt
	case decimals <= 0:
		return "0"
	}
	return "0." + strings.Repeat("0", decimals)
}

// realWidth is the number of characters x shows in its Real format.
func realWidth(x float64) int {
	d := realDecimals(x)
	if d == realScientific {
		return len("-0.000E-00")
	}
	return len(strconv.FormatFloat(x, 'f', d, 64))
}

// rowFlag is the shading of a data row: none, error (light red),
// partial (light amber) or total (bold on light green, xlsxtotal.go).
type rowFlag uint8

const (
	flagNone rowFlag = iota
	flagError
	flagPartial
	flagTotal
	numFlags
)

// rowFlagOf reads a row's status.
func rowFlagOf(status string) rowFlag {
	switch strings.ToLower(strings.TrimSpace(status)) {
	case "error":
		return flagError
	case "partial":
		return flagPartial
	case "total":
		return flagTotal
	}
	return flagNone
}

// cellAlign is a data cell's horizontal alignment.
type cellAlign uint8

const (
	alignDefault cellAlign = iota
	// alignCenter is the status column's, so that its word stands apart
	// from the text of the column before it.
	alignCenter
	// alignDistributed is that of the numbers of the columns folded away
	// (Outline.Columns). LibreOffice draws a number of a hidden (zero
	// width) column as "###" running left into the empty cells beside
	// it, on screen and in print, unless it is distributed; shown, a
	// distributed number is centred in its cell.
	alignDistributed
	// alignWrap wraps a sentence (the message, headline_says) in its
	// column, so that it prints whole.
	alignWrap
)

// styleKey identifies a data cell's style: its number format, the shading
// of its row and its alignment.
type styleKey struct {
	numFmt string
	flag   rowFlag
	align  cellAlign
}

// cellStyle returns the style of data cells with a number format ("" for
// General) in a row shaded as flag, aligned as align, creating it the
// first time.
func (w *xlsxWriter) cellStyle(numFmt string, flag rowFlag, align cellAlign) (int, error) {
	if numFmt == "" && flag == flagNone && align == alignDefault {
		return 0, nil
	}
	k := styleKey{numFmt, flag, align}
	if st, ok := w.styles[k]; ok {
		return st, nil
	}
	s := &excelize.Style{}
	switch align {
	case alignCenter:
		s.Alignment = &excelize.Alignment{Horizontal: "center"}
	case alignDistributed:
		s.Alignment = &excelize.Alignment{Horizontal: "distributed"}
	case alignWrap:
		s.Alignment = &excelize.Alignment{WrapText: true}
	}
	switch numFmt {
	case "":
	case countNumFmt:
		s.NumFmt = 1
	default:
		code := numFmt
		s.CustomNumFmt = &code
	}
	switch flag {
	case flagError:
		s.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{errorFill}}
		s.Font = styleFont(w.f, false, errorFont)
	case flagPartial:
		s.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{partialFill}}
		s.Font = styleFont(w.f, false, partialFont)
	case flagTotal:
		totalStyle(w.f, s)
	}
	st, err := w.f.NewStyle(s)
	if err != nil {
		return 0, fmt.Errorf("writers: %s: number format %q: %w", w.out.target, numFmt, err)
	}
	if w.styles == nil {
		w.styles = map[styleKey]int{}
	}
	w.styles[k] = st
	return st, nil
}

// defaultFontSize is the size of excelize's default font (Calibri 11).
const defaultFontSize = 11

// styleFont is a font of the workbook's default face and size, bold or
// not, in a colour ("" for the default). A style's font must name its
// face: LibreOffice draws a font without a name in a serif face of its
// own, not in the workbook's.
func styleFont(f *excelize.File, bold bool, color string) *excelize.Font {
	face, err := f.GetDefaultFont()
	if err != nil || face == "" {
		face = "Calibri"
	}
	return &excelize.Font{Family: face, Size: defaultFontSize, Bold: bold, Color: color}
}

// Page set-up of every sheet, in inches.
const (
	marginSide   = 0.4
	marginTop    = 0.6
	marginHeader = 0.3
	// pageFooter names the workbook and the sheet on the left of every
	// printed page, the page number on the right.
	pageFooter = "&L&8&F: &A&R&8page &P of &N"
	// pageWidth is the width of the paper printed across: letter
	// (8.5 × 11 in, the page set-up's default size) in landscape.
	pageWidth = 11.0
)

// The scale of a printed data sheet (see printScale).
const (
	// printCharPoints is the widest a character of a column width prints
	// at 100%, in points. Excel draws the default font, Calibri 11, with
	// digits 7 pixels (5.25 pt) wide; LibreOffice, where neither Calibri
	// nor its metric twin Carlito is installed, draws it in DejaVu Sans,
	// whose digits are 0.636 em, 7.0 pt at 11 pt: a column of width 10
	// is 0.972 in there (0.729 in in Excel).
	printCharPoints = 7.0
	// minPrintScale and maxPrintScale bound a page set-up's scale: 10% is
	// the least Excel and LibreOffice accept, and a sheet that fits at
	// 100% prints at 100%, as fit to width would print it.
	minPrintScale = 10
	maxPrintScale = 100
)

// printScale is the scale, in percent, at which a data sheet's unfolded
// columns print one landscape page wide: the printable width (the page
// less its side margins, in points) over the columns' widths in
// characters times printCharPoints, rounded down, within minPrintScale
// and maxPrintScale. Folded (hidden) columns do not print and do not
// count. A sheet wider than one page at minPrintScale prints on further
// pages across, each with columns on it.
//
// A data sheet is not fit to width: LibreOffice searches the scale that
// fits by halving from 100% (100, 50, 25, 12, then 6) and stops once it
// reaches 10%, its least: a sheet that needs less than 12% is printed at
// 6% on the pages counted at 12%, one page of its data and blank ones
// after (the sample's 51 unfolded columns, 891 characters wide, need
// 11.8% there).
func printScale(widths []float64, fold []bool) uint {
	chars := 0.0
	for i, w := range widths {
		if i >= len(fold) || !fold[i] {
			chars += w
		}
	}
	if chars <= 0 {
		return maxPrintScale
	}
	printable := (pageWidth - 2*marginSide) * 72
	scale := math.Floor(100 * printable / (chars * printCharPoints))
	return uint(min(max(scale, minPrintScale), maxPrintScale))
}

// printSetup sets how a sheet prints and exports to PDF: landscape, narrow
// margins, a footer with the sheet's name and the page number, and, when
// titles is set, the header row repeated at the top of every page. With
// wide > 0 the sheet is scaled to `wide` pages wide (across, then down)
// and as many pages tall as it needs; with wide == 0 (a data sheet) its
// scale is set when its columns are known (printScale). The stream writer
// takes the sheet's properties when it starts: call it before
// NewStreamWriter.
func printSetup(f *excelize.File, sheet string, wide int, titles bool) error {
	fit, right := wide > 0, true
	if err := f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit, OutlineSummaryRight: &right}); err != nil {
		return err
	}
	landscape, tall, order := "landscape", 0, "overThenDown"
	layout := &excelize.PageLayoutOptions{Orientation: &landscape}
	if fit {
		layout.FitToWidth, layout.FitToHeight = &wide, &tall
	}
	if wide > 1 {
		layout.PageOrder = &order
	}
	if err := f.SetPageLayout(sheet, layout); err != nil {
		return err
	}
	side, top, header := marginSide, marginTop, marginHeader
	if err := f.SetPageMargins(sheet, &excelize.PageLayoutMarginsOptions{
		Left: &side, Right: &side, Top: &top, Bottom: &top, Header: &header, Footer: &header,
	}); err != nil {
		return err
	}
	if err := f.SetHeaderFooter(sheet, &excelize.HeaderFooterOptions{OddFooter: pageFooter}); err != nil {
		return err
	}
	if !titles {
		return nil
	}
	return f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: quoteSheet(sheet) + "!$1:$1", Scope: sheet})
}

// printOnlyWhenAsked sets a reference sheet (Columns, Curves) not to print
// with the workbook: its print area is one empty cell (XFD1, the last
// column, beyond any table), and an empty page is not printed (LibreOffice
// leaves it out of a PDF; Excel finds nothing to print). Clearing the print
// range prints the whole sheet (LibreOffice: Format → Print Ranges →
// Clear; Excel: Page Layout → Print Area → Clear Print Area).
func printOnlyWhenAsked(f *excelize.File, sheet string) error {
	return f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", RefersTo: quoteSheet(sheet) + "!$XFD$1", Scope: sheet})
}

// quoteSheet is a sheet name as a reference writes it: in apostrophes,
// with its own apostrophes doubled.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// checkOutline validates Options.Outline against the header's width.
func (o *Outline) check(n int) error {
	for _, c := range o.Columns {
		if c < 0 || c >= n {
			return fmt.Errorf("folded column %d is outside the header's %d columns", c, n)
		}
	}
	return nil
}

// folded says which columns of the current sheet are folded away: those
// of Options.Outline, with Outline.Empty those without a value on the
// sheet's data rows, and with Outline.SparseInputs the input columns empty
// on more than half of them. Nothing is folded when everything would be.
func (w *xlsxWriter) folded() []bool {
	fold := make([]bool, len(w.cols))
	if w.outline == nil {
		return fold
	}
	for _, i := range w.outline.Columns {
		fold[i] = true
	}
	if rows := w.row - 1; rows > 0 {
		for i, filled := range w.filled {
			switch {
			case w.outline.Empty && filled == 0:
				fold[i] = true
			case w.outline.SparseInputs && w.inputCols[i] && 2*filled < rows:
				fold[i] = true
			}
		}
	}
	for _, f := range fold {
		if !f {
			return fold
		}
	}
	return make([]bool, len(w.cols))
}

// colsElement is the <cols> element of the current sheet: every column's
// width, and the folded ones (fold, from folded) hidden at outline level 1, the column right
// of each folded run marked collapsed (where Excel draws the [+] button).
// It reports whether any column is folded.
func (w *xlsxWriter) colsElement(fold []bool) (string, bool) {
	n := len(w.cols)
	var b strings.Builder
	b.WriteString("<cols>")
	some := false
	for i := 0; i <= n && i < excelize.MaxColumns; i++ {
		collapsed := i > 0 && fold[i-1] && (i == n || !fold[i])
		if i == n && !collapsed {
			break
		}
		b.WriteString(`<col min="` + strconv.Itoa(i+1) + `" max="` + strconv.Itoa(i+1) + `"`)
		if i < n {
			b.WriteString(` width="` + strconv.FormatFloat(w.widths[i], 'f', -1, 64) + `" customWidth="1"`)
		} else {
			b.WriteString(` width="` + strconv.Itoa(minColWidth) + `"`)
		}
		if i < n && fold[i] {
			b.WriteString(` hidden="1" outlineLevel="1"`)
			some = true
		}
		if collapsed {
			b.WriteString(` collapsed="1"`)
		}
		b.WriteString("/>")
	}
	b.WriteString("</cols>")
	return b.String(), some
}

// sheetHead is what the head of a data sheet's XML gets once the sheet is
// finished (see headWriter): its used range, and its columns with their
// outline.
type sheetHead struct {
	dim     string // the used range, in place of the placeholder
	cols    string // the <cols> element, in place of the stream writer's; "" keeps it
	outline bool   // some columns are folded: sheetFormatPr declares the outline level
}

// headWriter holds the head of a worksheet's XML until its <dimension
// ref="..."/> element has passed, and replaces a placeholder ref there by
// the range heads gives for it. For such a sheet it holds on until the
// sheet's data start, and puts there the <cols> element of its sheetHead
// and the outline level the spreadsheet needs to draw the outline's
// buttons. Past maxSheetHead bytes without these, the XML passes unchanged.
type headWriter struct {
	w     io.Writer
	heads map[string]*sheetHead
	head  []byte
	sheet *sheetHead // found by its placeholder
	done  bool
}

// maxSheetHead bounds the head held: a few kilobytes of sheet properties
// and views, and about 80 bytes of <cols> per column.
const maxSheetHead = 4 << 20

func (d *headWriter) Write(p []byte) (int, error) {
	if d.done {
		return d.w.Write(p)
	}
	d.head = append(d.head, p...)
	if d.sheet == nil {
		const open = `<dimension ref="`
		if i := bytes.Index(d.head, []byte(open)); i >= 0 {
			start := i + len(open)
			if end := bytes.IndexByte(d.head[start:], '"'); end >= 0 {
				h, ok := d.heads[string(d.head[start:start+end])]
				if !ok {
					return len(p), d.flush()
				}
				d.head = append(d.head[:start:start], append([]byte(h.dim), d.head[start+end:]...)...)
				d.sheet = h
			}
		}
	}
	if data := bytes.Index(d.head, []byte("<sheetData")); data >= 0 {
		if d.sheet != nil {
			d.head = append(d.sheet.rewrite(d.head[:data:data]), d.head[data:]...)
		}
		return len(p), d.flush()
	}
	if len(d.head) > maxSheetHead {
		return len(p), d.flush()
	}
	return len(p), nil
}

// rewrite puts the sheet's columns and outline level into the head of its
// XML (everything before <sheetData).
func (h *sheetHead) rewrite(head []byte) []byte {
	if h.cols != "" {
		if i := bytes.Index(head, []byte("<cols>")); i >= 0 {
			if j := bytes.Index(head[i:], []byte("</cols>")); j >= 0 {
				head = append(head[:i:i], append([]byte(h.cols), head[i+j+len("</cols>"):]...)...)
			}
		} else {
			head = append(head, h.cols...)
		}
	}
	if !h.outline {
		return head
	}
	const pr = "<sheetFormatPr"
	if i := bytes.Index(head, []byte(pr)); i >= 0 {
		at := i + len(pr)
		return append(head[:at:at], append([]byte(` outlineLevelCol="1"`), head[at:]...)...)
	}
	if i := bytes.Index(head, []byte("<cols>")); i >= 0 {
		return append(head[:i:i], append([]byte(`<sheetFormatPr defaultRowHeight="15" outlineLevelCol="1"/>`), head[i:]...)...)
	}
	return head
}

// flush writes what is held and lets the rest pass.
func (d *headWriter) flush() error {
	d.done = true
	head := d.head
	d.head = nil
	if len(head) == 0 {
		return nil
	}
	_, err := d.w.Write(head)
	return err
}

// cellWidth is the number of characters a cell shows in its column.
func (w *xlsxWriter) cellWidth(c table.Cell, i int) int {
	if w.real[i] && c.Kind == table.Number {
		return realWidth(c.Num)
	}
	return cellWidth(c, w.cols[i].Format)
}
