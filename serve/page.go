package serve

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
)

// The page is one HTML file with its style sheet and script put inline,
// so that it needs no second request (each would need the token) and the
// Content-Security-Policy can allow exactly those two texts by their hash.
//
//go:embed assets/index.html assets/app.css assets/app.js
var assets embed.FS

// page returns the page and its Content-Security-Policy: nothing may be
// loaded or run but the page's own style sheet and script (by hash), and
// requests go to this server only.
func page() ([]byte, string, error) {
	read := func(name string) (string, error) {
		b, err := assets.ReadFile("assets/" + name)
		return string(b), err
	}
	html, err := read("index.html")
	if err != nil {
		return nil, "", err
	}
	css, err := read("app.css")
	if err != nil {
		return nil, "", err
	}
	js, err := read("app.js")
	if err != nil {
		return nil, "", err
	}
	if !strings.Contains(html, "/*STYLE*/") || !strings.Contains(html, "/*SCRIPT*/") {
		return nil, "", fmt.Errorf("serve: the page has no place for its style or script")
	}
	html = strings.Replace(html, "/*STYLE*/", css, 1)
	html = strings.Replace(html, "/*SCRIPT*/", js, 1)
	hash := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	csp := "default-src 'none'; script-src " + hash(js) + "; style-src " + hash(css) +
		"; img-src data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
	return []byte(html), csp, nil
}

// handlePage answers GET /: the page.
func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(s.page)
}

// evaluator is the server's evaluator of single rows: default
// confidence, no prior tables, no loader of files named in cells.
func (s *Server) evaluator() *evaluate.Evaluator { return s.ev }

// handleTemplate answers GET /api/template: the workbook `riskbatch
// template` writes (Config.Template).
func (s *Server) handleTemplate(w http.ResponseWriter, r *http.Request) {
	dir, err := os.MkdirTemp(s.cfg.TempDir, "riskbatch-serve-")
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "cannot make a temporary folder")
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "releases.xlsx")
	if err := s.cfg.Template(r.Context(), path); err != nil {
		s.fail(w, r, http.StatusInternalServerError, "the template could not be written")
		return
	}
	f, err := os.Open(path)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "the template could not be written")
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", formats["xlsx"])
	w.Header().Set("Content-Disposition", `attachment; filename="releases.xlsx"`)
	io.Copy(w, f)
}
