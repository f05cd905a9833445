package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/riskbatch/riskbatch/evaluate"
)

// printColumns prints the column reference generated from the registry the
// evaluator uses, so that the two can never disagree.
func printColumns(w io.Writer, markdown bool) error {
	docs := evaluate.New().Docs()
	if markdown {
		esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
		fmt.Fprintln(w, "| "+strings.Join(docs[0], " | ")+" |")
		fmt.Fprintln(w, "|"+strings.Repeat("---|", len(docs[0])))
		for _, r := range docs[1:] {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = esc(c)
			}
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "INPUT COLUMNS\t\t")
	for _, r := range docs[1:] {
		if r[1] != "input" {
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r[0], r[5], r[2])
	}
	tw.Flush()
	fmt.Fprintln(w, "\nOUTPUT COLUMNS")
	for _, r := range docs[1:] {
		if r[1] == "input" {
			continue
		}
		fmt.Fprintf(w, "\n%s  [%s]\n  %s\n", r[0], r[1], r[2])
		for i, label := range []string{"", "", "", "formula", "source", "needs", "assumes", "applies"} {
			if label != "" && r[i] != "" {
				fmt.Fprintf(w, "  %-8s %s\n", label+":", r[i])
			}
		}
	}
	return nil
}
