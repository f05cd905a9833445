package pipeline

import (
	"math"
	"math/rand"
	"testing"
)

// naiveColumns is transposeNumbers one value at a time, column after
// column, as numberArrays did: the reference the blocked one must match.
func naiveColumns(nums []float64, n, k int) numberColumns {
	w := (n + 7) / 8
	m := numberColumns{n: n, at: make([]int, k), nulls: make([]int, k)}
	for c := range k {
		for i := range n {
			if math.IsNaN(nums[i*k+c]) {
				m.nulls[c]++
			}
		}
	}
	filled := 0
	for c := range k {
		m.at[c] = -1
		if m.nulls[c] < n {
			m.at[c] = filled
			filled++
		}
	}
	m.vals, m.bits = make([]float64, filled*n), make([]byte, filled*w)
	for c := range k {
		j := m.at[c]
		for i := range n {
			if v := nums[i*k+c]; j >= 0 && !math.IsNaN(v) {
				m.vals[j*n+i] = v
				m.bits[j*w+i/8] |= 1 << (i % 8)
			}
		}
	}
	return m
}

// randomRows returns n rows of k values, about a third of them NaN, and
// some columns NaN on every row or on none.
func randomRows(rng *rand.Rand, n, k int) []float64 {
	nums := make([]float64, n*k)
	for i := range n {
		for c := range k {
			switch {
			case c%5 == 1 || (c%5 != 2 && rng.Intn(3) == 0):
				nums[i*k+c] = math.NaN()
			default:
				nums[i*k+c] = rng.NormFloat64()
			}
		}
	}
	return nums
}

// TestTransposeNumbers checks the blocked transposition against the one
// value at a time, for batches that do and do not fill their last byte
// of validity bits.
func TestTransposeNumbers(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 7, 8, 9, 13, 64, 511, 512} {
		for _, k := range []int{1, 3, 8, 61} {
			nums := randomRows(rng, n, k)
			got, want := transposeNumbers(nums, n, k), naiveColumns(nums, n, k)
			for c := range k {
				if got.nulls[c] != want.nulls[c] {
					t.Errorf("n=%d k=%d column %d: %d nulls, want %d", n, k, c, got.nulls[c], want.nulls[c])
				}
				gv, wv := got.values(c), want.values(c)
				if (gv == nil) != (want.nulls[c] == n) || len(gv) != len(wv) {
					t.Fatalf("n=%d k=%d column %d (%d nulls): %d values, want %d", n, k, c, want.nulls[c], len(gv), len(wv))
				}
				for i := range gv {
					if math.Float64bits(gv[i]) != math.Float64bits(wv[i]) {
						t.Errorf("n=%d k=%d column %d row %d: %v, want %v", n, k, c, i, gv[i], wv[i])
					}
				}
				if g, w := string(got.valid(c)), string(want.valid(c)); g != w {
					t.Errorf("n=%d k=%d column %d: validity %x, want %x", n, k, c, g, w)
				}
			}
		}
	}
}

// BenchmarkTransposeNumbers compares the blocked transposition of a full
// batch of bound values (512 rows, 100 columns) with the one value at a
// time:
//
//	go test -run '^$' -bench TransposeNumbers ./pipeline
func BenchmarkTransposeNumbers(b *testing.B) {
	const n, k = 512, 100
	nums := randomRows(rand.New(rand.NewSource(1)), n, k)
	for _, c := range []struct {
		name string
		f    func([]float64, int, int) numberColumns
	}{{"blocked", transposeNumbers}, {"value-at-a-time", naiveColumns}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				c.f(nums, n, k)
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
