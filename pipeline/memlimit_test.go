package pipeline

import "testing"

// The stream's memory limit follows the evaluator's caches up, in steps
// of more than limitStep, and never down.
func TestMemoryLimitFollowsCaches(t *testing.T) {
	const base = 100 << 20
	var held, set int64
	m := &memoryLimit{base: base, caches: func() int64 { return held }, set: func(v int64) int64 { set = v; return 0 }}
	for _, c := range []struct{ held, want int64 }{
		{0, 0},                                // nothing held: the limit set at the start stays
		{limitStep / 2, 0},                    // less than a step
		{3 * limitStep, base + 3*limitStep},   // followed
		{3*limitStep + 1, base + 3*limitStep}, // less than a step more
		{limitStep, base + 3*limitStep},       // a cache started afresh: not lowered
		{10 * limitStep, base + 10*limitStep}, // followed again
	} {
		held = c.held
		m.follow()
		if set != c.want {
			t.Errorf("caches %d bytes: limit %d, want %d", c.held, set, c.want)
		}
	}
	var none *memoryLimit
	none.follow() // a stream without a limit
}

// A process running several evaluations at once gets parquetMemoryLimit
// for each above what it holds; one or fewer, one run's.
func TestProcessMemoryLimit(t *testing.T) {
	one, three := ProcessMemoryLimit(1), ProcessMemoryLimit(3)
	if d := three - one; d < 2*parquetMemoryLimit-(8<<20) || d > 2*parquetMemoryLimit+(8<<20) {
		t.Errorf("3 runs' limit %d is %d above 1 run's %d, want about %d", three, d, one, 2*parquetMemoryLimit)
	}
	if z := ProcessMemoryLimit(0); z < one-(8<<20) || z > one+(8<<20) {
		t.Errorf("0 runs: %d, want about one run's %d", z, one)
	}
	if one < parquetMemoryLimit {
		t.Errorf("1 run: %d, below %d", one, parquetMemoryLimit)
	}
}
