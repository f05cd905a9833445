package evaluate

import (
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

const hint = "; pass --decimal-comma or --decimal-point, or write it unambiguously"

// A percentage is read only where a probability is meant.
func TestPercentOnlyForProbabilities(t *testing.T) {
	if _, err := (NumberFormat{}).Parse("5%"); err == nil || err.Error() != `"5%" is a percentage, which only a probability column takes` {
		t.Errorf("5%% without Percent: %v", err)
	}
	var percent []string
	for _, c := range release.NewVocabulary().Columns() {
		if c.Percent {
			percent = append(percent, c.Name)
		}
	}
	if got := strings.Join(percent, " "); got != "delta sample_rate baseline confidence target_advantage w significance report_delta dataset_target_advantage dataset_target_success" {
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
