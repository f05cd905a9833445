package main

import (
	"container/heap"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/table"
)

// summary gathers, while the rows are written, what the workbook's Summary
// sheet shows: how many rows are ok, partial or in error, and the riskiest
// releases by their baseline-free bound. Memory is bounded by the number of
// releases it ranks.
type summary struct {
	mu       sync.Mutex
	counts   statusCounts
	top      riskHeap
	keep     int
	worst    int // output index of fdp_worst_advantage
	success  int // output index of fdp_success
	label    int // output index of the id column, or -1
	statusAt int
}

// topReleases is how many of the riskiest releases the Summary lists.
const topReleases = 20

type risky struct {
	worst, success float64
	hasSuccess     bool
	label          string
	seq            int // the row's place in the output (1-based, header excluded)
}

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

func newSummary(lay *layout, ev *evaluate.Evaluator) *summary {
	s := &summary{counts: statusCounts{}, keep: topReleases, label: -1, statusAt: lay.inputs}
	for i, c := range lay.header {
		switch {
		case i < lay.inputs:
			if f, ok := ev.Vocabulary().Lookup(c.Name); ok && f == evaluate.FieldID && s.label < 0 {
				s.label = i
			}
		case c.Name == "fdp_worst_advantage":
			s.worst = i
		case c.Name == "fdp_success":
			s.success = i
		}
	}
	return s
}

// add records one written row.
func (s *summary) add(seq int, cells []table.Cell, st evaluate.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[st]++
	w := cells[s.worst]
	if w.Kind != table.Number {
		return
	}
	r := risky{worst: w.Num, seq: seq}
	if c := cells[s.success]; c.Kind == table.Number {
		r.success, r.hasSuccess = c.Num, true
	}
	if s.label >= 0 {
		r.label = cells[s.label].String()
	}
	if len(s.top) < s.keep {
		heap.Push(&s.top, r)
	} else if r.worst > s.top[0].worst {
		s.top[0] = r
		heap.Fix(&s.top, 0)
	}
}

// rows is the Summary sheet.
func (s *summary) rows() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := [][]string{
		{"riskbatch summary", ""},
		{"rows", strconv.Itoa(s.counts.total())},
		{"ok", strconv.Itoa(s.counts[evaluate.StatusOK])},
		{"partial (some bounds empty; see message)", strconv.Itoa(s.counts[evaluate.StatusPartial])},
		{"error (row rejected; see message)", strconv.Itoa(s.counts[evaluate.StatusError])},
		{"", ""},
		{fmt.Sprintf("The %d riskiest releases by fdp_worst_advantage (the baseline-free bound):", len(s.top)), ""},
		{"rank", "id", "row", "fdp_worst_advantage", "fdp_success"},
	}
	top := append(riskHeap(nil), s.top...)
	sort.SliceStable(top, func(i, j int) bool {
		if top[i].worst != top[j].worst {
			return top[i].worst > top[j].worst
		}
		return top[i].seq < top[j].seq
	})
	for i, r := range top {
		succ := ""
		if r.hasSuccess {
			succ = strconv.FormatFloat(r.success, 'g', -1, 64)
		}
		out = append(out, []string{strconv.Itoa(i + 1), r.label, strconv.Itoa(r.seq + 1), strconv.FormatFloat(r.worst, 'g', -1, 64), succ})
	}
	return out
}
