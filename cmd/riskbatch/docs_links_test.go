package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// markdownLink is an inline link or image of Markdown: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// codeSpan is an inline code span, whose brackets are not links.
var codeSpan = regexp.MustCompile("`[^`]*`")

// markdownProse returns a page's text without its code: indented code
// blocks (lines of four or more leading spaces) and inline code spans,
// which may run over a line end.
func markdownProse(page string) string {
	var kept []string
	for _, l := range strings.Split(page, "\n") {
		if !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "\t") {
			kept = append(kept, l)
		}
	}
	return codeSpan.ReplaceAllString(strings.Join(kept, "\n"), "")
}

// headingAnchors returns the anchors GitHub gives a page's headings: the
// heading's text in lower case, without code marks and without the
// characters that are not letters, digits, spaces, '-' or '_', with
// spaces as '-'; a repeated anchor gets -1, -2, … after it.
func headingAnchors(page string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(page, "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// Every relative link of README.md and of the pages of docs/ names a file
// or folder of the repository, and a link with an anchor names a heading
// of its page.
func TestDocsLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	if len(pages) < 10 {
		t.Fatalf("found %d pages: README.md and docs/*.md, want the manual's pages too", len(pages))
	}
	links := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, page)
		for _, m := range markdownLink.FindAllStringSubmatch(markdownProse(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Errorf("%s: the link %s names no file of the repository", name, target)
				continue
			}
			if anchor == "" {
				continue
			}
			if info.IsDir() || !strings.HasSuffix(path, ".md") {
				t.Errorf("%s: the link %s has an anchor but is not to a page", name, target)
				continue
			}
			linked, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !headingAnchors(string(linked))[anchor] {
				t.Errorf("%s: the link %s names no heading of %s", name, target, file)
			}
		}
	}
	if links < 50 {
		t.Errorf("found %d relative links in README.md and docs/, fewer than the pages have", links)
	}
}

// The anchors are GitHub's.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# Flags of `eval`\n## What δ means\n## How it scales on a cluster (Dataflow, Flink, Spark)\n### fdp_success\n## Notes\n## Notes\n")
	for _, a := range []string{"flags-of-eval", "what-δ-means", "how-it-scales-on-a-cluster-dataflow-flink-spark", "fdp_success", "notes", "notes-1"} {
		if !got[a] {
			t.Errorf("no anchor %q in %v", a, got)
		}
	}
}

// A page that names a paper by its id (seed000 … seed004) links to the
// table that says which paper each id is, so that no reader meets an id
// without its authors and title.
func TestDocsExplainPaperIDs(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range append(pages, filepath.Join(root, "README.md")) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, page)
		if name == filepath.Join("docs", "README.md") {
			continue // the table itself
		}
		if strings.Contains(string(text), "seed00") && !strings.Contains(string(text), "README.md#the-five-papers)") {
			t.Errorf("%s names a paper by its id (seed00N) but does not link to the five papers (docs/README.md#the-five-papers)", name)
		}
	}
}
