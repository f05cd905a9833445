package evaluate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// reading is the expected outcome of NumberFormat.Parse: a value, or an
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
// message is the one the rules of NumberFormat give.
var (
	unsettled = NumberFormat{Percent: true}
	semicolon = NumberFormat{Mark: DecimalComma, Percent: true}
	pointFlag = NumberFormat{Mark: DecimalPoint, Settled: true, Percent: true}
	commaFlag = NumberFormat{Mark: DecimalComma, Settled: true, Percent: true}
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
		f    NumberFormat
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

// A percentage is read only where a probability is meant.
func TestPercentOnlyForProbabilities(t *testing.T) {
	if _, err := (NumberFormat{}).Parse("5%"); err == nil || err.Error() != `"5%" is a percentage, which only a probability column takes` {
		t.Errorf("5%% without Percent: %v", err)
	}
	var percent []string
	for _, c := range NewVocabulary().Columns() {
		if c.Percent {
			percent = append(percent, c.Name)
		}
	}
	if got := strings.Join(percent, " "); got != "delta sample_rate baseline confidence target_advantage w significance report_delta" {
		t.Errorf("columns that take percentages: %s", got)
	}
}

// End to end through Evaluate: the row's message names the column and
// both readings; a semicolon file, or the evaluator's own mark, settles it.
func TestEvaluateLocaleNumbers(t *testing.T) {
	cols := []table.Column{{Name: "σ"}, {Name: "baseline"}}
	row := []table.Cell{table.TextCell("2,500"), table.TextCell("10%")}
	run := func(e *Evaluator, suggested DecimalMark) (Status, string, float64) {
		b, err := e.BindTable(cols, suggested)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]table.Cell, e.Width())
		st := b.Evaluate(row, dst)
		adv := -1.0
		for i, o := range e.Outputs() {
			if o.Name == "fdp_advantage" && dst[HeadWidth+i].Kind == table.Number {
				adv = dst[HeadWidth+i].Num
			}
		}
		return st, dst[1].Str, adv
	}
	st, msg, _ := run(New(), DecimalUnknown)
	if want := `σ: "2,500" reads as 2500 with a decimal point or 2.5 with a decimal comma` + hint; st != StatusError || msg != want {
		t.Errorf("no setting: %s %q\nwant %q", st, msg, want)
	}
	// σ = 2.5, baseline 0.1: μ = 0.4 and fdp_advantage = 1 − Φ(Φ⁻¹(0.9) − 0.4)
	// − 0.1 = 0.0890097 (Kulynych et al. Thm 3.3; Python's
	// statistics.NormalDist gives 0.08900967851770922).
	for _, c := range []struct {
		name      string
		e         *Evaluator
		suggested DecimalMark
	}{{"semicolon file", New(), DecimalComma}, {"WithDecimalMark(comma)", New(WithDecimalMark(DecimalComma)), DecimalUnknown}} {
		st, msg, adv := run(c.e, c.suggested)
		if st == StatusError || adv < 0.0890096 || adv > 0.0890098 {
			t.Errorf("%s: %s %q, fdp_advantage %v; want 0.0890097", c.name, st, msg, adv)
		}
	}
	// The point settled: σ = 2500, fdp_advantage 7.0217e-05 (the same
	// formula with μ = 1/2500), whatever the file suggests.
	st, msg, adv := run(New(WithDecimalMark(DecimalPoint)), DecimalComma)
	if st == StatusError || adv < 7.0217e-05 || adv > 7.0218e-05 {
		t.Errorf("--decimal-point: %s %q, fdp_advantage %v", st, msg, adv)
	}
	// A percentage in σ is an error naming the column.
	row = []table.Cell{table.TextCell("5%"), table.TextCell("0.1")}
	if st, msg, _ := run(New(), DecimalUnknown); st != StatusError || msg != `σ: "5%" is a percentage, which only a probability column takes; expected a number > 0` {
		t.Errorf("σ 5%%: %s %q", st, msg)
	}
}
