package testfiles

import (
	"testing"

	"github.com/xuri/excelize/v2"
)

// OpenXLSX opens a workbook with excelize, to read it back by another
// library than riskbatch's reader; the workbook is closed when the test
// ends.
func OpenXLSX(t testing.TB, path string) *excelize.File {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// StyleOf returns the style of a workbook's cell.
func StyleOf(t testing.TB, f *excelize.File, sheet, ref string) *excelize.Style {
	t.Helper()
	id, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
