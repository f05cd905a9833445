// Package number reads numbers the way people type them into spreadsheet
// cells and CSV files: "0.5", "1e-5", "5%", "1,000,000", "1/1000", with a
// decimal point or a decimal comma (Format). It knows nothing of rows or
// columns; the evaluate package reads cells with it, and the command line
// reads its flags (--confidence, --threshold) with the same words.
package number

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DecimalMark is the character that separates the whole part of a number
// written as text from its fraction. In English-speaking countries it is a
// point, and a comma groups thousands (1,234.5); in most of continental
// Europe and South America it is a comma, and a point groups thousands
// (1.234,5). A spreadsheet reads and writes numbers in the convention of its
// language, so a CSV file carries the convention of the computer that
// wrote it, and says nothing about it.
type DecimalMark uint8

const (
	DecimalUnknown DecimalMark = iota // not known: read as DecimalPoint, with doubt (see Format)
	DecimalPoint                      // '.' separates the fraction; ',' groups thousands
	DecimalComma                      // ',' separates the fraction; '.' groups thousands
)

// String returns "decimal point", "decimal comma" or "unknown decimal mark".
func (m DecimalMark) String() string {
	switch m {
	case DecimalPoint:
		return "decimal point"
	case DecimalComma:
		return "decimal comma"
	}
	return "unknown decimal mark"
}

// Format is how numbers written as text are read.
//
// A text is read in two conventions, each strictly: with a decimal point
// (digits grouped in threes by ',' or ' ', "1,234,567.5") and with a
// decimal comma (grouped by '.' or ' ', "1.234.567,5"). A grouped number
// has one group of one to three digits, not starting with 0, then groups
// of exactly three; its fraction has no grouping. Both conventions take a
// sign, an exponent ("1e-5", "1,5E-05"), and no other characters.
//
// With Settled, the text must read in Mark's convention; a text that reads
// only in the other one is an error that says how it would read there.
//
// Without Settled, Mark (DecimalPoint when DecimalUnknown) is the
// convention the text is taken to be in, and the other is a doubt. A text
// that reads in Mark's convention is that number unless it holds the other
// convention's decimal mark (a ',' when Mark is the point, a '.' when it
// is the comma) and reads as another number in the other convention: that
// is an error naming both readings ("2,500": 2500 with a decimal point or
// 2.5 with a decimal comma). A text that reads only in the other
// convention is an error naming its reading ("1,5" reads as 1.5 only with
// a decimal comma). So with the point, "1.234" is 1.234 and "1,234,567"
// is 1234567 (two commas cannot be a decimal comma); with the comma,
// "2,500" is 2.5 and "1.234,5" is 1234.5.
//
// The whole text may be a fraction "a/b" ("1/1000") of two such numbers,
// and, with Percent, end in "%" ("5%", "12,5 %" with a decimal comma):
// the value is then a hundredth of the number. Without Percent, a
// percentage is an error: riskbatch takes percentages only where a
// probability is meant.
type Format struct {
	Mark    DecimalMark
	Settled bool
	Percent bool
}

// localeError is a text whose reading depends on the decimal mark; its
// message is complete (it says what to do), so a row's message adds no
// "expected …" after it.
type localeError struct{ msg string }

func (e *localeError) Error() string { return e.msg }

// errPercent is the error of a percentage where no probability is meant.
var errPercent = errors.New("is a percentage, which only a probability column takes")

// settleHint ends the message of a text whose reading depends on the
// decimal mark: the flags of the riskbatch command that settle it.
const settleHint = "pass --decimal-comma or --decimal-point, or write it unambiguously"

// Parse reads a number the way a person types it into a spreadsheet
// cell: "0.5", "1e-5", "1E-05", "5%", "1,000,000", "1 000", "1/1000",
// "−3" (with a Unicode minus), surrounded by spaces. It refuses anything that
// is not a finite real number, including "inf", "NaN" and hexadecimal forms
// that strconv would accept, and a text whose reading depends on the
// decimal mark ("2,500", "1,5"): it is Format{Percent: true}.Parse,
// which documents the rules.
func Parse(s string) (float64, error) {
	return Format{Percent: true}.Parse(s)
}

// normalizeRune maps typographic look-alikes to ASCII: minus signs and
// dashes to '-', non-breaking and thin spaces to ' '.
func normalizeRune(r rune) rune {
	switch r {
	case '\u2212', '\u2012', '\u2013', '\uFE63', '\uFF0D':
		return '-'
	case '\u00A0', '\u2007', '\u2009', '\u202F':
		return ' '
	}
	return r
}

// isUnderflow reports a ParseFloat range error that rounded to zero: "1e-400"
// is a valid way to write a probability too small for float64, and zero is
// its nearest value.
func isUnderflow(err error, v float64) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange && v == 0
}

// Parse reads s as a finite number (see Format).
func (f Format) Parse(s string) (float64, error) {
	if v, ok := f.plain(s); ok {
		return v, nil
	}
	return f.parse(s)
}

// parse is Parse by its general rules.
func (f Format) parse(s string) (float64, error) {
	t := strings.TrimSpace(strings.Map(normalizeRune, s))
	if t == "" {
		return 0, errors.New("empty")
	}
	scale := 1.0
	if strings.HasSuffix(t, "%") {
		if !f.Percent {
			return 0, fmt.Errorf("%q %w", s, errPercent)
		}
		t = strings.TrimSpace(t[:len(t)-1])
		scale = 0.01
	}
	if num, den, ok := strings.Cut(t, "/"); ok {
		n, err := f.read(strings.TrimSpace(num), s)
		if err != nil {
			return 0, err
		}
		d, err := f.read(strings.TrimSpace(den), s)
		if err != nil {
			return 0, err
		}
		if d == 0 {
			return 0, fmt.Errorf("%q is not a number (bad fraction)", s)
		}
		v := n / d * scale
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return 0, fmt.Errorf("%q is not a number (out of range)", s)
		}
		return v, nil
	}
	v, err := f.read(t, s)
	if err != nil {
		return 0, err
	}
	return v * scale, nil
}

// plain reads s when it is a plain decimal number such as "0.25", "-3" or
// "1e-05" (only digits, '.', 'e', 'E', '+' and '-') with the decimal point
// as the mark: the form of nearly every number of a machine-written file,
// read here without the copies and checks the general rules need. It
// returns ok false for any other text, and for a text strconv.ParseFloat
// does not read as a finite number, so that Parse's general rules decide,
// with their messages. Where ok is true the general rules give the same
// value: with no space, comma, '%' or '/', they read s as parseIn does with
// the decimal point, which keeps these characters as they are for
// strconv.ParseFloat.
func (f Format) plain(s string) (float64, bool) {
	if f.Mark == DecimalComma || s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
		default:
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// read reads one number t (part of the text s, which messages quote).
func (f Format) read(t, s string) (float64, error) {
	mark := f.Mark
	if mark == DecimalUnknown {
		mark = DecimalPoint
	}
	other := DecimalComma
	otherChar := ","
	if mark == DecimalComma {
		other, otherChar = DecimalPoint, "."
	}
	v, err := parseIn(t, mark)
	if err == nil && (f.Settled || !strings.Contains(t, otherChar)) {
		return v, nil
	}
	w, werr := parseIn(t, other)
	switch {
	case err == nil && (werr != nil || w == v):
		return v, nil
	case werr != nil:
		return 0, fmt.Errorf("%q is not a number", s)
	case f.Settled:
		return 0, fmt.Errorf("%q is not a number with a %s (with a %s it would read %s)", s, mark, other, formatReading(w))
	case err == nil:
		return 0, &localeError{fmt.Sprintf("%q reads as %s with a %s or %s with a %s; %s",
			s, formatReading(v), mark, formatReading(w), other, settleHint)}
	case f.Mark == DecimalComma:
		return 0, &localeError{fmt.Sprintf("%q reads as %s only with a %s, but the numbers of this file are read with a %s, as it is semicolon-delimited; %s",
			s, formatReading(w), other, mark, settleHint)}
	}
	return 0, &localeError{fmt.Sprintf("%q reads as %s only with a %s, which the file does not settle; %s",
		s, formatReading(w), other, settleHint)}
}

// formatReading writes a reading of a text for a message, in plain
// notation where that is short.
func formatReading(v float64) string {
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e15) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// parseIn reads t strictly in the convention of mark (DecimalPoint or
// DecimalComma): an optional sign, digits grouped in threes or not, an
// optional fraction and an optional exponent.
func parseIn(t string, mark DecimalMark) (float64, error) {
	dec, group := byte('.'), byte(',')
	if mark == DecimalComma {
		dec, group = ',', '.'
	}
	if t == "" {
		return 0, errors.New("empty")
	}
	var b strings.Builder
	b.Grow(len(t))
	i := 0
	if t[0] == '+' || t[0] == '-' {
		b.WriteByte(t[0])
		i++
	}
	// Integer part, possibly grouped by one separator throughout.
	start := i
	var sep byte  // the grouping separator, once met
	groupLen := 0 // digits since the start or the last separator
	firstZero := i < len(t) && t[i] == '0'
	for ; i < len(t); i++ {
		c := t[i]
		if c >= '0' && c <= '9' {
			b.WriteByte(c)
			groupLen++
			continue
		}
		if (c == group || c == ' ') && i > start && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9' {
			switch {
			case sep == 0 && (groupLen > 3 || firstZero):
				return 0, errors.New("bad grouping")
			case sep != 0 && (c != sep || groupLen != 3):
				return 0, errors.New("bad grouping")
			}
			sep, groupLen = c, 0
			continue
		}
		break
	}
	if sep != 0 && groupLen != 3 {
		return 0, errors.New("bad grouping")
	}
	intDigits := i - start
	fracDigits := 0
	if i < len(t) && t[i] == dec {
		b.WriteByte('.')
		for i++; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			b.WriteByte(t[i])
			fracDigits++
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		return 0, errors.New("no digits")
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		b.WriteByte('e')
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			b.WriteByte(t[i])
			i++
		}
		expDigits := 0
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			b.WriteByte(t[i])
			expDigits++
		}
		if expDigits == 0 {
			return 0, errors.New("bad exponent")
		}
	}
	if i != len(t) {
		return 0, errors.New("trailing characters")
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	if err != nil && !isUnderflow(err, v) {
		return 0, err
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errors.New("out of range")
	}
	return v, nil
}

// IsLocaleError reports whether err is a text whose reading depends on the
// decimal mark, whose message is complete: it says what to do (pass
// --decimal-comma or --decimal-point, or write the number unambiguously).
func IsLocaleError(err error) bool {
	var le *localeError
	return errors.As(err, &le)
}
