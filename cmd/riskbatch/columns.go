package main

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/riskbatch/riskbatch/evaluate"
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
		for i, label := range []string{"", "", "", "formula", "source", "needs", "assumes", "applies"} {
			if label != "" && r[i] != "" {
				fmt.Fprintf(w, "  %-8s %s\n", label+":", r[i])
			}
		}
	}
	return nil
}

// paper is one of the papers riskbatch implements: the name the project's
// specification gives it, and the first author its citations in the
// registry start with.
type paper struct{ id, author string }

// papers are the five papers riskbatch implements.
func papers() []paper {
	return []paper{
		{"seed000", "Guerra-Balboa"},
		{"seed001", "Lowy"},
		{"seed002", "Swanberg"},
		{"seed003", "Kulynych"},
		{"seed004", "Guo"},
	}
}

// paperList describes the paper selectors for the help.
func paperList() string {
	var ps []string
	for _, p := range papers() {
		ps = append(ps, p.id+" ("+p.author+")")
	}
	return strings.Join(ps, ", ") + ", or any author's surname as cited (balle)"
}

// columnFamilies lists the families of the output columns, in registry
// order.
func columnFamilies() []string {
	var fams []string
	for _, o := range evaluate.New().Outputs() {
		if o.Family != "" && !slices.Contains(fams, o.Family) {
			fams = append(fams, o.Family)
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
	picked := make([]bool, len(rows))
	var unmatched []string
	for _, sel := range selectors {
		hit := false
		for i, r := range rows {
			if columnMatches(r, sel) {
				picked[i], hit = true, true
			}
		}
		if !hit {
			unmatched = append(unmatched, sel)
		}
	}
	if len(unmatched) > 0 {
		sel := unmatched[0]
		msg := fmt.Sprintf("columns: no column, group or paper matches %q", sel)
		if len(unmatched) > 1 {
			msg = fmt.Sprintf("columns: no column, group or paper matches %s", orList(quoteAll(unmatched)))
		}
		if s := closestSelectors(sel, rows); len(s) > 0 {
			msg += didYouMean(s, func(s string) string { return s })
		} else {
			msg += " (give a column name, a pattern such as fdp_*, a group such as onerun, or a paper such as seed003)"
		}
		return nil, usagef("columns", "%s", msg)
	}
	var out [][]string
	for i, r := range rows {
		if picked[i] {
			out = append(out, r)
		}
	}
	return out, nil
}

// columnMatches reports whether a row of the column reference matches a
// selector.
func columnMatches(row []string, sel string) bool {
	canon := evaluate.CanonicalName(sel)
	names := rowNames(row)
	if strings.ContainsAny(sel, "*?[") {
		for _, n := range names {
			if ok, _ := path.Match(strings.ToLower(strings.TrimSpace(sel)), n); ok {
				return true
			}
			if ok, _ := path.Match(canon, n); ok {
				return true
			}
		}
		return false
	}
	if slices.Contains(names, canon) {
		return true
	}
	kind, family := row[1], ""
	if f, ok := strings.CutPrefix(kind, "output ("); ok {
		family = strings.TrimSuffix(f, ")")
	}
	switch canon {
	case "input", "inputs":
		return kind == "input"
	case "output", "outputs":
		return kind != "input"
	}
	if family != "" && canon == family {
		return true
	}
	if id, ok := paperID(sel); ok {
		for _, p := range papers() {
			if p.id == id {
				return slices.Contains(citedAuthors(row[4]), strings.ToLower(p.author))
			}
		}
		return false
	}
	return slices.Contains(citedAuthors(row[4]), strings.ToLower(strings.TrimSpace(sel)))
}

// rowNames are the names of a reference row's column, canonical: "epsilon
// (also eps)" is epsilon and eps.
func rowNames(row []string) []string {
	name, aliases, _ := strings.Cut(row[0], " (also ")
	names := []string{evaluate.CanonicalName(name)}
	for _, a := range strings.Split(strings.TrimSuffix(aliases, ")"), ",") {
		if a = strings.TrimSpace(a); a != "" {
			names = append(names, evaluate.CanonicalName(a))
		}
	}
	return names
}

// seedPattern reads a paper selector: seed003, seed 3, seed-003.
var seedPattern = regexp.MustCompile(`^seed[ _-]?0*([0-9]+)$`)

// paperID returns the paper a selector names as seed000 … seed004.
func paperID(sel string) (string, bool) {
	m := seedPattern.FindStringSubmatch(strings.ToLower(strings.TrimSpace(sel)))
	if m == nil {
		return "", false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("seed%03d", n), true
}

// yearPattern finds the year that ends the author list of a citation.
var yearPattern = regexp.MustCompile(`\b(19|20)[0-9]{2}\b`)

// citedAuthors returns the surnames, lower case, of every author of a
// citation as the registry writes them: "Kulynych, Gomez, … & Raisaro
// 2025, "Title", Thm 3.2; Balle, Cherubin & Hayes 2022".
func citedAuthors(citation string) []string {
	var out []string
	for _, part := range strings.Split(citation, ";") {
		part = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(part), "as restated in"))
		loc := yearPattern.FindStringIndex(part)
		if loc == nil {
			continue
		}
		authors := part[:loc[0]]
		if strings.ContainsAny(authors, "\"(") {
			continue // the year is in a title or a remark, not after authors
		}
		for _, a := range strings.FieldsFunc(authors, func(r rune) bool { return r == ',' || r == '&' }) {
			if a = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(a), "et al."))); a != "" && !strings.Contains(a, " ") {
				out = append(out, a)
			}
		}
	}
	return out
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
	add("input", "input")
	add("output", "output")
	for _, f := range columnFamilies() {
		add(f, f)
	}
	for _, p := range papers() {
		add(p.id, p.id)
	}
	for _, r := range rows {
		ns := rowNames(r)
		for _, n := range ns {
			add(n, ns[0])
		}
	}
	for _, r := range rows {
		for _, a := range citedAuthors(r[4]) {
			add(a, a)
		}
	}
	var out []string
	for _, n := range closest(sel, names, 10) {
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
