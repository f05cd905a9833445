package pipeline

import (
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/writers"
)

// workbookOptions are the writer options of a run's output beyond its
// format and sheet name: the Columns sheet, the Summary sheet and its
// charts, live formulas (unless ValuesOnly), the shading of the
// advantage columns (against each row's target_advantage, else
// Threshold, else the default scale), and the columns folded away: the
// output columns that are not answers (see openOutput), and the columns
// empty on every row. Every input column a row fills stays open.
func workbookOptions(o Options, ev *evaluate.Evaluator, sheet *evaluate.SheetBinding, sum *summary) writers.Options {
	threshold := o.Threshold
	opts := writers.Options{Docs: ev.Docs(), Summary: sum.rows, Charts: sum.charts, NumberColumns: sheet.NumberColumns(),
		Outline: &writers.Outline{Columns: sheet.OutputColumns(func(o evaluate.OutputColumn) bool { return !openOutput(o) }), Empty: true}}
	if !o.ValuesOnly {
		opts.Formulas = sheet
		opts.Docs = docsWithWorkbook(ev)
	}
	target := sheet.Field(release.FieldTargetAdvantage)
	opts.Shading = &writers.Shading{Columns: sheet.Advantages(), LimitColumn: target, Limit: threshold, Scale: writers.DefaultScale}
	sum.shading = shadingLegend(target >= 0, threshold, writers.DefaultScale)
	return opts
}

// shadingLegend is the Summary's legend of the shading: the scale of rows
// without a limit, and the row's target_advantage (where the table has the
// column) or --threshold, which override it.
func shadingLegend(hasTarget bool, threshold float64, scale writers.ShadeScale) []string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	lines := []string{"Shading of the advantage columns (" + strings.Join(advantageNames(), ", ") + "):"}
	var others string
	switch {
	case threshold > 0:
		others = "red above --threshold " + num(threshold) + ", amber above half of it, green at or below half"
	default:
		others = "green below " + num(scale.Amber) + ", amber from " + num(scale.Amber) + " to " + num(scale.Red) + ", red above " + num(scale.Red)
	}
	if hasTarget {
		lines = append(lines,
			"a row with target_advantage: red above it, amber above half of it, green at or below half;",
			"a row without: "+others+".")
	} else {
		lines = append(lines, "every row: "+others+" (a target_advantage column sets each row's own limit).")
	}
	return lines
}

// advantageNames are the names of the advantage columns (those shaded).
func advantageNames() []string {
	var names []string
	for _, o := range evaluate.New().Outputs() {
		if o.Sheet.Advantage && openOutput(o) {
			names = append(names, o.Name)
		}
	}
	return append(names, "and the others that bound an advantage")
}

// openOutput reports whether an output column is one the workbook shows
// when it opens, beside the inputs, status, message and headline: the
// columns to quote (evaluate.Questions: the answers), where they have a
// value. The comparisons and the other families fold into collapsed
// outline groups, as do the columns empty on every row.
func openOutput(o evaluate.OutputColumn) bool { return o.Answers != "" }

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
