package poibin

import (
	"fmt"
	"math/rand"
	"testing"
)

// Speed goals (not asserted in tests): New for n = 10^6 heterogeneous
// targets in under a second on one core, memory linear in n. Run with
//
//	go test -run '^$' -bench . -benchtime 3x -cpu 1 ./evaluate/poibin/

func benchNew(b *testing.B, n int, shift, scale float64) {
	rng := rand.New(rand.NewSource(1))
	beta, q := randomBetas(rng, n, shift, scale)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := New(beta, q)
		if err != nil || d.Len() != n {
			b.Fatal(err)
		}
	}
}

func BenchmarkHeterogeneous1e3(b *testing.B) { benchNew(b, 1000, 0, 2) }
func BenchmarkHeterogeneous1e5(b *testing.B) { benchNew(b, 100000, 0, 2) }
func BenchmarkHeterogeneous1e6(b *testing.B) { benchNew(b, 1000000, 0, 2) }

// Logits N(0, 0.3²): every β near ½, the widest windows (σ² ≈ n/4).
func BenchmarkHeterogeneous1e6Wide(b *testing.B) { benchNew(b, 1000000, 0, 0.3) }

func BenchmarkHomogeneous1e6(b *testing.B) {
	n := 1000000
	beta := make([]float64, n)
	q := make([]float64, n)
	for i := range beta {
		beta[i], q[i] = 0.3, 0.7
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := New(beta, q); err != nil {
			b.Fatal(err)
		}
	}
}

// A far-tail LogSurvival (Pr ≈ 10^-3000) on n = 10^5: one tilted product.
func BenchmarkLogSurvivalTilted1e5(b *testing.B) {
	rng := rand.New(rand.NewSource(2))
	beta, q := randomBetas(rng, 100000, 0, 2)
	d, err := New(beta, q)
	if err != nil {
		b.Fatal(err)
	}
	v := int(d.Mean()) + 30000
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.LogSurvival(v)
	}
}

// BenchmarkMerge measures one merge of two blocks of length L into an
// output window of 1.4L, directly and by FFT; directCheaper's constants
// come from it.
func BenchmarkMerge(b *testing.B) {
	for _, l := range []int{128, 256, 512, 1024, 4096} {
		x := make([]float64, l)
		for i := range x {
			x[i] = 1 / float64(l)
		}
		w := l * 14 / 10
		out := make([]float64, w)
		off := (2*l - 1 - w) / 2
		b.Run(fmt.Sprintf("direct/L=%d", l), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				directMerge(out, off, x, x)
			}
		})
		b.Run(fmt.Sprintf("fft/L=%d", l), func(b *testing.B) {
			var bld builder
			for i := 0; i < b.N; i++ {
				bld.fftMerge(out, off, x, x)
			}
		})
	}
}
