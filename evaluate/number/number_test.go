package number

import (
	"strconv"
	"testing"
)

// reading is the expected outcome of Format.Parse: a value, or an
// error whose message is exactly err.
type reading struct {
	v   float64
	err string
}

func val(v float64) reading  { return reading{v: v} }
func bad(msg string) reading { return reading{err: msg} }

// The four ways riskbatch reads a text number: no setting (a comma, tab or
// pipe CSV, an XLSX or Parquet text cell), a semicolon-delimited CSV, and
// the --decimal-point and --decimal-comma flags. The table is docs/files.md's
// (section "Numbers written as text"), row by row; every reading and
// message is the one the rules of Format give.
var (
	unsettled = Format{Percent: true}
	semicolon = Format{Mark: DecimalComma, Percent: true}
	pointFlag = Format{Mark: DecimalPoint, Settled: true, Percent: true}
	commaFlag = Format{Mark: DecimalComma, Settled: true, Percent: true}
)

const hint = "; pass --decimal-comma or --decimal-point, or write it unambiguously"

func onlyComma(text, v string) reading {
	return bad(strconv.Quote(text) + " reads as " + v + " only with a decimal comma, which the file does not settle" + hint)
}
func onlyPoint(text, v string) reading {
	return bad(strconv.Quote(text) + " reads as " + v + " only with a decimal point, but the numbers of this file are read with a decimal comma, as it is semicolon-delimited" + hint)
}
func notPoint(text, v string) reading {
	return bad(strconv.Quote(text) + " is not a number with a decimal point (with a decimal comma it would read " + v + ")")
}
func notComma(text, v string) reading {
	return bad(strconv.Quote(text) + " is not a number with a decimal comma (with a decimal point it would read " + v + ")")
}
func notNumber(text string) reading { return bad(strconv.Quote(text) + " is not a number") }

func TestNumberRules(t *testing.T) {
	cases := []struct {
		text                         string
		none, semi, point, commaFlag reading
	}{
		// Only digits, an exponent, space grouping: one reading everywhere.
		{"12", val(12), val(12), val(12), val(12)},
		{"1e-5", val(1e-5), val(1e-5), val(1e-5), val(1e-5)},
		{"1 000", val(1000), val(1000), val(1000), val(1000)},
		{"−3", val(-3), val(-3), val(-3), val(-3)},
		// A point and no comma: a decimal point unless the file is
		// semicolon-delimited.
		{"0.5", val(0.5), onlyPoint("0.5", "0.5"), val(0.5), notComma("0.5", "0.5")},
		{"1.5", val(1.5), onlyPoint("1.5", "1.5"), val(1.5), notComma("1.5", "1.5")},
		{"1.234", val(1.234), bad(`"1.234" reads as 1234 with a decimal comma or 1.234 with a decimal point` + hint), val(1.234), val(1234)},
		{"1.5e-05", val(1.5e-5), onlyPoint("1.5e-05", "0.000015"), val(1.5e-5), notComma("1.5e-05", "0.000015")},
		// A comma and no point.
		{"2,500", bad(`"2,500" reads as 2500 with a decimal point or 2.5 with a decimal comma` + hint), val(2.5), val(2500), val(2.5)},
		{"1,5", onlyComma("1,5", "1.5"), val(1.5), notPoint("1,5", "1.5"), val(1.5)},
		{"0,001", onlyComma("0,001", "0.001"), val(0.001), notPoint("0,001", "0.001"), val(0.001)},
		{"0,500", onlyComma("0,500", "0.5"), val(0.5), notPoint("0,500", "0.5"), val(0.5)},
		{"1,00", onlyComma("1,00", "1"), val(1), notPoint("1,00", "1"), val(1)},
		{"1,5E-05", onlyComma("1,5E-05", "0.000015"), val(1.5e-5), notPoint("1,5E-05", "0.000015"), val(1.5e-5)},
		{"1,234,567", val(1234567), onlyPoint("1,234,567", "1234567"), val(1234567), notComma("1,234,567", "1234567")},
		{"1 000,5", onlyComma("1 000,5", "1000.5"), val(1000.5), notPoint("1 000,5", "1000.5"), val(1000.5)},
		// Both marks: the last one is the decimal mark.
		{"1,234.5", val(1234.5), onlyPoint("1,234.5", "1234.5"), val(1234.5), notComma("1,234.5", "1234.5")},
		{"1.234,5", onlyComma("1.234,5", "1234.5"), val(1234.5), notPoint("1.234,5", "1234.5"), val(1234.5)},
		{"1.234.567", onlyComma("1.234.567", "1234567"), val(1234567), notPoint("1.234.567", "1234567"), val(1234567)},
		// Percentages, in a column that takes them.
		{"5%", val(0.05), val(0.05), val(0.05), val(0.05)},
		{"12,5 %", onlyComma("12,5 %", "12.5"), val(0.125), notPoint("12,5 %", "12.5"), val(0.125)},
		// Fractions.
		{"1/1000", val(0.001), val(0.001), val(0.001), val(0.001)},
		// Not numbers in any convention.
		{"12,34,567", notNumber("12,34,567"), notNumber("12,34,567"), notNumber("12,34,567"), notNumber("12,34,567")},
		{"1.2.3", notNumber("1.2.3"), notNumber("1.2.3"), notNumber("1.2.3"), notNumber("1.2.3")},
		{"abc", notNumber("abc"), notNumber("abc"), notNumber("abc"), notNumber("abc")},
		{"NaN", notNumber("NaN"), notNumber("NaN"), notNumber("NaN"), notNumber("NaN")},
	}
	formats := []struct {
		name string
		f    Format
	}{{"no setting", unsettled}, {"semicolon file", semicolon}, {"--decimal-point", pointFlag}, {"--decimal-comma", commaFlag}}
	for _, c := range cases {
		for k, want := range []reading{c.none, c.semi, c.point, c.commaFlag} {
			got, err := formats[k].f.Parse(c.text)
			switch {
			case want.err == "" && (err != nil || got != want.v):
				t.Errorf("%s: %q = %v, %v; want %v", formats[k].name, c.text, got, err, want.v)
			case want.err != "" && (err == nil || err.Error() != want.err):
				t.Errorf("%s: %q = %v, %v\n want error %s", formats[k].name, c.text, got, err, want.err)
			}
		}
	}
}
