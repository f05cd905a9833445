package pipeline

import (
	"math"
	"math/rand"
	"testing"
)

// naiveColumn is column c of n rows of k values taken one value at a
// time, the reference for transposeNumbers: its values (0 where a row has
// none; nil when no row has one), its validity bits and its count of rows
// without a value.
func naiveColumn(nums []float64, n, k, c int) (vals []float64, bits []byte, nulls int) {
	vals, bits = make([]float64, n), make([]byte, (n+7)/8)
	for i := range n {
		if v := nums[i*k+c]; math.IsNaN(v) {
			nulls++
		} else {
			vals[i] = v
			bits[i/8] |= 1 << (i % 8)
		}
	}
	if nulls == n {
		return nil, nil, nulls
	}
	return vals, bits, nulls
}

// naiveColumns is transposeNumbers' result made with naiveColumn, for the
// benchmark: one value at a time, column after column, as numberArrays
// did.
func naiveColumns(nums []float64, n, k int) [][]float64 {
	cols := make([][]float64, k)
	for c := range k {
		cols[c], _, _ = naiveColumn(nums, n, k, c)
	}
	return cols
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
			got := transposeNumbers(nums, n, k)
			for c := range k {
				wv, wbits, wnulls := naiveColumn(nums, n, k, c)
				if got.nulls[c] != wnulls {
					t.Errorf("n=%d k=%d column %d: %d nulls, want %d", n, k, c, got.nulls[c], wnulls)
				}
				gv := got.values(c)
				if (gv == nil) != (wv == nil) || len(gv) != len(wv) {
					t.Fatalf("n=%d k=%d column %d (%d nulls): %d values, want %d", n, k, c, wnulls, len(gv), len(wv))
				}
				for i := range gv {
					if math.Float64bits(gv[i]) != math.Float64bits(wv[i]) {
						t.Errorf("n=%d k=%d column %d row %d: %v, want %v", n, k, c, i, gv[i], wv[i])
					}
				}
				if g, w := string(got.valid(c)), string(wbits); g != w {
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
		f    func([]float64, int, int)
	}{
		{"blocked", func(nums []float64, n, k int) { transposeNumbers(nums, n, k) }},
		{"value-at-a-time", func(nums []float64, n, k int) { naiveColumns(nums, n, k) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				c.f(nums, n, k)
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
