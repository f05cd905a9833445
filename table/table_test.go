package table

import (
	"errors"
	"testing"
)

func TestColumnLetter(t *testing.T) {
	for i, want := range map[int]string{0: "A", 25: "Z", 26: "AA", 27: "AB", 51: "AZ", 52: "BA", 701: "ZZ", 702: "AAA", 16383: "XFD", -1: "?"} {
		if got := ColumnLetter(i); got != want {
			t.Errorf("ColumnLetter(%d) = %q, want %q", i, got, want)
		}
	}
}

func TestPositionAndError(t *testing.T) {
	for _, c := range []struct {
		pos  Position
		want string
	}{
		{Position{File: "r.xlsx", Sheet: "Q3", Row: 5, Column: 2, ColumnName: "epsilon"}, "r.xlsx, sheet Q3, row 5, column C (epsilon)"},
		{Position{File: "r.csv", Row: 7, Column: 1, ColumnName: "delta"}, "r.csv, row 7, column delta"},
		{Position{File: "r.csv", Row: 7, Column: 3}, "r.csv, row 7, column 4"},
		{Position{File: "r.parquet", Column: -1}, "r.parquet"},
	} {
		if got := c.pos.String(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.pos, got, c.want)
		}
	}
	inner := errors.New("not a number")
	err := error(&Error{Pos: Position{File: "a.csv", Row: 2, Column: -1}, Err: inner})
	if err.Error() != "a.csv, row 2: not a number" || !errors.Is(err, inner) {
		t.Errorf("Error: %q", err)
	}
}

func TestCells(t *testing.T) {
	for _, c := range []struct {
		cell  Cell
		text  string
		empty bool
	}{
		{NumberCell(1e-300), "1e-300", false},
		{NumberCell(0.1), "0.1", false},
		{IntegerCell(-7), "-7", false},
		{TextCell("  "), "  ", true},
		{BoolCell(true), "true", false},
		{Cell{}, "", true},
	} {
		if c.cell.String() != c.text || c.cell.IsEmpty() != c.empty {
			t.Errorf("%#v: %q %v", c.cell, c.cell.String(), c.cell.IsEmpty())
		}
	}
}

func TestTimeCells(t *testing.T) {
	for _, c := range []struct {
		cell Cell
		text string
	}{
		{DateCell(0), "1970-01-01"},
		{DateCell(-1), "1969-12-31"},
		{DateCell(19723), "2024-01-01"},
		{TimestampCell(1_700_000_000_123, Millisecond), "2023-11-14T22:13:20.123"},
		{TimestampCell(1_700_000_000_123_456, Microsecond.InUTC()), "2023-11-14T22:13:20.123456Z"},
		{TimestampCell(-1, Nanosecond.InUTC()), "1969-12-31T23:59:59.999999999Z"},
		{TimestampCell(86_400, Second), "1970-01-02T00:00:00"},
		{TimeOfDayCell(45_296_500, Millisecond), "12:34:56.500"},
		{DecimalCell("-12.340"), "-12.340"},
		{NestedCell(`[1,2]`), "[1,2]"},
	} {
		if got := c.cell.String(); got != c.text {
			t.Errorf("%#v: %q, want %q", c.cell, got, c.text)
		}
		if c.cell.IsEmpty() {
			t.Errorf("%#v: empty", c.cell)
		}
	}
	if d := DecimalCell("-12.340"); d.Num != -12.34 {
		t.Errorf("DecimalCell: Num %v", d.Num)
	}
}
