// Package numtext reads the numbers that riskbatch writes as text and
// that both its spreadsheet formulas and its XLSX writer take for numbers.
package numtext

import (
	"math"
	"strconv"
	"strings"
)

// Plain reads text that is a decimal number written plainly ("0.05",
// "-3", "1e-05"): digits, a sign, a point and an exponent, and nothing
// else (not "5%", "1,000", hexadecimal or "Inf"). The evaluate package's
// formulas rely on exactly these texts becoming numbers in the writers'
// workbooks.
func Plain(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.Trim(s, "0123456789+-.eE") != "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// FormatSignificant writes x with the given significant digits ('g'
// format) rounded in the direction dir: to the nearest where dir is 0, else
// to the decimal of that many digits at or above x (dir > 0) or at or
// below it (dir < 0), so that a bound written rounded stays a bound.
func FormatSignificant(x float64, digits, dir int) string {
	var buf [32]byte
	return string(AppendSignificant(buf[:0], x, digits, dir))
}

// AppendSignificant appends x as FormatSignificant writes it: 'g' rounds
// to the nearest, and where that is on the wrong side of x the last digit
// moves by one.
func AppendSignificant(dst []byte, x float64, digits, dir int) []byte {
	n := len(dst)
	dst = strconv.AppendFloat(dst, x, 'g', digits, 64)
	if dir == 0 || x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return dst
	}
	p, err := strconv.ParseFloat(string(dst[n:]), 64)
	if err != nil || !(dir > 0 && p < x || dir < 0 && p > x) {
		return dst
	}
	// The last digit of x's own decade: 0.99996 down is 0.9999, where the
	// nearest, 1, is a decade higher (and its last digit, 0.001, too wide).
	unit := math.Pow(10, math.Floor(math.Log10(math.Abs(x)))-float64(digits-1))
	if dir < 0 {
		unit = -unit
	}
	return strconv.AppendFloat(dst[:n], p+unit, 'g', digits, 64)
}
