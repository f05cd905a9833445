package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// Groups returns the groups of the evaluator's output columns: the
// families in output order, then the papers in ID order. A group with no
// column is left out.
func (e *Evaluator) Groups() []registry.Group {
	var groups []registry.Group
	add := func(name, kind, column string) {
		for i := range groups {
			if groups[i].Name == name && groups[i].Kind == kind {
				groups[i].Columns = append(groups[i].Columns, column)
				return
			}
		}
		groups = append(groups, registry.Group{Name: name, Kind: kind, Columns: []string{column}})
	}
	for i := range e.outputs {
		if f := e.outputs[i].Family; f != "" {
			add(f, "family", e.outputs[i].Name)
		}
	}
	for _, p := range registry.Papers() {
		for i := range e.outputs {
			if e.outputs[i].PaperID() == p.ID {
				add(p.ID, "paper", e.outputs[i].Name)
			}
		}
	}
	return groups
}

// Select returns an evaluator that computes and writes only the output
// columns matching one of the selectors (see Matches), in registry order,
// after status, message, headline and headline_says, which every row has
// (and which a selector may name: headline or headline_says selects the
// columns the headline rule reads, so that the headline is the one the
// full output has; without them it quotes the selected columns only, or
// none). The columns left out are not computed: a row's status and message
// speak only of the columns selected, so a row that lacks an input only
// a column left out needs stays ok. A cell that cannot be read is still
// an error of its row, whatever is selected: no input is ignored. The new
// evaluator shares e's caches. A selector that matches nothing is a
// *SelectError.
func (e *Evaluator) Select(selectors ...string) (*Evaluator, error) {
	keep := make([]bool, len(e.outputs))
	var unmatched []string
	for _, sel := range selectors {
		hit := false
		switch release.CanonicalName(sel) {
		case "status", "message":
			hit = true
		case registry.HeadlineColumn, registry.HeadlineSaysColumn:
			// The headline is the full output's when the columns its
			// rule reads are computed.
			for _, c := range registry.HeadlineCases() {
				for _, name := range c.Columns {
					for i := range e.outputs {
						if e.outputs[i].Name == name {
							keep[i] = true
						}
					}
				}
			}
			hit = true
		}
		for i := range e.outputs {
			if e.outputs[i].Matches(sel) {
				keep[i], hit = true, true
			}
		}
		if !hit {
			unmatched = append(unmatched, sel)
		}
	}
	if len(unmatched) > 0 {
		return nil, &registry.SelectError{Selectors: unmatched}
	}
	s := *e
	s.all = e.everyColumn()
	s.outputs = nil
	for i, o := range e.outputs {
		if keep[i] {
			s.outputs = append(s.outputs, o)
		}
	}
	s.plans = registry.NewPlans(s.outputs)
	s.headlines = registry.HeadlineSteps(s.outputs)
	s.unused = registry.SelectedUnused(e.unused, s.outputs)
	return &s, nil
}

// Registered returns the names of every output column of the registry,
// selected or not, with status and message: the columns a previous run of
// riskbatch may have written.
func (e *Evaluator) Registered() []string {
	names := []string{"status", "message", registry.HeadlineColumn, registry.HeadlineSaysColumn}
	for _, o := range registry.OutputColumns(e.rows.Confidences()) {
		names = append(names, o.Name)
	}
	return names
}

// everyColumn returns the evaluator of every registered column: e, or the
// one Select made e from.
func (e *Evaluator) everyColumn() *Evaluator {
	if e.all != nil {
		return e.all
	}
	return e
}
