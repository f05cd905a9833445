package build

import (
	"iter"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// Names of the output tables of a Result.
const (
	PriorsTable      = "priors"      // the prior table: prior, p, targets, …
	FrequenciesTable = "frequencies" // value counts and probabilities
	SummaryTable     = "summary"     // one row per key
)

// OutputTable is one table of a Result, ready for a writers.Writer.
type OutputTable struct {
	Name    string // PriorsTable, FrequenciesTable or SummaryTable
	Columns []table.Column
	// Docs documents the columns and the conventions: a header row
	// ("column", "meaning"), then one row per column and per note, as
	// writers.Options.Docs takes it.
	Docs [][]string
	// Rows yields the rows in order. The slice is reused from one row to
	// the next: copy it to keep it.
	Rows iter.Seq[[]table.Cell]
}

// Outputs returns the tables a Result is written as: the prior table
// (columns prior, p and targets, which a Loader reads, then row, source when
// several tables were read, the known values, best_guess, cell_records and
// warning, which a Loader ignores), the frequency table and the summary.
func (r *Result) Outputs() []OutputTable {
	return []OutputTable{r.priorsTable(), r.frequencyTable(), r.summaryTable()}
}

// knownColumns returns the output names of the known columns, renamed
// "known NAME" when NAME is one of the table's own columns.
func (r *Result) knownColumns(fixed []string) []string {
	taken := map[string]bool{}
	for _, f := range fixed {
		taken[priors.NormalizeName(f)] = true
	}
	out := make([]string, len(r.knownNames))
	for i, n := range r.knownNames {
		for taken[priors.NormalizeName(n)] {
			n = "known " + n
		}
		taken[priors.NormalizeName(n)] = true
		out[i] = n
	}
	return out
}

// appendKnown appends to cols a column per known column, named by
// knownColumns, documented as whose known value of it, and returns them
// with the names.
func (r *Result) appendKnown(cols []table.Column, fixed []string, whose string) ([]table.Column, []string) {
	known := r.knownColumns(fixed)
	for i, k := range known {
		cols = append(cols, outColumn(k, table.Text, table.Input, table.General, whose+" known value of "+strconv.Quote(r.knownNames[i])))
	}
	return cols, known
}

// textOrEmpty is a Text cell, or an empty cell for "".
func textOrEmpty(s string) table.Cell {
	if s == "" {
		return table.Cell{}
	}
	return table.TextCell(s)
}

// putKnown puts the n known values of a row, or n empty cells when vals
// is nil (a marginal).
func putKnown(put func(table.Cell), n int, vals []string) {
	for j := range n {
		if vals != nil {
			put(textOrEmpty(vals[j]))
		} else {
			put(table.Cell{})
		}
	}
}

// column is a shorthand for a documented output column.
func outColumn(name string, kind table.Kind, role table.Role, format table.Format, note string) table.Column {
	return table.Column{Name: name, Kind: kind, Role: role, Format: format, Note: note}
}

// docsOf builds the Docs rows of a table: its columns, then the notes.
func docsOf(cols []table.Column, notes []string) [][]string {
	docs := [][]string{{"column", "meaning"}}
	for _, c := range cols {
		docs = append(docs, []string{c.Name, c.Note})
	}
	for _, n := range notes {
		docs = append(docs, []string{"note", n})
	}
	return docs
}

func (r *Result) priorsTable() OutputTable {
	fixed := []string{"prior", "p", "targets", "row", "source", "best_guess", "cell_records", "warning"}
	multi := len(r.Sources) > 1
	cols := []table.Column{
		outColumn("prior", table.Text, table.Input, table.General, "the key: NAME:TARGET[~E][|GIVEN] (a release row's prior cell names it)"),
		outColumn("p", table.Number, table.Output, table.Probability, "p_i, the target's prior success: max_u P(u | k_i), or the best window's mass (Swanberg et al. 2025, §3.3, §6.4)"),
		outColumn("targets", table.Integer, table.Output, table.Count, "how many targets the row stands for: 1 per record (its count for pre-aggregated input); a marginal's single row stands for all its records"),
		outColumn("row", table.Integer, table.Input, table.Count, "the record's row in the data (empty for a marginal)"),
	}
	if multi {
		cols = append(cols, outColumn("source", table.Text, table.Input, table.General, "the record's file (and sheet)"))
	}
	cols, known := r.appendKnown(cols, fixed, "the record's")
	cols = append(cols,
		outColumn("best_guess", table.Text, table.Output, table.General, "the Bayes-optimal guess for the record (a window as z ± E)"),
		outColumn("cell_records", table.Integer, table.Output, table.Count, "records with the attribute in the record's cell of known values (all records for a marginal)"),
		outColumn("warning", table.Text, table.Message, table.General, "a small-cell warning"),
	)
	rows := func(yield func([]table.Cell) bool) {
		cells := make([]table.Cell, len(cols))
		for _, e := range r.Entries {
			key := table.TextCell(e.Key)
			for rp := range e.PriorRows() {
				i := 0
				put := func(c table.Cell) { cells[i] = c; i++ }
				put(key)
				put(table.NumberCell(rp.P))
				put(table.IntegerCell(rp.Targets))
				if rp.Row > 0 {
					put(table.IntegerCell(int64(rp.Row)))
				} else {
					put(table.Cell{})
				}
				if multi {
					put(textOrEmpty(rp.Source))
				}
				putKnown(put, len(known), rp.Known)
				put(textOrEmpty(rp.Best))
				put(table.IntegerCell(rp.CellRecords))
				put(textOrEmpty(rp.Warning))
				if !yield(cells) {
					return
				}
			}
		}
	}
	return OutputTable{Name: PriorsTable, Columns: cols, Docs: docsOf(cols, r.Notes), Rows: rows}
}

func (r *Result) frequencyTable() OutputTable {
	fixed := []string{"key", "attribute", "given", "value", "count", "probability", "cell_records"}
	cols := []table.Column{
		outColumn("key", table.Text, table.Input, table.General, "the prior's key"),
		outColumn("attribute", table.Text, table.Input, table.General, "the attribute column(s)"),
		outColumn("given", table.Text, table.Input, table.General, "the known columns (empty for a marginal)"),
	}
	cols, known := r.appendKnown(cols, fixed, "the cell's")
	cols = append(cols,
		outColumn("value", table.Text, table.Input, table.General, "a value of the attribute (a joint's values separated by \", \")"),
		outColumn("count", table.Integer, table.Output, table.Count, "records with the value (in the cell)"),
		outColumn("probability", table.Number, table.Output, table.Probability, "P(u) or P(u | k) = (count + α)/(n + α·m), α = the smoothing (0: count/n)"),
		outColumn("cell_records", table.Integer, table.Output, table.Count, "n: the records of the distribution (of the cell)"),
	)
	rows := func(yield func([]table.Cell) bool) {
		cells := make([]table.Cell, len(cols))
		emit := func(e *Entry, knownVals []string, f Frequency, n int64) bool {
			i := 0
			put := func(c table.Cell) { cells[i] = c; i++ }
			put(table.TextCell(e.Key))
			put(table.TextCell(priors.ColumnList(e.Target)))
			put(textOrEmpty(priors.ColumnList(e.Given)))
			putKnown(put, len(known), knownVals)
			put(textOrEmpty(f.Value))
			put(table.IntegerCell(f.Count))
			put(table.NumberCell(f.P))
			put(table.IntegerCell(n))
			return yield(cells)
		}
		for _, e := range r.Entries {
			if e.cond == nil {
				for _, f := range e.marginal {
					if !emit(e, nil, f, e.Records) {
						return
					}
				}
				continue
			}
			var support []Frequency
			var seen map[string]bool
			if e.Smoothed {
				// With smoothing, every value of the support has a
				// probability in every cell: list the unobserved too.
				support = r.marginalOf(e)
				seen = map[string]bool{}
			}
			for d := range e.CellDistributions() {
				for _, f := range d.Values {
					if !emit(e, d.Known, f, d.Records) {
						return
					}
				}
				if support == nil {
					continue
				}
				clear(seen)
				for _, f := range d.Values {
					seen[f.Value] = true
				}
				p0 := smoothedP(0, d.Records, r.Smoothing, e.cond.smoothM)
				for _, f := range support {
					if !seen[f.Value] && !emit(e, d.Known, Frequency{Value: f.Value, P: p0}, d.Records) {
						return
					}
				}
			}
		}
	}
	return OutputTable{Name: FrequenciesTable, Columns: cols, Docs: docsOf(cols, r.Notes), Rows: rows}
}

// marginalOf returns the marginal distribution of a conditional entry's
// attribute (the entry before it with the same target and no known
// columns).
func (r *Result) marginalOf(e *Entry) []Frequency {
	for _, m := range r.Entries {
		if m.cond == nil && m.Window == e.Window && priors.ColumnList(m.Target) == priors.ColumnList(e.Target) {
			return m.marginal
		}
	}
	return nil
}

func (r *Result) summaryTable() OutputTable {
	cols := []table.Column{
		outColumn("key", table.Text, table.Input, table.General, "the prior's key"),
		outColumn("attribute", table.Text, table.Input, table.General, "the attribute column(s)"),
		outColumn("given", table.Text, table.Input, table.General, "the known columns (empty for a marginal)"),
		outColumn("kind", table.Text, table.Input, table.General, "exact (exact match) or window (|x − z| ≤ E)"),
		outColumn("tolerance", table.Number, table.Input, table.Real, "E, for a window"),
		outColumn("records", table.Integer, table.Output, table.Count, "targets: records whose attribute is present"),
		outColumn("missing", table.Integer, table.Output, table.Count, "records whose attribute is missing"),
		outColumn("missing_values", table.Text, table.Input, table.General, "how missing attribute values are treated: left out, or a value of their own"),
		outColumn("support", table.Integer, table.Output, table.Count, "distinct values of the attribute"),
		outColumn("entropy_bits", table.Number, table.Output, table.Real, "H(U) = −Σ P(u) log2 P(u), or H(U | K) = Σ_k P(k) H(U | K = k)"),
		outColumn("baseline", table.Number, table.Output, table.Probability, "the a-priori success: max_u P(u) (marginal), or the population baseline Σ_k n_k p_k / N, the mean p_i (conditional)"),
		outColumn("max_p", table.Number, table.Output, table.Probability, "the largest p_i: the baseline of single-target bounds"),
		outColumn("best_guess", table.Text, table.Output, table.General, "the Bayes-optimal a-priori guess argmax_u P(u) (marginal; a window as z ± E)"),
		outColumn("cells", table.Integer, table.Output, table.Count, "cells (combinations of known values) with records"),
		outColumn("small_cells", table.Integer, table.Output, table.Count, "cells with fewer than min_cell_count records"),
		outColumn("small_cell_records", table.Integer, table.Output, table.Count, "records in those cells"),
		outColumn("min_cell_count", table.Integer, table.Input, table.Count, "the small-cell threshold (empty: no flag)"),
		outColumn("smoothing", table.Number, table.Input, table.Real, "the additive smoothing α (0: none; smoothed p_i are not safe upper bounds, Swanberg et al. 2025, §7.1)"),
		outColumn("zipf_s", table.Number, table.Output, table.Real, "maximum-likelihood Zipf exponent of the ranked frequencies, p(r) = r^−s/H_{N,s} (Swanberg et al. 2025, §5.1)"),
		outColumn("zipf_domain", table.Number, table.Output, table.Count, "N of the Zipf fit"),
		outColumn("zipf_domain_source", table.Text, table.Input, table.General, "observed (distinct values) or stated"),
		outColumn("zipf_ks", table.Number, table.Output, table.Real, "Kolmogorov–Smirnov distance between the empirical and fitted rank CDFs"),
		outColumn("zipf_p_top", table.Number, table.Output, table.Probability, "1/H_{N,s}: the fitted probability of rank 1"),
		outColumn("warnings", table.Text, table.Message, table.General, "small cells, ties, missing fits"),
	}
	missing := "left out"
	if r.MissingAsValue {
		missing = "a value"
	}
	rows := func(yield func([]table.Cell) bool) {
		cells := make([]table.Cell, len(cols))
		for _, e := range r.Entries {
			i := 0
			put := func(c table.Cell) { cells[i] = c; i++ }
			num := func(x float64, ok bool) {
				if ok {
					put(table.NumberCell(x))
				} else {
					put(table.Cell{})
				}
			}
			put(table.TextCell(e.Key))
			put(table.TextCell(priors.ColumnList(e.Target)))
			put(textOrEmpty(priors.ColumnList(e.Given)))
			if e.Window {
				put(table.TextCell("window"))
			} else {
				put(table.TextCell("exact"))
			}
			num(e.Tolerance, e.Window)
			put(table.IntegerCell(e.Records))
			put(table.IntegerCell(e.Missing))
			put(table.TextCell(missing))
			put(table.IntegerCell(int64(e.Support)))
			has := e.Records > 0
			num(e.EntropyBits, has)
			num(e.Baseline, has)
			num(e.MaxP, has)
			put(textOrEmpty(e.BestGuess))
			if e.cond != nil {
				put(table.IntegerCell(int64(e.Cells)))
				put(table.IntegerCell(int64(e.SmallCells)))
				put(table.IntegerCell(e.SmallCellRecords))
			} else {
				put(table.Cell{})
				put(table.Cell{})
				put(table.Cell{})
			}
			if e.cond != nil && r.MinCellCount > 0 {
				put(table.IntegerCell(int64(r.MinCellCount)))
			} else {
				put(table.Cell{})
			}
			if e.Window {
				put(table.Cell{})
			} else {
				put(table.NumberCell(r.Smoothing))
			}
			if z := e.Zipf; z != nil {
				put(table.NumberCell(z.S))
				put(table.NumberCell(z.N))
				if z.Observed {
					put(table.TextCell("observed"))
				} else {
					put(table.TextCell("stated"))
				}
				put(table.NumberCell(z.KS))
				put(table.NumberCell(z.PTop))
			} else {
				for range 5 {
					put(table.Cell{})
				}
			}
			put(textOrEmpty(strings.Join(e.Warnings, "; ")))
			if !yield(cells) {
				return
			}
		}
	}
	return OutputTable{Name: SummaryTable, Columns: cols, Docs: docsOf(cols, r.Notes), Rows: rows}
}
