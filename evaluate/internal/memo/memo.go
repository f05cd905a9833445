// Package memo holds Cache, the one bounded memo of the evaluate packages:
// accountants, curves' ε(δ), noise calibrations and parent-set tables are
// each computed once per run, however many rows ask for them, and however
// many rows ask at the same time.
package memo

import (
	"fmt"
	"sync"

	"golang.org/x/sync/singleflight"
)

// Cache remembers the values of a pure function by key. Concurrent calls
// for the same key that is not yet remembered wait for one computation
// (golang.org/x/sync/singleflight). It is bounded by a total weight: when
// a new value would take it over its limit it starts afresh, which costs
// recomputation, never memory. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	limit  int
	weight func(V) int

	mu   sync.Mutex
	m    map[K]V
	used int

	calls singleflight.Group
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
func (c *Cache[K, V]) Get(key K, compute func() V) V {
	if v, ok := c.lookup(key); ok {
		return v
	}
	v, _, _ := c.calls.Do(flightKey(key), func() (any, error) {
		// A call that missed just before an earlier flight stored the
		// value finds it here.
		if v, ok := c.lookup(key); ok {
			return v, nil
		}
		v := compute()
		c.store(key, v)
		return v, nil
	})
	return v.(V)
}

// Len returns the number of remembered values.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

func (c *Cache[K, V]) lookup(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *Cache[K, V]) store(key K, v V) {
	// Every entry counts at least 1, so that entries the weight calls
	// free (failures) cannot pile up without bound.
	w := max(c.weight(v), 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.used+w > c.limit {
		c.m, c.used = make(map[K]V), 0
	}
	c.m[key] = v
	c.used += w
}

// flightKey is the singleflight key of a cache key: its Go-syntax
// representation, which tells apart every two keys that differ (strings
// are quoted, floats printed to round-trip exactly).
func flightKey[K comparable](key K) string { return fmt.Sprintf("%#v", key) }
