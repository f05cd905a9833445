package evaluate

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// evalAudit evaluates an audit row (header → cell text) and returns its
// status, message and audit outputs by name; it fails the test if a
// release column has a value, or if a valid row has a release column's
// message. Its headline, where it has one, quotes audit_eps_lb.
func evalAudit(t *testing.T, e *Evaluator, row map[string]string) (Status, string, map[string]table.Cell) {
	t.Helper()
	st, out := evalWith(t, e, row)
	for name, c := range out {
		if name == registry.HeadlineColumn && !c.IsEmpty() && c != out["audit_eps_lb"] {
			t.Errorf("%v: headline %v, audit_eps_lb %v", row, c, out["audit_eps_lb"])
		}
		if name != "status" && name != "message" && name != registry.HeadlineColumn && name != registry.HeadlineSaysColumn && !strings.HasPrefix(name, "audit_") && !c.IsEmpty() {
			t.Errorf("%v: release column %s = %v on an audit row", row, name, c)
		}
	}
	return st, out["message"].Str, out
}

// auditNumber evaluates an audit row and returns one audit output, which
// must be a number.
func auditNumber(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	_, msg, out := evalAudit(t, New(), row)
	if out[col].Kind != table.Number {
		t.Fatalf("%v: %s empty: %s", row, col, msg)
	}
	return out[col].Num
}

// lowerNear checks a lower bound against an exact value x computed
// elsewhere: never above it (beyond 1e-12), at most tol below.
func lowerNear(t *testing.T, what string, got, x, tol float64) {
	t.Helper()
	if !(got <= x+1e-12 && x-got <= tol) {
		t.Errorf("%s = %.17g, want at most %g below %.17g and never above", what, got, tol, x)
	}
}

// All guesses right at δ = 0: the p-value of ε is σ(ε)^r (the binomial
// tail at v = r), so the lower bound is logit(β^{1/r}) in closed form
// (Steinke et al. 2023, Thm 3 at δ = 0), computed here without the audit
// package; num_tests divides β.
func TestAuditRowsClosedForm(t *testing.T) {
	for _, tc := range []struct {
		r, numTests              int
		confidence, significance string
	}{
		{100, 1, "0.95", ""}, {10, 1, "0.95", ""}, {1000, 1, "0.99", ""}, {37, 4, "", "0.05"}, {5000, 1, "", "1e-6"}, {100, 1, "95%", ""},
	} {
		row := map[string]string{"audit": "membership", "canaries": strconv.Itoa(tc.r), "guesses": strconv.Itoa(tc.r), "correct": strconv.Itoa(tc.r),
			"num_tests": strconv.Itoa(tc.numTests)}
		beta := 0.0
		if tc.significance != "" {
			row["significance"] = tc.significance
			s, _ := strconv.ParseFloat(tc.significance, 64)
			beta = s / float64(tc.numTests)
		} else {
			row["confidence"] = tc.confidence
			c, _ := strconv.ParseFloat(strings.TrimSuffix(tc.confidence, "%"), 64)
			if strings.HasSuffix(tc.confidence, "%") {
				c /= 100
			}
			beta = (1 - c) / float64(tc.numTests)
		}
		x := math.Pow(beta, 1/float64(tc.r))
		want := math.Log(x / (1 - x))
		lowerNear(t, "audit_eps_lb "+strconv.Itoa(tc.r), auditNumber(t, row, "audit_eps_lb"), want, 3e-9)
	}
	// A worked example: 100 of 100 canaries right at 95% is ε ≥ 3.4930 (the closed form logit(0.05^{1/100}) checked above).
	got := auditNumber(t, map[string]string{"audit": "membership", "canaries": "100", "guesses": "100", "correct": "100"}, "audit_eps_lb")
	if math.Abs(got-3.4930) > 5e-5 {
		t.Errorf("100/100 at 95%%: audit_eps_lb = %v, want 3.4930", got)
	}
}

// Published and reference-implementation values through whole rows. The
// references are audit/testdata/reference.txt (50-digit mpmath sums and
// bisection following each paper's reference code; see
// audit/reference_test.go): Steinke et al.'s get_eps_audit at (1000, 500,
// 400, δ = 1e-5, 0.05) and p_value_DP_audit at ε = 1; Mahloujifar et al.'s
// rh_with_cap for k = 2 and k = 10; Swanberg et al. Thm 3.5 inverted over
// the priors linspace(0.3, 0.9, 100) with 95 successes.
func TestAuditRowsReference(t *testing.T) {
	counts := map[string]string{"canaries": "1000", "guesses": "500", "correct": "400", "delta": "1e-5", "significance": "0.05"}
	with := func(extra map[string]string) map[string]string { return merged(counts, extra) }
	lowerNear(t, "membership ε", auditNumber(t, with(map[string]string{"audit": "membership"}), "audit_eps_lb"), 1.1979686462773707, 2e-9)
	p := auditNumber(t, with(map[string]string{"audit": "membership", "epsilon": "1"}), "audit_p_value")
	if want := 0.00059841865702365681; !(p >= want*(1-1e-11) && p <= want*(1+3e-9)) {
		t.Errorf("membership p-value at ε = 1: %.17g, want %.17g rounded up", p, want)
	}
	lowerNear(t, "membership_fdp ε", auditNumber(t, with(map[string]string{"audit": "membership_fdp"}), "audit_eps_lb"), 1.1898909649213953, 1e-8)
	lowerNear(t, "membership_fdp μ", auditNumber(t, with(map[string]string{"audit": "membership_fdp"}), "audit_mu_lb"), 0.51875335752297858, 1e-8)
	k10 := map[string]string{"audit": "reconstruction", "canaries": "1000", "guesses": "200", "correct": "120", "options": "10", "delta": "1e-5", "significance": "0.05"}
	lowerNear(t, "reconstruction ε", auditNumber(t, k10, "audit_eps_lb"), 2.3447464080156522, 1e-8)
	lowerNear(t, "reconstruction μ", auditNumber(t, k10, "audit_mu_lb"), 0.80733444496019846, 1e-8)

	var lin strings.Builder
	lin.WriteString("prior,p\n")
	for i := range 100 {
		lin.WriteString("lin," + ftoa(0.3+0.6*float64(i)/99) + "\n")
	}
	e := New(WithPriors(loadPriors(t, "lin.csv", map[string]string{"lin.csv": lin.String()})))
	st, msg, out := evalAudit(t, e, map[string]string{"audit": "prior", "prior": "lin", "successes": "95", "delta": "1e-5", "significance": "0.05", "audit_bound": "Thm 3.5"})
	if st != StatusOK || out["audit_eps_lb"].Kind != table.Number {
		t.Fatalf("prior audit: %s %q", st, msg)
	}
	lowerNear(t, "prior ε (Thm 3.5)", out["audit_eps_lb"].Num, 1.951601965076458, 2e-9)
	if got := out["audit_delta_term"].Num; got != 100*1e-5 {
		t.Errorf("prior audit_delta_term = %v, want n·δ = 1e-3", got)
	}
}

// The prior route at p_i = ½ is Steinke et al.'s test with n·δ for 2·m·δ
// (audit.PriorEpsilon's doc): a prior row of r targets at baseline ½ and
// δ' = 2·m·δ/r under Thm 3.5 certifies the ε of the membership row (m, r,
// v, δ), to the searches' 1e-9.
func TestAuditRowsPriorHalfIsMembership(t *testing.T) {
	for _, c := range [][4]float64{{1000, 500, 400, 1e-5}, {100, 100, 90, 0}, {2000, 300, 250, 1e-6}} {
		m, r, v, d := c[0], c[1], c[2], c[3]
		member := auditNumber(t, map[string]string{"audit": "membership", "canaries": ftoa(m), "guesses": ftoa(r), "correct": ftoa(v), "delta": ftoa(d)}, "audit_eps_lb")
		prior := auditNumber(t, map[string]string{"audit": "prior", "targets": ftoa(r), "baseline": "0.5", "successes": ftoa(v), "delta": ftoa(2 * m * d / r), "audit_bound": "thm35"}, "audit_eps_lb")
		if math.Abs(member-prior) > 2e-9 {
			t.Errorf("m=%v r=%v v=%v δ=%v: membership %.12g, prior at ½ %.12g", m, r, v, d, member, prior)
		}
	}
}

// Monotonicity at row level: more correct guesses certify more, a higher
// confidence (or more tests) less, and a larger δ less, for every method.
func TestAuditRowsMonotone(t *testing.T) {
	eps := func(method string, correct int, conf, delta float64) float64 {
		row := map[string]string{"audit": method, "canaries": "2000", "guesses": "400", "correct": strconv.Itoa(correct),
			"confidence": ftoa(conf), "delta": ftoa(delta)}
		if method == "reconstruction" {
			row["options"] = "4"
		}
		return auditNumber(t, row, "audit_eps_lb")
	}
	for _, method := range []string{"membership", "membership_fdp", "reconstruction"} {
		prev := -1.0
		for _, correct := range []int{200, 260, 300, 340, 380, 400} {
			got := eps(method, correct, 0.95, 1e-6)
			if got < prev {
				t.Errorf("%s: correct %d certifies %v, less than %v with fewer", method, correct, got, prev)
			}
			prev = got
		}
		prev = math.Inf(1)
		for _, conf := range []float64{0.5, 0.9, 0.95, 0.99, 0.999999} {
			got := eps(method, 330, conf, 1e-6)
			if got > prev {
				t.Errorf("%s: confidence %v certifies %v, more than %v at a lower one", method, conf, got, prev)
			}
			prev = got
		}
		prev = math.Inf(1)
		for _, delta := range []float64{0, 1e-9, 1e-6, 1e-5, 1e-4} {
			got := eps(method, 330, 0.95, delta)
			if got > prev {
				t.Errorf("%s: delta %v certifies %v, more than %v at a smaller δ", method, delta, got, prev)
			}
			prev = got
		}
	}
}

// Audit rows and release rows keep to their own columns, and the
// messages say exactly what to correct, naming the columns.
func TestAuditRowsMessages(t *testing.T) {
	for _, tc := range []struct {
		row    map[string]string
		status Status
		msg    string
	}{
		{map[string]string{"audit": "membership", "canaries": "100", "guesses": "100", "correct": "100"}, StatusOK, ""},
		{map[string]string{"audit": "membership", "canaries": "100", "guesses": "100", "correct": "101"}, StatusError,
			"correct: 101 is more than guesses = 100; expected 0 ≤ correct ≤ guesses"},
		{map[string]string{"audit": "membership", "canaries": "100", "guesses": "120", "correct": "10"}, StatusError,
			"guesses: 120 is more than canaries = 100; expected 0 ≤ guesses ≤ canaries"},
		{map[string]string{"audit": "membership", "canaries": "100", "guesses": "100"}, StatusError,
			"correct: empty, but audit membership needs it; expected a whole number in [0, 1e+07]"},
		{map[string]string{"audit": "Membership", "Canaries": "10", "guesses": "10", "correct": "10", "sigma": "2", "mechanism": "gaussian"}, StatusError,
			"mechanism, sigma: filled, but audit membership does not use them; clear them, or clear audit if the row is a release"},
		{map[string]string{"audit": "membership_fdp", "canaries": "10", "guesses": "10", "correct": "10", "successes": "3"}, StatusError,
			"successes: filled, but audit membership_fdp does not use it; clear it or correct audit"},
		{map[string]string{"audit": "membrship", "canaries": "10"}, StatusError,
			`audit: "membrship" is not an audit method; did you mean membership?`},
		{map[string]string{"audit": "canary", "canaries": "10"}, StatusError,
			`audit: "canary" is not an audit method; expected membership, membership_fdp, reconstruction or prior`},
		{map[string]string{"epsilon": "1", "canaries": "10", "correct": "3"}, StatusError,
			"canaries, correct: filled, but only audit rows use them; fill audit (membership, membership_fdp, reconstruction or prior) or clear them"},
		{map[string]string{"audit": "membership", "canaries": "10", "guesses": "10", "correct": "10", "confidence": "0.95", "significance": "0.1"}, StatusError,
			"significance: 0.1 disagrees with confidence = 0.95 (1 − confidence = 0.05); fill one or the other"},
		{map[string]string{"audit": "membership", "canaries": "10", "guesses": "10", "correct": "10", "options": "3"}, StatusError,
			"options: 3, but audit membership has 2 options (in or out); expected 2, or audit reconstruction for k options"},
		{map[string]string{"audit": "prior", "targets": "10", "successes": "3"}, StatusError,
			"baseline: empty, but audit prior needs the targets' prior success; fill baseline (or candidates), or prior instead of targets"},
		{map[string]string{"audit": "prior", "targets": "10", "baseline": "0.5", "successes": "3", "delta": "1e-6", "audit_bound": "thm32"}, StatusError,
			"audit_bound: thm32 is for pure ε-DP, but delta = 1e-06; expected cor34 or thm35, or delta 0"},
		{map[string]string{"audit": "prior", "targets": "10", "baseline": "0.5", "successes": "3", "audit_bound": "thm 9"}, StatusError,
			`audit_bound: "thm 9" is not a bound; expected thm32, cor34 or thm35 (Swanberg et al. 2025, Thm 3.2, Cor 3.4, Thm 3.5)`},
		{map[string]string{"audit": "membership", "canaries": "4", "guesses": "4", "correct": "4"}, StatusOK,
			"audit_eps_lb: too few canaries: even all guesses correct would not certify a bound above 0"},
		{map[string]string{"audit": "membership", "canaries": "1000", "guesses": "500", "correct": "255"}, StatusOK,
			"audit_eps_lb: the observed guesses refute no claim above 0"},
		{map[string]string{"audit": "membership", "canaries": "1000", "guesses": "500", "correct": "400", "delta": "1e-4"}, StatusOK,
			"audit_eps_lb: the delta term 2·m·δ (m = 1000) = 0.2 is not small against the significance 0.05"},
	} {
		st, msg, _ := evalAudit(t, New(), tc.row)
		if st != tc.status || msg != tc.msg {
			t.Errorf("%v:\n got %s %q\nwant %s %q", tc.row, st, msg, tc.status, tc.msg)
		}
	}
	// A release row with significance: its confidence is 1 − significance.
	a := number(t, map[string]string{"epsilon": "1", "baseline": "0.5", "targets": "100", "significance": "0.01"}, "onerun_successes_ub")
	b := number(t, map[string]string{"epsilon": "1", "baseline": "0.5", "targets": "100", "confidence": "0.99"}, "onerun_successes_ub")
	if a != b {
		t.Errorf("significance 0.01 gives onerun_successes_ub %v, confidence 0.99 %v", a, b)
	}
	// The claim columns: refuted, not refuted, and no p-value for f-DP.
	_, _, out := evalAudit(t, New(), map[string]string{"audit": "membership_fdp", "canaries": "1000", "guesses": "500", "correct": "400", "epsilon": "2"})
	if out["audit_claim_refuted"].Num != 0 || out["audit_claim_refuted"].Kind != table.Number || !out["audit_p_value"].IsEmpty() {
		t.Errorf("membership_fdp claim ε = 2: refuted %v, p-value %v; want 0 and empty", out["audit_claim_refuted"], out["audit_p_value"])
	}
	_, _, out = evalAudit(t, New(), map[string]string{"audit": "membership", "canaries": "1000", "guesses": "500", "correct": "400", "epsilon": "0.5", "delta": "1e-5"})
	if out["audit_claim_refuted"].Num != 1 || !(out["audit_p_value"].Num < 0.05) {
		t.Errorf("membership claim ε = 0.5: refuted %v, p-value %v; want 1 and below 0.05", out["audit_claim_refuted"], out["audit_p_value"])
	}
}

// Random audit rows of every method keep the rules of messageProblems
// (messages within MaxMessage, a reason for every empty column that
// applies), write no NaN, and every bound is ≥ 0, with the claim refuted
// exactly when it is below audit_eps_lb for membership and prior (whose
// p-value is then below the significance). 60 rows, 600 with
// RISKBATCH_LONG_TESTS=1.
func TestAuditRowsRandom(t *testing.T) {
	e := New()
	rng := newRand(22)
	pick := func(vals ...string) string { return vals[rng.Intn(len(vals))] }
	for range testenv.Count(60, 600) {
		m := []int{1, 3, 10, 200, 3000}[rng.Intn(5)]
		g := rng.Intn(m + 1)
		row := map[string]string{"audit": pick("membership", "membership_fdp", "reconstruction", "prior"),
			"delta": pick("", "0", "1e-6", "1e-3"), "epsilon": pick("", "0.3", "1", "3"), "confidence": pick("", "0.8", "0.99")}
		if row["audit"] == "prior" {
			row["targets"], row["baseline"], row["successes"] = strconv.Itoa(m), pick("0.5", "0.2", "0.9"), strconv.Itoa(rng.Intn(m+1))
		} else {
			row["canaries"], row["guesses"], row["correct"] = strconv.Itoa(m), strconv.Itoa(g), strconv.Itoa(g/2+rng.Intn(g/2+1))
			if row["audit"] == "reconstruction" {
				row["options"] = pick("2", "5", "100")
			}
		}
		b, cells := bindRow(t, e, row)
		dst := make([]table.Cell, e.Width())
		for _, p := range messageProblems(b, cells, dst) {
			t.Errorf("%v: %s", row, p)
		}
		out := map[string]table.Cell{}
		for i, c := range e.Columns() {
			out[c.Name] = dst[i]
		}
		if out["status"].Str != string(StatusOK) {
			t.Errorf("%v: %s %q", row, out["status"].Str, out["message"].Str)
			continue
		}
		for _, name := range []string{"audit_eps_lb", "audit_mu_lb", "audit_p_value", "audit_delta_term"} {
			if c := out[name]; c.Kind == table.Number && !(c.Num >= 0) {
				t.Errorf("%v: %s = %v", row, name, c.Num)
			}
		}
		lb, ref := out["audit_eps_lb"], out["audit_claim_refuted"]
		if row["epsilon"] == "" || row["audit"] == "membership_fdp" || row["audit"] == "reconstruction" {
			continue
		}
		claim, _ := strconv.ParseFloat(row["epsilon"], 64)
		// Between the bound and the next 1e-9 the search saw the
		// boundary; elsewhere the verdict follows the bound.
		if claim < lb.Num-1e-6 && ref.Num != 1 || claim > lb.Num+1e-6 && ref.Num != 0 && lb.Num > 0 {
			t.Errorf("%v: claim %v, audit_eps_lb %v, refuted %v", row, claim, lb.Num, ref.Num)
		}
	}
}
