package xlformula

import (
	"strconv"
	"strings"
)

// parseCell reads $A$1, A1, $A1 or A$1.
func parseCell(w string) (col, row int, absCol, absRow, ok bool) {
	i := 0
	if i < len(w) && w[i] == '$' {
		absCol = true
		i++
	}
	j := i
	for j < len(w) && isLetter(w[j]) {
		j++
	}
	if j == i || j-i > 3 {
		return
	}
	col, ok = colNumber(w[i:j])
	if !ok {
		return
	}
	row, absRow, ok = parseRow(w[j:])
	return
}

// parseCol reads a column (A, $XFD).
func parseCol(w string) (int, bool, bool) {
	abs := strings.HasPrefix(w, "$")
	w = strings.TrimPrefix(w, "$")
	if w == "" || len(w) > 3 {
		return 0, false, false
	}
	for i := 0; i < len(w); i++ {
		if !isLetter(w[i]) {
			return 0, false, false
		}
	}
	c, ok := colNumber(w)
	return c, abs, ok
}

// parseRow reads a row number (7, $7).
func parseRow(w string) (int, bool, bool) {
	abs := strings.HasPrefix(w, "$")
	w = strings.TrimPrefix(w, "$")
	if w == "" || len(w) > 7 || w[0] == '0' {
		return 0, false, false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return 0, false, false
		}
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1 || n > MaxRows {
		return 0, false, false
	}
	return n, abs, true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// colNumber is the 1-based number of column letters (A → 1).
func colNumber(letters string) (int, bool) {
	n := 0
	for i := 0; i < len(letters); i++ {
		c := letters[i] | 0x20 // lower case
		n = n*26 + int(c-'a'+1)
	}
	return n, n >= 1 && n <= MaxCols
}

// ColumnName is the letters of a 1-based column (1 → A).
func ColumnName(col int) string {
	var buf [4]byte
	n := len(buf)
	for ; col > 0; col = (col - 1) / 26 {
		n--
		buf[n] = byte('A' + (col-1)%26)
	}
	return string(buf[n:])
}

// BodyText formats the reference without its sheet prefix, keeping its $
// signs: "$A$1:B2", "A:C", "3:5".
func (r Ref) BodyText() string {
	col := func(c int, abs bool) string {
		if abs {
			return "$" + ColumnName(c)
		}
		return ColumnName(c)
	}
	row := func(n int, abs bool) string {
		if abs {
			return "$" + strconv.Itoa(n)
		}
		return strconv.Itoa(n)
	}
	switch r.Kind {
	case ColRef:
		return col(r.Col1, r.AbsCol1) + ":" + col(r.Col2, r.AbsCol2)
	case RowRef:
		return row(r.Row1, r.AbsRow1) + ":" + row(r.Row2, r.AbsRow2)
	}
	first := col(r.Col1, r.AbsCol1) + row(r.Row1, r.AbsRow1)
	if !r.Range {
		return first
	}
	return first + ":" + col(r.Col2, r.AbsCol2) + row(r.Row2, r.AbsRow2)
}

// Rewrite replaces the body of every reference of f (the part after its
// sheet prefix, which is kept as written) by what fn returns for it. It
// fails when fn does.
func Rewrite(f Formula, fn func(Ref) (string, bool)) (string, bool) {
	var b strings.Builder
	last := 0
	for _, r := range f.Refs {
		body, ok := fn(r)
		if !ok {
			return "", false
		}
		b.WriteString(f.Text[last:r.Body])
		b.WriteString(body)
		last = r.End
	}
	b.WriteString(f.Text[last:])
	return b.String(), true
}

// Shift moves a formula by dRow rows and dCol columns, as a spreadsheet
// does when it copies the formula or fills a shared formula: relative
// parts of references move, absolute ($) parts stay. It fails when a
// reference would leave the sheet.
func Shift(text string, dRow, dCol int) (string, bool) {
	if dRow == 0 && dCol == 0 {
		return text, true
	}
	f := Parse(text)
	return Rewrite(f, func(r Ref) (string, bool) {
		move := func(v int, abs bool, d, max int) (int, bool) {
			if abs || v == 0 {
				return v, true
			}
			v += d
			return v, v >= 1 && v <= max
		}
		var ok1, ok2, ok3, ok4 bool
		r.Col1, ok1 = move(r.Col1, r.AbsCol1, dCol, MaxCols)
		r.Col2, ok2 = move(r.Col2, r.AbsCol2, dCol, MaxCols)
		r.Row1, ok3 = move(r.Row1, r.AbsRow1, dRow, MaxRows)
		r.Row2, ok4 = move(r.Row2, r.AbsRow2, dRow, MaxRows)
		return r.BodyText(), ok1 && ok2 && ok3 && ok4
	})
}
