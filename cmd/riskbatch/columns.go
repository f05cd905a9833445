package main

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/editdist"
)

// printColumns prints the column reference generated from the registry the
// evaluator uses, so that the two can never disagree: every column, or
// those that match one of the selectors (see selectColumns).
func printColumns(w io.Writer, markdown bool, selectors []string) error {
	docs := evaluate.New().Docs()
	rows := docs[1:]
	if len(selectors) > 0 {
		var err error
		if rows, err = selectColumns(rows, selectors); err != nil {
			return err
		}
	}
	if markdown {
		esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
		fmt.Fprintln(w, "| "+strings.Join(docs[0], " | ")+" |")
		fmt.Fprintln(w, "|"+strings.Repeat("---|", len(docs[0])))
		for _, r := range rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = esc(c)
			}
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
		}
		return nil
	}
	var inputs, outputs [][]string
	for _, r := range rows {
		if r[1] == "input" {
			inputs = append(inputs, r)
		} else {
			outputs = append(outputs, r)
		}
	}
	if len(inputs) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "INPUT COLUMNS\t\t")
		for _, r := range inputs {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", r[0], r[5], r[2])
		}
		tw.Flush()
	}
	if len(outputs) > 0 {
		if len(inputs) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "OUTPUT COLUMNS")
	}
	for _, r := range outputs {
		fmt.Fprintf(w, "\n%s  [%s]\n  %s\n", r[0], r[1], r[2])
		for i, label := range []string{"", "", "", "formula", "source", "needs", "assumes", "applies", "quote"} {
			if label != "" && i < len(r) && r[i] != "" {
				fmt.Fprintf(w, "  %-8s %s\n", label+":", r[i])
			}
		}
	}
	printGroups(w, outputs)
	return nil
}

// printGroups lists the groups (families and papers) of the output columns
// among rows, with those columns: the names --columns and `riskbatch
// columns` take besides column names and patterns.
func printGroups(w io.Writer, rows [][]string) {
	listed := map[string]bool{}
	for _, r := range rows {
		listed[r[0]] = true
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, g := range evaluate.New().Groups() {
		var cols []string
		for _, c := range g.Columns {
			if listed[c] {
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 {
			continue
		}
		if !header {
			fmt.Fprintln(w, "\nGROUPS (select with --columns or riskbatch columns; also output, a pattern such as fdp_*, an author such as balle)")
			header = true
		}
		what := g.Kind
		if g.Kind == "paper" {
			for _, p := range evaluate.Papers() {
				if p.ID == g.Name {
					what = "paper: " + p.Author + " et al."
				}
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", g.Name, what, strings.Join(cols, ", "))
	}
	tw.Flush()
}

// paperList describes the paper selectors for the help.
func paperList() string {
	var ps []string
	for _, p := range evaluate.Papers() {
		ps = append(ps, p.ID+" ("+p.Author+")")
	}
	return strings.Join(ps, ", ") + ", or any author's surname as cited (balle)"
}

// columnFamilies lists the families of the output columns, in registry
// order.
func columnFamilies() []string {
	var fams []string
	for _, g := range evaluate.New().Groups() {
		if g.Kind == "family" {
			fams = append(fams, g.Name)
		}
	}
	return fams
}

// selectColumns returns the rows of the column reference (Docs without its
// header) that match any selector, in reference order. A selector matches
//
//   - a column by its name or an alias, as headers match (ignoring case,
//     with space, "-" and "_" alike, Greek letters for their names);
//   - columns by a pattern with * or ? (path.Match), such as fdp_*;
//   - a group: input (inputs), output (outputs), or a family of output
//     columns such as onerun or fdp;
//   - a paper: seed000 … seed004 ("seed 3" too), or an author's surname
//     as the column's citation spells it (kulynych, guerra-balboa, balle).
//
// A selector that matches nothing is a usage error naming the closest
// names.
func selectColumns(rows [][]string, selectors []string) ([][]string, error) {
	outputs := outputsByName(evaluate.New())
	picked := make([]bool, len(rows))
	var unmatched []string
	for _, sel := range selectors {
		hit := false
		for i, r := range rows {
			if columnMatches(r, sel, outputs) {
				picked[i], hit = true, true
			}
		}
		if !hit {
			unmatched = append(unmatched, sel)
		}
	}
	if len(unmatched) > 0 {
		return nil, unmatchedSelectors("columns", "columns", "column", unmatched, rows)
	}
	var out [][]string
	for i, r := range rows {
		if picked[i] {
			out = append(out, r)
		}
	}
	return out, nil
}

// unmatchedSelectors is the usage error of command cmd for selectors that
// match no column, starting with prefix (the command or the flag): what
// names the columns selected (column, output column), with the names
// closest to the first selector among rows of the column reference.
func unmatchedSelectors(cmd, prefix, what string, unmatched []string, rows [][]string) error {
	sel := unmatched[0]
	msg := fmt.Sprintf("%s: no %s, group or paper matches %q", prefix, what, sel)
	if len(unmatched) > 1 {
		msg = fmt.Sprintf("%s: no %s, group or paper matches %s", prefix, what, orList(quoteAll(unmatched)))
	}
	if s := closestSelectors(sel, rows); len(s) > 0 {
		msg += didYouMean(s, func(s string) string { return s })
	} else {
		msg += " (give a column name, a pattern such as fdp_*, a group such as onerun, or a paper such as seed003)"
	}
	return usagef(cmd, "%s", msg)
}

// outputsByName indexes the evaluator's output columns by name.
func outputsByName(ev *evaluate.Evaluator) map[string]*evaluate.OutputColumn {
	m := map[string]*evaluate.OutputColumn{}
	outs := ev.Outputs()
	for i := range outs {
		m[outs[i].Name] = &outs[i]
	}
	return m
}

// columnMatches reports whether a row of the column reference matches a
// selector: an output column as evaluate.OutputColumn.Matches says (the
// same selectors as eval --columns), another row (an input, status,
// message) by its name or an alias, a pattern, or its kind (input,
// output).
func columnMatches(row []string, sel string, outputs map[string]*evaluate.OutputColumn) bool {
	if o, ok := outputs[row[0]]; ok {
		return o.Matches(sel)
	}
	canon := release.CanonicalName(sel)
	names := rowNames(row)
	if strings.ContainsAny(sel, "*?[") {
		for _, n := range names {
			for _, pattern := range []string{strings.ToLower(strings.TrimSpace(sel)), canon} {
				if ok, _ := path.Match(pattern, n); ok {
					return true
				}
			}
		}
		return false
	}
	switch canon {
	case "input", "inputs":
		return row[1] == "input"
	case "output", "outputs":
		return row[1] != "input"
	}
	return slices.Contains(names, canon)
}

// rowNames are the names of a reference row's column, canonical: "epsilon
// (also eps)" is epsilon and eps.
func rowNames(row []string) []string {
	name, aliases, _ := strings.Cut(row[0], " (also ")
	names := []string{release.CanonicalName(name)}
	for _, a := range strings.Split(strings.TrimSuffix(aliases, ")"), ",") {
		if a = strings.TrimSpace(a); a != "" {
			names = append(names, release.CanonicalName(a))
		}
	}
	return names
}

// closestSelectors returns up to three selectors that sel could have
// meant: column names (an alias stands for its column's name), groups,
// families, papers and cited authors.
func closestSelectors(sel string, rows [][]string) []string {
	display := map[string]string{} // a name → what to suggest for it
	var names []string
	add := func(name, shown string) {
		if _, ok := display[name]; !ok {
			display[name] = shown
			names = append(names, name)
		}
	}
	for _, r := range rows {
		if r[1] == "input" {
			add("input", "input")
			break
		}
	}
	add("output", "output")
	for _, f := range columnFamilies() {
		add(f, f)
	}
	for _, p := range evaluate.Papers() {
		add(p.ID, p.ID)
	}
	for _, r := range rows {
		ns := rowNames(r)
		for _, n := range ns {
			add(n, ns[0])
		}
	}
	for _, r := range rows {
		for _, a := range evaluate.CitedAuthors(r[4]) {
			add(a, a)
		}
	}
	var out []string
	for _, n := range editdist.Closest(sel, names, 10) {
		if s := display[n]; !slices.Contains(out, s) && len(out) < 3 {
			out = append(out, s)
		}
	}
	return out
}

// quoteAll quotes each word.
func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strconv.Quote(w)
	}
	return out
}
