package pipeline

import (
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/writers"
)

// workbookOptions are the writer options of a run's output beyond its
// format and sheet name: the Columns sheet, the Summary sheet and its
// charts, live formulas (unless ValuesOnly), the shading of the
// advantage columns against each row's target_advantage and --threshold,
// and the columns folded away (all outputs but the headline ones, and the
// empty columns).
func workbookOptions(o Options, ev *evaluate.Evaluator, sheet *evaluate.SheetBinding, sum *summary) writers.Options {
	threshold := o.Threshold
	opts := writers.Options{Docs: ev.Docs(), Summary: sum.rows, Charts: sum.charts, NumberColumns: sheet.NumberColumns(),
		Outline: &writers.Outline{Columns: sheet.OutputColumns(func(o evaluate.OutputColumn) bool { return !headline(o.Name) }), Empty: true, SparseInputs: true}}
	if !o.ValuesOnly {
		opts.Formulas = sheet
		opts.Docs = docsWithWorkbook(ev)
	}
	target := sheet.Field(evaluate.FieldTargetAdvantage)
	if threshold > 0 || target >= 0 {
		opts.Shading = &writers.Shading{Columns: sheet.Advantages(), LimitColumn: target, Limit: threshold}
		limit := "the row's target_advantage"
		switch {
		case target >= 0 && threshold > 0:
			limit += " (or --threshold " + strconv.FormatFloat(threshold, 'g', -1, 64) + " where it is empty)"
		case target < 0:
			limit = "--threshold " + strconv.FormatFloat(threshold, 'g', -1, 64)
		}
		sum.shading = []string{"Shading: the advantage columns are red above " + limit + ",", "amber above half of it, green at or below half."}
	}
	return opts
}

// headline reports whether an output column is one the workbook shows
// when it opens, beside the inputs, status and message: the bounds the
// README's worked example reads (success and advantage at the row's
// baseline, the baseline-free worst case, the standard (ε, δ) bound, the
// one-run advantage and the largest ε that keeps it within
// target_advantage). The other outputs fold into collapsed outline groups,
// as do the columns empty on every row.
func headline(name string) bool {
	switch name {
	case "fdp_success", "fdp_advantage", "fdp_worst_advantage", "adp_advantage", "onerun_advantage", "onerun_eps_protect":
		return true
	}
	return false
}

// docsWithWorkbook is the Columns sheet with a last column saying how each
// output column is written in the workbook: a live formula (on which rows)
// or a value.
func docsWithWorkbook(ev *evaluate.Evaluator) [][]string {
	docs := ev.Docs()
	form := map[string]string{}
	for _, o := range ev.Outputs() {
		form[o.Name] = strings.TrimPrefix(o.Sheet.Describe(), "In the workbook: ")
	}
	for i, row := range docs {
		cell := ""
		switch {
		case i == 0:
			cell = "in the workbook"
		case len(row) > 0:
			cell = form[row[0]]
		}
		docs[i] = append(row, cell)
	}
	return docs
}
