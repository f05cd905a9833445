package writers

import "github.com/xuri/excelize/v2"

// Total rows (status "total": the composition of a dataset's rows, which
// riskbatch appends after the input's rows) stand out from the rows they
// sum up: bold, on a light green fill, like a spreadsheet's total line.
const (
	totalFill = "E2EFDA" // light green
	totalFont = "375623"
)

// totalStyle sets a total row's fill and font on a cell style.
func totalStyle(f *excelize.File, s *excelize.Style) {
	s.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{totalFill}}
	s.Font = styleFont(f, true, totalFont)
}
