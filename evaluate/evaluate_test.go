package evaluate

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// evalRow evaluates one row given as header → cell text: its status, its
// message and its output cells by column name.
func evalRow(t *testing.T, row map[string]string) (Status, string, map[string]table.Cell) {
	t.Helper()
	st, out := evalWith(t, New(), row)
	if out["status"].Str != string(st) {
		t.Fatalf("status cell %q, returned %q", out["status"].Str, st)
	}
	return st, out["message"].Str, out
}

// Bad cells: the row is rejected, with no output, and a message that names
// the column (as the user's header spells it), the value, and what a valid
// value is. The table below gives each message exactly: a change of wording
// is a change of what users read, and shows here.
func TestBadValues(t *testing.T) {
	// testdata/bad_values.json: one case a line, the row as header → cell
	// text and the message it must get, exactly. The last three have
	// several problems: the first in full, the others after it.
	var cases []struct {
		Row  map[string]string `json:"row"`
		Want string            `json:"want"` // the message, exactly
	}
	data, err := os.ReadFile("testdata/bad_values.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("testdata/bad_values.json: %v", err)
	}
	if len(cases) < 50 {
		t.Fatalf("the catalogue has %d bad inputs, fewer than 50", len(cases))
	}
	check := func(row map[string]string, st Status, msg string, out map[string]table.Cell, want string) {
		t.Helper()
		if st != StatusError {
			t.Errorf("%v: status %s, want error (message %q)", row, st, msg)
			return
		}
		if msg != want {
			t.Errorf("%v: message\n got %q\nwant %q", row, msg, want)
		}
		if n := utf8.RuneCountInString(msg); n > MaxMessage {
			t.Errorf("%v: message of %d characters, more than %d", row, n, MaxMessage)
		}
		for name, cell := range out {
			if name != "status" && name != "message" && cell.Kind != table.Empty {
				t.Errorf("%v: error row has %s = %v", row, name, cell)
			}
		}
	}
	for _, c := range cases {
		st, msg, out := evalRow(t, c.Row)
		check(c.Row, st, msg, out, c.Want)
	}

	// A key missing from the prior tables that were loaded.
	e := New(WithPriors(loadPriors(t, "penguins.csv", map[string]string{
		"penguins.csv": "prior,p,targets\npenguins:sex,0.5,1\n"})))
	for _, c := range []struct {
		row  map[string]string
		want string
	}{
		{map[string]string{"epsilon": "1", "prior": "penguins:island"},
			`prior "penguins:island": no such key in the prior tables loaded (penguins.csv (1 key))`},
		{map[string]string{"epsilon": "1", "prior": "penguins:sexx"},
			`prior "penguins:sexx": no such key in the prior tables loaded (penguins.csv (1 key)); did you mean "penguins:sex"?`},
	} {
		st, out := evalWith(t, e, c.row)
		check(c.row, st, out["message"].Str, out, c.want)
	}
}

func TestParseNumber(t *testing.T) {
	good := map[string]float64{
		"0.5": 0.5, " 1e-5 ": 1e-5, "1E-05": 1e-5, "5%": 0.05, "12.5 %": 0.125, "1,000,000": 1e6,
		"1 000": 1000, "1/1000": 0.001, "−3": -3, "+2": 2, ".5": 0.5, "5.": 5, "1e-400": 0, "1,234.5": 1234.5,
		"\u00a07\u00a0": 7,
	}
	for s, want := range good {
		got, err := ParseNumber(s)
		if err != nil || got != want {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "abc", "inf", "-Inf", "NaN", "0x10", "0x1p-2", "1,00", "12,34,567", "1e", "1e+", "--1", "1/0", "1.2.3", "5%%", "1e999", "0,5", ",5"} {
		if v, err := ParseNumber(s); err == nil {
			t.Errorf("ParseNumber(%q) = %v, want an error", s, v)
		}
	}
}

func TestHeaderMatching(t *testing.T) {
	v := release.NewVocabulary()
	for h, want := range map[string]release.Field{
		"epsilon": release.FieldEpsilon, "Epsilon": release.FieldEpsilon, "ε": release.FieldEpsilon, " EPSILON ": release.FieldEpsilon,
		"δ": release.FieldDelta, "µ": release.FieldMu, "μ": release.FieldMu, "Target Advantage": release.FieldTargetAdvantage,
		"target-advantage": release.FieldTargetAdvantage, "TARGET__ADVANTAGE": release.FieldTargetAdvantage,
		"noise multiplier": release.FieldNoiseMultiplier, "RDP ε": release.FieldRDPEpsilon, "σ": release.FieldSigma, "ρ": release.FieldRho,
		"Laplace-Scale": release.FieldLaplaceScale, "num_steps": release.FieldSteps,
	} {
		if got, ok := v.Lookup(h); !ok || got != want {
			t.Errorf("Lookup(%q) = %v, %v; want %v", h, got, ok, v.Column(want).Name)
		}
	}
	if _, ok := v.Lookup("notes"); ok {
		t.Errorf("notes should be unknown")
	}
	if !v.Recognizes([]string{"name", "ε"}) || v.Recognizes([]string{"id", "name"}) {
		t.Errorf("Recognizes")
	}
	_, err := New().Bind([]table.Column{{Name: "epsilon"}, {Name: "x"}, {Name: "ε"}})
	if err == nil || !strings.Contains(err.Error(), `"epsilon" and "ε"`) {
		t.Errorf("duplicate columns: %v", err)
	}
}

// Mechanism inference from the filled columns.
func TestMechanismInference(t *testing.T) {
	checkInference(t, []inferenceCase{
		{map[string]string{"epsilon": "1"}, release.MechanismPure},
		{map[string]string{"epsilon": "1", "delta": "0"}, release.MechanismPure},
		{map[string]string{"epsilon": "1", "delta": "1e-5"}, release.MechanismApprox},
		{map[string]string{"sigma": "2", "delta": "1e-5"}, release.MechanismGaussian},
		{map[string]string{"sigma": "2", "mu": "0.5"}, release.MechanismGaussian},
		{map[string]string{"mu": "0.5"}, release.MechanismGDP},
		{map[string]string{"mechanism": "Gaussian", "sigma": "2"}, release.MechanismGaussian},
		{map[string]string{"mechanism": "ε-δ", "epsilon": "1", "delta": "1e-6"}, release.MechanismApprox},
	})
}

// A row without baseline is partial: baseline-free bounds are filled, the
// others are empty, and the message says which input to add for them. No
// target_advantage leaves onerun_eps_protect empty without a message; a
// baseline of 1 leaves the advantages empty with a reason, but no input is
// missing, so the row is ok.
func TestPartialRows(t *testing.T) {
	st, msg, out := evalRow(t, map[string]string{"mu": "0.5"})
	if st != StatusPartial || out["fdp_worst_advantage"].Kind != table.Number || out["fdp_success"].Kind != table.Empty {
		t.Fatalf("status %s, message %q", st, msg)
	}
	if want := "add baseline (or candidates, or prior) and delta (e.g. 1e-5) to get fdp_success, fdp_advantage and 11 more"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	st, msg, out = evalRow(t, map[string]string{"epsilon": "1", "baseline": "0.2"})
	if st != StatusOK || msg != "" || out["onerun_eps_protect"].Kind != table.Empty {
		t.Errorf("no target: status %s, message %q", st, msg)
	}
	st, msg, _ = evalRow(t, map[string]string{"epsilon": "1", "baseline": "1", "target_advantage": "0.1"})
	if st != StatusOK || !strings.HasPrefix(msg, "fdp_norm_advantage, onerun_advantage and onerun_eps_protect empty: the advantage is undefined at baseline 1") {
		t.Errorf("baseline 1: status %s, message %q", st, msg)
	}
}

// number evaluates a row and returns one output as a number (NaN if empty).
func number(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	_, msg, out := evalRow(t, row)
	if out[col].Kind != table.Number {
		t.Fatalf("%v: %s empty: %s", row, col, msg)
	}
	return out[col].Num
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Properties over random rows of the four mechanisms: every probability is
// in [0, 1] and at least the baseline, bounds grow with ε (μ) and with the
// baseline, equal the baseline at ε = 0, and equivalent parameterisations
// agree (σ/sensitivity vs μ; candidates vs baseline; compositions vs the
// composed parameter). 20 random draws by default, 400 with
// RISKBATCH_LONG_TESTS=1.
func TestProperties(t *testing.T) {
	t.Parallel()
	rng := newRand(7)
	probCols := []string{"fdp_success", "fdp_advantage", "fdp_worst_advantage", "adp_advantage", "onerun_posterior", "onerun_advantage"}
	for i, n := 0, testenv.Count(20, 400); i < n; i++ {
		eps := 50 * rng.Float64()
		// δ ≤ 0.01 keeps 1 − confidence (0.05) above δ: onerun_bits_leaked
		// has no bound otherwise and the row would be partial.
		delta := math.Pow(10, -12+10*rng.Float64())
		mu := math.Pow(10, -2+3.3*rng.Float64())
		base := math.Pow(10, -9+9*rng.Float64())
		if base > 0.99 {
			base = 0.99
		}
		rows := []map[string]string{
			{"epsilon": ftoa(eps), "baseline": ftoa(base)},
			{"epsilon": ftoa(eps), "delta": ftoa(delta), "baseline": ftoa(base)},
			{"mu": ftoa(mu), "delta": ftoa(delta), "baseline": ftoa(base)},
			{"sigma": ftoa(2 / mu), "sensitivity": "2", "delta": ftoa(delta), "baseline": ftoa(base)},
		}
		for k, row := range rows {
			st, msg, out := evalRow(t, row)
			if st != StatusOK {
				t.Fatalf("%v: %s %s", row, st, msg)
			}
			for _, c := range probCols {
				v := out[c].Num
				if out[c].Kind != table.Number || !(v >= 0 && v <= 1) {
					t.Fatalf("%v: %s = %v", row, c, out[c])
				}
			}
			if s := out["fdp_success"].Num; s < base {
				t.Fatalf("%v: success %v below baseline", row, s)
			}
			// Monotone in the privacy parameter and in the baseline.
			bigger := map[string]string{}
			for h, v := range row {
				bigger[h] = v
			}
			switch k {
			case 0, 1:
				bigger["epsilon"] = ftoa(eps*1.1 + 0.01)
			case 2:
				bigger["mu"] = ftoa(mu*1.1 + 0.01)
			case 3:
				bigger["sigma"] = ftoa(2 / (mu*1.1 + 0.01))
			}
			for _, c := range probCols {
				if v := number(t, bigger, c); v < out[c].Num {
					t.Fatalf("%v: %s decreases with the privacy parameter: %v < %v", row, c, v, out[c].Num)
				}
			}
			higher := map[string]string{}
			for h, v := range row {
				higher[h] = v
			}
			higher["baseline"] = ftoa(math.Min(base*1.5, 0.995))
			for _, c := range []string{"fdp_success", "onerun_posterior"} {
				if v := number(t, higher, c); v < out[c].Num {
					t.Fatalf("%v: %s decreases with the baseline", row, c)
				}
			}
		}
		// σ/sensitivity and μ agree.
		for _, c := range probCols {
			a, b := number(t, rows[2], c), number(t, rows[3], c)
			if !approx.Near(a, b, 1e-12, 1e-9) {
				t.Fatalf("%s: μ=%v gives %v, σ=%v Δ=2 gives %v", c, mu, a, 2/mu, b)
			}
		}
		// candidates and baseline agree.
		m := float64(2 + rng.Intn(1000))
		x := number(t, map[string]string{"mu": ftoa(mu), "delta": ftoa(delta), "candidates": ftoa(m)}, "fdp_success")
		y := number(t, map[string]string{"mu": ftoa(mu), "delta": ftoa(delta), "baseline": ftoa(1 / m)}, "fdp_success")
		if x != y {
			t.Fatalf("candidates %v: %v, baseline 1/%v: %v", m, x, m, y)
		}
		// compositions: c-fold μ-GDP is μ√c-GDP; c-fold ε-DP is cε-DP.
		c := float64(1 + rng.Intn(20))
		x = number(t, map[string]string{"mu": ftoa(mu), "compositions": ftoa(c), "baseline": ftoa(base)}, "fdp_success")
		y = number(t, map[string]string{"mu": ftoa(mu * math.Sqrt(c)), "baseline": ftoa(base)}, "fdp_success")
		if !approx.Near(x, y, 1e-12, 1e-9) {
			t.Fatalf("gdp compositions: %v vs %v", x, y)
		}
		// c-fold ε-DP is at most cε-DP: the optimal composition theorem
		// (Kairouz et al. 2015) is never looser than basic composition.
		x = number(t, map[string]string{"epsilon": ftoa(eps / 10), "compositions": ftoa(c), "baseline": ftoa(base)}, "fdp_success")
		y = number(t, map[string]string{"epsilon": ftoa(eps / 10 * c), "baseline": ftoa(base)}, "fdp_success")
		if x > y+1e-12 {
			t.Fatalf("pure compositions: optimal %v above basic %v", x, y)
		}
		if c == 1 && x != y {
			t.Fatalf("one composition: %v vs %v", x, y)
		}
	}
	// ε = 0 and μ = 0: every bound equals the baseline (advantage 0).
	for _, row := range []map[string]string{{"epsilon": "0", "baseline": "0.3"}, {"mu": "0", "baseline": "0.3", "delta": "1e-5"}} {
		for _, c := range []string{"fdp_success", "onerun_posterior"} {
			if v := number(t, row, c); v != 0.3 {
				t.Errorf("%v: %s = %v, want the baseline 0.3", row, c, v)
			}
		}
		if v := number(t, row, "fdp_advantage"); v != 0 {
			t.Errorf("%v: advantage %v, want 0", row, v)
		}
	}
}

// Inline priors give the same bounds as the equivalent baseline typed in
// by hand (issue "priors", done-when: "Release rows joined to priors
// produce the same bounds as rows with the equivalent baseline").
func TestInlinePriorsEqualTypedBaselines(t *testing.T) {
	for _, c := range []struct {
		prior    string
		baseline float64
	}{
		{"uniform(10)", 0.1},
		{"uniform(1e9)", 1e-9},
		// Zipf(1.2, 1e9) top rank: p = 1/H_{1e9,1.2} = 0.18141 (computed; Swanberg et al.
		// 2025 §5.1 state s = 1.1 over 10^9 values, which does not give their Fig. 2 values
		// 0.24 and 0.25; s = 1.2 does).
		{"zipf(1.2, 1e9)", 0.18141},
	} {
		for _, col := range []string{"fdp_success", "onerun_advantage", "onerun_eps_protect"} {
			withPrior := map[string]string{"epsilon": "1", "delta": "1e-5", "prior": c.prior, "target_advantage": "0.05"}
			got := number(t, withPrior, col)
			base := c.baseline
			if c.prior == "zipf(1.2, 1e9)" {
				// The reference p has 5 digits: compare the bound at that p.
				want := number(t, map[string]string{"epsilon": "1", "delta": "1e-5", "baseline": ftoa(base), "target_advantage": "0.05"}, col)
				if !approx.Near(got, want, 2e-5, 0) {
					t.Errorf("%s %s = %v, at typed baseline %v: %v", c.prior, col, got, base, want)
				}
				continue
			}
			want := number(t, map[string]string{"epsilon": "1", "delta": "1e-5", "baseline": ftoa(base), "target_advantage": "0.05"}, col)
			if got != want {
				t.Errorf("%s %s = %v, typed baseline %v gives %v", c.prior, col, got, base, want)
			}
		}
	}
}
