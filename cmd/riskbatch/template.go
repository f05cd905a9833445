package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/samples"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
	"github.com/urfave/cli/v2"
)

// runTemplate writes an empty release workbook to fill in: the contract's
// columns with their notes and data validation, and one example row per
// mechanism taken from the sample table.
func runTemplate(c *cli.Context, stdout, stderr io.Writer) error {
	path := c.String("output")
	if path == "" {
		path = "releases.xlsx"
	}
	out := outputOf(path, stdout)
	if !out.stdout && !strings.EqualFold(strings.TrimPrefix(strings.ToLower(path[strings.LastIndex(path, ".")+1:]), "."), "xlsx") {
		return cli.Exit(fmt.Sprintf("template: %s: the template is a workbook; name it .xlsx", path), exitUsage)
	}
	if !out.stdout {
		// A filled-in workbook of that name is the user's: kept unless
		// --force.
		if err := refuseForeign([]string{path}, c.Bool("force")); err != nil {
			return cli.Exit(err.Error(), exitUsage)
		}
	}
	ev := evaluate.New()
	var cols []writers.TemplateColumn
	for _, in := range ev.Vocabulary().Columns() {
		tc := writers.TemplateColumn{Name: in.Name, Note: in.Meaning}
		switch {
		case in.Field == release.FieldMechanism:
			tc.List = release.MechanismNames()
		case in.Field == release.FieldAudit:
			tc.List = evaluate.AuditMethods()
		case in.Field == release.FieldAuditBound:
			tc.List = evaluate.AuditBounds()
		case len(in.Choices) > 0:
			tc.List = in.Choices
		case !in.Text:
			d := in.Domain
			tc.Numeric, tc.Whole = true, d.Integer
			tc.Min, tc.Max, tc.MinOpen, tc.MaxOpen = d.Min, d.Max, d.MinOpen, d.MaxOpen
			tc.Note += ". Valid: " + d.String()
		}
		cols = append(cols, tc)
	}
	cols = append(cols, writers.TemplateColumn{Name: "note", Note: "free text: passed through untouched, like every column riskbatch does not know"})
	if out.stdout {
		f, done, err := stdoutFile(stdout)
		if err != nil {
			return cli.Exit(fmt.Sprintf("%s: %v", stdoutName, err), exitUsage)
		}
		err = writers.WriteTemplateStream(f, stdoutName, "Releases", cols, templateExamples(cols), ev.Docs())
		if derr := done(); err == nil && derr != nil {
			err = fmt.Errorf("%s: %w", stdoutName, derr)
		}
		if err != nil {
			return cli.Exit(err.Error(), exitUsage)
		}
	} else if err := writers.WriteTemplate(path, "Releases", cols, templateExamples(cols), ev.Docs()); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(stderr, "riskbatch: template with %d columns and one example row per mechanism → %s\n", len(cols), out.name())
	}
	return nil
}

// templateExamples picks the first valid sample row of each mechanism and
// lays it out in the template's columns.
func templateExamples(cols []writers.TemplateColumn) [][]table.Cell {
	sampleCols, rows := samples.Releases()
	at := map[string]int{}
	for i, c := range sampleCols {
		at[c.Name] = i
	}
	seen := map[string]bool{}
	var out [][]table.Cell
	for _, r := range rows {
		mech := r[at["mechanism"]].String()
		if mech == "" || seen[mech] || strings.HasPrefix(r[at["note"]].String(), "Deliberately invalid") {
			continue
		}
		if !knownMechanism(mech) {
			continue
		}
		seen[mech] = true
		row := make([]table.Cell, len(cols))
		for i, c := range cols {
			if j, ok := at[c.Name]; ok {
				row[i] = r[j]
			}
		}
		out = append(out, row)
	}
	return out
}

func knownMechanism(m string) bool {
	for _, n := range release.MechanismNames() {
		if n == m {
			return true
		}
	}
	return false
}
