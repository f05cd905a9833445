package evaluate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/samples"
	"github.com/riskbatch/riskbatch/table"
)

// messageProblems evaluates one row and returns what is wrong with its
// status and message, by the rules of Applies:
//   - the message has at most MaxMessage characters;
//   - a row is partial exactly when a column lacks an input the row could
//     have had (need) or has one it cannot use (fault), and a need is one
//     the column declares (Applies.Requires) and the row really lacks;
//   - no column that does not apply to the row's mechanism is computed or
//     mentioned, and none of them would have had a value (the declaration
//     is not too narrow: it never hides a number);
//   - no message speaks of bounds that do not apply.
//
// It writes the row's cells into dst as Evaluate does.
func messageProblems(b *Binding, cells, dst []table.Cell) []string {
	var bad []string
	st, r, problems, marks := b.evaluate(cells, dst, nil)
	var msg string
	if st == StatusError {
		msg = errorMessage(problems.Texts())
	} else if len(marks) > 0 {
		msg = b.message(marks, r)
	}
	dst[0], dst[1] = table.TextCell(string(st)), table.Cell{}
	if msg != "" {
		dst[1] = table.TextCell(msg)
	}
	if n := utf8.RuneCountInString(msg); n > MaxMessage {
		bad = append(bad, fmt.Sprintf("message of %d characters: %q", n, msg))
	}
	if st == StatusError {
		return bad
	}
	if st != StatusOK && msg == "" {
		bad = append(bad, fmt.Sprintf("status %s without a message", st))
	}
	partial := false
	bit := registry.MechanismBit(r.Mechanism)
	for _, m := range marks {
		if m.kind == markNeed || m.kind == markFault {
			partial = true
		}
		if m.column < 0 {
			continue
		}
		o := &b.outputs[m.column]
		if o.MechanismBits&bit == 0 {
			bad = append(bad, fmt.Sprintf("%s does not apply to %s rows, but the message speaks of it", o.Name, r.Mechanism))
		}
		if m.kind != markNeed {
			continue
		}
		if m.need&^o.Applies.Requires != 0 {
			bad = append(bad, fmt.Sprintf("%s needs an input (%b) its Applies.Requires (%b) does not declare", o.Name, m.need, o.Applies.Requires))
		}
		if m.need&resolve.NeedBaseline != 0 && r.HasBaseline {
			bad = append(bad, fmt.Sprintf("%s asks for a baseline the row has (%v)", o.Name, r.Baseline))
		}
		if m.need&resolve.NeedDelta != 0 && (release.NativeEpsilon(r.Mechanism) || r.HasDelta && r.Delta > 0) {
			bad = append(bad, fmt.Sprintf("%s asks for a delta the row does not need (mechanism %s, delta %v)", o.Name, r.Mechanism, r.Delta))
		}
	}
	if partial != (st == StatusPartial) {
		bad = append(bad, fmt.Sprintf("status %s, but the marks say partial = %v: %q", st, partial, msg))
	}
	for _, old := range []string{"assume pure", "Rényi or mutual-information view", "replace-one parameters", "not a pure", "for one composition", "M = 0"} {
		if strings.Contains(msg, old) {
			bad = append(bad, fmt.Sprintf("the message speaks of bounds that do not apply: %q", msg))
		}
	}
	return bad
}

// The messages of every sample row and of random rows (the generator of
// TestNoNaNOut, with another seed: 40, or 1,500 with
// RISKBATCH_LONG_TESTS=1) keep the rules of messageProblems. The sample's
// DP-SGD rows, whose accounting takes most of the test's time, are checked
// in the long run; the random rows hold DP-SGD rows of a few steps.
func TestMessages(t *testing.T) {
	t.Parallel()
	e := New(WithConfidence(0.05, 0.95))
	cols, rows := samples.Releases()
	b, err := e.Bind(cols)
	if err != nil {
		t.Fatal(err)
	}
	mech := slices.IndexFunc(cols, func(c table.Column) bool { return c.Name == "mechanism" })
	for i, cells := range rows {
		if !testenv.Long() && cells[mech].String() == "dpsgd" {
			continue
		}
		for _, p := range messageProblems(b, cells, make([]table.Cell, e.Width())) {
			t.Errorf("sample row %d (%s): %s", i+1, cells[0].String(), p)
		}
	}
	rng := newRand(19)
	for i, n := 0, testenv.Count(40, 1500); i < n; i++ {
		_, row := randomRow(rng)
		if row["target_advantage"] != "" && (row["noise_multiplier"] != "") {
			continue // the DP-SGD calibrations are TestNoNaNOut's; keep this test fast
		}
		b, cells := bindRow(t, e, row)
		for _, p := range messageProblems(b, cells, make([]table.Cell, e.Width())) {
			t.Errorf("row %v: %s", row, p)
		}
	}
}

// The messages users read most, exactly: a question without a baseline
// says which input to add; a row whose bounds all apply says nothing;
// columns that do not apply (pure-DP bounds on a Gaussian row) stay empty
// without a word; a baseline of 1 from a prior names the prior.
func TestRowMessages(t *testing.T) {
	for _, c := range []struct {
		row    map[string]string
		status Status
		want   string
	}{
		{map[string]string{"mu": "0.5"}, StatusPartial,
			"add baseline (or candidates, or prior) and delta (e.g. 1e-5) to get fdp_success, fdp_advantage and 11 more"},
		{map[string]string{"mu": "0.5", "delta": "1e-5"}, StatusPartial,
			"add baseline (or candidates, or prior) to get fdp_success, fdp_advantage and 6 more"},
		{map[string]string{"mu": "0.5", "baseline": "0.1"}, StatusPartial,
			"add delta (e.g. 1e-5) to get eps_at_delta, adp_advantage and 6 more"},
		{map[string]string{"mu": "0.5", "baseline": "0.1", "delta": "0"}, StatusPartial,
			"set delta above 0 (e.g. 1e-5) to get eps_at_delta, adp_advantage and 6 more"},
		{map[string]string{"Sigma": "10", "Delta": "1e-6", "Candidates": "100", "target_advantage": "0.05"}, StatusOK, ""},
		{map[string]string{"sigma": "10", "delta": "1e-6"}, StatusPartial,
			"add baseline (or candidates, or prior) to get fdp_success, fdp_advantage and 6 more"},
		{map[string]string{"Kappa": "0.1", "mu": "1"}, StatusPartial,
			"add delta (e.g. 1e-5) to get eps_at_delta, adp_advantage and 6 more"},
		{map[string]string{"epsilon": "1", "delta": "1e-6", "candidates": "10", "target_advantage": "0.1"}, StatusOK, ""},
		{map[string]string{"epsilon": "1", "baseline": "1", "target_advantage": "0.1"}, StatusOK,
			"fdp_norm_advantage, onerun_advantage and onerun_eps_protect empty: the advantage is undefined at baseline 1 (+1 more: fdp_eps_for_target empty)"},
		{map[string]string{"epsilon": "1", "delta": "1e-5", "baseline": "0.1", "target_advantage": "1e-6"}, StatusOK,
			"fdp_eps_for_target, pmp_eps_for_target and onerun_eps_protect empty: no privacy level meets target_advantage: it is below what delta alone allows"},
		{map[string]string{"mu": "1", "delta": "1e-5", "baseline": "0.1", "target_advantage": "1"}, StatusOK,
			"fdp_mu_for_target, pmp_eps_for_target and onerun_eps_protect empty: every privacy level meets target_advantage, so there is no limit to report"},
		{map[string]string{"epsilon": "1", "pmp_data": "0, 1; 1, 0", "baseline": "0.5"}, StatusOK,
			"pmp_data: filled, but only gaussian and exponential rows use it; clear it or correct mechanism"},
		{map[string]string{"mu": "1", "baseline": "0.1", "targets": "10", "successes": "3"}, StatusPartial,
			"add delta (e.g. 1e-5) to get eps_at_delta, adp_advantage and 10 more"},
	} {
		st, msg, _ := evalRow(t, c.row)
		if st != c.status || msg != c.want {
			t.Errorf("%v:\n got %s %q\nwant %s %q", c.row, st, msg, c.status, c.want)
		}
	}
}

// A baseline that comes from a prior says so where it matters: at 1, the
// advantage columns are empty and the message names the prior.
func TestBaselineFromPriorNamed(t *testing.T) {
	e := New(WithPriors(loadPriors(t, "p.csv", map[string]string{"p.csv": "prior,p,targets\npenguins:Sex,1,1\n"})))
	b, cells := bindRow(t, e, map[string]string{"epsilon": "1", "prior": "penguins:Sex", "target_advantage": "0.1"})
	dst := make([]table.Cell, e.Width())
	st := b.Evaluate(cells, dst)
	want := `fdp_norm_advantage and 2 more empty: the advantage is undefined at baseline 1, which comes from prior "penguins:Sex" (its largest p) (+1 more)`
	if st != StatusOK || dst[1].Str != want {
		t.Errorf("got %s %q\nwant ok %q", st, dst[1].Str, want)
	}
}

// combine keeps the most important problem whole and the rest within
// MaxMessage characters: in full, by their labels, or clipped.
func TestCombine(t *testing.T) {
	long := strings.Repeat("x", 150)
	for _, c := range []struct {
		parts, labels []string
		want          string
	}{
		{nil, nil, ""},
		{[]string{"a: one"}, []string{"a"}, "a: one"},
		{[]string{"a: one", "b: two"}, []string{"a", "b"}, "a: one (+1 more: b: two)"},
		{[]string{"a: " + long[:120], "b: " + long[:40]}, []string{"a", "b"}, "a: " + long[:120] + " (+1 more: b)"},
		{[]string{"a: " + long, "b: two"}, []string{"a", "b"}, "a: " + long[:146] + "… (+1 more)"},
		{[]string{long + long}, []string{"a"}, long + long[:9] + "…"},
	} {
		got := combine(c.parts, c.labels)
		if got != c.want {
			t.Errorf("combine(%q)\n got %q\nwant %q", c.parts, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > MaxMessage {
			t.Errorf("combine(%q): %d characters", c.parts, n)
		}
	}
}

// The registry declares when each column applies, and Docs shows exactly
// that text in its "applies to" column.
func TestDocsShowApplies(t *testing.T) {
	e := New()
	docs := e.Docs()
	at := -1
	for i, h := range docs[0] {
		if h == "applies to" {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("Docs header %v has no \"applies to\"", docs[0])
	}
	byName := map[string][]string{}
	for _, r := range docs[1:] {
		byName[r[0]] = r
	}
	for _, o := range e.Outputs() {
		r, ok := byName[o.Name]
		if !ok {
			t.Errorf("Docs lacks %s", o.Name)
			continue
		}
		if r[at] != o.Applies.Text() || r[at] == "" {
			t.Errorf("%s: Docs says %q, the registry %q", o.Name, r[at], o.Applies.Text())
		}
	}
	// Spot checks of the text, from the papers' scope.
	for name, want := range map[string]string{
		// Guerra-Balboa et al. assume pure ε-DP (Guerra-Balboa et al. 2024).
		"gb_mia_yeom":       "pure, approx, laplace, rr and exponential rows whose delta is empty or 0 (approx rows: also one composition); on other rows empty, without a message",
		"fdp_success":       "all rows. Needs baseline (or candidates, or prior); a row without it is partial, and its message says what to add",
		"fdp_mu_for_target": "gaussian and gdp rows that have target_advantage; on other rows empty, without a message",
		"pmp_data_eps":      "gaussian and exponential rows that have pmp_data; on other rows empty, without a message. Needs delta > 0 on gaussian rows; a row without it is partial, and its message says what to add",
		"adp_advantage":     "all rows. Needs delta > 0 on gaussian, gdp, zcdp, rdp, dpsgd and marginals rows; a row without it is partial, and its message says what to add",
	} {
		if got := byName[name][at]; got != want {
			t.Errorf("%s applies to\n got %q\nwant %q", name, got, want)
		}
	}
}
