// Package table is the row model shared by the readers, the evaluator and
// the writers: typed cells, described columns and the provenance of every
// row, so that an error can always say which file, sheet, row and column it
// comes from.
package table

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the type of a cell, or of a column when all its cells share it.
type Kind uint8

const (
	Empty   Kind = iota // no value (an empty cell, a null)
	Number              // a float64
	Integer             // an int64
	Text                // a string
	Bool                // a boolean
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
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Cell is one value of a row. Only the field that matches Kind is meaningful.
type Cell struct {
	Kind Kind
	Num  float64 // Kind == Number
	Int  int64   // Kind == Integer
	Str  string  // Kind == Text
	Bool bool    // Kind == Bool
}

// NumberCell, IntegerCell, TextCell and BoolCell build cells of one kind.
func NumberCell(v float64) Cell { return Cell{Kind: Number, Num: v} }
func IntegerCell(v int64) Cell  { return Cell{Kind: Integer, Int: v} }
func TextCell(s string) Cell    { return Cell{Kind: Text, Str: s} }
func BoolCell(b bool) Cell      { return Cell{Kind: Bool, Bool: b} }

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
	}
	return ""
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
