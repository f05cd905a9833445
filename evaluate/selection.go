package evaluate

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/release"
)

// Column selection: the groups of output columns (a family, a paper) and
// the selectors of `riskbatch eval --columns` and `riskbatch columns`. A
// column's groups are data on its registry entry (Family, Paper), so that a
// new entry belongs to its groups without a change here.

// Paper is one of the papers whose bounds riskbatch computes: the name the
// project's specification gives it (seed000 … seed004) and the surname of
// its first author, as the registry's citations write it.
type Paper struct{ ID, Author string }

// Papers returns the five papers riskbatch implements, in ID order.
func Papers() []Paper {
	return []Paper{
		{"seed000", "Guerra-Balboa"},
		{"seed001", "Lowy"},
		{"seed002", "Swanberg"},
		{"seed003", "Kulynych"},
		{"seed004", "Guo"},
	}
}

// familyPaper is the paper of a family of output columns: the paper whose
// bounds the family computes, or whose comparators it is (the
// reconstruction robustness of Balle et al. and the standard (ε, δ)
// advantage, restated in seed 003 App. B); "" for a family whose columns
// come from several works (the conversions and the DP-SGD accounting),
// each column of which is its citation's (see PaperID).
func familyPaper(family string) string {
	switch family {
	case "gb":
		return "seed000"
	case "pmp":
		return "seed001"
	case "onerun":
		return "seed002"
	case "fdp", "adp", "rero":
		return "seed003"
	case "fano":
		return "seed004"
	}
	return ""
}

// PaperID returns the paper the column comes from (seed000 … seed004), or
// "" for none: its Paper, else its family's paper, else the paper of the
// first author its Citation names who is a paper's first author
// (eps_at_delta, which cites Balle & Wang and Kairouz et al., has none).
func (o *OutputColumn) PaperID() string {
	if o.Paper != "" {
		return o.Paper
	}
	if p := familyPaper(o.Family); p != "" {
		return p
	}
	for _, a := range CitedAuthors(o.Citation) {
		for _, p := range Papers() {
			if strings.EqualFold(p.Author, a) {
				return p.ID
			}
		}
	}
	return ""
}

// Group is a name that selects several output columns: a family (onerun)
// or a paper (seed003).
type Group struct {
	Name    string
	Kind    string   // "family" or "paper"
	Columns []string // the evaluator's output columns in the group, in output order
}

// Groups returns the groups of the evaluator's output columns: the
// families in output order, then the papers in ID order. A group with no
// column is left out.
func (e *Evaluator) Groups() []Group {
	var groups []Group
	add := func(name, kind, column string) {
		for i := range groups {
			if groups[i].Name == name && groups[i].Kind == kind {
				groups[i].Columns = append(groups[i].Columns, column)
				return
			}
		}
		groups = append(groups, Group{Name: name, Kind: kind, Columns: []string{column}})
	}
	for i := range e.outputs {
		if f := e.outputs[i].Family; f != "" {
			add(f, "family", e.outputs[i].Name)
		}
	}
	for _, p := range Papers() {
		for i := range e.outputs {
			if e.outputs[i].PaperID() == p.ID {
				add(p.ID, "paper", e.outputs[i].Name)
			}
		}
	}
	return groups
}

// Matches reports whether the column answers to a selector of
// `riskbatch eval --columns` and `riskbatch columns`:
//
//   - its name, as headers match (ignoring case, with space, "-" and "_"
//     alike);
//   - a pattern with *, ? or [ ] (path.Match) that its name matches: fdp_*;
//   - output (or outputs): every output column;
//   - its family: onerun, fdp;
//   - its paper: seed003 (also "seed 3", "seed-003");
//   - the surname of an author its citation names: kulynych, balle.
func (o *OutputColumn) Matches(sel string) bool {
	canon := release.CanonicalName(sel)
	if strings.ContainsAny(sel, "*?[") {
		for _, pattern := range []string{strings.ToLower(strings.TrimSpace(sel)), canon} {
			if ok, _ := path.Match(pattern, o.Name); ok {
				return true
			}
		}
		return false
	}
	switch canon {
	case o.Name, "output", "outputs":
		return true
	case "":
		return false
	}
	if o.Family != "" && canon == o.Family {
		return true
	}
	if id, ok := PaperSelector(sel); ok {
		return o.PaperID() == id
	}
	return slices.Contains(CitedAuthors(o.Citation), strings.ToLower(strings.TrimSpace(sel)))
}

// SelectError is a selector of --columns that matches no output column.
type SelectError struct {
	Selectors []string // the selectors that match nothing, as given
}

func (e *SelectError) Error() string {
	q := make([]string, len(e.Selectors))
	for i, s := range e.Selectors {
		q[i] = strconv.Quote(s)
	}
	return fmt.Sprintf("no output column, group or paper matches %s", strings.Join(q, ", "))
}

// Select returns an evaluator that computes and writes only the output
// columns matching one of the selectors (see Matches), in registry order,
// after status, message, headline and headline_says, which every row has
// (and which a selector may name: headline or headline_says selects the
// columns the headline rule reads, so that the headline is the one the
// full output has; without them it quotes the selected columns only, or
// none). The columns left out are not computed: a row's status and message
// speak only of the columns selected, so a row that lacks an input only
// a column left out needs stays ok. A cell that cannot be read is still
// an error of its row, whatever is selected: no input is ignored. The new
// evaluator shares e's caches. A selector that matches nothing is a
// *SelectError.
func (e *Evaluator) Select(selectors ...string) (*Evaluator, error) {
	keep := make([]bool, len(e.outputs))
	var unmatched []string
	for _, sel := range selectors {
		hit := false
		switch release.CanonicalName(sel) {
		case "status", "message":
			hit = true
		case HeadlineColumn, HeadlineSaysColumn:
			// The headline is the full output's when the columns its
			// rule reads are computed.
			for _, c := range headlineCases() {
				for _, name := range c.columns {
					for i := range e.outputs {
						if e.outputs[i].Name == name {
							keep[i] = true
						}
					}
				}
			}
			hit = true
		}
		for i := range e.outputs {
			if e.outputs[i].Matches(sel) {
				keep[i], hit = true, true
			}
		}
		if !hit {
			unmatched = append(unmatched, sel)
		}
	}
	if len(unmatched) > 0 {
		return nil, &SelectError{Selectors: unmatched}
	}
	s := *e
	s.outputs = nil
	for i, o := range e.outputs {
		if keep[i] {
			s.outputs = append(s.outputs, o)
		}
	}
	s.plans = planColumns(s.outputs)
	s.headlines = headlineSteps(s.outputs)
	s.unused = selectedUnused(e.unused, s.outputs)
	return &s, nil
}

// selectedUnused keeps the unused-input checks (see unusedInputs) of the
// fields that ask for a selected column: a field that asks only for
// columns left out is no concern of the selection's rows. Which mechanisms
// use a field stays as the whole registry says.
func selectedUnused(all []unusedInput, selected []OutputColumn) []unusedInput {
	var kept []unusedInput
	for _, u := range all {
		for i := range selected {
			if slices.Contains(selected[i].Applies.AskedBy, u.field) {
				kept = append(kept, u)
				break
			}
		}
	}
	return kept
}

// Registered returns the names of every output column of the registry,
// selected or not, with status and message: the columns a previous run of
// riskbatch may have written.
func (e *Evaluator) Registered() []string {
	names := []string{"status", "message", HeadlineColumn, HeadlineSaysColumn}
	for _, o := range outputColumns(e.rows.Confidences()) {
		names = append(names, o.Name)
	}
	return names
}

// seedPattern reads a paper selector: seed003, seed 3, seed-003.
var seedPattern = regexp.MustCompile(`^seed[ _-]?0*([0-9]+)$`)

// PaperSelector returns the paper a selector names, as seed000 … seed004.
func PaperSelector(sel string) (string, bool) {
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

// CitedAuthors returns the surnames, lower case, of every author of a
// citation as the registry writes them: "Kulynych, Gomez, … & Raisaro
// 2025, "Title", Thm 3.2; Balle, Cherubin & Hayes 2022".
func CitedAuthors(citation string) []string {
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
