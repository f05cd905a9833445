package evaluate

import (
	"math"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// loadPriorFiles writes a prior table and its frequency table and loads
// them as `eval --priors` does (the frequency table is found beside it).
func loadPriorFiles(t *testing.T, prior, frequencies string) *priors.Tables {
	t.Helper()
	return loadPriors(t, "p.csv", map[string]string{"p.csv": prior, "p-frequencies.csv": frequencies})
}

const distPriorTable = `prior,p,targets
d:uni,0.25,12
d:v|g,0.5,10
d:v|g,0.9,5
d:certain|g,0.6,4
d:certain|g,1,2
`

// The attribute v has the values x, y, z. Given g = a it is (0.5, 0.3,
// 0.2); given g = b it is (0.9, 0.1) and never z. The key d:certain has a
// cell whose value is certain.
const distFrequencies = `key,attribute,given,g,value,count,probability,cell_records
d:uni,u,,,p,3,0.25,12
d:uni,u,,,q,3,0.25,12
d:uni,u,,,r,3,0.25,12
d:uni,u,,,s,3,0.25,12
d:v|g,v,g,a,x,5,0.5,10
d:v|g,v,g,a,y,3,0.3,10
d:v|g,v,g,a,z,2,0.2,10
d:v|g,v,g,b,x,9,0.9,10
d:v|g,v,g,b,y,1,0.1,10
d:certain|g,v,g,a,x,6,0.6,10
d:certain|g,v,g,a,y,4,0.4,10
d:certain|g,v,g,b,z,2,1,2
`

// TestPriorDistributionColumns checks that gb_rero_exact, gb_aia_adv and
// the fano columns use the distributions of a prior key's attribute: a
// uniform distribution gives the candidates values, and a conditional
// prior gives the largest bound over its cells, each computed here from
// the cell's vector padded to the attribute's three values (κ₀ the
// largest, κ₀⁻ the smallest, μ = Σπ²).
func TestPriorDistributionColumns(t *testing.T) {
	ev := New(WithPriors(loadPriorFiles(t, distPriorTable, distFrequencies)))
	for _, mech := range []map[string]string{
		{"epsilon": "1.5"},
		{"epsilon": "0.02"},
		{"epsilon": "8"},
		{"rho": "0.3"},
	} {
		row := func(extra map[string]string) map[string]string { return merged(mech, extra) }
		// A uniform distribution over 4 values is candidates = 4.
		_, uni := evalWith(t, ev, row(map[string]string{"prior": "d:uni"}))
		_, cand := evalWith(t, ev, row(map[string]string{"candidates": "4"}))
		for _, col := range []string{"gb_rero_exact", "gb_aia_adv", "fano_adv_alpha1", "fano_adv_opt", "fano_success_opt"} {
			if uni[col] != cand[col] {
				t.Errorf("%v %s: uniform distribution %v, candidates = 4 %v", mech, col, uni[col], cand[col])
			}
		}

		st, got := evalWith(t, ev, row(map[string]string{"prior": "d:v|g"}))
		if st == StatusError {
			t.Fatalf("%v: %v", mech, got["message"])
		}
		cells := [][]float64{{0.5, 0.3, 0.2}, {0.9, 0.1, 0}}
		if eps, ok := mech["epsilon"]; ok {
			e := parseFloat(t, eps)
			wantRero, wantAIA := 0.0, 0.0
			for _, p := range cells {
				k0, kmin, mu := p[0], p[2], p[0]*p[0]+p[1]*p[1]+p[2]*p[2]
				wantRero = math.Max(wantRero, bound.GBReRoExact(e, k0, 3))
				wantAIA = math.Max(wantAIA, bound.GBAIAAdvantage(e, k0, kmin, mu, 3))
			}
			if g := got["gb_rero_exact"]; g.Num != wantRero {
				t.Errorf("%v gb_rero_exact = %v, want %v", mech, g, wantRero)
			}
			if g := got["gb_aia_adv"]; g.Num != wantAIA {
				t.Errorf("%v gb_aia_adv = %v, want %v", mech, g, wantAIA)
			}
		}
		var wantA1, wantOpt, wantSucc float64
		for _, p := range cells {
			var a1, best bound.FanoBound
			var err error
			if rho, ok := mech["rho"]; ok {
				a1, best, err = bound.FanoZCDP(curve.ZCDP{Rho: parseFloat(t, rho)}, 0, p)
			} else {
				// Pure ε-DP: the Rényi curve of binary randomized response,
				// searched over orders (Guo et al. Thm 1, Algorithm 2).
				e := parseFloat(t, mech["epsilon"])
				a1, best, err = bound.FanoOrders(func(a float64) float64 { return bound.FanoRenyiRR(a, e, 2) }, []float64{math.Inf(1)}, 0, p)
			}
			if err != nil {
				t.Fatal(err)
			}
			wantA1, wantOpt, wantSucc = math.Max(wantA1, a1.Advantage), math.Max(wantOpt, best.Advantage), math.Max(wantSucc, best.Success)
		}
		for col, want := range map[string]float64{"fano_adv_alpha1": wantA1, "fano_adv_opt": wantOpt, "fano_success_opt": wantSucc} {
			if g := got[col]; g.Kind != table.Number || g.Num != want {
				t.Errorf("%v %s = %v, want %v (message %q)", mech, col, g, want, got["message"].Str)
			}
		}
		if got["fano_adv_opt"].Num > got["fano_adv_alpha1"].Num {
			t.Errorf("%v: optimised Fano %v above α = 1 %v", mech, got["fano_adv_opt"].Num, got["fano_adv_alpha1"].Num)
		}

		// A cell whose value is certain: success 1, advantage from the
		// other cells; the exact-reconstruction success bound is 1.
		_, got = evalWith(t, ev, row(map[string]string{"prior": "d:certain|g"}))
		if g := got["fano_success_opt"]; g.Num != 1 {
			t.Errorf("%v certain cell: fano_success_opt = %v, want 1", mech, g)
		}
		if _, ok := mech["epsilon"]; ok {
			if g := got["gb_rero_exact"]; g.Num != 1 {
				t.Errorf("%v certain cell: gb_rero_exact = %v, want 1", mech, g)
			}
		}
	}
}

// TestPriorDistributionsAbsent: a prior without a frequency table (an
// inline zipf prior) leaves the distribution columns empty without a
// message, as a row without candidates does.
func TestPriorDistributionsAbsent(t *testing.T) {
	ev := New()
	st, got := evalWith(t, ev, map[string]string{"epsilon": "1", "prior": "zipf(1.1, 1000)"})
	if st == StatusError {
		t.Fatal(got["message"].Str)
	}
	for _, col := range []string{"gb_rero_exact", "gb_aia_adv", "fano_adv_opt"} {
		if !got[col].IsEmpty() || strings.Contains(got["message"].Str, col) {
			t.Errorf("%s = %v, message %q", col, got[col], got["message"].Str)
		}
	}
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := ParseNumber(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
