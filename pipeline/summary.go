package pipeline

import (
	"container/heap"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/numtext"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
)

// summary gathers, while the rows are written, what the workbook's Summary
// sheet shows: how many rows are ok, partial or in error, the riskiest
// releases by their baseline-free bound, a chart of each one's success
// bound against the baseline, and the audit rows' claimed and certified ε. Memory is bounded by the number of releases
// it ranks: it keeps their rows, to draw their curves at the end.
type summary struct {
	mu       sync.Mutex
	counts   Counts
	top      riskHeap
	keep     int
	worst    int // output index of fdp_worst_advantage, or -1 (not selected: no ranking)
	success  int // output index of fdp_success, or -1
	label    int // output index of the id column, or -1
	dataset  int // output index of the dataset column, or -1
	statusAt int
	sheet    *evaluate.SheetBinding
	audits   auditSummary
	shading  []string   // how the workbook shades its advantage columns, in lines; none when it does not
	groups   [][]string // the dataset totals, one line each (summary_groups.go)
	// totals are the dataset totals by dataset (addGroup), whose charts
	// are drawn from the rows they were computed from.
	totals map[string]*evaluate.Total
}

// topReleases is how many of the riskiest releases the Summary lists.
const topReleases = 20

type risky struct {
	worst, success float64
	hasSuccess     bool
	label          string
	seq            int             // the row's place in the output (0-based, header excluded)
	cells          []table.Cell    // the row, for its curve
	total          *evaluate.Total // a total row's composition, for its curve
}

// curveGrid is the number of intervals of the baselines the Summary's
// charts plot, evenly spaced over [0, 1].
const curveGrid = 200

// riskHeap is a min-heap on worst: its root is the least risky kept row.
type riskHeap []risky

func (h riskHeap) Len() int           { return len(h) }
func (h riskHeap) Less(i, j int) bool { return h[i].worst < h[j].worst }
func (h riskHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *riskHeap) Push(x any)        { *h = append(*h, x.(risky)) }
func (h *riskHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// newSummary prepares the summary of an output laid out as lay; sheet binds
// the same header and draws the charts' curves.
func newSummary(lay *layout.Layout, ev *evaluate.Evaluator, sheet *evaluate.SheetBinding) *summary {
	in := newInputColumns(lay, ev)
	return &summary{counts: Counts{}, keep: topReleases, statusAt: lay.Inputs(), sheet: sheet,
		label:   in.of(release.FieldID),
		dataset: in.of(release.FieldDataset),
		worst:   outputColumn(lay, "fdp_worst_advantage"),
		success: outputColumn(lay, "fdp_success"),
		audits:  newAuditSummary(lay, in),
	}
}

// add records one written row.
func (s *summary) add(seq int, cells []table.Cell, st evaluate.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[st]++
	if s.label >= 0 {
		s.audits.add(seq, cells, cells[s.label].String())
	} else {
		s.audits.add(seq, cells, "")
	}
	if s.worst < 0 {
		return // fdp_worst_advantage is not among the --columns
	}
	w := cells[s.worst]
	if w.Kind != table.Number {
		return
	}
	r := risky{worst: w.Num, seq: seq}
	if s.success >= 0 && cells[s.success].Kind == table.Number {
		r.success, r.hasSuccess = cells[s.success].Num, true
	}
	if s.label >= 0 {
		r.label = cells[s.label].String()
	}
	if st == evaluate.StatusTotal && s.dataset >= 0 {
		r.total = s.totals[cells[s.dataset].String()]
	}
	if len(s.top) < s.keep {
		r.cells = append([]table.Cell(nil), cells...)
		heap.Push(&s.top, r)
	} else if r.worst > s.top[0].worst {
		r.cells = append(s.top[0].cells[:0], cells...)
		s.top[0] = r
		heap.Fix(&s.top, 0)
	}
}

// ranked returns the kept releases, riskiest first (ties in output order).
func (s *summary) ranked() []risky {
	top := append(riskHeap(nil), s.top...)
	sort.SliceStable(top, func(i, j int) bool {
		if top[i].worst != top[j].worst {
			return top[i].worst > top[j].worst
		}
		return top[i].seq < top[j].seq
	})
	return top
}

// sheetRow is the spreadsheet row of the output row seq (0-based, header
// excluded): the header is row 1.
func sheetRow(seq int) int { return seq + 2 }

// rankText is how the Summary writes the rank of its i-th release (from
// 0): "#1". Text, left-aligned in its own column, so that it stands apart
// from the id beside it (a number is right-aligned against it: "1canary")
// and reads as the chart titles do.
func rankText(i int) string { return "#" + strconv.Itoa(i+1) }

// titleDigits are the significant digits of the bounds in chart titles,
// as the data sheet shows probabilities.
const titleDigits = 4

// significant formats an upper bound x with the given significant digits,
// rounded up (numtext.FormatSignificant: a bound shown rounded stays a
// bound), except that a value below 1 is never shown as 1: 0.99991 is
// "0.99991", 0.999995 "0.999995", never "1", since a bound of 1 means no
// protection at all.
func significant(x float64, digits int) string {
	s := numtext.FormatSignificant(x, digits, 1)
	for d := digits + 1; d <= 17; d++ {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || (x < 1) == (v < 1) {
			break
		}
		s = numtext.FormatSignificant(x, d, 1)
	}
	return s
}

// name is how the summary names a release: its id, else its row.
func (r risky) name() string {
	if r.label != "" {
		return r.label
	}
	return "row " + strconv.Itoa(sheetRow(r.seq))
}

// rows is the Summary sheet.
func (s *summary) rows() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.table()
}

// table is the Summary sheet (the caller holds the lock).
func (s *summary) table() [][]string {
	out := [][]string{
		{"riskbatch summary", ""},
		{"rows", strconv.Itoa(s.counts.Rows())},
		{"ok", strconv.Itoa(s.counts[evaluate.StatusOK])},
		{"partial", strconv.Itoa(s.counts[evaluate.StatusPartial])},
		{"error", strconv.Itoa(s.counts[evaluate.StatusError])},
		// Lines short enough to stay clear of the charts right of them.
		{"ok: every bound that applies computed; partial: an input is missing,"},
		{"and the message says which to add; error: the row was rejected, and the message says why."},
		{"Each row's headline is the number to quote, and headline_says what it means: with"},
		{"target_advantage the ε or noise that meets it, with a baseline the success bound there,"},
		{"else the worst case over baselines (the rule: the headline row of the " + writers.DocsSheetName + " sheet)."},
		{""},
		{fmt.Sprintf("The %d riskiest releases by fdp_worst_advantage (the baseline-free bound):", len(s.top))},
		{"rank", "id", "row", "fdp_worst_advantage", "fdp_success"},
	}
	top := s.ranked()
	for i, r := range top {
		succ := ""
		if r.hasSuccess {
			succ = strconv.FormatFloat(r.success, 'g', -1, 64)
		}
		out = append(out, []string{rankText(i), r.label, strconv.Itoa(sheetRow(r.seq)), strconv.FormatFloat(r.worst, 'g', -1, 64), succ})
	}
	if len(top) > 0 {
		out = append(out, []string{""},
			[]string{"Charts: each release's fdp_success bound 1 − f(b) against the baseline b,"},
			[]string{"the attacker's success without the release. The dashed diagonal is b itself:"},
			[]string{"the gap between the lines is fdp_advantage. Data: the " + writers.CurvesSheetName + " sheet."})
	}
	out = append(out, s.audits.lines()...)
	out = append(out, s.groupRows()...)
	if len(s.shading) > 0 {
		out = append(out, []string{""})
		for _, l := range s.shading {
			out = append(out, []string{l})
		}
	}
	out = append(out, []string{""},
		[]string{"Printing: this sheet and the data sheet print; the " + writers.DocsSheetName + " and " + writers.CurvesSheetName + " sheets print only"},
		[]string{"when asked (clear their print range: Format → Print Ranges → Clear, or Page Layout → Print Area)."})
	return out
}

// charts draws the success bound of every ranked release against the
// baseline: the curve of fdp_success as the evaluate package computes it,
// one chart per release with the diagonal b for reference.
func (s *summary) charts() *writers.Charts {
	s.mu.Lock()
	defer s.mu.Unlock()
	bars := s.audits.bars(s.table())
	if s.sheet == nil || len(s.top) == 0 {
		if bars == nil {
			return nil
		}
		return &writers.Charts{Bars: bars}
	}
	grid := make([]float64, curveGrid+1)
	for i := range grid {
		grid[i] = float64(i) / curveGrid
	}
	c := &writers.Charts{
		XTitle: "baseline b",
		YTitle: "success bound 1 − f(b)",
		X:      grid,
		Curves: []writers.Curve{{Name: "no release: b", Y: grid, Reference: true}},
	}
	for i, r := range s.ranked() {
		var y []float64
		var err error
		if r.total != nil {
			y, err = s.sheet.TotalSuccessCurve(r.total, grid)
		} else {
			y, err = s.sheet.SuccessCurve(r.cells, grid)
		}
		if err != nil {
			continue // not a release (cannot happen for a row with fdp_worst_advantage)
		}
		c.Curves = append(c.Curves, writers.Curve{Name: r.name(), Y: y})
		c.Plots = append(c.Plots, writers.Plot{
			Title:  rankText(i) + " " + r.name() + ": fdp_worst_advantage " + significant(r.worst, titleDigits),
			Curves: []int{0, len(c.Curves) - 1},
		})
	}
	c.Bars = bars
	return c
}
