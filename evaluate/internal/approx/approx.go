// Package approx holds the comparisons the tests of the evaluate packages
// share: closeness with absolute and relative tolerances, values printed in
// the papers with the tolerance their printing implies, Simpson integration
// and reading reference tables. It is imported by tests only.
package approx

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
)

// Near reports whether got is within abs of want, or within rel relative.
func Near(got, want, abs, rel float64) bool {
	d := math.Abs(got - want)
	return d <= abs || d <= rel*math.Abs(want)
}

// Simpson integrates f over [a, b] by Simpson's rule with n (even) intervals.
func Simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	sum := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(a+float64(i)*h)
	}
	return sum * h / 3
}

// CatalogValue parses a value as printed in a paper or in a table of
// reference values and returns it with half a unit in its last printed
// significant digit (×1.01), the tolerance that printing implies. "0" and
// "1" are exact (a vanishing or trivial bound).
func CatalogValue(t *testing.T, s string) (v, tol float64) {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("catalog value %q: %v", s, err)
	}
	mant := strings.TrimLeft(strings.ToLower(s), "+-")
	if i := strings.IndexByte(mant, 'e'); i >= 0 {
		mant = mant[:i]
	}
	digits := strings.TrimLeft(strings.ReplaceAll(mant, ".", ""), "0")
	sig := max(len(digits), 1)
	if v == 0 || s == "1" {
		return v, 0
	}
	e := math.Floor(math.Log10(math.Abs(v)))
	return v, 0.5 * math.Pow(10, e-float64(sig-1)) * 1.01
}

// CheckCatalog fails unless got agrees with the printed reference value s to
// the precision it was printed with.
func CheckCatalog(t *testing.T, what string, got float64, s string) {
	t.Helper()
	want, tol := CatalogValue(t, s)
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.13g, catalog %s (±%.2g)", what, got, s, tol)
	}
}

// ReadTable reads a whole reference file with a header line and returns
// its data records and the index of each column named in the header.
func ReadTable(t *testing.T, path string) (recs [][]string, col map[string]int) {
	t.Helper()
	all := readback.ReadCSV(t, path, 0)
	if len(all) == 0 {
		t.Fatalf("%s: no header line", path)
	}
	col = make(map[string]int, len(all[0]))
	for i, h := range all[0] {
		col[h] = i
	}
	return all[1:], col
}

// Value is one computed value and the reference value it is checked
// against.
type Value struct {
	What      string
	Got, Want float64
}

// CheckValues reports each value that is not Near its reference within abs
// or rel, naming it after where (the row of the reference table).
func CheckValues(t *testing.T, where string, abs, rel float64, values ...Value) {
	t.Helper()
	for _, v := range values {
		if !Near(v.Got, v.Want, abs, rel) {
			t.Errorf("%s %s = %.12g, catalog %.10g", where, v.What, v.Got, v.Want)
		}
	}
}

// Normalise divides x by its sum in place and returns it: a reference
// probability vector from unnormalised weights.
func Normalise(x []float64) []float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	for i := range x {
		x[i] /= s
	}
	return x
}
