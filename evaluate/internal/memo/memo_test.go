package memo

import (
	"math"
	"sync"
	"sync/atomic"
	"testing"
)

// Concurrent calls for one key compute it once and all get its value; a
// later call is served from the cache.
func TestGetComputesOnce(t *testing.T) {
	c := New[[2]float64, float64](16, nil)
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	got := make([]float64, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = c.Get([2]float64{1, 1e-5}, func() float64 {
				calls.Add(1)
				<-release
				return 0.25
			})
		}()
	}
	close(release)
	wg.Wait()
	for i, v := range got {
		if v != 0.25 {
			t.Errorf("caller %d got %v", i, v)
		}
	}
	c.Get([2]float64{1, 1e-5}, func() float64 { calls.Add(1); return 1 })
	if n := calls.Load(); n != 1 {
		t.Errorf("computed %d times, want 1", n)
	}
}

// Distinct keys are computed separately, also when their Go-syntax forms
// are close ("a b" against "a", "b" in a struct).
func TestDistinctKeys(t *testing.T) {
	type key struct{ a, b string }
	c := New[key, string](16, nil)
	k1, k2 := key{"a b", ""}, key{"a", "b"}
	if c.Get(k1, func() string { return "one" }) != "one" || c.Get(k2, func() string { return "two" }) != "two" {
		t.Error("two keys share a value")
	}
	if c.Len() != 2 {
		t.Errorf("Len = %d, want 2", c.Len())
	}
}

// The cache starts afresh when a value would take it over its limit, by
// count and by weight; a value heavier than the limit is kept alone.
func TestBounded(t *testing.T) {
	c := New[int, int](3, nil)
	for i := range 3 {
		c.Get(i, func() int { return i })
	}
	if c.Len() != 3 {
		t.Fatalf("Len = %d, want 3", c.Len())
	}
	c.Get(3, func() int { return 3 })
	if c.Len() != 1 {
		t.Errorf("after the fourth value Len = %d, want 1", c.Len())
	}
	w := New[string, int](10, func(v int) int { return v })
	w.Get("a", func() int { return 6 })
	w.Get("b", func() int { return 4 })
	if w.Len() != 2 {
		t.Errorf("weights 6 + 4 ≤ 10: Len = %d, want 2", w.Len())
	}
	w.Get("c", func() int { return 11 })
	if w.Len() != 1 {
		t.Errorf("a value of weight 11 > 10: Len = %d, want 1", w.Len())
	}
}

// A key holding a NaN, equal to no key, is computed on every call and not
// remembered; a computation that panics lets the callers waiting for it
// compute the value themselves, and leaves nothing behind.
func TestNaNKeysAndPanics(t *testing.T) {
	c := New[[2]float64, int](16, nil)
	calls := 0
	for range 3 {
		if v := c.Get([2]float64{math.NaN(), 1}, func() int { calls++; return 7 }); v != 7 {
			t.Fatalf("NaN key: got %d, want 7", v)
		}
	}
	if calls != 3 || c.Len() != 0 {
		t.Errorf("NaN key: computed %d times (want 3), %d values remembered (want 0)", calls, c.Len())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic of compute did not reach the caller")
			}
		}()
		c.Get([2]float64{1, 2}, func() int { panic("boom") })
	}()
	if v := c.Get([2]float64{1, 2}, func() int { return 5 }); v != 5 || c.Len() != 1 {
		t.Errorf("after a panic: got %d with %d values, want 5 with 1", v, c.Len())
	}
}
