package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// The goal seek of a dataset (docs/datasets.md): each test runs eval on a
// CSV table and reads its output back; a solved value is checked by
// typing it into the table and running again, as a user would.

// goalOut is an output table read back: its rows by id.
type goalOut map[string]map[string]string

// goalEval runs eval on csv (a table's text) and returns the output rows
// by id and the exit status; extra are more flags.
func goalEval(t *testing.T, csv string, extra ...string) (goalOut, int) {
	t.Helper()
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "in.csv"), csv)
	out := filepath.Join(dir, "out.csv")
	code, stderr := riskbatch(t, append([]string{"eval", in, "-o", out, "-q"}, extra...)...)
	if code != exitOK && code != exitRowErrors {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	header, rows := readAll(t, out)
	res := goalOut{}
	for _, r := range rows {
		m := map[string]string{}
		for i, h := range header {
			if i < len(r) {
				m[h] = r[i]
			}
		}
		res[m["id"]] = m
	}
	return res, code
}

// num reads a number cell of a row; an empty cell is 0 (an empty
// fdp_composition_error: no accountant).
func (o goalOut) num(t *testing.T, id, col string) float64 {
	t.Helper()
	s := o[id][col]
	if s == "" {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("row %s: %s = %q: %v", id, col, s, err)
	}
	return v
}

// normQuantile is Φ⁻¹(p) = √2·erfinv(2p − 1), independent of the
// package's own inverse.
func normQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// gaussianDelta is δ(ε) of G_μ: Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) (Balle &
// Wang 2018, Thm 8).
func gaussianDelta(mu, eps float64) float64 {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	return phi(-eps/mu+mu/2) - math.Exp(eps)*phi(-eps/mu-mu/2)
}

// census is a census whose synthetic microdata (μ = 0.3) is out and
// whose twelve tables (L2 sensitivity 2) are planned, with a target on
// the dataset; %s is the target's column and %s its value.
const census = `id,dataset,mechanism,sigma,mu,sensitivity,compositions,delta,baseline,%s,solve
microdata,census,gdp,,0.3,,,1e-6,0.01,%s,
tables,census,gaussian,%s,,2,12,1e-6,0.01,,%s
`

// TestGoalSeekGaussian: a Gaussian-only dataset's σ is the closed form
// σ = Δ·√c/√(M² − μ_microdata²) with M the largest μ_total meeting the
// target (Dong, Roth & Su 2022, Cor. 3.3): for an advantage η,
// M = 2Φ⁻¹((1 + η)/2) (Kulynych et al. 2025, Thm 3.4); for a success s at
// baseline b, M = Φ⁻¹(s) − Φ⁻¹(b) (Thm 3.2); for ε at δ, the μ whose
// δ(ε) is δ (Balle & Wang 2018, Thm 8), found here by bisection. The
// total meets the target at σ typed in, and not one float below.
func TestGoalSeekGaussian(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		column, measure string
		value, tol      float64
		largestMu       func() float64
	}{
		{"dataset_target_advantage", "fdp_worst_advantage", 0.2, 1e-12, func() float64 { return 2 * normQuantile(1.2/2) }},
		{"dataset_target_success", "fdp_success", 0.03, 1e-12, func() float64 { return normQuantile(0.03) - normQuantile(0.01) }},
		// ε at δ: δ(ε) is computed with a relative error of about 1e-14
		// and inverted; the tolerance allows for that.
		{"dataset_target_epsilon", "eps_at_delta", 2, 1e-10, func() float64 {
			lo, hi := 0.01, 10.0
			for range 200 {
				mid := (lo + hi) / 2
				if gaussianDelta(mid, 2) > 1e-6 {
					hi = mid
				} else {
					lo = mid
				}
			}
			return lo
		}},
	} {
		t.Run(c.column, func(t *testing.T) {
			target := strconv.FormatFloat(c.value, 'g', -1, 64)
			out, _ := goalEval(t, fmt.Sprintf(census, c.column, target, "", "sigma"))
			m := c.largestMu()
			want := 2 * math.Sqrt(12) / math.Sqrt(m*m-0.09)
			got := out.num(t, "tables", "solved_value")
			if math.Abs(got-want) > c.tol*want {
				t.Fatalf("σ = %.17g; the closed form is %.17g (relative %.3g)", got, want, (got-want)/want)
			}
			if out["tables"]["status"] != "ok" || out["census"]["status"] != "total" || out.num(t, "census", "solved_value") != got {
				t.Errorf("the row %q, the total %q, its solved_value %q", out["tables"]["status"], out["census"]["status"], out["census"]["solved_value"])
			}
			if r := out.num(t, "census", c.measure); r > c.value {
				t.Errorf("the total's %s %.17g is above the target %g", c.measure, r, c.value)
			}
			// Typed in: the same total; one float less noise misses.
			typed, _ := goalEval(t, fmt.Sprintf(census, c.column, target, strconv.FormatFloat(got, 'g', -1, 64), ""))
			if r := typed.num(t, "census", c.measure); r > c.value || typed.num(t, "tables", "fdp_worst_advantage") != out.num(t, "tables", "fdp_worst_advantage") {
				t.Errorf("σ = %.17g typed in: the total's %s is %.17g, above the target %g", got, c.measure, r, c.value)
			}
			less := math.Nextafter(got, 0)
			typed, _ = goalEval(t, fmt.Sprintf(census, c.column, target, strconv.FormatFloat(less, 'g', -1, 64), ""))
			if r := typed.num(t, "census", c.measure); !(r > c.value) {
				t.Errorf("σ = %.17g (a float less) typed in: the total's %s is %.17g, within the target %g", less, c.measure, r, c.value)
			}
		})
	}
}

// mixed is a dataset of every kind of stage: Gaussian queries, Laplace
// counts, a pure ε release, and a DP-SGD model; %s are the model's
// noise_multiplier and epochs and the solve cell.
const mixed = `id,dataset,mechanism,sigma,laplace_scale,epsilon,noise_multiplier,batch_size,dataset_size,epochs,compositions,dataset_target_advantage,solve
queries,lab,gaussian,20,,,,,,,3,0.3,
counts,lab,laplace,,50,,,,,,4,,
survey,lab,pure,,,0.02,,,,,2,,
model,lab,dpsgd,,,,%s,256,3000,%s,,,%s
`

// meets is the test of a target: the total's bound plus its accountant's
// error, rounded up, at most the target.
func meets(out goalOut, t *testing.T, total string, target float64) bool {
	return numeric.AddUp(out.num(t, total, "fdp_worst_advantage"), out.num(t, total, "fdp_composition_error")) <= target
}

// TestGoalSeekMixed: in a dataset of Gaussian, Laplace, pure and DP-SGD
// releases (the PLD accountant, its error counted against the target),
// the solved epochs meet the target typed in and one more epoch does not;
// a solved noise multiplier meets it and 1e-9 less does not.
func TestGoalSeekMixed(t *testing.T) {
	t.Parallel()
	t.Run("epochs", func(t *testing.T) {
		out, _ := goalEval(t, fmt.Sprintf(mixed, "1.1", "", "epochs"))
		e := out.num(t, "model", "solved_value")
		if !(e >= 1 && e == math.Trunc(e)) || out["model"]["status"] == "error" {
			t.Fatalf("epochs %v, status %q (%s)", e, out["model"]["status"], out["model"]["message"])
		}
		typed, _ := goalEval(t, fmt.Sprintf(mixed, "1.1", strconv.Itoa(int(e)), ""))
		if !meets(typed, t, "lab", 0.3) {
			t.Errorf("%v epochs typed in: the total reaches %s + %s, above 0.3", e, typed["lab"]["fdp_worst_advantage"], typed["lab"]["fdp_composition_error"])
		}
		typed, _ = goalEval(t, fmt.Sprintf(mixed, "1.1", strconv.Itoa(int(e)+1), ""))
		if meets(typed, t, "lab", 0.3) {
			t.Errorf("%v epochs typed in: the total reaches %s + %s, within 0.3", e+1, typed["lab"]["fdp_worst_advantage"], typed["lab"]["fdp_composition_error"])
		}
	})
	t.Run("noise_multiplier", func(t *testing.T) {
		out, _ := goalEval(t, fmt.Sprintf(mixed, "", "20", "noise_multiplier"))
		nm := out.num(t, "model", "solved_value")
		if !(nm > 0) || out["model"]["status"] == "error" {
			t.Fatalf("noise multiplier %v, status %q (%s)", nm, out["model"]["status"], out["model"]["message"])
		}
		typed, _ := goalEval(t, fmt.Sprintf(mixed, strconv.FormatFloat(nm, 'g', -1, 64), "20", ""))
		if !meets(typed, t, "lab", 0.3) {
			t.Errorf("noise multiplier %v typed in: the total reaches %s + %s, above 0.3", nm, typed["lab"]["fdp_worst_advantage"], typed["lab"]["fdp_composition_error"])
		}
		less := nm * (1 - 1e-9)
		typed, _ = goalEval(t, fmt.Sprintf(mixed, strconv.FormatFloat(less, 'g', -1, 64), "20", ""))
		if meets(typed, t, "lab", 0.3) {
			t.Errorf("noise multiplier %v typed in: the total reaches %s + %s, within 0.3", less, typed["lab"]["fdp_worst_advantage"], typed["lab"]["fdp_composition_error"])
		}
	})
	t.Run("dataset_noise_scale", func(t *testing.T) {
		out, _ := goalEval(t, fmt.Sprintf(mixed, "1.1", "20", ""))
		s := out.num(t, "lab", "dataset_noise_scale")
		for _, id := range []string{"queries", "counts", "survey", "model"} {
			if out.num(t, id, "dataset_noise_scale") != s || out[id]["status"] == "error" {
				t.Errorf("row %s: dataset_noise_scale %q, status %q; want %v on every row", id, out[id]["dataset_noise_scale"], out[id]["status"], s)
			}
		}
		planned := func(id, col string) string { return out[id]["planned_"+col] }
		typedIn := func(sigma, b, eps, nm string) string {
			return strings.NewReplacer("gaussian,20,", "gaussian,"+sigma+",", "laplace,,50,", "laplace,,"+b+",", "pure,,,0.02,", "pure,,,"+eps+",", "dpsgd,,,,1.1,", "dpsgd,,,,"+nm+",").
				Replace(fmt.Sprintf(mixed, "1.1", "20", ""))
		}
		typed, _ := goalEval(t, typedIn(planned("queries", "sigma"), planned("counts", "laplace_scale"), planned("survey", "epsilon"), planned("model", "noise_multiplier")))
		if !meets(typed, t, "lab", 0.3) {
			t.Errorf("the planned parameters typed in: the total reaches %s + %s, above 0.3", typed["lab"]["fdp_worst_advantage"], typed["lab"]["fdp_composition_error"])
		}
		if typed.num(t, "lab", "dataset_noise_scale") > 1 {
			t.Errorf("the planned parameters typed in: dataset_noise_scale %s, above 1", typed["lab"]["dataset_noise_scale"])
		}
		less := s * (1 - 2e-9)
		f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		typed, _ = goalEval(t, typedIn(f(20*less), f(50*less), f(0.02/less), f(1.1*less)))
		if meets(typed, t, "lab", 0.3) {
			t.Errorf("the noise at %v: the total reaches %s + %s, within 0.3", less, typed["lab"]["fdp_worst_advantage"], typed["lab"]["fdp_composition_error"])
		}
	})
}

// mixedEpsilon is a dataset of Gaussian, Laplace, pure and DP-SGD releases
// with an ε target at report_delta 1e-4 (the model's epochs and solve, and
// every row's report_delta, filled in).
const mixedEpsilon = `id,dataset,mechanism,sigma,laplace_scale,epsilon,noise_multiplier,batch_size,dataset_size,epochs,compositions,report_delta,dataset_target_epsilon,solve
queries,lab,gaussian,20,,,,,,,3,%[3]s,4,
counts,lab,laplace,,50,,,,,,4,%[3]s,,
survey,lab,pure,,,0.02,,,,,2,%[3]s,,
model,lab,dpsgd,,,,1.1,256,3000,%[1]s,,%[3]s,,%[2]s
`

// TestGoalSeekMixedEpsilon: an ε target on a mixed dataset is met at the
// reporting δ less the accountant's error (the total's
// fdp_composition_error): with the solved epochs typed in, the total's
// eps_at_delta at that δ is within the target, and with one more epoch it
// is not.
func TestGoalSeekMixedEpsilon(t *testing.T) {
	t.Parallel()
	out, _ := goalEval(t, fmt.Sprintf(mixedEpsilon, "", "epochs", "1e-4"))
	e := out.num(t, "model", "solved_value")
	if !(e >= 1 && e == math.Trunc(e)) || out["model"]["status"] == "error" {
		t.Fatalf("epochs %v, status %q (%s)", e, out["model"]["status"], out["model"]["message"])
	}
	epsAt := func(epochs float64) float64 {
		t.Helper()
		// The δ at which the target's ε is read: the reporting δ less
		// the error of this composition, which the run at these epochs
		// reports.
		run, _ := goalEval(t, fmt.Sprintf(mixedEpsilon, strconv.Itoa(int(epochs)), "", "1e-4"))
		delta := 1e-4 - run.num(t, "lab", "fdp_composition_error")
		if !(delta > 0) {
			t.Fatalf("%v epochs: the accountant's error %s reaches δ", epochs, run["lab"]["fdp_composition_error"])
		}
		at, _ := goalEval(t, fmt.Sprintf(mixedEpsilon, strconv.Itoa(int(epochs)), "", strconv.FormatFloat(delta, 'g', -1, 64)))
		return at.num(t, "lab", "eps_at_delta")
	}
	if got := epsAt(e); !(got <= 4) {
		t.Errorf("%v epochs typed in: the total's ε at δ less the error is %v, above the target 4", e, got)
	}
	if got := epsAt(e + 1); got <= 4 {
		t.Errorf("%v epochs typed in: the total's ε at δ less the error is %v, within the target 4", e+1, got)
	}
}

// TestGoalSeekSelectedColumns: --columns selects what is written, not how
// a dataset's total is measured: the σ solved and dataset_worst_advantage
// are those of the run without --columns.
func TestGoalSeekSelectedColumns(t *testing.T) {
	t.Parallel()
	in := fmt.Sprintf(census, "dataset_target_advantage", "0.25", "", "sigma")
	all, _ := goalEval(t, in)
	for _, sel := range []string{"solved_value", "dataset_worst_advantage", "eps_at_delta,solved_value,dataset_worst_advantage"} {
		out, _ := goalEval(t, in, "--columns", sel)
		for _, c := range strings.Split(sel, ",") {
			for _, id := range []string{"microdata", "tables", "census"} {
				if got, want := out[id][c], all[id][c]; got != want {
					t.Errorf("--columns %s: row %s, %s = %q; without --columns %q (%s)", sel, id, c, got, want, out[id]["message"])
				}
			}
		}
	}
	if all["tables"]["solved_value"] == "" || all["microdata"]["dataset_worst_advantage"] == "" {
		t.Fatalf("without --columns: solved_value %q, dataset_worst_advantage %q", all["tables"]["solved_value"], all["microdata"]["dataset_worst_advantage"])
	}
}

// TestGoalSeekUncertifiedNext: where the next value beyond the one solved
// fails not by its measure but because the accountant cannot certify its
// total (its error reaching the target's δ, which need not grow with the
// unknown: two pure releases at report_delta 1e-6), the message says so
// rather than present the value as the boundary of the target; where the
// next value fails by its measure (the mixed dataset's epochs), it does not.
func TestGoalSeekUncertifiedNext(t *testing.T) {
	t.Parallel()
	out, _ := goalEval(t, `id,dataset,mechanism,epsilon,report_delta,dataset_target_epsilon,solve
a,D,pure,,1e-6,,epsilon
b,D,pure,1,1e-6,3,
`)
	if m := out["a"]["message"]; out["a"]["solved_value"] == "" || !strings.Contains(m, "is not certified (the accountant's error reaches δ): a more aggressive epsilon may meet the target too") {
		t.Errorf("solved_value %q, message %q", out["a"]["solved_value"], m)
	}
	mixedOut, _ := goalEval(t, fmt.Sprintf(mixed, "1.1", "", "epochs"))
	if m := mixedOut["model"]["message"]; strings.Contains(m, "not certified") {
		t.Errorf("the mixed dataset's epochs: %q", m)
	}
}

// TestGoalSeekBadInputs: every misuse of the goal-seek inputs is an error
// row naming the column, and the other rows are evaluated as without
// them.
func TestGoalSeekBadInputs(t *testing.T) {
	t.Parallel()
	const header = "id,dataset,mechanism,sigma,mu,noise_multiplier,compositions,delta,dataset_target_advantage,dataset_target_epsilon,solve\n"
	const plain = "a,D,gaussian,4,,,,1e-5,,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,,,,3,1e-5,,,\n"
	base, _ := goalEval(t, header+strings.Replace(plain, "c,D,gaussian,,", "c,D,gaussian,6,", 1))
	for _, c := range []struct {
		name, rows string
		bad        []string // the error rows
		says       []string // in each error row's message
	}{
		{"two targets in a row", "a,D,gaussian,4,,,,1e-5,0.3,2,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,\n",
			[]string{"a"}, []string{"dataset_target_advantage", "dataset_target_epsilon", "one target per dataset"}},
		{"conflicting targets", "a,D,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,0.4,,\nc,D,gaussian,6,,,3,1e-5,,,\n",
			[]string{"a", "b"}, []string{"dataset_target_advantage", "0.3", "0.4"}},
		{"conflicting kinds of target", "a,D,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,,2,\nc,D,gaussian,6,,,3,1e-5,,,\n",
			[]string{"a", "b"}, []string{"dataset_target_advantage", "0.3", "dataset_target_epsilon", " 2"}},
		{"two solve rows", "a,D,gaussian,,,,,1e-5,0.3,,sigma\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,,,,3,1e-5,,,sigma\n",
			[]string{"a", "c"}, []string{"solve", "one unknown"}},
		{"solve naming a column the mechanism does not use", "a,D,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,noise_multiplier\n",
			[]string{"c"}, []string{"solve", "does not use noise_multiplier"}},
		{"solve naming no parameter", "a,D,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,baseline\n",
			[]string{"c"}, []string{"solve", "expected the name of the parameter"}},
		{"solve misspelling a parameter", "a,D,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,,,,3,1e-5,,,sgima\n",
			[]string{"c"}, []string{"solve", `"sgima" is not a parameter`, "did you mean sigma?"}},
		{"solve naming a filled column", "a,D,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,sigma\n",
			[]string{"c"}, []string{"solve", "sigma is filled"}},
		{"solve without a dataset", "a,D,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,,gaussian,,,,3,1e-5,,,sigma\n",
			[]string{"c"}, []string{"solve", "no dataset"}},
		{"solve without a target", "a,D,gaussian,4,,,,1e-5,,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,,,,3,1e-5,,,sigma\n",
			[]string{"c"}, []string{"solve", "no target"}},
		{"a target already exceeded", "a,D,gaussian,4,,,,1e-5,0.1,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,,,,3,1e-5,,,sigma\n",
			[]string{"c"}, []string{"solve", "cannot meet the target worst-case advantage 0.1", "(by "}},
		{"a target of 0", "a,D,gaussian,4,,,,1e-5,0,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,\n",
			[]string{"a"}, []string{"dataset_target_advantage", "(0, 1)"}},
		{"a target of 1", "a,D,gaussian,4,,,,1e-5,1,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,\n",
			[]string{"a"}, []string{"dataset_target_advantage", "(0, 1)"}},
		{"a target of ε 0", "a,D,gaussian,4,,,,1e-5,,0,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,\n",
			[]string{"a"}, []string{"dataset_target_epsilon", "> 0"}},
		{"a target without a dataset", "a,,gaussian,4,,,,1e-5,0.3,,\nb,D,gdp,,0.3,,,1e-5,,,\nc,D,gaussian,6,,,3,1e-5,,,\n",
			[]string{"a"}, []string{"dataset_target_advantage", "no dataset"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, _ := goalEval(t, header+c.rows)
			for _, id := range []string{"a", "b", "c"} {
				bad := false
				for _, b := range c.bad {
					bad = bad || b == id
				}
				r := out[id]
				if !bad {
					if r["status"] != base[id]["status"] || r["fdp_worst_advantage"] != base[id]["fdp_worst_advantage"] {
						t.Errorf("row %s: status %q, fdp_worst_advantage %q (%s); want %q and %q as without a goal seek", id, r["status"], r["fdp_worst_advantage"], r["message"], base[id]["status"], base[id]["fdp_worst_advantage"])
					}
					continue
				}
				if r["status"] != "error" {
					t.Errorf("row %s: status %q (%s); want error", id, r["status"], r["message"])
				}
				for _, s := range c.says {
					if !strings.Contains(r["message"], s) {
						t.Errorf("row %s: message %q; want it to say %q", id, r["message"], s)
					}
				}
			}
			if out["D"]["status"] != "total" {
				t.Errorf("the total: status %q", out["D"]["status"])
			}
		})
	}
}

// TestGoalSeekSorted: with --sorted-groups a row is written before its
// dataset is complete, so a solve row is an error that says why; a
// dataset without one gets its noise scale on its total.
func TestGoalSeekSorted(t *testing.T) {
	t.Parallel()
	out, _ := goalEval(t, fmt.Sprintf(census, "dataset_target_advantage", "0.2", "", "sigma"), "--sorted-groups")
	if r := out["tables"]; r["status"] != "error" || !strings.Contains(r["message"], "solve") || !strings.Contains(r["message"], "--sorted-groups") {
		t.Errorf("the solve row with --sorted-groups: status %q, message %q", r["status"], r["message"])
	}
	out, _ = goalEval(t, fmt.Sprintf(census, "dataset_target_advantage", "0.2", "8", ""), "--sorted-groups")
	// μ_total = √(12/4² + 0.09) = √0.84; s = μ_total/M.
	want := math.Sqrt(12.0/16+0.09) / (2 * normQuantile(0.6))
	if s := out.num(t, "census", "dataset_noise_scale"); math.Abs(s-want) > 1e-12*want {
		t.Errorf("the total's dataset_noise_scale %v; want μ_total/M = %.17g", s, want)
	}
}

// TestGoalSeekEpsilonAccountant: an ε target at δ = 1e-6 beside 400
// DP-SGD steps cannot be certified, since the PLD accountant's error
// (about 1e-5 here), counted against δ, reaches it: the solve row says so
// rather than give a value the accountant cannot vouch for.
func TestGoalSeekEpsilonAccountant(t *testing.T) {
	t.Parallel()
	out, _ := goalEval(t, `id,dataset,mechanism,noise_multiplier,sample_rate,steps,delta,dataset_target_epsilon,solve
old,M,dpsgd,1.2,0.01,200,1e-6,3,
new,M,dpsgd,,0.01,200,1e-6,,noise_multiplier
`)
	r := out["new"]
	if r["status"] != "error" || !strings.Contains(r["message"], "solve: noise_multiplier not solved: the PLD accountant's error") || !strings.Contains(r["message"], "δ = 1e-06") {
		t.Errorf("status %q, message %q; want an error saying the accountant's error reaches δ", r["status"], r["message"])
	}
	if out["old"]["status"] == "error" || !strings.Contains(out["M"]["message"], "not computed: noise_multiplier not solved") {
		t.Errorf("the other row %q, the total %q", out["old"]["status"], out["M"]["message"])
	}
}

// TestGoalSeekSummary: the workbook's Summary lists each dataset's
// target, what its total achieves and the value solved.
func TestGoalSeekSummary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// The census solves the tables' σ; the clinic, without an unknown,
	// gets a noise scale.
	in := writeFile(t, filepath.Join(dir, "in.csv"), fmt.Sprintf(census, "dataset_target_advantage", "0.2", "", "sigma")+
		"stats,clinic,gaussian,10,,,4,1e-5,0.01,0.3,\ncounts,clinic,gaussian,8,,,2,1e-5,0.01,,\n")
	out := filepath.Join(dir, "out.xlsx")
	mustRun(t, exitOK, "eval", in, "-o", out, "-q")
	rows, err := testfiles.OpenXLSX(t, out).GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	lines := map[string][]string{}
	for _, r := range rows {
		switch {
		case len(r) > 0 && r[0] == "dataset":
			header = r
		case len(r) > 0 && (r[0] == "census" || r[0] == "clinic"):
			lines[r[0]] = r
		}
	}
	want := []string{"dataset", "rows", "composed", "fdp_worst_advantage", "target", "achieved", "solved"}
	if !slices.Equal(header, want) || len(lines["census"]) != len(want) || len(lines["clinic"]) != len(want) {
		t.Fatalf("the Summary's datasets: header %q, census %q, clinic %q", header, lines["census"], lines["clinic"])
	}
	// The census: the closed form (TestGoalSeekGaussian) σ = Δ·√c/√(M² − μ₀²)
	// with M = 2Φ⁻¹(1.2/2), Δ = 2, c = 12, μ₀ = 0.3, as the Summary prints it.
	m := 2 * normQuantile(1.2/2)
	sigma := strconv.FormatFloat(2*math.Sqrt(12)/math.Sqrt(m*m-0.09), 'g', 10, 64)
	line := lines["census"]
	achieved, err := strconv.ParseFloat(line[5], 64)
	if line[4] != "dataset_target_advantage 0.2" || err != nil || achieved > 0.2 || !strings.HasPrefix(line[6], "sigma = "+sigma[:len(sigma)-1]) || !strings.HasSuffix(line[6], "(row tables)") {
		t.Errorf("the Summary's census line %q; want σ ≈ %s", line, sigma)
	}
	// The clinic: what it reaches as it stands (its total's
	// fdp_worst_advantage, to the 10 digits printed), and the scale.
	line = lines["clinic"]
	total, err1 := strconv.ParseFloat(line[3], 64)
	achieved, err2 := strconv.ParseFloat(line[5], 64)
	if err1 != nil || err2 != nil || math.Abs(achieved-total) > 1e-9*total || total >= 0.3 || !strings.HasPrefix(line[6], "dataset_noise_scale = ") {
		t.Errorf("the Summary's clinic line %q: achieved should be the total's fdp_worst_advantage as it stands", line)
	}
}

// docBlock returns the indented block of a documentation page that
// follows the first line containing after, unindented.
func docBlock(t *testing.T, page, after string) string {
	t.Helper()
	var b strings.Builder
	found := false
	for _, l := range strings.Split(readRepoFile(t, page), "\n") {
		switch {
		case !found:
			found = strings.Contains(l, after)
		case strings.HasPrefix(l, "    "):
			b.WriteString(strings.TrimPrefix(l, "    ") + "\n")
		case b.Len() > 0:
			return b.String()
		}
	}
	t.Fatalf("%s: no indented block after %q", page, after)
	return ""
}

// TestGoalSeekDocs: the worked examples of docs/datasets.md are what
// riskbatch writes: the census's table, each number to the digits it is
// printed with, and (a long test: 3 s) the clinic model's 74 epochs and
// its noise scale of 0.6155.
func TestGoalSeekDocs(t *testing.T) {
	t.Parallel()
	const page = "docs/datasets.md"
	out, _ := goalEval(t, docBlock(t, page, "The census (its rows as a CSV file)"))
	header, lines := docTable(t, page, "solved_value")
	if len(lines) != 3 {
		t.Fatalf("%s: the census's table has %d rows, want 3", page, len(lines))
	}
	for _, l := range lines {
		for j, name := range header[1:] {
			got, want := l[j+1], out[l[0]][name]
			if g, err := parseFloat(got); err == nil && want != "" {
				w, _ := parseFloat(want)
				if rounded := roundSignificant(w, significantDigits(got)); math.Abs(g-rounded) > 1e-9*math.Abs(rounded) {
					t.Errorf("%s: %s %s = %s, riskbatch writes %s", page, l[0], name, got, want)
				}
			} else if got != want {
				t.Errorf("%s: %s %s = %q, riskbatch writes %q", page, l[0], name, got, want)
			}
		}
	}
	if !testenv.Long() {
		return
	}
	clinic := docBlock(t, page, "how many epochs may it train?")
	out, _ = goalEval(t, clinic)
	if out["clinic-model"]["solved_value"] != "74" || out["clinic-model"]["derived_steps"] != "17344" {
		t.Errorf("the clinic's model: solved_value %q, derived_steps %q; the page says 74 and 17344", out["clinic-model"]["solved_value"], out["clinic-model"]["derived_steps"])
	}
	out, _ = goalEval(t, strings.Replace(strings.Replace(clinic, "1.0,256,60000,,", "1.0,256,60000,10,", 1), ",epochs\n", ",\n", 1))
	if s := out["clinic"]["dataset_noise_scale"]; !strings.HasPrefix(s, "0.6155") || !strings.HasPrefix(out["clinic-stats"]["planned_sigma"], "6.155") {
		t.Errorf("the clinic's noise scale %q, planned_sigma %q; the page says 0.6155 and 6.155", s, out["clinic-stats"]["planned_sigma"])
	}
}

// twentyRows is a dataset of 20 rows: eight Gaussian and six Laplace
// releases, four pure ε, a DP-SGD model of 500 steps and one of 1000
// whose cell of column unknown is left to solve (or, with solve "",
// filled with known).
func twentyRows(unknown, known, solve string) string {
	var b strings.Builder
	b.WriteString("id,dataset,mechanism,sigma,laplace_scale,epsilon,noise_multiplier,sample_rate,steps,compositions,dataset_target_advantage,solve\n")
	for i := range 8 {
		fmt.Fprintf(&b, "g%d,ml,gaussian,%d,,,,,,2,0.35,\n", i, 30+i)
	}
	for i := range 6 {
		fmt.Fprintf(&b, "l%d,ml,laplace,,%d,,,,,3,,\n", i, 200+10*i)
	}
	for i := range 4 {
		fmt.Fprintf(&b, "p%d,ml,pure,,,0.005,,,,,,\n", i)
	}
	b.WriteString("old,ml,dpsgd,,,,1.2,0.01,500,,,\n")
	row := map[string]string{"noise_multiplier": ",0.01,1000", "steps": "0.7,0.01,"}[unknown]
	if solve == "" {
		row = map[string]string{"noise_multiplier": known + ",0.01,1000", "steps": "0.7,0.01," + known}[unknown]
	}
	fmt.Fprintf(&b, "new,ml,dpsgd,,,,%s,,,%s\n", row, solve)
	return b.String()
}

// BenchmarkGoalSeek: a run over a 20-row dataset that solves one DP-SGD
// unknown (about 15 compositions by the PLD accountant), the same run
// with the value typed in, and a Gaussian-only census solved in closed
// form against the same census typed in.
func BenchmarkGoalSeek(b *testing.B) {
	dir := b.TempDir()
	for _, c := range []struct{ name, csv string }{
		{"dpsgd-noise_multiplier-solved", twentyRows("noise_multiplier", "", "noise_multiplier")},
		{"dpsgd-noise_multiplier-typed", twentyRows("noise_multiplier", "0.6458", "")},
		{"dpsgd-steps-solved", twentyRows("steps", "", "steps")},
		{"gaussian-solved", fmt.Sprintf(census, "dataset_target_advantage", "0.2", "", "sigma")},
		{"gaussian-typed", fmt.Sprintf(census, "dataset_target_advantage", "", "16.97", "")},
	} {
		in := filepath.Join(dir, c.name+".csv")
		if err := os.WriteFile(in, []byte(c.csv), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code, stderr := riskbatch(b, "eval", in, "-o", filepath.Join(dir, "out.csv"), "-q", "--force"); code != exitOK && code != exitRowErrors {
					b.Fatalf("exit %d: %s", code, stderr)
				}
			}
		})
	}
}

// TestGoalSeekFormats: the solved value and the noise scale reach an
// XLSX and a Parquet output as they reach a CSV one.
func TestGoalSeekFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	solve := writeFile(t, filepath.Join(dir, "solve.csv"), fmt.Sprintf(census, "dataset_target_advantage", "0.2", "", "sigma"))
	scale := writeFile(t, filepath.Join(dir, "scale.csv"), fmt.Sprintf(census, "dataset_target_advantage", "0.2", "8", ""))
	for _, ext := range []string{"csv", "xlsx", "parquet"} {
		got := map[string]string{}
		for _, in := range []string{solve, scale} {
			out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(in), ".csv")+"-out."+ext)
			mustRun(t, exitOK, "eval", in, "-o", out, "-q")
			header, rows := readAll(t, out)
			col := columnsOf(header)
			for _, r := range rows {
				for _, name := range []string{"solved_value", "dataset_noise_scale", "planned_sigma"} {
					if v := r[col[name]]; v != "" {
						got[r[col["id"]]+" "+name] = v
					}
				}
			}
		}
		for _, k := range []string{"tables solved_value", "census solved_value", "tables dataset_noise_scale", "microdata dataset_noise_scale", "census dataset_noise_scale", "tables planned_sigma"} {
			v, err := strconv.ParseFloat(got[k], 64)
			if err != nil || !(v > 0) {
				t.Errorf("%s: %s = %q; want a number", ext, k, got[k])
			}
		}
	}
}
