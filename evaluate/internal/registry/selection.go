package registry

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

// SelectedUnused keeps the unused-input checks (see UnusedInputs) of the
// fields that ask for a selected column: a field that asks only for
// columns left out is no concern of the selection's rows. Which mechanisms
// use a field stays as the whole registry says.
func SelectedUnused(all []UnusedInput, selected []OutputColumn) []UnusedInput {
	var kept []UnusedInput
	for _, u := range all {
		for i := range selected {
			if slices.Contains(selected[i].Applies.AskedBy, u.Field) {
				kept = append(kept, u)
				break
			}
		}
	}
	return kept
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
