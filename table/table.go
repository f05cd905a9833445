// Package table is the row model shared by the readers, the evaluator and
// the writers: typed cells, described columns and the provenance of every
// row, so that an error can always say which file, sheet, row and column it
// comes from.
package table

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is the type of a cell, or of a column when all its cells share it.
type Kind uint8

const (
	Empty     Kind = iota // no value (an empty cell, a null)
	Number                // a float64
	Integer               // an int64
	Text                  // a string
	Bool                  // a boolean
	Date                  // a calendar date: Int counts days since 1970-01-01
	Timestamp             // a date and time: Int counts Unit since 1970-01-01T00:00:00 (UTC when Unit.UTC())
	TimeOfDay             // a time of day: Int counts Unit since midnight
	Decimal               // an exact decimal number: Str holds it in plain notation ("-12.340"), Num its nearest float64
	Nested                // a list, struct or map value: Str holds it as JSON text
)

// String returns the kind's lower-case name.
func (k Kind) String() string {
	switch k {
	case Empty:
		return "empty"
	case Number:
		return "number"
	case Integer:
		return "integer"
	case Text:
		return "text"
	case Bool:
		return "bool"
	case Date:
		return "date"
	case Timestamp:
		return "timestamp"
	case TimeOfDay:
		return "time"
	case Decimal:
		return "decimal"
	case Nested:
		return "nested"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// TimeUnit is the resolution of a Timestamp or TimeOfDay cell, with a flag
// saying whether a Timestamp is an instant in UTC (a column with a time
// zone) or a wall-clock date and time without one.
type TimeUnit uint8

const (
	Second      TimeUnit = 1
	Millisecond TimeUnit = 2
	Microsecond TimeUnit = 3
	Nanosecond  TimeUnit = 4

	utcFlag TimeUnit = 0x10
)

// InUTC returns u marked as an instant in UTC.
func (u TimeUnit) InUTC() TimeUnit { return u | utcFlag }

// UTC reports whether a Timestamp in this unit is an instant in UTC.
func (u TimeUnit) UTC() bool { return u&utcFlag != 0 }

// Resolution returns the unit without the UTC flag.
func (u TimeUnit) Resolution() TimeUnit { return u &^ utcFlag }

// Duration returns the length of one unit; 0 for an unknown unit.
func (u TimeUnit) Duration() time.Duration {
	switch u.Resolution() {
	case Second:
		return time.Second
	case Millisecond:
		return time.Millisecond
	case Microsecond:
		return time.Microsecond
	case Nanosecond:
		return time.Nanosecond
	}
	return 0
}

// fractionDigits is the number of decimal digits of a second that the
// unit resolves.
func (u TimeUnit) fractionDigits() int {
	switch u.Resolution() {
	case Millisecond:
		return 3
	case Microsecond:
		return 6
	case Nanosecond:
		return 9
	}
	return 0
}

// Cell is one value of a row. Only the fields that match Kind are
// meaningful.
type Cell struct {
	Kind Kind
	Unit TimeUnit // Kind == Timestamp or TimeOfDay
	Bool bool     // Kind == Bool
	Num  float64  // Kind == Number; Decimal (nearest float64)
	Int  int64    // Kind == Integer; Date, Timestamp, TimeOfDay (see Kind)
	Str  string   // Kind == Text; Decimal (plain notation), Nested (JSON)
	// Formula is the spreadsheet formula the value came from, without its
	// leading '=' ("2*5"), or "" for a plain value. The other fields hold
	// the formula's value (cached in the file or computed on reading).
	Formula string
}

// NumberCell, IntegerCell, TextCell and BoolCell build cells of one kind.
func NumberCell(v float64) Cell { return Cell{Kind: Number, Num: v} }
func IntegerCell(v int64) Cell  { return Cell{Kind: Integer, Int: v} }
func TextCell(s string) Cell    { return Cell{Kind: Text, Str: s} }
func BoolCell(b bool) Cell      { return Cell{Kind: Bool, Bool: b} }

// DateCell is a calendar date given as days since 1970-01-01.
func DateCell(days int64) Cell { return Cell{Kind: Date, Int: days} }

// TimestampCell is a date and time counted in unit since the epoch.
func TimestampCell(v int64, unit TimeUnit) Cell { return Cell{Kind: Timestamp, Int: v, Unit: unit} }

// TimeOfDayCell is a time of day counted in unit since midnight.
func TimeOfDayCell(v int64, unit TimeUnit) Cell { return Cell{Kind: TimeOfDay, Int: v, Unit: unit} }

// DecimalCell is an exact decimal written in plain notation; its Num is
// the nearest float64 (or 0 when text is not a decimal number).
func DecimalCell(text string) Cell {
	v, _ := strconv.ParseFloat(text, 64)
	return Cell{Kind: Decimal, Str: text, Num: v}
}

// NestedCell is a list, struct or map value written as JSON text.
func NestedCell(json string) Cell { return Cell{Kind: Nested, Str: json} }

// Time returns a Date, Timestamp or TimeOfDay cell as a time.Time in UTC
// (a TimeOfDay on 1970-01-01), and false for other kinds. A Timestamp
// beyond the range of time.Time is not representable and gives false.
func (c Cell) Time() (time.Time, bool) {
	switch c.Kind {
	case Date:
		return time.Unix(0, 0).UTC().AddDate(0, 0, int(c.Int)), true
	case Timestamp, TimeOfDay:
		d := c.Unit.Duration()
		if d == 0 {
			return time.Time{}, false
		}
		per := int64(time.Second / d) // units per second
		sec, frac := c.Int/per, c.Int%per
		if frac < 0 {
			sec, frac = sec-1, frac+per
		}
		return time.Unix(sec, frac*int64(d)).UTC(), true
	}
	return time.Time{}, false
}

// IsEmpty reports whether the cell holds no value. A text cell of only
// spaces counts as empty: that is what a user who clears a cell by typing a
// space means.
func (c Cell) IsEmpty() bool {
	return c.Kind == Empty || (c.Kind == Text && strings.TrimSpace(c.Str) == "")
}

// String formats the cell as it would appear in a CSV file: numbers in the
// shortest form that reads back to the same float64, empty cells as "".
func (c Cell) String() string {
	switch c.Kind {
	case Number:
		return strconv.FormatFloat(c.Num, 'g', -1, 64)
	case Integer:
		return strconv.FormatInt(c.Int, 10)
	case Text:
		return c.Str
	case Bool:
		return strconv.FormatBool(c.Bool)
	case Decimal, Nested:
		return c.Str
	case Date, Timestamp, TimeOfDay:
		return c.isoTime()
	}
	return ""
}

// isoTime formats a Date, Timestamp or TimeOfDay cell in ISO 8601: a date
// as 2006-01-02, a time of day as 15:04:05 with as many fraction digits as
// its unit resolves, a timestamp as both joined by T, with a Z when it is
// an instant in UTC.
func (c Cell) isoTime() string {
	t, ok := c.Time()
	if !ok {
		return strconv.FormatInt(c.Int, 10)
	}
	clock := "15:04:05"
	if n := c.Unit.fractionDigits(); n > 0 {
		clock += "." + strings.Repeat("0", n)
	}
	switch c.Kind {
	case Date:
		return t.Format("2006-01-02")
	case TimeOfDay:
		return t.Format(clock)
	}
	layout := "2006-01-02T" + clock
	if c.Unit.UTC() {
		layout += "Z"
	}
	return t.Format(layout)
}

// Role says what a column is in the output table.
type Role uint8

const (
	Input   Role = iota // passed through from the input untouched
	Output              // a computed bound or derived quantity
	Status              // the row's status: ok, partial or error
	Message             // the reasons for empty cells and rejected rows
)

// Format is a display hint for a numeric column.
type Format uint8

const (
	General     Format = iota // as the value is
	Probability               // in [0, 1]; tiny values in scientific notation
	Real                      // a real parameter such as ε, μ or σ
	Count                     // a whole number
)

// Column describes one column of a table.
type Column struct {
	Name   string
	Kind   Kind   // the type of its cells; Empty when unknown or mixed
	Role   Role   // input, output, status or message
	Format Format // display hint for numbers
	Note   string // a short explanation shown on the header (formula and citation)
	// Source is the column's type as the input format declared it, for a
	// writer of the same format to write the column back with that type
	// (for Parquet input, its arrow.DataType); nil when the format declares
	// none. Only readers and writers look at it.
	Source any
}

// Position is where a row, or a cell of it, comes from. Row is 1-based as a
// spreadsheet shows it (the header is row 1 in a sheet or a CSV file).
// Column is the 0-based column index, or -1 when the position is a whole row.
type Position struct {
	File       string
	Sheet      string // empty for files without sheets
	Row        int
	Column     int
	ColumnName string // the header of the column, when known
}

// String formats the position for a person: "releases.xlsx, sheet Q3, row 5,
// column C (epsilon)".
func (p Position) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Sheet != "" {
		b.WriteString(", sheet ")
		b.WriteString(p.Sheet)
	}
	if p.Row > 0 {
		b.WriteString(", row ")
		b.WriteString(strconv.Itoa(p.Row))
	}
	if p.Column >= 0 {
		b.WriteString(", column ")
		if p.Sheet != "" {
			b.WriteString(ColumnLetter(p.Column))
			if p.ColumnName != "" {
				b.WriteString(" (" + p.ColumnName + ")")
			}
		} else if p.ColumnName != "" {
			b.WriteString(p.ColumnName)
		} else {
			b.WriteString(strconv.Itoa(p.Column + 1))
		}
	}
	return b.String()
}

// Row is one data row with its provenance (Pos.Column is -1).
type Row struct {
	Pos   Position
	Cells []Cell
}

// Source is a table as far as its header: where it comes from and its
// columns. Package layout places tables by it; readers' tables satisfy it.
type Source interface {
	File() string      // the file's path as given
	Sheet() string     // the sheet name, or "" for formats without sheets
	Columns() []Column // the header, in order
}

// Rows is a Source with its rows: one table already opened by a reader, a
// sheet of a workbook or the one table of a CSV, TSV or Parquet file.
// Package readers' Table is one; package priors reads through it without
// knowing the file format.
type Rows interface {
	Source
	Next() (Row, error) // the next row, or io.EOF after the last
}

// ColumnLetter returns the spreadsheet letter of a 0-based column index:
// 0 → A, 25 → Z, 26 → AA.
func ColumnLetter(i int) string {
	if i < 0 {
		return "?"
	}
	var buf [8]byte
	n := len(buf)
	for i++; i > 0; i = (i - 1) / 26 {
		n--
		buf[n] = byte('A' + (i-1)%26)
	}
	return string(buf[n:])
}

// Error is an error tied to a position in an input file, in the manner of
// encoding/csv's ParseError.
type Error struct {
	Pos Position
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %v", e.Pos, e.Err) }
func (e *Error) Unwrap() error { return e.Err }
