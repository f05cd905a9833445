package pipeline

import (
	"strconv"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/table"
)

// addGroup lists a dataset's total on the Summary sheet: its dataset, its
// rows (all, and those composed), its fdp_worst_advantage and its goal
// seek (the target, what the total achieves, the value solved; empty
// without one). The list has one line per dataset (memory per group, as
// the totals).
func (s *summary) addGroup(t *evaluate.Total, goal [3]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	worst := ""
	if c := t.WorstAdvantage(); c.Kind == table.Number {
		worst = strconv.FormatFloat(c.Num, 'g', -1, 64)
	}
	s.groups = append(s.groups, []string{t.Dataset, strconv.Itoa(t.Rows), strconv.Itoa(t.Composed), worst, goal[0], goal[1], goal[2]})
	if s.totals == nil {
		s.totals = map[string]*evaluate.Total{}
	}
	s.totals[t.Dataset] = t
}

// groupRows are the Summary's lines on the dataset totals: none when the
// input has no dataset column.
func (s *summary) groupRows() [][]string {
	if len(s.groups) == 0 {
		return nil
	}
	out := [][]string{{""},
		{"Datasets: the rows of each dataset composed into one total row (status total) after the input's rows:"},
		{"dataset", "rows", "composed", "fdp_worst_advantage", "target", "achieved", "solved"}}
	goals := false
	for _, g := range s.groups {
		goals = goals || g[4] != ""
	}
	if !goals { // no dataset has a target: no goal-seek columns
		out[2] = out[2][:4]
		for _, g := range s.groups {
			out = append(out, g[:4])
		}
		return out
	}
	return append(out, s.groups...)
}
