package evaluate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// ParseNumber reads a number the way a person types it into a spreadsheet
// cell: "0.5", "1e-5", "1E-05", "5%", "1,000,000", "1 000", "1/1000",
// "−3" (with a Unicode minus), surrounded by spaces. It refuses anything that
// is not a finite real number, including "inf", "NaN" and hexadecimal forms
// that strconv would accept.
func ParseNumber(s string) (float64, error) {
	t := strings.TrimSpace(strings.Map(normalizeRune, s))
	if t == "" {
		return 0, fmt.Errorf("empty")
	}
	scale := 1.0
	if strings.HasSuffix(t, "%") {
		t = strings.TrimSpace(t[:len(t)-1])
		scale = 0.01
	}
	if num, den, ok := strings.Cut(t, "/"); ok {
		n, err := parseDecimal(strings.TrimSpace(num))
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		d, err := parseDecimal(strings.TrimSpace(den))
		if err != nil || d == 0 {
			return 0, fmt.Errorf("%q is not a number (bad fraction)", s)
		}
		return n / d * scale, nil
	}
	v, err := parseDecimal(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v * scale, nil
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

// parseDecimal accepts an optional sign, digits with optional thousands
// separators (',' or ' ' between groups of three), an optional fraction and
// an optional exponent.
func parseDecimal(t string) (float64, error) {
	if t == "" {
		return 0, fmt.Errorf("empty")
	}
	var b strings.Builder
	b.Grow(len(t))
	i := 0
	if t[0] == '+' || t[0] == '-' {
		b.WriteByte(t[0])
		i++
	}
	// Integer part, possibly grouped.
	start := i
	grouped := false
	groupLen := 0
	for ; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			b.WriteByte(c)
			groupLen++
		case (c == ',' || c == ' ') && i > start && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9':
			if (grouped && groupLen != 3) || (!grouped && groupLen > 3) {
				return 0, fmt.Errorf("bad grouping")
			}
			grouped = true
			groupLen = 0
		default:
			goto rest
		}
	}
rest:
	if grouped && groupLen != 3 {
		return 0, fmt.Errorf("bad grouping")
	}
	intDigits := i - start
	fracDigits := 0
	if i < len(t) && t[i] == '.' {
		b.WriteByte('.')
		for i++; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			b.WriteByte(t[i])
			fracDigits++
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		return 0, fmt.Errorf("no digits")
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
			return 0, fmt.Errorf("bad exponent")
		}
	}
	if i != len(t) {
		return 0, fmt.Errorf("trailing characters")
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	if err != nil && !isUnderflow(err, v) {
		return 0, err
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("out of range")
	}
	return v, nil
}

// isUnderflow reports a ParseFloat range error that rounded to zero: "1e-400"
// is a valid way to write a probability too small for float64, and zero is
// its nearest value.
func isUnderflow(err error, v float64) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange && v == 0
}

// cellNumber reads a cell as a finite number.
func cellNumber(c table.Cell) (float64, error) {
	switch c.Kind {
	case table.Number:
		if math.IsNaN(c.Num) || math.IsInf(c.Num, 0) {
			return 0, fmt.Errorf("%v is not a finite number", c.Num)
		}
		return c.Num, nil
	case table.Integer:
		return float64(c.Int), nil
	case table.Text:
		return ParseNumber(c.Str)
	case table.Bool:
		return 0, fmt.Errorf("%v is a truth value, not a number", c.Bool)
	case table.Decimal:
		return ParseNumber(c.Str)
	case table.Date, table.Timestamp, table.TimeOfDay:
		return 0, fmt.Errorf("%s is a %s, not a number", c.String(), c.Kind)
	case table.Nested:
		return 0, fmt.Errorf("%s is a %s value, not a number", clipText(c.Str), c.Kind)
	}
	return 0, fmt.Errorf("empty")
}

// clipText shortens a long text for a message.
func clipText(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
