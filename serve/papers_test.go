package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
)

// TestPapers: /api/papers lists the five papers with the reference the
// registry's citations give, as the manual's table of papers
// (docs/README.md) names them, and every output column under the paper
// /api/columns links it to.
func TestPapers(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	w := do(s, get("/api/papers"))
	var ps []paperEntry
	if err := json.Unmarshal(w.Body.Bytes(), &ps); err != nil || w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	readme, err := os.ReadFile(filepath.Join("..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != len(evaluate.Papers()) {
		t.Fatalf("%d papers, want %d", len(ps), len(evaluate.Papers()))
	}
	// The manual writes `Authors, "Title" (Venue)`, the registry
	// `Authors Year, "Title"`.
	ref := regexp.MustCompile(`^(.+) ((?:19|20)\d\d), ("[^"]+")$`)
	byID := map[string]paperEntry{}
	for i, p := range ps {
		byID[p.ID] = p
		if p.ID != evaluate.Papers()[i].ID || len(p.Columns) == 0 {
			t.Errorf("paper %d: %+v", i, p)
		}
		m := ref.FindStringSubmatch(p.Reference)
		if m == nil {
			t.Errorf("%s: reference %q is not `Authors Year, \"Title\"`", p.ID, p.Reference)
			continue
		}
		venue := p.Venue
		if venue == "" {
			venue = m[2]
		} else if !strings.HasSuffix(venue, m[2]) {
			t.Errorf("%s: venue %q, but the citation's year is %s", p.ID, venue, m[2])
		}
		want := "| `" + p.ID + "` | " + m[1] + ", " + m[3] + " (" + venue + ") |"
		if !strings.Contains(string(readme), want) {
			t.Errorf("docs/README.md has no row %s", want)
		}
	}
	var cols []column
	if err := json.Unmarshal(do(s, get("/api/columns")).Body.Bytes(), &cols); err != nil {
		t.Fatal(err)
	}
	linked := 0
	for _, c := range cols {
		if c.PaperID == "" {
			continue
		}
		linked++
		p, ok := byID[c.PaperID]
		if !ok || !slices.Contains(p.Columns, c.Name) || !strings.HasPrefix(c.Kind, "output") {
			t.Errorf("%s: paper %q, not among its columns", c.Name, c.PaperID)
		}
		// The theorem or equation follows the paper's reference in the
		// column's citation.
		if c.Where != "" && !strings.Contains(c.Paper, p.Reference+", "+c.Where) {
			t.Errorf("%s: where %q does not follow %q in %q", c.Name, c.Where, p.Reference, c.Paper)
		}
	}
	for _, o := range evaluate.New().Outputs() {
		if o.PaperID() != "" {
			linked--
		}
	}
	if linked != 0 {
		t.Errorf("%d more columns linked to a paper than the registry names", linked)
	}
	for name, where := range map[string]string{ // as evaluate/columns_*.go cite them
		"fdp_success":      "Thm 3.2, Eq. (10)",
		"spso_success":     "Thm 3.2 for SPSO (Def. 3.2; base = w, §4.1)",
		"onerun_posterior": "Thm 3.2",
	} {
		i := slices.IndexFunc(cols, func(c column) bool { return c.Name == name })
		if i < 0 || cols[i].Where != where {
			t.Errorf("%s: where %q, want %q", name, cols[max(i, 0)].Where, where)
		}
	}
}

// TestCitedPaper: the work of an author in a citation, its theorem or
// section after it; semicolons inside parentheses do not split works.
func TestCitedPaper(t *testing.T) {
	for _, tc := range []struct{ citation, author, ref, where string }{
		{`Kulynych, Gomez 2025, "T", Thm 3.2, Eq. (10)`, "Kulynych", `Kulynych, Gomez 2025, "T"`, "Thm 3.2, Eq. (10)"},
		{`Balle, Cherubin & Hayes 2022; as restated in Kulynych 2025, "T", Prop. A.1`, "Kulynych", `Kulynych 2025, "T"`, "Prop. A.1"},
		{`Guo 2023, "T" (a; b), Thm 1; Mironov 2017, "R"`, "Guo", `Guo 2023, "T"`, "(a; b), Thm 1"},
		{`Guo 2023, "T"`, "Guo", `Guo 2023, "T"`, ""},
		{`Balle & Wang 2018; Kairouz, Oh & Viswanath 2015`, "Kulynych", "", ""},
		{`Guo et al. 2023 (§3.3)`, "Guo", "", ""},
		{`Guonan 2023, "T"`, "Guo", "", ""},
	} {
		ref, where := citedPaper(tc.citation, tc.author)
		if ref != tc.ref || where != tc.where {
			t.Errorf("citedPaper(%q, %s) = %q, %q; want %q, %q", tc.citation, tc.author, ref, where, tc.ref, tc.where)
		}
	}
}
