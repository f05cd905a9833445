package writers

import (
	"archive/zip"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/table"
)

// TemplateColumn describes one column of a blank release sheet: its header,
// the note shown on it, and the values a cell may take, which become the
// sheet's data validation (a drop-down list, or a numeric range).
type TemplateColumn struct {
	Name string
	Note string
	// List, when not empty, is the drop-down of allowed values.
	List []string
	// Numeric columns accept numbers in [Min, Max] (open ends when MinOpen
	// or MaxOpen: the check then uses > or <), whole numbers when Whole.
	Numeric          bool
	Whole            bool
	Min, Max         float64
	MinOpen, MaxOpen bool
}

// TemplateRows is the number of rows below the header that carry the data
// validation of a template.
const TemplateRows = 1000

// WriteTemplate writes an XLSX workbook to fill in: one sheet named sheet
// with the columns' headers (bold, with their notes as comments), data
// validation on TemplateRows rows (drop-downs and numeric ranges, with an
// input message saying what is valid and an error that refuses anything
// else), the example rows filled in, a frozen header, and a Columns sheet
// when docs is not nil. The file is written to a temporary file and renamed
// into place, like every writer.
func WriteTemplate(path, sheet string, cols []TemplateColumn, examples [][]table.Cell, docs [][]string) error {
	return writeTemplate(path, Options{}, sheet, cols, examples, docs)
}

// WriteTemplateStream writes the workbook of WriteTemplate to the stream f
// (standard output, a pipe), as CreateStream does; name is how messages
// call f. It is refused when f is a terminal.
func WriteTemplateStream(f *os.File, name, sheet string, cols []TemplateColumn, examples [][]table.Cell, docs [][]string) error {
	if f == nil {
		return fmt.Errorf("writers: %s: no stream", name)
	}
	return writeTemplate(name, Options{stream: f}, sheet, cols, examples, docs)
}

// writeTemplate writes a template to the output of path or opts.stream.
func writeTemplate(path string, opts Options, sheet string, cols []TemplateColumn, examples [][]table.Cell, docs [][]string) (err error) {
	if len(cols) == 0 {
		return errors.New("writers: a template needs columns")
	}
	if err := checkSheetName(sheet); err != nil {
		return err
	}
	a, err := openOutput(path, opts, FormatXLSX)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			a.abort()
		}
	}()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return fmt.Errorf("writers: %s: %w", path, err)
	}
	bold, err := f.NewStyle(&excelize.Style{Font: styleFont(f, true, ""), Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{inputHeaderFill}}})
	if err != nil {
		return fmt.Errorf("writers: %s: %w", path, err)
	}
	for i, c := range cols {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		if err := f.SetCellStr(sheet, cell, c.Name); err != nil {
			return fmt.Errorf("writers: %s: %w", path, err)
		}
		if c.Note != "" {
			if err := f.AddComment(sheet, noteComment(cell, table.Column{Name: c.Name, Note: c.Note})); err != nil {
				return fmt.Errorf("writers: %s: note on %s: %w", path, c.Name, err)
			}
		}
		col, _ := excelize.ColumnNumberToName(i + 1)
		// Wide enough for the name and the examples, up to maxColWidth.
		width := float64(utf8.RuneCountInString(c.Name) + 4)
		for _, row := range examples {
			if i < len(row) {
				width = max(width, float64(utf8.RuneCountInString(row[i].String())+2))
			}
		}
		width = math.Min(math.Max(width, 12), maxColWidth)
		if err := f.SetColWidth(sheet, col, col, width); err != nil {
			return fmt.Errorf("writers: %s: %w", path, err)
		}
		if err := addValidation(f, sheet, col, c); err != nil {
			return fmt.Errorf("writers: %s: validation of %s: %w", path, c.Name, err)
		}
	}
	last, _ := excelize.CoordinatesToCellName(len(cols), 1)
	if err := f.SetCellStyle(sheet, "A1", last, bold); err != nil {
		return fmt.Errorf("writers: %s: %w", path, err)
	}
	for r, row := range examples {
		for i, c := range row {
			if i >= len(cols) || c.IsEmpty() {
				continue
			}
			cell, _ := excelize.CoordinatesToCellName(i+1, r+2)
			var v any
			switch c.Kind {
			case table.Number:
				v = c.Num
			case table.Integer:
				v = c.Int
			case table.Bool:
				v = c.Bool
			default:
				v = c.String()
			}
			if err := f.SetCellValue(sheet, cell, v); err != nil {
				return fmt.Errorf("writers: %s: %w", path, err)
			}
		}
	}
	// excelize leaves a sheet's used range at A1 whatever it holds.
	if err := f.SetSheetDimension(sheet, "A1:"+table.ColumnLetter(len(cols)-1)+strconv.Itoa(len(examples)+1)); err != nil {
		return fmt.Errorf("writers: %s: %w", path, err)
	}
	if err := f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return fmt.Errorf("writers: %s: %w", path, err)
	}
	if docs != nil {
		// The same Columns sheet as the evaluated workbook's: bold frozen
		// header, wrapped text, widths from the content.
		if _, err := textSheet(f, DocsSheetName, docs, nil); err != nil {
			return fmt.Errorf("writers: %s: %w", path, err)
		}
	}
	f.SetActiveSheet(0)
	if err := markWorkbook(f); err != nil {
		return fmt.Errorf("writers: %s: %w", path, err)
	}
	f.SetZipWriter(func(w io.Writer) excelize.ZipWriter { return markZip(zip.NewWriter(w)) })
	if err := f.Write(a.f); err != nil {
		return fmt.Errorf("writers: %s: %w", path, err)
	}
	return a.commit()
}

// addValidation puts a column's data validation on rows 2..TemplateRows+1.
func addValidation(f *excelize.File, sheet, col string, c TemplateColumn) error {
	if len(c.List) == 0 && !c.Numeric {
		return nil
	}
	dv := excelize.NewDataValidation(true)
	dv.SetSqref(fmt.Sprintf("%s2:%s%d", col, col, TemplateRows+1))
	switch {
	case len(c.List) > 0:
		if err := dv.SetDropList(c.List); err != nil {
			return err
		}
	default:
		kind := excelize.DataValidationTypeDecimal
		if c.Whole {
			kind = excelize.DataValidationTypeWhole
		}
		lo, hi := !math.IsInf(c.Min, -1), !math.IsInf(c.Max, 1)
		var err error
		switch {
		case lo && hi && !c.MinOpen && !c.MaxOpen:
			err = dv.SetRange(c.Min, c.Max, kind, excelize.DataValidationOperatorBetween)
		case lo && hi:
			// Open ends: spreadsheets have no open interval, so check the
			// end that matters most (a positive σ, δ below 1) as a custom
			// formula over both.
			cmpLo, cmpHi := ">=", "<="
			if c.MinOpen {
				cmpLo = ">"
			}
			if c.MaxOpen {
				cmpHi = "<"
			}
			dv.Type = "custom"
			// excelize writes Formula1 into the XML as it is: escape it.
			formula := fmt.Sprintf("AND(ISNUMBER(%s2),%s2%s%s,%s2%s%s)", col, col, cmpLo, boundText(c.Min), col, cmpHi, boundText(c.Max))
			dv.Formula1 = html.EscapeString(formula)
		case lo && c.MinOpen:
			err = dv.SetRange(c.Min, 0, kind, excelize.DataValidationOperatorGreaterThan)
		case lo:
			err = dv.SetRange(c.Min, 0, kind, excelize.DataValidationOperatorGreaterThanOrEqual)
		case hi && c.MaxOpen:
			err = dv.SetRange(c.Max, 0, kind, excelize.DataValidationOperatorLessThan)
		case hi:
			err = dv.SetRange(c.Max, 0, kind, excelize.DataValidationOperatorLessThanOrEqual)
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
	msg, _ := cutUTF16(c.Note, 250) // Excel's limit for these messages is 255
	if len(msg) < len(c.Note) {
		msg += "…"
	}
	dv.SetInput(c.Name, msg)
	refusal, _ := cutUTF16("Not a valid value for "+c.Name+". "+c.Note, 250)
	dv.SetError(excelize.DataValidationErrorStyleStop, c.Name, refusal)
	return f.AddDataValidation(sheet, dv)
}

// boundText prints a bound in a validation formula.
func boundText(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
