package pld

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestReferenceExact checks both directions of the privacy profile against
// exact values of the Poisson-subsampled Gaussian mechanism (one and two
// steps, q from 0.001 to 1) computed independently with mpmath at 30
// digits by testdata/gen_reference.py (closed forms for one step, the
// composition identity by tanh-sinh quadrature for two). Each direction
// must be an upper bound and within the stated error.
func TestReferenceExact(t *testing.T) {
	t.Parallel()
	accountants := map[Stage]*PLD{}
	rows := 0
	var worstRel float64
	for _, v := range referenceRows(t, "testdata/subsampled_gaussian_delta.txt", 6) {
		st := Stage{NoiseMultiplier: v[0], SampleRate: v[1], Steps: int(v[2])}
		p := accountants[st]
		if p == nil {
			p = mustDPSGD(t, st)
			accountants[st] = p
		}
		stated := mustErrors(t, p).Delta()
		eps := v[3]
		for d, exact := range []float64{v[4], v[5]} {
			got := p.prof.directionDelta(direction(d), eps)
			if got < exact*(1-1e-12) {
				t.Errorf("%+v %v: δ(%g) = %.15g below the exact %.15g", st, direction(d), eps, got, exact)
			}
			if got-exact > stated {
				t.Errorf("%+v %v: δ(%g) = %.15g exceeds the exact %.15g by more than the stated error %.3g", st, direction(d), eps, got, exact, stated)
			}
			if exact > 1e-9 {
				worstRel = math.Max(worstRel, (got-exact)/exact)
			}
		}
		if d := p.Delta(eps); d < math.Max(v[4], v[5])*(1-1e-12) {
			t.Errorf("%+v: Delta(%g) = %.15g below the exact %.15g", st, eps, d, math.Max(v[4], v[5]))
		}
		rows++
	}
	if rows < 50 {
		t.Fatalf("only %d reference rows", rows)
	}
	t.Logf("%d reference rows; largest relative excess over the exact δ (δ > 1e-9): %.3g", rows, worstRel)
}

// referenceRows reads a file of reference values: one row of width numbers
// a line, separated by commas or spaces, with empty lines and lines that
// start with # (comments) left out.
func referenceRows(t *testing.T, path string, width int) [][]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
		if len(fields) != width {
			t.Fatalf("%s: bad reference line %q: %d numbers, want %d", path, line, len(fields), width)
		}
		v := make([]float64, width)
		for i, s := range fields {
			if v[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("%s: bad reference line %q: %v", path, line, err)
			}
		}
		rows = append(rows, v)
	}
	return rows
}
