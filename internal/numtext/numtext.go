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
