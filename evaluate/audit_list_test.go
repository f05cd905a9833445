package evaluate

import (
	"math"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/audit"
	"github.com/riskbatch/riskbatch/table"
)

// An inline list(…) prior is the same prior as a table of the same p
// values in the same order: an audit row (and a one-run release row)
// with either writes the same cells, byte for byte, under each tail bound.
func TestAuditRowsPriorListIsTable(t *testing.T) {
	list := "list(0.3, 0.5 x 3, 0.9, 0.7 x 20, 0.25)"
	var csv strings.Builder
	csv.WriteString("prior,p\n")
	for _, p := range []string{"0.3", "0.5", "0.5", "0.5", "0.9"} {
		csv.WriteString("t," + p + "\n")
	}
	for range 20 {
		csv.WriteString("t,0.7\n")
	}
	csv.WriteString("t,0.25\n")
	e := New(WithPriors(loadPriors(t, "t.csv", map[string]string{"t.csv": csv.String()})))
	for _, row := range []map[string]string{
		{"audit": "prior", "successes": "22", "significance": "0.05"},
		{"audit": "prior", "successes": "24", "delta": "1e-4", "audit_bound": "cor34", "epsilon": "0.5"},
		{"audit": "prior", "successes": "20", "delta": "1e-5", "audit_bound": "thm35", "targets": "26"},
		{"mechanism": "pure", "epsilon": "1", "successes": "20"},
		{"mechanism": "approx", "epsilon": "1", "delta": "1e-5", "target_advantage": "0.05"},
	} {
		stT, byTable := evalWith(t, e, merged(row, map[string]string{"prior": "t"}))
		stL, byList := evalWith(t, e, merged(row, map[string]string{"prior": list}))
		if stT != stL {
			t.Errorf("%v: status %s by table, %s by list", row, stT, stL)
		}
		numbers := 0
		for name, c := range byTable {
			if c.Kind == table.Number {
				numbers++
			}
			if l := byList[name]; c.Kind != l.Kind || math.Float64bits(c.Num) != math.Float64bits(l.Num) || c.Str != l.Str {
				t.Errorf("%v: %s = %v by table, %v by list", row, name, c, l)
			}
		}
		if numbers == 0 {
			t.Errorf("%v: no number computed (%s)", row, byTable["message"].Str)
		}
	}
}

// A membership audit at inclusion probability π ≠ ½ through an inline
// list: π = 0.7, 600 guesses "in" (prior 0.7) and 400 "out" (prior 0.3),
// 800 right. The row certifies what audit.MembershipPriors and
// audit.PriorEpsilon give on the same counts; with every guess "in" and
// right it is the closed form logit(β^{1/r}) − logit π (Thm 3.2:
// Π σ(logit π + ε) over the r guesses against β).
func TestAuditRowsPriorListInclusion(t *testing.T) {
	for _, tc := range []struct {
		list               string
		in, out, successes int
		pi                 float64
	}{
		{"list(0.7 x 600, 0.3 x 400)", 600, 400, 800, 0.7},
		{"list(0.1 x 50)", 50, 0, 50, 0.1},
		{"list(0.3 x 1000)", 0, 1000, 750, 0.7}, // every guess "out" at π = 0.7
	} {
		row := map[string]string{"audit": "prior", "prior": tc.list, "successes": ftoa(float64(tc.successes)), "significance": "0.05"}
		got := auditNumber(t, row, "audit_eps_lb")
		p, err := audit.MembershipPriors(tc.in+tc.out, tc.in, tc.out, tc.pi, audit.Thm32)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := audit.PriorEpsilon(p, tc.successes, 0, audit.Thm32, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-lb.Value) > 2e-9 {
			t.Errorf("%s, %d right: audit_eps_lb %.15g, audit package %.15g", tc.list, tc.successes, got, lb.Value)
		}
		if tc.successes == tc.in && tc.out == 0 {
			logit := func(x float64) float64 { return math.Log(x / (1 - x)) }
			lowerNear(t, tc.list+" all right", got, logit(math.Pow(0.05, 1/float64(tc.in)))-logit(tc.pi), 3e-9)
		}
	}
}

// A list's items are probabilities, and its length is the row's targets:
// anything else is the row's error, naming the column and the item.
func TestAuditRowsPriorListErrors(t *testing.T) {
	for _, tc := range []struct {
		row  map[string]string
		want []string
	}{
		{map[string]string{"audit": "prior", "prior": "list(0.3, 1.5, 0.9)", "successes": "2"}, []string{"prior", `item 2 ("1.5")`, "[0, 1]"}},
		{map[string]string{"audit": "prior", "prior": "list(0.3, -0.5)", "successes": "1"}, []string{"prior", `item 2 ("-0.5")`}},
		{map[string]string{"audit": "prior", "prior": "list(0.3, 0.5, 0.9)", "targets": "4", "successes": "2"}, []string{"targets", "4", "3"}},
		{map[string]string{"audit": "prior", "prior": "list(0.5 x 10)", "targets": "9", "successes": "2"}, []string{"targets", "9", "10"}},
	} {
		st, msg, _ := evalAudit(t, New(), tc.row)
		if st != StatusError {
			t.Errorf("%v: status %s (%s), want error", tc.row, st, msg)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: message %q does not say %q", tc.row, msg, w)
			}
		}
	}
}
