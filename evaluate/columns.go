package evaluate

import "github.com/riskbatch/riskbatch/evaluate/internal/registry"

// The registry of output columns (package registry) as a program sees it:
// each column's description, when it applies, the papers and the
// questions the columns answer, and the headline rule.

// OutputColumn describes one computed column: what it means, the formula,
// the paper and equation it comes from, what it needs (registry.OutputColumn).
type OutputColumn = registry.OutputColumn

// Applies says when an output column is filled (registry.Applies).
type Applies = registry.Applies

// Paper is one of the five papers the columns come from (registry.Paper).
type Paper = registry.Paper

// Papers lists the papers in ID order.
func Papers() []Paper { return registry.Papers() }

// PaperSelector reads a paper selector (seed003, seed 3, seed-003) into
// the paper's ID.
func PaperSelector(sel string) (string, bool) { return registry.PaperSelector(sel) }

// CitedAuthors returns the surnames a citation names.
func CitedAuthors(citation string) []string { return registry.CitedAuthors(citation) }

// Group is a name that selects several output columns: a family or a
// paper (registry.Group).
type Group = registry.Group

// SelectError is the error of a selector that matches no column.
type SelectError = registry.SelectError

// Question is a question the output columns answer (registry.Question).
type Question = registry.Question

// Questions lists the questions and the column that answers each.
func Questions() []Question { return registry.Questions() }

// A Headline is a row's headline: the value of Column and what it says.
type Headline = registry.Headline

// The headline columns and their notes.
const (
	HeadlineColumn     = registry.HeadlineColumn
	HeadlineSaysColumn = registry.HeadlineSaysColumn
	HeadlineMeaning    = registry.HeadlineMeaning
	HeadlineSaysNote   = registry.HeadlineSaysNote
	MaxHeadlineSays    = registry.MaxHeadlineSays
)

// HeadlineRule states the rule that picks a row's headline.
func HeadlineRule() string { return registry.HeadlineRule() }

// HeadlineNote is the header note of the headline column.
func HeadlineNote() string { return registry.HeadlineNote() }

// DatasetWorstAdvantage names the output column that marks every row of a
// dataset group with its total's fdp_worst_advantage.
const DatasetWorstAdvantage = registry.DatasetWorstAdvantage

// ColumnsMarkdown is the table of output columns of docs/outputs.md.
func ColumnsMarkdown() string { return registry.ColumnsMarkdown() }

// InputColumnsMarkdown is the table of input columns of docs/inputs.md.
func InputColumnsMarkdown() string { return registry.InputColumnsMarkdown() }

// QuestionsMarkdown is the table of questions of docs/outputs.md.
func QuestionsMarkdown() string { return registry.QuestionsMarkdown() }
