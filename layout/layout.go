// Package layout is the shape of riskbatch's output table and the placing of
// each input row in it: the union of the input tables' columns, a source
// column when there are several tables, then the evaluator's status, message
// and bound columns. The command line and the Beam pipeline share it, so a
// row gets the same output cells whichever of them evaluates it.
package layout

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// Source is what the layout needs to know of an input table: where it comes
// from and its header. readers.Table satisfies it.
type Source = table.Source

// decimalCommaSource is a Source whose form may suggest decimal commas in
// its numbers: readers' CSV and TSV tables, for a semicolon-delimited file.
type decimalCommaSource interface {
	DecimalComma() bool
}

// suggestedMark is the decimal mark a source's form suggests.
func suggestedMark(s Source) evaluate.DecimalMark {
	if d, ok := s.(decimalCommaSource); ok && d.DecimalComma() {
		return evaluate.DecimalComma
	}
	return evaluate.DecimalUnknown
}

// SourceName is the text of the source column for a table: the file's path
// as given, followed by ":" and the sheet name for a workbook sheet.
func SourceName(s Source) string {
	if s.Sheet() != "" {
		return s.File() + ":" + s.Sheet()
	}
	return s.File()
}

// Layout is the output table's shape for a list of input tables. Input
// columns are matched across tables by meaning when the evaluator's
// vocabulary knows their header (epsilon and ε are one column), by their
// trimmed header otherwise; a header repeated within one table keeps one
// output column per occurrence. Columns a previous run appended (status,
// message and the bounds) are dropped from the input side and recomputed.
// A Layout is read-only after New and safe for concurrent use.
type Layout struct {
	header   []table.Column
	inputs   int // number of input-side columns, source included
	source   int // index of the source column, or -1
	bindings []*evaluate.Binding
	mapping  [][]int // per table: its column i goes to output column mapping[t][i] (-1: dropped)
	origins  [][]int // per table: output column j comes from its column origins[t][j] (-1: none)
	// full is per table whether its columns fill every input-side
	// column but the source: then a row with a cell per column of the
	// table overwrites the whole input side, and placing it need not
	// clear it first.
	full []bool
}

// New builds the layout of the output of tables, in order, evaluated by ev.
// There is a source column when there are two tables or more. A table whose
// header names one input twice is an error, a *table.Error positioned on
// the header row (and on the second of the two columns).
func New(ev *evaluate.Evaluator, tables []Source) (*Layout, error) {
	lay := &Layout{source: -1}
	index := map[string]int{}
	// Columns a previous run appended (status, message, the bounds) are
	// recomputed, not passed through: evaluating riskbatch's own output
	// after editing an input gives the same layout again.
	// Every registered column counts, selected or not (--columns).
	computed := map[string]bool{}
	for _, name := range ev.Registered() {
		computed[release.CanonicalName(name)] = true
	}
	for _, t := range tables {
		b, err := ev.BindSource(t.File(), t.Columns(), suggestedMark(t))
		if err != nil {
			pos := table.Position{File: t.File(), Sheet: t.Sheet(), Row: 1, Column: -1}
			var dup *release.DuplicateColumnError
			if errors.As(err, &dup) {
				pos.Column, pos.ColumnName = dup.Again, dup.AgainName
			}
			return nil, &table.Error{Pos: pos, Err: err}
		}
		lay.bindings = append(lay.bindings, b)
		seen := map[string]int{}
		m := make([]int, len(t.Columns()))
		for i, c := range t.Columns() {
			if computed[release.CanonicalName(c.Name)] {
				m[i] = -1
				continue
			}
			key := "header:" + strings.TrimSpace(c.Name)
			if f, ok := ev.Vocabulary().Lookup(c.Name); ok {
				key = fmt.Sprintf("field:%d", f)
			}
			seen[key]++
			if n := seen[key]; n > 1 {
				key = fmt.Sprintf("%s#%d", key, n)
			}
			j, ok := index[key]
			if !ok {
				j = len(lay.header)
				index[key] = j
				lay.header = append(lay.header, table.Column{Name: c.Name, Kind: c.Kind, Role: table.Input, Source: c.Source})
			} else {
				if lay.header[j].Kind != c.Kind {
					lay.header[j].Kind = table.Empty // mixed kinds: written as text
				}
				if !sameSource(lay.header[j].Source, c.Source) {
					lay.header[j].Source = nil // typed by its kind
				}
			}
			m[i] = j
		}
		lay.mapping = append(lay.mapping, m)
	}
	if len(tables) > 1 {
		lay.source = len(lay.header)
		lay.header = append(lay.header, table.Column{Name: "source", Kind: table.Text, Role: table.Input, Note: "the file (and sheet) the row comes from"})
	}
	lay.inputs = len(lay.header)
	lay.header = append(lay.header, ev.Columns()...)
	for _, m := range lay.mapping {
		o := make([]int, len(lay.header))
		for j := range o {
			o[j] = -1
		}
		for i, j := range m {
			if j >= 0 {
				o[j] = i
			}
		}
		lay.origins = append(lay.origins, o)
		unmapped := 0
		for j, i := range o[:lay.inputs] {
			if i < 0 && j != lay.source {
				unmapped++
			}
		}
		lay.full = append(lay.full, unmapped == 0)
	}
	return lay, nil
}

// Header returns the output columns: the input side (source included), then
// status, message and the bounds. The caller must not modify it.
func (lay *Layout) Header() []table.Column { return lay.header }

// Width is the number of cells of an output row, len(Header()).
func (lay *Layout) Width() int { return len(lay.header) }

// Inputs is the number of input-side columns, the source column included:
// the status is output column Inputs() and the message Inputs()+1.
func (lay *Layout) Inputs() int { return lay.inputs }

// SourceColumn is the index of the source column, or -1 when there is
// none (a single table).
func (lay *Layout) SourceColumn() int { return lay.source }

// Origins returns, for each output column, the 0-based column of table
// tableNo its cells come from, or -1 (the source column, the evaluator's
// columns, and input columns the table does not have): where a row's
// input cells stood, for a writer that keeps their formulas. The caller
// must not modify it.
func (lay *Layout) Origins(tableNo int) []int { return lay.origins[tableNo] }

// Binding returns the evaluator's binding of table tableNo's columns, the
// one Row evaluates its rows with.
func (lay *Layout) Binding(tableNo int) *evaluate.Binding { return lay.bindings[tableNo] }

// Mapping returns, for each column of table tableNo, the output column
// its cells go to, or -1 (a column dropped: one riskbatch computes). The
// caller must not modify it.
func (lay *Layout) Mapping(tableNo int) []int { return lay.mapping[tableNo] }

// PlaceSource writes source in out's source column, if there is one, as
// Place does.
func (lay *Layout) PlaceSource(source string, out []table.Cell) {
	if lay.source >= 0 {
		out[lay.source] = table.TextCell(source)
	}
}

// Place writes the input side of an output row into out (Width() cells):
// the cells of a row of table tableNo (its index in the list given to New)
// under their output columns, and source in the source column if there is
// one. Every other cell of out is cleared. Cells beyond the table's header
// are dropped.
func (lay *Layout) Place(tableNo int, source string, cells []table.Cell, out []table.Cell) {
	clear(out[lay.inputs:])
	lay.PlaceInputs(tableNo, source, cells, out)
}

// PlaceInputs is Place for the input side alone: out[:Inputs()] is
// filled as Place fills it, and the cells after it are left as they are,
// for a caller whose out already holds there what it wants (a recycled
// row whose evaluator's cells are still empty). An input-side cell the
// row does not fill is cleared; when the row has a cell for every column
// of a table that fills the whole input side, none needs to be.
func (lay *Layout) PlaceInputs(tableNo int, source string, cells []table.Cell, out []table.Cell) {
	m := lay.mapping[tableNo]
	if !lay.full[tableNo] || len(cells) < len(m) {
		clear(out[:lay.inputs])
	}
	for j, c := range cells {
		if j < len(m) && m[j] >= 0 {
			out[m[j]] = c
		}
	}
	lay.PlaceSource(source, out)
}

// Row fills out (Width() cells) with the output row of one input row of
// table tableNo and returns its status. readErr is the error the reader
// returned with the row, if any: the row is then kept as an error row
// whose message is readErr's text, with the cells that could be read.
// Otherwise the row is evaluated (evaluate.Binding.Evaluate) and its bounds,
// status and message are written after the input side.
func (lay *Layout) Row(tableNo int, source string, cells []table.Cell, readErr error, out []table.Cell) evaluate.Status {
	// Evaluate writes every cell after the input side (an output row is
	// about 5 KB of cells, cleared once, not twice).
	lay.PlaceInputs(tableNo, source, cells, out)
	return lay.Evaluate(tableNo, cells, readErr, out)
}

// Evaluate is Row for the cells after the input side alone: out[Inputs():]
// is filled as Row fills it and the input side is left as it is, for a
// caller that fills it its own way (the Parquet writer takes input columns
// as Arrow arrays). cells are the row's cells, of which the evaluator
// reads those of Binding(tableNo).InputColumns().
func (lay *Layout) Evaluate(tableNo int, cells []table.Cell, readErr error, out []table.Cell) evaluate.Status {
	if readErr != nil {
		clear(out[lay.inputs:])
		out[lay.inputs] = table.TextCell(string(evaluate.StatusError))
		out[lay.inputs+1] = table.TextCell(readErr.Error())
		return evaluate.StatusError
	}
	return lay.bindings[tableNo].Evaluate(cells, out[lay.inputs:])
}

// EvaluateNumbers is Evaluate with the bound columns' values written to
// nums as numbers (evaluate.Binding.EvaluateNumbers): head
// (evaluate.HeadWidth cells) takes the status, the message and the
// headline, nums (Width() − Inputs() − evaluate.HeadWidth values) the
// bounds, NaN for an empty one.
func (lay *Layout) EvaluateNumbers(tableNo int, cells []table.Cell, readErr error, head []table.Cell, nums []float64) evaluate.Status {
	if readErr != nil {
		clear(head)
		head[0] = table.TextCell(string(evaluate.StatusError))
		head[1] = table.TextCell(readErr.Error())
		for k := range nums {
			nums[k] = math.NaN()
		}
		return evaluate.StatusError
	}
	return lay.bindings[tableNo].EvaluateNumbers(cells, head, nums)
}

// EvaluateMember is Evaluate of a row of a run that composes each
// dataset group as its rows are written (rows sorted by dataset), with the
// row's group member read from the same resolution of the row
// (evaluate.Binding.EvaluateMember); where names the row in messages.
func (lay *Layout) EvaluateMember(tableNo int, cells []table.Cell, readErr error, out []table.Cell, where string) (evaluate.Status, evaluate.Member) {
	b := lay.bindings[tableNo]
	if readErr != nil {
		return lay.Evaluate(tableNo, cells, readErr, out), b.Member(cells, readErr, where)
	}
	return b.EvaluateMember(cells, out[lay.inputs:], where)
}

// sameSource reports whether two columns' source types are the same: both
// none, equal by their Fingerprint (an arrow.DataType's identity), or
// equal comparable values.
func sameSource(a, b any) bool {
	type fingerprinter interface{ Fingerprint() string }
	if fa, ok := a.(fingerprinter); ok {
		fb, ok := b.(fingerprinter)
		return ok && fa.Fingerprint() == fb.Fingerprint()
	}
	if a == nil || b == nil {
		return a == b
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta.Comparable() && a == b
}
