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

// The headline columns and their notes.
const (
	HeadlineColumn     = registry.HeadlineColumn
	HeadlineSaysColumn = registry.HeadlineSaysColumn
	MaxHeadlineSays    = registry.MaxHeadlineSays
)

// The goal-seek columns: the value solved for a dataset's unknown, and the
// factor on all its noise that meets its target.
const (
	SolvedValue       = registry.SolvedValue
	DatasetNoiseScale = registry.DatasetNoiseScale
)
