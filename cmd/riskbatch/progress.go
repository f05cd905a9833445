package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/riskbatch/riskbatch/readers"
)

// work is how a run measures how far it is: in rows when every input
// knows its number of rows before it is read (Parquet, from its footer),
// else in bytes of the input files read, against their sizes. Progress by
// bytes is an estimate of rows (rows differ in length) but an honest one:
// it is what has been read of the files. total ≤ 0 means unknown (an input
// read from a pipe): the bar then shows rows and speed without a
// percentage or an estimate of the time left.
type work struct {
	rows  bool // total counts rows; otherwise bytes
	total int64
}

// measureWork returns how a run over tables measures its progress; bytes
// is the total size of the input files, or ≤ 0 when one is not a regular
// file.
func measureWork(tables []readers.Table, bytes int64) work {
	var rows int64
	for _, t := range tables {
		rc, ok := t.(readers.RowCounter)
		if !ok {
			return work{total: bytes}
		}
		rows += rc.NumRows()
	}
	return work{rows: true, total: rows}
}

// inputBytes is the total size of the files, or -1 when one of them is
// not a regular file (a pipe), whose size is not known in advance.
func inputBytes(paths []string) int64 {
	var total int64
	for _, p := range paths {
		if p == readers.StdinPath {
			return -1
		}
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			return -1
		}
		total += st.Size()
	}
	return total
}

// progress shows how far a run of eval is, on stderr, while it goes: a bar
// with the percentage done, the rows written, the rows per second over the
// last few seconds and the time left. It shows only when stderr is a
// terminal and --quiet is off; otherwise it does nothing.
type progress struct {
	bar   *progressbar.ProgressBar
	meter *meter
	work  work
	now   func() time.Time
	last  time.Time // when the bar was last redrawn
}

// redrawEvery is how often the bar is redrawn at most.
const redrawEvery = 200 * time.Millisecond

func newProgress(stderr io.Writer, quiet bool, w work) *progress {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	return drawProgress(stderr, w, time.Now)
}

// drawProgress is a progress that draws on out, reading the time from now.
func drawProgress(out io.Writer, w work, now func() time.Time) *progress {
	max := w.total
	if max <= 0 {
		max = -1 // a spinner
	}
	bar := progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(out),
		progressbar.OptionSetDescription("evaluating"),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
	)
	return &progress{bar: bar, meter: newMeter(now(), w.total, speedWindow), work: w, now: now}
}

// update records that rows rows have been written and done units of the
// run's work (rows, or bytes of the inputs read) are done.
func (p *progress) update(rows, done int64) {
	if p.bar == nil {
		return
	}
	if p.work.rows {
		done = rows
	}
	now := p.now()
	p.meter.record(now, rows, done)
	if now.Sub(p.last) < redrawEvery {
		return
	}
	p.last = now
	// update throttles the drawing itself: the bar draws on each call, and
	// the last, Set64, draws the new text and the new length together.
	p.bar.Describe(p.meter.describe(now))
	if p.work.total > 0 {
		p.bar.Set64(min(done, p.work.total-1)) // the bar ends with finish
	} else {
		p.bar.Set64(rows)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// speedWindow is the span over which the rows per second and the time left
// are measured: long enough to smooth the batches out, short enough to
// follow a change of pace (a table of slow rows after fast ones).
const speedWindow = 10 * time.Second

// meter measures a run's speed over a sliding window of time and the time
// left from it. It reads no clock: the times are given, so that it can be
// tested with a fake one.
type meter struct {
	total   int64 // units of work (rows or bytes); ≤ 0 unknown
	window  time.Duration
	samples []sample // oldest first; the first is at or before the window's start
}

// sample is what was done at a time.
type sample struct {
	at         time.Time
	rows, done int64
}

// minSampleGap keeps the samples of a window few: one per 100 ms at most.
const minSampleGap = 100 * time.Millisecond

func newMeter(start time.Time, total int64, window time.Duration) *meter {
	return &meter{total: total, window: window, samples: []sample{{at: start}}}
}

// record adds what is done at now.
func (m *meter) record(now time.Time, rows, done int64) {
	last := &m.samples[len(m.samples)-1]
	if n := len(m.samples); n > 1 && now.Sub(m.samples[n-2].at) < minSampleGap {
		*last = sample{now, rows, done} // replace the newest: no gap yet
	} else {
		m.samples = append(m.samples, sample{now, rows, done})
	}
	// Drop samples before the window, keeping the last of them so that the
	// window is covered whole.
	cut := 0
	for cut+1 < len(m.samples) && !m.samples[cut+1].at.After(now.Add(-m.window)) {
		cut++
	}
	m.samples = m.samples[cut:]
}

// span returns the oldest and newest samples of the window.
func (m *meter) span() (first, last sample) {
	return m.samples[0], m.samples[len(m.samples)-1]
}

// rowsPerSecond is the speed over the window; 0 before any time passed.
func (m *meter) rowsPerSecond() float64 {
	first, last := m.span()
	dt := last.at.Sub(first.at).Seconds()
	if dt <= 0 {
		return 0
	}
	return float64(last.rows-first.rows) / dt
}

// left estimates the time the run still needs at the window's pace; false
// when the total is unknown or nothing was done in the window.
func (m *meter) left() (time.Duration, bool) {
	first, last := m.span()
	dt := last.at.Sub(first.at).Seconds()
	if m.total <= 0 || dt <= 0 || last.done <= first.done {
		return 0, false
	}
	pace := float64(last.done-first.done) / dt
	secs := float64(max(m.total-last.done, 0)) / pace
	if secs > float64(math.MaxInt64/int64(time.Second)) {
		return 0, false
	}
	return time.Duration(secs * float64(time.Second)), true
}

// describe is the text beside the bar: "12,345 rows, 4,096 rows/s, 0:42
// left" (the speed and the time left once they are known).
func (m *meter) describe(now time.Time) string {
	_, last := m.span()
	text := groupDigits(last.rows) + " rows"
	if r := m.rowsPerSecond(); r > 0 {
		if r >= 10 {
			text += ", " + groupDigits(int64(math.Round(r))) + " rows/s"
		} else {
			text += ", " + strconv.FormatFloat(r, 'f', 1, 64) + " rows/s"
		}
	}
	if d, ok := m.left(); ok {
		text += ", " + clock(d) + " left"
	}
	return text
}

// groupDigits writes n with thousands separators: 1234567 → "1,234,567".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// clock writes a duration as a clock does, rounded up to the second:
// "0:42", "12:05", "2:03:10".
func clock(d time.Duration) string {
	s := int64(math.Ceil(d.Seconds()))
	h, m, sec := s/3600, s/60%60, s%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}
