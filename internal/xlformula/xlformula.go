// Package xlformula finds the references in a spreadsheet formula as an
// XLSX file stores it (A1 notation, without the leading '='), so that the
// formula can be moved to another cell (Shift, as a spreadsheet does when
// it fills a shared formula), rewritten for another layout (Rewrite), or
// checked for what it depends on (Parse).
//
// It is a lexer, not a parser: it tells cell references, whole-column and
// whole-row ranges, sheet prefixes, function names, defined names and the
// forms it does not follow (other workbooks, table and 3-D references)
// apart, skipping string literals and array constants. It never fails:
// text it does not understand is left alone.
package xlformula

import (
	"strings"
)

// Sheet limits of the XLSX format.
const (
	MaxRows = 1 << 20
	MaxCols = 1 << 14
)

// RefKind is the shape of a reference.
type RefKind uint8

const (
	CellRef RefKind = iota // A1, or A1:B2
	ColRef                 // A:C (whole columns)
	RowRef                 // 1:3 (whole rows)
)

// Ref is one reference in a formula.
type Ref struct {
	// Start and End delimit the reference in the formula text, its sheet
	// prefix included; Body is where the part after the prefix starts.
	Start, Body, End int
	// Sheet is the unquoted sheet name of a prefix ("" without one).
	Sheet    string
	HasSheet bool
	Kind     RefKind
	// Col1, Row1, Col2 and Row2 are 1-based; a single cell has Col2 ==
	// Col1 and Row2 == Row1. A ColRef has no rows (0), a RowRef no
	// columns (0).
	Col1, Row1, Col2, Row2             int
	AbsCol1, AbsRow1, AbsCol2, AbsRow2 bool
	// Range is true when the reference was written with a colon.
	Range bool
}

// Formula is what Parse finds in a formula.
type Formula struct {
	Text  string
	Refs  []Ref
	Names []string // defined names (upper case)
	Funcs []string // function names (upper case, without _xlfn. and _xlws.)
	// Unsupported lists forms the package does not follow, each once:
	// "a reference to another workbook", "a table reference",
	// "a 3-D reference".
	Unsupported []string
}

// Reasons in Formula.Unsupported.
const (
	External   = "a reference to another workbook"
	Structured = "a table reference"
	ThreeD     = "a 3-D reference across sheets"
)

// Parse finds the references, names and functions of a formula.
func Parse(text string) Formula {
	p := lexer{s: text, f: Formula{Text: text}}
	p.run()
	return p.f
}

type lexer struct {
	s string
	i int
	f Formula
}

func (p *lexer) unsupported(why string) {
	for _, u := range p.f.Unsupported {
		if u == why {
			return
		}
	}
	p.f.Unsupported = append(p.f.Unsupported, why)
}

func (p *lexer) run() {
	s := p.s
	for p.i < len(s) {
		c := s[p.i]
		switch {
		case c == '"':
			p.skipString()
		case c == '{':
			// An array constant: numbers, strings, booleans and errors.
			p.i++
			for p.i < len(s) && s[p.i] != '}' {
				if s[p.i] == '"' {
					p.skipString()
					continue
				}
				p.i++
			}
			p.i++
		case c == '#':
			p.skipError()
		case c == '\'':
			start := p.i
			name, ok := p.quoted()
			if !ok {
				return
			}
			if strings.Contains(name, "[") {
				p.unsupported(External)
			}
			if p.i < len(s) && s[p.i] == '!' {
				p.i++
				p.refAfterSheet(start, name)
			}
		case c == '[':
			// [1]Sheet1!A1 (another workbook) or a table's [Column].
			if p.i > 0 && isWordByte(s[p.i-1]) {
				p.unsupported(Structured)
			} else {
				p.unsupported(External)
			}
			p.skipBrackets()
		case isWordByte(c):
			p.word()
		default:
			p.i++
		}
	}
}

// skipString skips a string literal ("a ""quoted"" word").
func (p *lexer) skipString() {
	s := p.s
	p.i++
	for p.i < len(s) {
		if s[p.i] == '"' {
			if p.i+1 < len(s) && s[p.i+1] == '"' {
				p.i += 2
				continue
			}
			p.i++
			return
		}
		p.i++
	}
}

// skipBrackets skips [..], nested ones included.
func (p *lexer) skipBrackets() {
	depth := 0
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				p.i++
				return
			}
		}
		p.i++
	}
}

// errorLiterals are the error values a formula may hold.
var errorLiterals = []string{"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!"}

func (p *lexer) skipError() {
	rest := strings.ToUpper(p.s[p.i:])
	for _, e := range errorLiterals {
		if strings.HasPrefix(rest, e) {
			p.i += len(e)
			return
		}
	}
	p.i++
}

// quoted reads a quoted sheet name ('My sheet', with ” for a quote).
func (p *lexer) quoted() (string, bool) {
	s := p.s
	var b strings.Builder
	p.i++
	for p.i < len(s) {
		if s[p.i] == '\'' {
			if p.i+1 < len(s) && s[p.i+1] == '\'' {
				b.WriteByte('\'')
				p.i += 2
				continue
			}
			p.i++
			return b.String(), true
		}
		b.WriteByte(s[p.i])
		p.i++
	}
	return "", false
}

// isWordByte reports whether c may be part of a name, a reference or a
// number (bytes of non-ASCII characters included).
func isWordByte(c byte) bool {
	return c >= 0x80 || c == '_' || c == '.' || c == '$' || c == '\\' || c == '?' ||
		'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// readWord reads a run of word bytes.
func (p *lexer) readWord() string {
	start := p.i
	for p.i < len(p.s) && isWordByte(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// word reads a word and what it is: a sheet prefix, a function, a
// number, a reference, a literal or a defined name.
func (p *lexer) word() {
	s := p.s
	start := p.i
	w := p.readWord()
	if p.i < len(s) && s[p.i] == '!' {
		p.i++
		p.refAfterSheet(start, w)
		return
	}
	if p.i < len(s) && s[p.i] == '(' {
		name := strings.ToUpper(w)
		for _, prefix := range []string{"_XLFN.", "_XLWS."} {
			name = strings.TrimPrefix(name, prefix)
		}
		p.f.Funcs = append(p.f.Funcs, name)
		return
	}
	if p.i < len(s) && s[p.i] == '[' {
		return // a table reference: run reports it
	}
	if c := w[0]; '0' <= c && c <= '9' || c == '.' || c == '$' && len(w) > 1 && '0' <= w[1] && w[1] <= '9' {
		if r, ok := p.rowRange(start, w); ok {
			p.f.Refs = append(p.f.Refs, r)
			return
		}
		// A number: 1E+300 is read as "1E", "+", "300".
		if last := w[len(w)-1]; (last == 'E' || last == 'e') && p.i < len(s) && (s[p.i] == '+' || s[p.i] == '-') {
			p.i++
			p.readWord()
		}
		return
	}
	if r, ok := p.reference(start, start, w); ok {
		p.f.Refs = append(p.f.Refs, r)
		return
	}
	// A 3-D reference, Sheet1:Sheet3!A1.
	if p.i < len(s) && s[p.i] == ':' {
		save := p.i
		p.i++
		p.readWord()
		if p.i < len(s) && s[p.i] == '!' {
			p.unsupported(ThreeD)
			p.i++
			p.readWord()
			return
		}
		p.i = save
	}
	switch u := strings.ToUpper(w); u {
	case "TRUE", "FALSE":
	default:
		p.f.Names = append(p.f.Names, u)
	}
}

// refAfterSheet reads the reference after a sheet prefix that starts at
// start.
func (p *lexer) refAfterSheet(start int, sheet string) {
	body := p.i
	if p.i < len(p.s) && p.s[p.i] == '#' {
		p.skipError() // Sheet1!#REF!
		return
	}
	w := p.readWord()
	if w == "" {
		return
	}
	var r Ref
	ok := false
	if c := strings.TrimPrefix(w, "$"); c != "" && '0' <= c[0] && c[0] <= '9' {
		r, ok = p.rowRange(body, w)
	} else {
		r, ok = p.reference(start, body, w)
	}
	if !ok {
		return // a sheet-level name (Sheet1!rate): nothing to follow
	}
	r.Start, r.Sheet, r.HasSheet = start, sheet, true
	p.f.Refs = append(p.f.Refs, r)
}

// rowRange reads a whole-row range such as 3:5 or $3:$3, whose first part
// is w; p.i is after w.
func (p *lexer) rowRange(body int, w string) (Ref, bool) {
	r1, abs1, ok := parseRow(w)
	if !ok || p.i >= len(p.s) || p.s[p.i] != ':' {
		return Ref{}, false
	}
	save := p.i
	p.i++
	w2 := p.readWord()
	r2, abs2, ok := parseRow(w2)
	if !ok {
		p.i = save
		return Ref{}, false
	}
	return Ref{Start: body, Body: body, End: p.i, Kind: RowRef, Row1: r1, Row2: r2, AbsRow1: abs1, AbsRow2: abs2, Range: true}, true
}

// reference reads a cell reference or range (A1, $A$1:B2) or a column
// range (A:C) whose first part is w; p.i is after w.
func (p *lexer) reference(start, body int, w string) (Ref, bool) {
	s := p.s
	c1, r1, ac1, ar1, ok := parseCell(w)
	if ok {
		ref := Ref{Start: start, Body: body, End: p.i, Kind: CellRef, Col1: c1, Row1: r1, Col2: c1, Row2: r1, AbsCol1: ac1, AbsRow1: ar1, AbsCol2: ac1, AbsRow2: ar1}
		if p.i < len(s) && s[p.i] == ':' {
			save := p.i
			p.i++
			if c2, r2, ac2, ar2, ok := parseCell(p.readWord()); ok {
				ref.Col2, ref.Row2, ref.AbsCol2, ref.AbsRow2, ref.Range, ref.End = c2, r2, ac2, ar2, true, p.i
			} else {
				p.i = save
			}
		}
		return ref, true
	}
	col1, abs1, ok := parseCol(w)
	if !ok || p.i >= len(s) || s[p.i] != ':' {
		return Ref{}, false
	}
	save := p.i
	p.i++
	col2, abs2, ok := parseCol(p.readWord())
	if !ok || p.i < len(s) && s[p.i] == '!' {
		p.i = save
		return Ref{}, false
	}
	return Ref{Start: start, Body: body, End: p.i, Kind: ColRef, Col1: col1, Col2: col2, AbsCol1: abs1, AbsCol2: abs2, Range: true}, true
}
