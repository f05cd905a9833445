package evaluate

import (
	"math"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// FuzzParseNumber: any text either parses to a finite number or gives an
// error; it never panics, and a number it accepts prints back to itself.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0.5", "1e-5", "5%", "1,000,000", "1/1000", "−3", "inf", "NaN", "0x1p-2", "1e-400", "", " ", "1,00", "%", "/", "1/0", "1e999", "\u00a07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseNumber(s)
		if err != nil {
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("ParseNumber(%q) = %v", s, v)
		}
		back, err := ParseNumber(ftoa(v))
		if err != nil || back != v {
			t.Fatalf("ParseNumber(%q) = %v does not read back (%v, %v)", s, v, back, err)
		}
	})
}

// FuzzCanonicalName: header folding is idempotent and matching never
// panics.
func FuzzCanonicalName(f *testing.F) {
	for _, s := range []string{"epsilon", "ε", " Target-Advantage ", "µ", "RDP ε", "\xff\xfe", "a__b--c  d", "Σ"} {
		f.Add(s)
	}
	v := release.NewVocabulary()
	f.Fuzz(func(t *testing.T, s string) {
		c := release.CanonicalName(s)
		if release.CanonicalName(c) != c {
			t.Fatalf("CanonicalName not idempotent on %q: %q then %q", s, c, release.CanonicalName(c))
		}
		if utf8.ValidString(s) && !utf8.ValidString(c) {
			t.Fatalf("CanonicalName(%q) = %q is not valid UTF-8", s, c)
		}
		v.Lookup(s)
	})
}

// FuzzEvaluateRow: any row of text cells under the contract's headers is
// evaluated without panicking; every output is empty or a finite number in
// its documented range, and the status agrees with the cells.
func FuzzEvaluateRow(f *testing.F) {
	f.Add("pure", "1", "", "", "", "0.1", "", "0.05")
	f.Add("", "", "1e-5", "2", "", "", "100", "")
	f.Add("gdp", "", "1e-300", "", "40", "1e-12", "", "0.5")
	f.Add("approx", "700", "0.5", "", "", "0.999999", "", "0")
	f.Add("gaussian", "1", "1e-5", "0.001", "5", "1", "2", "1")
	e := New()
	cols := []table.Column{{Name: "mechanism"}, {Name: "epsilon"}, {Name: "delta"}, {Name: "sigma"}, {Name: "mu"}, {Name: "baseline"}, {Name: "candidates"}, {Name: "target_advantage"}}
	b, err := e.Bind(cols)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, mech, eps, delta, sigma, mu, base, cand, target string) {
		cells := make([]table.Cell, len(cols))
		for i, s := range []string{mech, eps, delta, sigma, mu, base, cand, target} {
			if s != "" {
				cells[i] = table.TextCell(s)
			}
		}
		dst := make([]table.Cell, e.Width())
		for _, p := range messageProblems(b, cells, dst) {
			t.Error(p)
		}
		checkOutputs(t, Status(dst[0].Str), dst, e)
	})
}

// checkOutputs asserts the contract on one evaluated row: status and
// message agree, and every output is empty or finite and within its
// format's range.
func checkOutputs(t *testing.T, st Status, dst []table.Cell, e *Evaluator) {
	t.Helper()
	cols := e.Columns()
	if dst[0].Str != string(st) {
		t.Fatalf("status cell %q, returned %q", dst[0].Str, st)
	}
	if st != StatusOK && dst[1].IsEmpty() {
		t.Fatalf("status %s without a message", st)
	}
	if strings.Contains(dst[1].Str, registry.WhyNumericalFailure) {
		t.Fatalf("numerical failure: %s", dst[1].Str)
	}
	for i := 2; i < len(dst); i++ {
		c := dst[i]
		switch c.Kind {
		case table.Empty:
			// Why a cell is empty is messageProblems' concern.
		case table.Number:
			v := c.Num
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s = %v", cols[i].Name, v)
			}
			if cols[i].Format == table.Probability && !(v >= 0 && v <= 1) {
				t.Fatalf("%s = %v outside [0, 1]", cols[i].Name, v)
			}
			if v < 0 && !strings.HasSuffix(cols[i].Name, "_log10") {
				t.Fatalf("%s = %v < 0", cols[i].Name, v)
			}
			if v > 0 && strings.HasSuffix(cols[i].Name, "_log10") {
				t.Fatalf("%s = %v > 0: a probability above 1", cols[i].Name, v)
			}
			if st == StatusError {
				t.Fatalf("%s filled on an error row", cols[i].Name)
			}
		default:
			t.Fatalf("%s has a %v cell", cols[i].Name, c.Kind)
		}
	}
}

// No NaN out: random rows over the whole registry and every mechanism, with
// extremes (ε up to 700, δ down to 1e-300, baselines down to 1e-15, μ up
// to 50), give every output as a finite number in its documented range, or
// empty as Applies says, with a message of at most MaxMessage characters
// that names no column which does not apply (messageProblems). Most cells
// are left empty so that each mechanism's own columns come together often;
// the rows that mix mechanisms exercise the error path. 50 rows by
// default (each mechanism three times or more), 6,000 with
// RISKBATCH_LONG_TESTS=1.
func TestNoNaNOut(t *testing.T) {
	t.Parallel()
	e := New(WithConfidence(0.05, 0.95))
	seed := int64(11)
	if s, err := strconv.ParseInt(os.Getenv("RISKBATCH_TEST_SEED"), 10, 64); err == nil {
		seed = s // a longer local search: RISKBATCH_TEST_SEED=n go test -run NoNaN
	}
	rng := newRand(seed)
	for i, n := 0, testenv.Count(50, 6000); i < n; i++ {
		mech, row := randomRow(rng)
		b, cells := bindRow(t, e, row)
		dst := make([]table.Cell, e.Width())
		problems := messageProblems(b, cells, dst)
		st := Status(dst[0].Str)
		t.Run(mech, func(t *testing.T) {
			checkOutputs(t, st, dst, e)
			for _, p := range problems {
				t.Error(p)
			}
		})
		if t.Failed() {
			t.Fatalf("row %v: %v", row, dst)
		}
	}
}

// randomRow is a random release row over the whole registry and every
// mechanism, with extremes (ε up to 700, δ down to 1e-300, baselines down
// to 1e-15, μ up to 50), and the name of the mechanism whose columns it
// fills. Most cells are left empty so that each mechanism's own columns
// come together often; one row in ten mixes in a second mechanism's
// columns, which exercises the error path.
func randomRow(rng *rand.Rand) (string, map[string]string) {
	logUniform := func(lo, hi float64) string {
		return ftoa(math.Pow(10, math.Log10(lo)+rng.Float64()*(math.Log10(hi)-math.Log10(lo))))
	}
	pick := func(vals ...string) string { return vals[rng.Intn(len(vals))] }
	sometimes := func(v string) string {
		if rng.Intn(3) == 0 {
			return v
		}
		return ""
	}
	manySteps := strconv.Itoa(testenv.Count(20, 1000))
	mechanisms := map[string]func() map[string]string{
		"pure": func() map[string]string {
			return map[string]string{"epsilon": pick("0", "700", "1e-300", logUniform(1e-12, 700))}
		},
		"approx": func() map[string]string {
			return map[string]string{"epsilon": pick("0", "700", logUniform(1e-12, 700)), "delta": pick("0", "1e-300", "0.999999", logUniform(1e-300, 0.5))}
		},
		"gaussian": func() map[string]string {
			return map[string]string{"sigma": pick("1e-3", "1e6", logUniform(0.02, 1e4)), "sensitivity": sometimes(logUniform(1e-3, 1e3))}
		},
		"gdp":     func() map[string]string { return map[string]string{"mu": pick("0", "50", logUniform(1e-6, 50))} },
		"laplace": func() map[string]string { return map[string]string{"laplace_scale": logUniform(1e-3, 1e3)} },
		"zcdp":    func() map[string]string { return map[string]string{"rho": pick("0", "1e3", logUniform(1e-8, 100))} },
		"rdp": func() map[string]string {
			return map[string]string{"rdp_order": pick("1.0001", "2", "1e4", logUniform(1.01, 1000)), "rdp_epsilon": pick("0", logUniform(1e-9, 100))}
		},
		"rr": func() map[string]string {
			return map[string]string{"epsilon": pick("0", "700", logUniform(1e-9, 50)), "rr_categories": pick("2", "3", "1000", "1e9")}
		},
		"dpsgd": func() map[string]string {
			// A few parameter sets, so the per-run cache keeps this fast;
			// the long runs compose 1000 steps, the short ones 20.
			return map[string]string{"noise_multiplier": pick("0.3", "1", "10"), "sample_rate": pick("1", "0.01", "1e-6"), "steps": pick("1", manySteps)}
		},
		"marginals": func() map[string]string {
			return map[string]string{"marginal_k": pick("1", "3"), "columns_total": pick("3", "16", "100"), "columns_unknown": pick("1", "3"), "sigma": logUniform(0.01, 1e4)}
		},
	}
	names := make([]string, 0, len(mechanisms))
	for n := range mechanisms {
		names = append(names, n)
	}
	sort.Strings(names)
	mech := names[rng.Intn(len(names))]
	row := mechanisms[mech]()
	if rng.Intn(2) == 0 {
		row["mechanism"] = mech
	}
	if rng.Intn(10) == 0 { // a second mechanism's columns: contradictions
		for k, v := range mechanisms[names[rng.Intn(len(names))]]() {
			row[k] = v
		}
	}
	row["delta"] = pick(row["delta"], "", "1e-5", "1e-300", logUniform(1e-300, 0.3))
	row["baseline"] = pick("", "0", "1", "1e-15", logUniform(1e-15, 1), "0.999999999999")
	row["target_advantage"] = sometimes(pick("0", "1", logUniform(1e-9, 1)))
	if mech == "dpsgd" && row["target_advantage"] != "" {
		// Each distinct DP-SGD calibration builds several accountants:
		// a few targets and baselines keep the run's caches effective.
		row["target_advantage"] = pick("0", "1e-9", "0.05", "1")
		row["baseline"] = pick("", "0.01")
	}
	row["compositions"] = sometimes(pick("1", "7", "1000"))
	row["targets"] = sometimes(pick("1", "10", "1000"))
	row["successes"] = sometimes(pick("0", "1", "5"))
	row["confidence"] = sometimes(pick("0.5", "0.999999"))
	row["records"] = sometimes(pick("2", "500"))
	row["w"] = sometimes(pick("0", "1e-4", "0.5"))
	return mech, row
}
