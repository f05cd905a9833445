package serve

import (
	"net/http"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
)

// paperEntry is one of the papers whose bounds riskbatch computes, as the
// page's list of papers shows it (GET /api/papers): its id, its
// reference (authors, year and title) as the registry's citations write
// it, where it appeared ("" for a preprint), and the output columns that
// come from it.
type paperEntry struct {
	ID        string   `json:"id"`
	Author    string   `json:"author"`
	Reference string   `json:"reference"`
	Venue     string   `json:"venue"`
	Columns   []string `json:"columns"`
}

// paperVenues is where each paper appeared, as the manual's table of the
// five papers gives it (docs/README.md; a test keeps the two equal). The
// registry's citations name authors, year and title, not the venue.
var paperVenues = map[string]string{
	"seed000": "WPES 2024",
	"seed001": "AAAI 2024",
	"seed002": "", // a preprint: the manual gives its year alone
	"seed003": "NeurIPS 2025",
	"seed004": "ICML 2023",
}

// papers returns the five papers (evaluate.Papers) with their references
// taken from the registry: the first citation of an output column that
// starts with the paper's first author and names a title in quotes.
func papers(ev *evaluate.Evaluator) []paperEntry {
	var out []paperEntry
	for _, p := range evaluate.Papers() {
		e := paperEntry{ID: p.ID, Author: p.Author, Venue: paperVenues[p.ID], Columns: []string{}}
		for _, o := range ev.Outputs() {
			if o.PaperID() == p.ID {
				e.Columns = append(e.Columns, o.Name)
			}
			if e.Reference == "" {
				e.Reference, _ = citedPaper(o.Citation, p.Author)
			}
		}
		out = append(out, e)
	}
	return out
}

// citedPaper finds the work of an author in a citation as the registry
// writes it (`Authors Year, "Title", Thm 3.2, Eq. (10); Other 2022`): the
// reference (authors, year and title) and what follows it, the theorem,
// equation or section ("Thm 3.2, Eq. (10)"). It returns "", "" when the
// citation names no titled work of author.
func citedPaper(citation, author string) (reference, where string) {
	for _, part := range citationParts(citation) {
		part = strings.TrimSpace(part)
		part = strings.TrimSpace(strings.TrimPrefix(part, "as restated in"))
		if !strings.HasPrefix(part, author+",") && !strings.HasPrefix(part, author+" ") {
			continue
		}
		open := strings.IndexByte(part, '"')
		if open < 0 {
			continue
		}
		end := strings.IndexByte(part[open+1:], '"')
		if end < 0 {
			continue
		}
		end += open + 2
		return part[:end], strings.TrimSpace(strings.TrimPrefix(part[end:], ","))
	}
	return "", ""
}

// citationParts splits a citation at the semicolons that separate its
// works, not at those inside parentheses ("Thm 3.2 for SPSO (Def. 3.2;
// base = w, §4.1)").
func citationParts(citation string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range citation {
		switch r {
		case '(':
			depth++
		case ')':
			depth = max(0, depth-1)
		case ';':
			if depth == 0 {
				parts = append(parts, citation[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, citation[start:])
}

// handlePapers answers GET /api/papers: the five papers, for the page's
// list that each output column links to.
func (s *Server) handlePapers(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, papers(s.evaluator()))
}
