package evaluate

import (
	"math"
	"math/big"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// ratUp is the exact rational r rounded up to a float64: math/big rounds
// a conversion correctly in the mode asked for, independently of the
// evaluator's own arithmetic.
func ratUp(r *big.Rat) float64 {
	f, _ := new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf).SetRat(r).Float64()
	return f
}

// exactRat is the float64 x as the rational it is exactly.
func exactRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// wantNumber checks that cell is the number want, bit for bit.
func wantNumber(t *testing.T, name string, cell table.Cell, want float64, why string) {
	t.Helper()
	if cell.Kind != table.Number || cell.Num != want {
		t.Errorf("%s = %v; want %.17g (%s)", name, cell, want, why)
	}
}

// c compositions of pure ε-DP are cε-DP: the float 0.1 is
// 0.1000000000000000055511151231257827…, and ten of it are
// 1.000000000000000055…, which rounds to nearest down to 1. The eps_at_delta
// of ten compositions is that product rounded up, 1 + 2⁻⁵² (math/big).
func TestPureCompositionRoundsUp(t *testing.T) {
	want := ratUp(new(big.Rat).Mul(exactRat(0.1), big.NewRat(10, 1)))
	for _, mech := range []string{"pure", "laplace"} {
		st, msg, out := evalRow(t, map[string]string{"mechanism": mech, "epsilon": "0.1", "compositions": "10", "baseline": "0.1"})
		if st != StatusOK {
			t.Fatalf("%s: status %s: %s", mech, st, msg)
		}
		wantNumber(t, mech+" eps_at_delta", out["eps_at_delta"], want, "10·0.1 rounded up")
	}
}

// A pure row with pure extra_stages is pure (Σ nᵢεᵢ)-DP: 0.1 and nine
// stages of 0.1 total 10·0.1 exactly, 1.000000000000000055…, whose rounding
// up is 1 + 2⁻⁵² (math/big); summed to nearest it was 1.
func TestPureTotalRoundsUp(t *testing.T) {
	st, msg, out := evalRow(t, map[string]string{"mechanism": "pure", "epsilon": "0.1", "extra_stages": "pure(0.1)x9", "baseline": "0.1"})
	if st != StatusOK {
		t.Fatalf("status %s: %s", st, msg)
	}
	want := ratUp(new(big.Rat).Mul(exactRat(0.1), big.NewRat(10, 1)))
	wantNumber(t, "eps_at_delta", out["eps_at_delta"], want, "0.1 + 9·0.1 rounded up")
}

// The total of Gaussian releases of σ = 3 and σ = 5 is G_μ with
// μ = √(1/9 + 1/25) = √34/15 = 0.388730126323020031…; rounded to nearest
// it is 0.38873012632302001, below the exact value, rounded up
// 0.38873012632302006 (math/big: the exact rational sum, its square root
// to 400 bits, rounded up). The total row's mu is not below it, and at most
// two ulps above (each of its divisions, sums and the root rounds up).
func TestTotalGaussianMuRoundsUp(t *testing.T) {
	sum := new(big.Rat).Add(big.NewRat(1, 9), big.NewRat(1, 25))
	root := new(big.Float).SetPrec(400).SetRat(sum)
	root.Sqrt(root)
	want, _ := new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf).Set(root).Float64()
	tot, st, out := totalOf(t, New(), "census",
		map[string]string{"id": "a", "dataset": "census", "mechanism": "gaussian", "sigma": "3", "baseline": "0.1"},
		map[string]string{"id": "b", "dataset": "census", "mechanism": "gaussian", "sigma": "5", "baseline": "0.1"})
	if st != StatusTotal {
		t.Fatalf("status %s: %v", st, out["message"])
	}
	row, ok := tot.Synthetic()
	if !ok {
		t.Fatal("no synthetic row")
	}
	for _, c := range row {
		if c.Field == release.FieldMu {
			if c.Cell.Kind != table.Number || c.Cell.Num < want || c.Cell.Num > numeric.UlpsAway(want, 2) {
				t.Errorf("total mu = %v; want √(1/9 + 1/25) rounded up, %.17g, or at most two ulps above", c.Cell, want)
			}
			return
		}
	}
	t.Errorf("the total row %v has no mu", row)
}

// An approx row of three (0.5, 1e-17) steps reports its ε at its own
// δ_total = 3·δ. Rounded to nearest, 3·1e-17 falls below 1 − (1 − δ)³, at
// which no ε holds (curve.TestBasicCompositionExact); the row's δ_total is
// rounded up instead, so its eps_at_delta stays 3·0.5 = 1.5 (basic
// composition), not empty.
func TestPerStepDeltaKeepsBasicComposition(t *testing.T) {
	st, msg, out := evalRow(t, map[string]string{"mechanism": "approx", "epsilon": "0.5", "delta": "1e-17", "compositions": "3", "baseline": "0.1"})
	if st != StatusOK {
		t.Fatalf("status %s: %s", st, msg)
	}
	wantNumber(t, "eps_at_delta", out["eps_at_delta"], 1.5, "3·0.5 by basic composition")
}

// A gdp row of μ = 0.1 composed 3 times is G_{0.1·√3}: 0.1·√3 is
// 0.17320508075688773 rounded to nearest, below the exact product of the
// float 0.1 and √3 (math/big, 400 bits), so it is rounded up; and the
// row's ρ = μ²/2 is not below the exact half square of that μ. The same
// for a composition of Gaussian stages (curve.Compose's μ = √Σ nᵢ/σᵢ²).
func TestGaussianCompositionRoundsUp(t *testing.T) {
	exact := new(big.Float).SetPrec(400).SetFloat64(3)
	exact.Sqrt(exact).Mul(exact, new(big.Float).SetPrec(400).SetFloat64(0.1))
	want, _ := new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf).Set(exact).Float64()
	if naive := 0.1 * math.Sqrt(3); naive >= want {
		t.Fatalf("0.1·√3 to nearest is %.17g, not below the exact %.17g: the case tells nothing", naive, want)
	}
	for _, row := range []map[string]string{
		{"mechanism": "gdp", "mu": "0.1", "compositions": "3", "baseline": "0.1"},
		// 3 stages of σ = 10: μ = √(3/100), the same number through curve.Compose.
		{"mechanism": "gdp", "mu": "0.1", "extra_stages": "gaussian(10)x2", "baseline": "0.1"},
	} {
		r, problems := resolveRow(t, row)
		if r == nil {
			t.Fatalf("%v: %v", row, problems)
		}
		if r.Mu < want || r.Mu > numeric.UlpsAway(want, 2) {
			t.Errorf("%v: μ = %.17g; want 0.1·√3 rounded up, %.17g, or at most two ulps above", row, r.Mu, want)
		}
		half := new(big.Rat).Mul(exactRat(r.Mu), exactRat(r.Mu))
		half.Quo(half, big.NewRat(2, 1))
		if r.Rho < ratUp(half) {
			t.Errorf("%v: ρ = %.17g below μ²/2 = %.17g", row, r.Rho, ratUp(half))
		}
	}
}
