package table

import (
	"math"
	"strconv"
	"strings"
)

// PlainNumber reads text that is a decimal number written plainly
// ("0.05", "-3", "1e-05"): digits, a sign, a point and an exponent, and
// nothing else (not "5%", "1,000", hexadecimal or "Inf"). The XLSX writer
// writes such texts of a numeric column as numbers, and the evaluator's
// spreadsheet formulas count on exactly these texts becoming numbers, so
// both read them with this one function.
func PlainNumber(s string) (float64, bool) {
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
