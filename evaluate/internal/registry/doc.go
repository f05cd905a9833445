// Package registry is the registry of riskbatch's output columns: one
// OutputColumn entry per column, in one columns_*.go file per family of
// bounds (fdp, adp, onerun, pmp, gb, fano, the audit columns, the derived
// parameters, datasets and their goal seek). An entry states what the
// column means, its formula, the paper and equation it comes from, what it
// needs and assumes, when it applies (Applies: which mechanisms, which
// inputs ask for it, which it requires), how it rounds, its live
// spreadsheet formula (formula.Form), and the function that computes it
// from a row's typed Release (package resolve).
//
// The same entries drive the evaluation of every row (the evaluator in
// package evaluate goes through a mechanism's Plans), the notes written
// on output headers, the Columns sheet, `riskbatch columns` and the pages
// of docs/ (ColumnsMarkdown, InputColumnsMarkdown, QuestionsMarkdown),
// the headline rule (HeadlineCases) and the selectors of --columns
// (Matches, Papers). Adding a bound is adding one entry here and one
// function in evaluate/bound.
//
// The package knows nothing of the evaluator that runs its entries, of
// datasets' totals beyond their columns, or of files.
package registry
