package evaluate

import (
	"math"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

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
	v := NewVocabulary()
	f.Fuzz(func(t *testing.T, s string) {
		c := CanonicalName(s)
		if CanonicalName(c) != c {
			t.Fatalf("CanonicalName not idempotent on %q: %q then %q", s, c, CanonicalName(c))
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
	outCols := e.Columns()
	f.Fuzz(func(t *testing.T, mech, eps, delta, sigma, mu, base, cand, target string) {
		cells := make([]table.Cell, len(cols))
		for i, s := range []string{mech, eps, delta, sigma, mu, base, cand, target} {
			if s != "" {
				cells[i] = table.TextCell(s)
			}
		}
		dst := make([]table.Cell, e.Width())
		st := b.Evaluate(cells, dst)
		checkOutputs(t, st, dst, outCols)
	})
}

// checkOutputs asserts the contract on one evaluated row: status and
// message agree, every output is empty or finite and within its format's
// range, and an empty output (on a row that is not an error) is explained.
func checkOutputs(t *testing.T, st Status, dst []table.Cell, cols []table.Column) {
	t.Helper()
	if dst[0].Str != string(st) {
		t.Fatalf("status cell %q, returned %q", dst[0].Str, st)
	}
	if st != StatusOK && dst[1].IsEmpty() {
		t.Fatalf("status %s without a message", st)
	}
	if strings.Contains(dst[1].Str, whyNumericalFailure) {
		t.Fatalf("numerical failure: %s", dst[1].Str)
	}
	for i := 2; i < len(dst); i++ {
		c := dst[i]
		switch c.Kind {
		case table.Empty:
			if st == StatusOK && !onRequest(cols[i].Name) {
				t.Fatalf("%s empty on an ok row", cols[i].Name)
			}
		case table.Number:
			v := c.Num
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s = %v", cols[i].Name, v)
			}
			if cols[i].Format == table.Probability && !(v >= 0 && v <= 1) {
				t.Fatalf("%s = %v outside [0, 1]", cols[i].Name, v)
			}
			if v < 0 {
				t.Fatalf("%s = %v < 0", cols[i].Name, v)
			}
			if st == StatusError {
				t.Fatalf("%s filled on an error row", cols[i].Name)
			}
		default:
			t.Fatalf("%s has a %v cell", cols[i].Name, c.Kind)
		}
	}
}

// onRequest reports whether a column only answers a request a row may not
// make (its Request in the registry): such a column may be empty without a
// message.
func onRequest(name string) bool {
	for _, o := range New().Outputs() {
		if o.Name == name {
			return o.Request != ""
		}
	}
	return false
}

// No NaN out: random rows over the whole registry, with extremes (ε up to
// 700, δ down to 1e-300, baselines down to 1e-15, μ up to 50), give every
// output as a finite number in its documented range, or empty with a
// message.
func TestNoNaNOut(t *testing.T) {
	e := New()
	names := []string{"mechanism", "epsilon", "delta", "sigma", "sensitivity", "mu", "baseline", "candidates", "target_advantage", "compositions"}
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n}
	}
	b, err := e.Bind(cols)
	if err != nil {
		t.Fatal(err)
	}
	rng := newRand(11)
	logUniform := func(lo, hi float64) string {
		return ftoa(math.Pow(10, math.Log10(lo)+rng.Float64()*(math.Log10(hi)-math.Log10(lo))))
	}
	pick := func(vals ...string) string { return vals[rng.Intn(len(vals))] }
	for i := 0; i < 20000; i++ {
		row := map[string]string{
			"mechanism":        pick("", "pure", "approx", "gaussian", "gdp"),
			"epsilon":          pick("", "0", "700", "1e-300", logUniform(1e-12, 700)),
			"delta":            pick("", "0", "1e-300", "0.999999", logUniform(1e-300, 0.5)),
			"sigma":            pick("", "1e-3", "1e6", logUniform(0.02, 1e4)),
			"sensitivity":      pick("", "1", logUniform(1e-3, 1e3)),
			"mu":               pick("", "0", "50", logUniform(1e-6, 50)),
			"baseline":         pick("", "0", "1", "1e-15", logUniform(1e-15, 1), "0.999999999999"),
			"candidates":       pick("", "", "2", "1e12"),
			"target_advantage": pick("", "0", "1", logUniform(1e-9, 1)),
			"compositions":     pick("", "", "1", "1000000"),
		}
		cells := make([]table.Cell, len(names))
		for j, n := range names {
			if v := row[n]; v != "" {
				cells[j] = table.TextCell(v)
			}
		}
		dst := make([]table.Cell, e.Width())
		st := b.Evaluate(cells, dst)
		t.Run("", func(t *testing.T) { checkOutputs(t, st, dst, e.Columns()) })
		if t.Failed() {
			t.Fatalf("row %v: %v", row, dst)
		}
	}
}

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }
