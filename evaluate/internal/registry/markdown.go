package registry

import (
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// The summaries of status and message in the column table of docs/outputs.md.
const (
	statusBrief  = "`ok` (every bound that applies is computed), `partial` (an input the row could have had is missing; `message` says which) or `error` (row rejected)"
	messageBrief = "what to act on, in one sentence of at most 160 characters, naming the column"
	// headlineBrief summarises the headline rule (HeadlineRule).
	headlineBrief = "the one number to quote for the row, and one sentence (at most 120 characters) saying what it means: with `target_advantage` the ε or noise that meets it, with a baseline the success bound there, otherwise the worst case over baselines; none on error rows"
)

// ColumnsMarkdown returns the manual's table of output columns, made from
// the registry in output order: status, message, then one row per output
// column, or per run of columns that share a summary (OutputColumn.Brief
// and Source). A column without a summary gets its meaning and citation.
// A test keeps docs/outputs.md equal to it.
func ColumnsMarkdown() string {
	var b strings.Builder
	b.WriteString("| column | meaning | source |\n|---|---|---|\n")
	row := func(names []string, meaning, source string) {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = "`" + n + "`"
		}
		b.WriteString("| " + strings.Join(quoted, ", ") + " | " + markdownCell(meaning) + " |")
		if source != "" {
			b.WriteString(" " + markdownCell(source) + " |")
		} else {
			b.WriteString(" |") // as an empty cell is written by hand
		}
		b.WriteString("\n")
	}
	row([]string{"status"}, statusBrief, "")
	row([]string{"message"}, messageBrief, "")
	row([]string{HeadlineColumn, HeadlineSaysColumn}, headlineBrief, "")
	cols := OutputColumns([]float64{resolve.DefaultConfidence})
	for i := 0; i < len(cols); {
		meaning, source := cols[i].Brief, cols[i].Source
		if meaning == "" {
			meaning, source = cols[i].Meaning, cols[i].Citation
		}
		names := []string{cols[i].Name}
		answers, comparisons := cols[i].Answers != "", cols[i].ComparisonOf != ""
		j := i + 1
		for ; j < len(cols) && cols[i].Brief != "" && cols[j].Brief == cols[i].Brief && cols[j].Source == cols[i].Source; j++ {
			names = append(names, cols[j].Name)
			answers = answers && cols[j].Answers != ""
			comparisons = comparisons && cols[j].ComparisonOf != ""
		}
		switch {
		case answers:
			meaning += " (**the answer to quote**)"
		case comparisons:
			meaning += " (a comparison)"
		}
		row(names, meaning, source)
		i = j
	}
	return b.String()
}

// InputColumnsMarkdown returns the manual's table of input columns, made
// from the vocabulary in its order: one row per column, or per run of
// columns that share a summary (InputColumn.Brief). A column without a
// summary gets its meaning. A test keeps docs/inputs.md equal to it.
func InputColumnsMarkdown() string {
	var b strings.Builder
	b.WriteString("| column | meaning |\n|---|---|\n")
	cols := release.InputColumns()
	for i := 0; i < len(cols); {
		names := []string{"`" + cols[i].Name + "`"}
		j := i + 1
		for ; j < len(cols) && cols[i].Brief != "" && cols[j].Brief == cols[i].Brief; j++ {
			names = append(names, "`"+cols[j].Name+"`")
		}
		meaning := cols[i].Brief
		if meaning == "" {
			meaning = cols[i].Meaning
		}
		b.WriteString("| " + strings.Join(names, ", ") + " | " + markdownCell(meaning) + " |\n")
		i = j
	}
	return b.String()
}

// QuestionsMarkdown returns the manual's table of the questions several
// output columns answer (Questions): each with the column to quote and
// the comparisons. A test keeps docs/outputs.md equal to it.
func QuestionsMarkdown() string {
	var b strings.Builder
	b.WriteString("| question | the answer to quote | comparisons |\n|---|---|---|\n")
	quoted := func(names []string) string {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = "`" + n + "`"
		}
		return strings.Join(q, ", ")
	}
	for _, q := range Questions() {
		answers := quoted(q.Answers)
		if len(q.Answers) > 1 {
			answers += " (by mechanism)"
		}
		b.WriteString("| " + markdownCell(q.Text) + " | " + answers + " | " + quoted(q.Comparisons) + " |\n")
	}
	return b.String()
}

// markdownCell escapes a text for a cell of a Markdown table.
func markdownCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}
