package writers

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/table"
)

// Charts are line charts of curves over one range of X (Options.Charts),
// drawn on the Summary sheet. Their data go to the sheet CurvesSheetName:
// X in column A, then every curve in a column of its own, its name in row
// 1, so that the charts read live cells.
type Charts struct {
	XTitle, YTitle string
	X              []float64
	Curves         []Curve
	Plots          []Plot
	// Bars are clustered bar charts of numbers in the Summary's own table,
	// drawn after the plots.
	Bars []Bars
}

// Bars is a clustered bar chart of a block of the Summary sheet's table:
// one cluster per row from First to Last (1-based sheet rows), labelled by
// the column Labels, with one bar per column of Series (1-based columns),
// each named by its cell in row First − 1 (the block's header).
type Bars struct {
	Title, YTitle string
	First, Last   int
	Labels        int
	Series        []int
}

// Curve is one line: its name and its value at every X.
type Curve struct {
	Name string
	Y    []float64 // len(Y) == len(X)
	// Reference draws the curve as a thin dashed grey guide (such as the
	// diagonal y = x) rather than as data.
	Reference bool
}

// Plot is one chart: its title and the curves it shows (indexes into
// Charts.Curves).
type Plot struct {
	Title  string
	Curves []int
}

// Chart layout on the Summary sheet, in pixels and cells.
const (
	chartWidthPx   = 480
	chartHeightPx  = 288
	chartCols      = 8  // columns of default width a chart spans, and a gap
	chartRows      = 16 // rows of default height a chart spans, and a gap
	chartsPerRow   = 2
	referenceColor = "A6A6A6"
	// axisTextColor is the colour of the axes' tick labels: excelize's
	// default is 85% lighter than the text (D9D9D9 on white), which
	// LibreOffice renders barely visible.
	axisTextColor = "595959"
)

// check validates the charts.
func (c *Charts) check() error {
	if len(c.X) == 0 && len(c.Plots) > 0 {
		return fmt.Errorf("charts without X")
	}
	for i, cv := range c.Curves {
		if len(cv.Y) != len(c.X) {
			return fmt.Errorf("curve %d (%q) has %d values for %d X", i, cv.Name, len(cv.Y), len(c.X))
		}
	}
	for i, p := range c.Plots {
		for _, k := range p.Curves {
			if k < 0 || k >= len(c.Curves) {
				return fmt.Errorf("plot %d (%q) names curve %d of %d", i, p.Title, k, len(c.Curves))
			}
		}
	}
	for i, b := range c.Bars {
		if b.First < 2 || b.Last < b.First || b.Labels < 1 || len(b.Series) == 0 {
			return fmt.Errorf("bar chart %d (%q): rows %d to %d, labels in column %d, %d series", i, b.Title, b.First, b.Last, b.Labels, len(b.Series))
		}
	}
	if len(c.Curves)+1 > excelize.MaxColumns {
		return fmt.Errorf("%d curves: more than a sheet's columns", len(c.Curves))
	}
	return nil
}

// addCharts draws the plots on sheet, whose table has ncols columns, from
// the curves' cells on CurvesSheetName. Charts only refer to their data,
// so the data sheet may be written after them; the sheet must still be
// streaming (the charts are written with it on Flush).
func (w *xlsxWriter) addCharts(sheet string, ncols int, c *Charts) error {
	last := strconv.Itoa(len(c.X) + 1)
	data := CurvesSheetName + "!$" // a name without spaces needs no quotes
	x := data + "A$2:$A$" + last
	zero, one := 0.0, 1.0
	for p, plot := range c.Plots {
		chart := &excelize.Chart{
			Type:      excelize.Scatter,
			Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: plot.Title, Font: &excelize.Font{Bold: true, Size: 11}}}},
			Dimension: excelize.ChartDimension{Width: chartWidthPx, Height: chartHeightPx},
			Legend:    excelize.ChartLegend{Position: "bottom"},
			XAxis: excelize.ChartAxis{Minimum: &zero, Maximum: &one, MajorGridLines: true, Font: excelize.Font{Color: axisTextColor},
				Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: c.XTitle}}}},
			YAxis: excelize.ChartAxis{Minimum: &zero, Maximum: &one, MajorGridLines: true, Font: excelize.Font{Color: axisTextColor},
				Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: c.YTitle}}}},
			Format: excelize.GraphicOptions{AltText: plot.Title},
		}
		if !axisInUnit(c, plot) {
			chart.YAxis.Minimum, chart.YAxis.Maximum = nil, nil
		}
		for _, k := range plot.Curves {
			col := table.ColumnLetter(k + 1)
			s := excelize.ChartSeries{
				Name:       data + col + "$1",
				Categories: x,
				Values:     data + col + "$2:$" + col + "$" + last,
				Line:       excelize.LineOptions{Type: excelize.LineSolid, Width: 2},
				Marker:     excelize.ChartMarker{Symbol: "none"},
			}
			if c.Curves[k].Reference {
				s.Line = excelize.LineOptions{Type: excelize.LineSolid, Width: 1, Dash: excelize.LineDashDash}
				s.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{referenceColor}}
			}
			chart.Series = append(chart.Series, s)
		}
		cell, err := excelize.CoordinatesToCellName(ncols+2+(p%chartsPerRow)*chartCols, 1+(p/chartsPerRow)*chartRows)
		if err != nil {
			return err
		}
		if err := w.f.AddChart(sheet, cell, chart); err != nil {
			return fmt.Errorf("chart %q: %w", plot.Title, err)
		}
	}
	for i, b := range c.Bars {
		if err := w.addBars(sheet, ncols, len(c.Plots)+i, b); err != nil {
			return err
		}
	}
	return nil
}

// addBars draws b as the p-th chart of sheet, whose table has ncols
// columns: its series read the sheet's own cells.
func (w *xlsxWriter) addBars(sheet string, ncols, p int, b Bars) error {
	ref := func(col, from, to int) string {
		l := table.ColumnLetter(col - 1)
		r := "'" + strings.ReplaceAll(sheet, "'", "''") + "'!$" + l + "$" + strconv.Itoa(from)
		if to > from {
			r += ":$" + l + "$" + strconv.Itoa(to)
		}
		return r
	}
	chart := &excelize.Chart{
		Type:      excelize.Col,
		Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: b.Title, Font: &excelize.Font{Bold: true, Size: 11}}}},
		Dimension: excelize.ChartDimension{Width: chartWidthPx, Height: chartHeightPx},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Font: excelize.Font{Color: axisTextColor}},
		YAxis: excelize.ChartAxis{MajorGridLines: true, Font: excelize.Font{Color: axisTextColor},
			Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: b.YTitle}}}},
		Format: excelize.GraphicOptions{AltText: b.Title},
	}
	for _, col := range b.Series {
		chart.Series = append(chart.Series, excelize.ChartSeries{
			Name:       ref(col, b.First-1, b.First-1),
			Categories: ref(b.Labels, b.First, b.Last),
			Values:     ref(col, b.First, b.Last),
		})
	}
	cell, err := excelize.CoordinatesToCellName(ncols+2+(p%chartsPerRow)*chartCols, 1+(p/chartsPerRow)*chartRows)
	if err != nil {
		return err
	}
	if err := w.f.AddChart(sheet, cell, chart); err != nil {
		return fmt.Errorf("chart %q: %w", b.Title, err)
	}
	return nil
}

// axisInUnit reports whether every curve of a plot lies in [0, 1], the
// fixed range of its y axis; other plots scale their axis to the data.
func axisInUnit(c *Charts, plot Plot) bool {
	for _, k := range plot.Curves {
		for _, y := range c.Curves[k].Y {
			if !(y >= 0 && y <= 1) {
				return false
			}
		}
	}
	return true
}

// writeCurves writes the charts' data sheet: X, then one column per curve.
func (w *xlsxWriter) writeCurves(c *Charts) error {
	wrap := func(err error) error {
		return fmt.Errorf("writers: %s: writing sheet %q: %w", w.out.target, CurvesSheetName, err)
	}
	if _, err := w.f.NewSheet(CurvesSheetName); err != nil {
		return wrap(err)
	}
	if err := printSetup(w.f, CurvesSheetName, 1, true); err != nil {
		return wrap(err)
	}
	head, err := w.f.NewStyle(&excelize.Style{
		Font:      styleFont(w.f, true, ""),
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{inputHeaderFill}},
		Alignment: &excelize.Alignment{Vertical: "top", WrapText: true},
	})
	if err != nil {
		return wrap(err)
	}
	probFmt := ProbabilityNumFmt
	prob, err := w.f.NewStyle(&excelize.Style{CustomNumFmt: &probFmt})
	if err != nil {
		return wrap(err)
	}
	// The stream writer declares the used range it was told of.
	if err := w.f.SetSheetDimension(CurvesSheetName, "A1:"+table.ColumnLetter(len(c.Curves))+strconv.Itoa(len(c.X)+1)); err != nil {
		return wrap(err)
	}
	sw, err := w.f.NewStreamWriter(CurvesSheetName)
	if err != nil {
		return wrap(err)
	}
	if err := sw.SetColWidth(1, len(c.Curves)+1, probabilityWidth+4); err != nil {
		return wrap(err)
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return wrap(err)
	}
	cells := make([]excelize.Cell, len(c.Curves)+1)
	vals := make([]interface{}, len(cells))
	for j := range vals {
		vals[j] = &cells[j]
	}
	name, _ := truncate(c.XTitle)
	cells[0] = excelize.Cell{StyleID: head, Value: name}
	for j, cv := range c.Curves {
		name, _ := truncate(cv.Name)
		cells[j+1] = excelize.Cell{StyleID: head, Value: name}
	}
	if err := sw.SetRow("A1", vals); err != nil {
		return wrap(err)
	}
	for i, x := range c.X {
		cells[0] = excelize.Cell{StyleID: prob, Value: finiteOrNil(x)}
		for j, cv := range c.Curves {
			cells[j+1] = excelize.Cell{StyleID: prob, Value: finiteOrNil(cv.Y[i])}
		}
		if err := sw.SetRow("A"+strconv.Itoa(i+2), vals); err != nil {
			return wrap(err)
		}
	}
	if err := sw.Flush(); err != nil {
		return wrap(err)
	}
	return nil
}

// finiteOrNil leaves NaN and infinities out of a chart's data (an empty
// cell is a gap in the line).
func finiteOrNil(v float64) interface{} {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}
