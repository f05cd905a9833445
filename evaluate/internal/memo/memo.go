// Package memo holds Cache, the one bounded memo of the evaluate packages:
// accountants, curves' ε(δ), noise calibrations and parent-set tables are
// each computed once per run, however many rows ask for them, and however
// many rows ask at the same time.
package memo

import "sync"

// Cache remembers the values of a pure function by key. Concurrent calls
// for the same key that is not yet remembered wait for one computation.
// It is bounded by a total weight: when a new value would take it over its
// limit it starts afresh, which costs recomputation, never memory. It is
// safe for concurrent use.
type Cache[K comparable, V any] struct {
	limit  int
	weight func(V) int

	mu      sync.Mutex
	m       map[K]V
	used    int
	flights map[K]*flight[V] // the keys being computed
}

// flight is one computation of a key that other callers wait for.
type flight[V any] struct {
	done chan struct{} // closed when v is set, or the computation failed
	v    V
	ok   bool // v is the value (false: compute panicked)
}

// New returns a cache that holds values of total weight at most limit
// (a value above the limit alone is still kept, by itself). A nil weight
// counts every value as 1, so that limit is a number of entries.
func New[K comparable, V any](limit int, weight func(V) int) *Cache[K, V] {
	if weight == nil {
		weight = func(V) int { return 1 }
	}
	return &Cache[K, V]{limit: limit, weight: weight}
}

// Get returns the remembered value of key, computing it with compute (and
// remembering it) on first use. compute must return the same value for
// the same key whenever it is called; an error belongs in V.
//
// A key that is not equal to itself (it holds a NaN) can never be found
// again, so it is computed on every call and not remembered. The keys are
// compared as values, without formatting them: a lookup costs a map
// access, which matters for the closed-form rows, whose values take
// microseconds to compute.
func (c *Cache[K, V]) Get(key K, compute func() V) V {
	if key != key {
		return compute()
	}
	c.mu.Lock()
	if v, ok := c.m[key]; ok {
		c.mu.Unlock()
		return v
	}
	if f, ok := c.flights[key]; ok {
		c.mu.Unlock()
		<-f.done
		if f.ok {
			return f.v
		}
		return compute() // the first computation panicked: it will again, here
	}
	f := &flight[V]{done: make(chan struct{})}
	if c.flights == nil {
		c.flights = make(map[K]*flight[V])
	}
	c.flights[key] = f
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if f.ok {
			c.store(key, f.v)
		}
		delete(c.flights, key)
		c.mu.Unlock()
		close(f.done)
	}()
	f.v = compute()
	f.ok = true
	return f.v
}

// Len returns the number of remembered values.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Weight returns the total weight of the remembered values.
func (c *Cache[K, V]) Weight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// store remembers v for key; c.mu must be held.
func (c *Cache[K, V]) store(key K, v V) {
	// Every entry counts at least 1, so that entries the weight calls
	// free (failures) cannot pile up without bound.
	w := max(c.weight(v), 1)
	if c.m == nil || c.used+w > c.limit {
		c.m, c.used = make(map[K]V), 0
	}
	c.m[key] = v
	c.used += w
}
