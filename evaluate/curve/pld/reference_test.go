package pld

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReferenceExact checks both directions of the privacy profile against
// exact values of the Poisson-subsampled Gaussian mechanism (one and two
// steps, q from 0.001 to 1) computed independently with mpmath at 30
// digits by testdata/gen_reference.py (closed forms for one step, the
// composition identity by tanh-sinh quadrature for two). Each direction
// must be an upper bound and within the stated error.
func TestReferenceExact(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/subsampled_gaussian_delta.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	accountants := map[Stage]*PLD{}
	rows := 0
	var worstRel float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 6 {
			t.Fatalf("bad reference line %q", line)
		}
		v := make([]float64, 6)
		for i, s := range fields {
			if v[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("bad reference line %q: %v", line, err)
			}
		}
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
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows < 50 {
		t.Fatalf("only %d reference rows", rows)
	}
	t.Logf("%d reference rows; largest relative excess over the exact δ (δ > 1e-9): %.3g", rows, worstRel)
}
