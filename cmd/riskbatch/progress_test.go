package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/readers"
)

// The meter's speed is over the last speedWindow only, and the time left
// follows from it: a run at 100 rows/s for 20 s, then at 1,000 rows/s.
func TestMeterSlidingWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	m := newMeter(t0, 100_000, speedWindow)
	if got := m.describe(t0); got != "0 rows" {
		t.Errorf("at the start: %q", got)
	}
	rows := int64(0)
	for s := 1; s <= 20; s++ {
		rows += 100
		m.record(at(float64(s)), rows, rows)
	}
	// 2,000 of 100,000 rows at 100 rows/s: 980 s left.
	if got, want := m.describe(at(20)), "2,000 rows, 100 rows/s, 16:20 left"; got != want {
		t.Errorf("after 20 s: %q, want %q", got, want)
	}
	for s := 21; s <= 25; s++ {
		rows += 1000
		m.record(at(float64(s)), rows, rows)
	}
	// The window is 15 s to 25 s: 5 s at 100 and 5 s at 1,000 rows/s,
	// 550 rows/s; 93,000 rows left take 169.1 s, shown as 2:50.
	if got, want := m.describe(at(25)), "7,000 rows, 550 rows/s, 2:50 left"; got != want {
		t.Errorf("after 25 s: %q, want %q", got, want)
	}
	for s := 26; s <= 35; s++ {
		rows += 1000
		m.record(at(float64(s)), rows, rows)
	}
	// Only the fast pace is left in the window: 83,000 rows in 83 s.
	if got, want := m.describe(at(35)), "17,000 rows, 1,000 rows/s, 1:23 left"; got != want {
		t.Errorf("after 35 s: %q, want %q", got, want)
	}
	if n := len(m.samples); n > 12 {
		t.Errorf("%d samples kept for a 10 s window sampled each second", n)
	}
}

// Progress by bytes: the speed is in rows, the time left from the bytes.
// Without a total there is no time left; below 10 rows/s the speed has a
// decimal.
func TestMeterBytesAndUnknownTotal(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := newMeter(t0, 1<<20, speedWindow)
	m.record(t0.Add(4*time.Second), 1_234_567, 1<<18) // a quarter read in 4 s: 12 s left
	if got, want := m.describe(t0.Add(4*time.Second)), "1,234,567 rows, 308,642 rows/s, 0:12 left"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	m = newMeter(t0, 0, speedWindow)
	m.record(t0.Add(2*time.Second), 7, 0)
	if got, want := m.describe(t0.Add(2*time.Second)), "7 rows, 3.5 rows/s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	m.record(t0.Add(3*time.Hour+25*time.Minute), 9, 0)
	if d, ok := m.left(); ok {
		t.Errorf("time left %v without a total", d)
	}
}

func TestClockAndDigits(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 400 * time.Millisecond: "0:01", 59 * time.Second: "0:59", 61 * time.Second: "1:01",
		2*time.Hour + 3*time.Minute + 10*time.Second: "2:03:10",
	} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 55549528: "55,549,528", -1234: "-1,234"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

// The bar, drawn on a buffer with a fake clock, shows the percentage of
// the total, the rows, the speed and the time left.
func TestProgressDraws(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	var out bytes.Buffer
	p := drawProgress(&out, work{rows: true, total: 1000}, func() time.Time { return now })
	now = t0.Add(5 * time.Second)
	p.update(500, 0)
	got := out.String()
	for _, want := range []string{"50%", "500 rows, 100 rows/s, 0:05 left"} {
		if !strings.Contains(got, want) {
			t.Errorf("the bar shows %q, without %q", got, want)
		}
	}
	// A redraw within redrawEvery is skipped.
	out.Reset()
	now = now.Add(redrawEvery / 2)
	p.update(600, 0)
	if out.Len() != 0 {
		t.Errorf("redrawn after %v: %q", redrawEvery/2, out.String())
	}
	p.finish()
}

// Quiet, or on a stderr that is not a terminal, the progress draws nothing.
func TestProgressQuiet(t *testing.T) {
	var out bytes.Buffer
	for _, quiet := range []bool{false, true} {
		p := newProgress(&out, quiet, work{rows: true, total: 10})
		p.update(5, 5)
		p.finish()
	}
	if out.Len() != 0 {
		t.Errorf("drew %q", out.String())
	}
}

// A run over Parquet inputs counts rows, from their footers; any other
// input makes it count bytes.
func TestMeasureWork(t *testing.T) {
	pq, err := readers.Open(filepath.Join("..", "..", "samples", "releases.parquet"), readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pq[0].Close()
	csv, err := readers.Open(filepath.Join("..", "..", "samples", "releases.csv"), readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer csv[0].Close()
	// The sample table has 31 rows.
	if got := measureWork([]readers.Table{pq[0], pq[0]}, 5); got != (work{rows: true, total: 62}) {
		t.Errorf("two Parquet tables: %+v", got)
	}
	if got := measureWork([]readers.Table{pq[0], csv[0]}, 5); got != (work{total: 5}) {
		t.Errorf("Parquet and CSV: %+v", got)
	}
	if got := inputBytes([]string{"progress.go", "."}); got != -1 {
		t.Errorf("a directory among the inputs: %d bytes", got)
	}
}
