package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/editdist"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// inputColumns is, for each input field an output has a column of, the
// index of its first such column in the output row (a field whose tables
// name it by different headers has one column per header: the first
// stands for it).
type inputColumns map[release.Field]int

// newInputColumns finds the input fields' columns of an output laid out
// as lay.
func newInputColumns(lay *layout.Layout, ev *evaluate.Evaluator) inputColumns {
	at := inputColumns{}
	for j, c := range lay.Header()[:lay.Inputs()] {
		if f, ok := ev.Vocabulary().Lookup(c.Name); ok {
			if _, dup := at[f]; !dup {
				at[f] = j
			}
		}
	}
	return at
}

// of returns the output index of field f's column, or -1 where the output
// has none.
func (at inputColumns) of(f release.Field) int {
	if j, ok := at[f]; ok {
		return j
	}
	return -1
}

// outputColumn returns the index in the output row of the computed column
// named name, or -1 where it is not among the output's (--columns).
func outputColumn(lay *layout.Layout, name string) int {
	i := slices.IndexFunc(lay.Header()[lay.Inputs():], func(c table.Column) bool { return c.Name == name })
	if i < 0 {
		return -1
	}
	return lay.Inputs() + i
}

// unknownColumn is a header riskbatch does not know: its column passes
// through unchanged and no bound reads it.
type unknownColumn struct {
	name    string // the header as written ("" for a column without a name)
	letter  string // the column's letter, for a column without a name
	closest string // the known input column it most looks like, or ""
}

// label is how messages name the column.
func (u unknownColumn) label() string {
	if strings.TrimSpace(u.name) == "" {
		return "column " + u.letter + " (no header)"
	}
	return u.name
}

// headerVocabulary tells known headers from unknown ones and finds the
// known input column an unknown header most looks like.
type headerVocabulary struct {
	ev     *evaluate.Evaluator
	own    map[string]bool   // canonical names of the columns riskbatch writes itself
	names  []string          // input column names and aliases
	column map[string]string // a name or alias → the column's name
}

// noteColumn is the free-text column of the workbook `riskbatch template`
// writes (and of the sample): riskbatch's own pass-through column, which
// no warning needs to name.
const noteColumn = "note"

func newHeaderVocabulary(ev *evaluate.Evaluator) *headerVocabulary {
	// source is the column riskbatch writes for several inputs; note, its
	// template's free-text column.
	v := &headerVocabulary{ev: ev, own: map[string]bool{"source": true, noteColumn: true}, column: map[string]string{}}
	for _, name := range ev.Registered() {
		v.own[release.CanonicalName(name)] = true
	}
	for _, c := range ev.Vocabulary().Columns() {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			v.names = append(v.names, n)
			v.column[n] = c.Name
		}
	}
	return v
}

// known reports whether riskbatch reads or writes a column of this header.
func (v *headerVocabulary) known(header string) bool {
	_, ok := v.ev.Vocabulary().Lookup(header)
	return ok || v.own[release.CanonicalName(header)]
}

// suggest returns the known input column a header most looks like.
func (v *headerVocabulary) suggest(header string) string {
	if strings.TrimSpace(header) == "" {
		return ""
	}
	if s := editdist.Closest(header, v.names, 1); len(s) > 0 {
		return v.column[s[0]]
	}
	return ""
}

// unknownColumns returns the columns of a header that riskbatch does not
// know, in order, when the header also names at least one column it knows
// (a table with no known column at all is another matter: nothing of it
// can be evaluated).
func (v *headerVocabulary) unknownColumns(cols []table.Column) []unknownColumn {
	var unknown []unknownColumn
	anyKnown := false
	for i, c := range cols {
		if v.known(c.Name) {
			anyKnown = true
			continue
		}
		unknown = append(unknown, unknownColumn{name: c.Name, letter: table.ColumnLetter(i), closest: v.suggest(c.Name)})
	}
	if !anyKnown {
		return nil
	}
	return unknown
}

// maxListedColumns is the number of unknown columns a warning names.
const maxListedColumns = 12

// unknownColumnsWarning is the line that names a table's unknown columns
// ("releases.csv: 3 columns are not known and pass through unchanged:
// epsln (did you mean epsilon?), dlta (delta?), baselin (baseline?)"), or
// "" when there are none.
func unknownColumnsWarning(source string, unknown []unknownColumn) string {
	if len(unknown) == 0 {
		return ""
	}
	var b strings.Builder
	if len(unknown) == 1 {
		fmt.Fprintf(&b, "%s: 1 column is not known and passes through unchanged: ", source)
	} else {
		fmt.Fprintf(&b, "%s: %d columns are not known and pass through unchanged: ", source, len(unknown))
	}
	asked := false
	for i, u := range unknown {
		if i == maxListedColumns {
			fmt.Fprintf(&b, " and %d more", len(unknown)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(u.label())
		if u.closest == "" {
			continue
		}
		if !asked {
			fmt.Fprintf(&b, " (did you mean %s?)", u.closest)
			asked = true
		} else {
			fmt.Fprintf(&b, " (%s?)", u.closest)
		}
	}
	return b.String()
}

// UnknownColumns returns one line for each table with columns that ev
// neither reads nor writes when the table has columns it knows too
// ("releases.csv: 3 columns are not known and pass through unchanged:
// epsln (did you mean epsilon?), dlta (delta?), baselin (baseline?)"). A
// misspelt header must never pass silently: the command prints these
// lines even with --quiet, and the workbook notes each such header cell.
func UnknownColumns(ev *evaluate.Evaluator, tables []readers.Table) []string {
	v := newHeaderVocabulary(ev)
	var lines []string
	for _, t := range tables {
		if line := unknownColumnsWarning(layout.SourceName(t), v.unknownColumns(t.Columns())); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// noteUnknownColumns returns the output header with a note on each input
// column riskbatch does not know, which the workbook shows on its header
// cell. The layout's header is not modified.
func noteUnknownColumns(v *headerVocabulary, header []table.Column, inputs int) []table.Column {
	out := append([]table.Column(nil), header...)
	for i := range out[:inputs] {
		c := &out[i]
		if c.Note != "" || v.known(c.Name) {
			continue // riskbatch's own source column has its note
		}
		c.Note = "riskbatch does not know this column: it passes through unchanged and no bound reads it."
		if s := v.suggest(c.Name); s != "" {
			c.Note += " Did you mean " + s + "?"
		}
	}
	return out
}
