package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// fake is a Config whose EvalFile copies the input to the output (or runs
// evalHook), and records the requests.
type fake struct {
	mu       sync.Mutex
	requests []EvalRequest
	files    map[string]string // name in Dir → content, at the time of the call
	evalHook func(ctx context.Context, req EvalRequest) error
}

func (f *fake) eval(ctx context.Context, req EvalRequest) error {
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.files = map[string]string{}
	entries, _ := os.ReadDir(req.Dir)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(req.Dir, e.Name()))
		f.files[e.Name()] = string(b)
	}
	f.mu.Unlock()
	if f.evalHook != nil {
		return f.evalHook(ctx, req)
	}
	b, err := os.ReadFile(req.Input)
	if err != nil {
		return err
	}
	return os.WriteFile(req.Output, append([]byte("evaluated:"), b...), 0o600)
}

// newTest returns a server of cfg (EvalFile and Template from f, TempDir
// a test folder) and its temporary folder.
func newTest(t *testing.T, f *fake, cfg Config) (*Server, string) {
	t.Helper()
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	cfg.EvalFile = f.eval
	cfg.Template = func(ctx context.Context, path string) error { return os.WriteFile(path, []byte("PK template"), 0o600) }
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, cfg.TempDir
}

// do sends r to s and returns the answer.
func do(s *Server, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	return w
}

// check compares an answer's status and body.
func check(t *testing.T, name string, w *httptest.ResponseRecorder, status int, body string) {
	t.Helper()
	if w.Code != status || w.Body.String() != body {
		t.Errorf("%s: %d %q, want %d %q", name, w.Code, w.Body.String(), status, body)
	}
}

// upload is a multipart body: files (field, name, content) then fields.
type part struct{ field, name, content string }

func multipartBody(t *testing.T, parts ...part) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.name != "" {
			w, err = mw.CreateFormFile(p.field, p.name)
		} else {
			w, err = mw.CreateFormField(p.field)
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.content)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func evalRequest(t *testing.T, parts ...part) *http.Request {
	body, ct := multipartBody(t, parts...)
	r := httptest.NewRequest("POST", "http://127.0.0.1:8421/api/eval", body)
	r.Host = "127.0.0.1:8421"
	r.Header.Set("Content-Type", ct)
	return r
}

func get(path string) *http.Request {
	r := httptest.NewRequest("GET", "http://127.0.0.1:8421"+path, nil)
	r.Host = "127.0.0.1:8421"
	return r
}

// empty fails unless dir has no entry.
func empty(t *testing.T, dir, when string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Errorf("%s: %d entries left in the temporary folder (%s …)", when, len(entries), entries[0].Name())
	}
}

func TestHealthzAndHeaders(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	w := do(s, get("/healthz"))
	check(t, "healthz", w, 200, "ok")
	for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "X-Frame-Options": "DENY"} {
		if got := w.Header().Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'sha256-", "style-src 'sha256-", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("Content-Security-Policy %q allows unsafe code", csp)
	}
}

// TestPage: the page is one file, its script and style inline and allowed
// by hash, and it loads nothing from elsewhere.
func TestPage(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	w := do(s, get("/"))
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	page := w.Body.String()
	for _, bad := range []string{"<script src", "stylesheet", "/*SCRIPT*/", "/*STYLE*/", "https://", "cdn", "@import", "eval("} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	// The only http:// is the SVG namespace, which nothing fetches.
	if n, m := strings.Count(page, "http://"), strings.Count(page, "http://www.w3.org/2000/svg"); n != m {
		t.Errorf("the page names %d addresses besides the SVG namespace", n-m)
	}
	if w := do(s, get("/nothing")); w.Code != 404 {
		t.Errorf("GET /nothing: %d", w.Code)
	}
}

// TestHost: a request whose Host is neither the listen address nor a
// loopback name is refused (DNS rebinding), one without Host too.
func TestHost(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{Addr: "127.0.0.1:8421"})
	for _, host := range []string{"127.0.0.1:8421", "localhost:8421", "LOCALHOST:8421", "[::1]:8421"} {
		r := get("/healthz")
		r.Host = host
		check(t, host, do(s, r), 200, "ok")
	}
	for _, host := range []string{"evil.example:8421", "127.0.0.1:9999", "evil.example", "192.168.1.5:8421"} {
		r := get("/healthz")
		r.Host = host
		check(t, host, do(s, r), 403, "Host "+host+" is not this server's address (127.0.0.1:8421) nor a loopback name: refused (DNS rebinding)\n")
	}
	r := get("/healthz")
	r.Host = ""
	check(t, "no Host", do(s, r), 400, "the request has no Host header\n")
}

// TestToken: beyond loopback a token is required, on every request.
func TestToken(t *testing.T) {
	if _, err := New(Config{Addr: "0.0.0.0:8421", EvalFile: (&fake{}).eval, Template: func(context.Context, string) error { return nil }}); err == nil ||
		err.Error() != "serve: listen address 0.0.0.0:8421 is not loopback: a token is required" {
		t.Errorf("no token beyond loopback: %v", err)
	}
	s, _ := newTest(t, &fake{}, Config{Addr: "0.0.0.0:8421", Token: "s3cret"})
	const refused = "a token is required: open the address riskbatch serve printed (with ?token=), or send Authorization: Bearer TOKEN\n"
	host := func(r *http.Request) *http.Request { r.Host = "myhost.example:8421"; return r }
	for _, path := range []string{"/", "/healthz", "/api/columns", "/healthz?token=wrong", "/healthz?token="} {
		w := do(s, host(get(path)))
		check(t, path, w, 401, refused)
		if w.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate", path)
		}
	}
	r := host(get("/healthz"))
	r.Header.Set("Authorization", "Bearer wrong")
	check(t, "wrong bearer", do(s, r), 401, refused)
	check(t, "?token=", do(s, host(get("/healthz?token=s3cret"))), 200, "ok")
	r = host(get("/healthz"))
	r.Header.Set("Authorization", "Bearer s3cret")
	check(t, "bearer", do(s, r), 200, "ok")
	// A POST needs it too.
	r = evalRequest(t, part{"file", "t.csv", "x\n"})
	r.Host = "myhost.example:8421"
	check(t, "eval without token", do(s, r), 401, refused)
}

// TestCrossOrigin: a POST from a page of another origin is refused.
func TestCrossOrigin(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	r := evalRequest(t, part{"file", "t.csv", "x\n"})
	r.Header.Set("Origin", "http://evil.example")
	check(t, "Origin", do(s, r), 403, "cross-origin request refused: Origin http://evil.example is not this server\n")
	r = postRow(`{"mu": 1}`)
	r.Header.Set("Origin", "http://localhost:8421") // another name of the same machine is another origin
	check(t, "Origin localhost", do(s, r), 403, "cross-origin request refused: Origin http://localhost:8421 is not this server\n")
	r = postRow(`{"mu": 1}`)
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	check(t, "Sec-Fetch-Site", do(s, r), 403, "cross-origin request refused: Sec-Fetch-Site cross-site\n")
	r = postRow(`{"mu": 1}`)
	r.Header.Set("Origin", "http://127.0.0.1:8421")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	if w := do(s, r); w.Code != 200 {
		t.Errorf("same origin: %d %s", w.Code, w.Body)
	}
}

// TestEvalUploads: the uploads are in a folder of their own, under their
// own names; the fields become eval's flags; the download is named after
// the input; the folder is removed when the answer ends.
func TestEvalUploads(t *testing.T) {
	f := &fake{}
	s, tmp := newTest(t, f, Config{})
	w := do(s, evalRequest(t, part{"file", "releases.csv", "sigma\n1\n"}, part{"priors", "p.csv", "prior,p\nk,0.1\n"},
		part{"data", "../../etc/hist.csv", "x\n"}, part{"confidence", "", "0.5,0.95"}, part{"columns", "", "fdp_*"},
		part{"decimal_comma", "", "true"}, part{"format", "", "CSV"}))
	check(t, "eval", w, 200, "evaluated:sigma\n1\n")
	if got := w.Header().Get("Content-Disposition"); got != "attachment; filename=releases-risk.csv" {
		t.Errorf("Content-Disposition %q", got)
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q", got)
	}
	req := f.requests[0]
	if want := []string{"--confidence=0.5,0.95", "--columns=fdp_*", "--decimal-comma=true"}; !slices.Equal(req.Flags, want) {
		t.Errorf("flags %q, want %q", req.Flags, want)
	}
	if filepath.Base(req.Input) != "releases.csv" || filepath.Dir(req.Input) != req.Dir || len(req.Priors) != 1 || filepath.Dir(req.Priors[0]) != req.Dir {
		t.Errorf("request %+v", req)
	}
	if !slices.Equal(req.DataFiles, []string{"hist.csv"}) || req.Format != "csv" || filepath.Ext(req.Output) != ".csv" {
		t.Errorf("request %+v", req)
	}
	if want := map[string]string{"releases.csv": "sigma\n1\n", "p.csv": "prior,p\nk,0.1\n", "hist.csv": "x\n"}; fmt.Sprint(f.files) != fmt.Sprint(want) {
		t.Errorf("the request's folder held %v, want %v", f.files, want)
	}
	if !strings.HasPrefix(req.Dir, tmp) || strings.HasPrefix(req.Output, req.Dir) {
		t.Errorf("folders: Dir %s, Output %s, temporary %s", req.Dir, req.Output, tmp)
	}
	empty(t, tmp, "after the answer")
	// Without format: the input's own; a workbook for another extension.
	for name, want := range map[string]string{"a.xlsx": "a-risk.xlsx", "a.tsv.gz": "a-risk.tsv", "b.PARQUET": "b-risk.parquet", "noext": "noext-risk.xlsx"} {
		w := do(s, evalRequest(t, part{"file", name, "x"}))
		if got := w.Header().Get("Content-Disposition"); got != "attachment; filename="+want {
			t.Errorf("%s: Content-Disposition %q, want %s", name, got, want)
		}
	}
}

// TestEvalRefusals: each malformed request's answer.
func TestEvalRefusals(t *testing.T) {
	s, tmp := newTest(t, &fake{}, Config{})
	for _, tc := range []struct {
		name  string
		parts []part
		body  string
	}{
		{"no file", []part{{"confidence", "", "0.9"}}, "no table: send it in the field file (CSV, TSV, XLSX or Parquet)\n"},
		{"two files", []part{{"file", "a.csv", "x"}, {"file", "b.csv", "x"}}, "one file per request: the field file is given twice\n"},
		{"same names", []part{{"file", "a.csv", "x"}, {"data", "A.csv", "x"}}, "two uploaded files are named A.csv\n"},
		{"dot name", []part{{"file", "..", "x"}}, "an uploaded file has no name: send it as a file, with its file name\n"},
		{"format", []part{{"file", "a.csv", "x"}, {"format", "", "pdf"}}, "format pdf: the formats are xlsx, csv, tsv and parquet\n"},
		{"output flag", []part{{"file", "a.csv", "x"}, {"output", "", "/etc/passwd"}}, "unknown field output; the fields are file, priors (repeatable), data (repeatable: files pmp_data cells name), format, and these flags of riskbatch eval: confidence, columns, sheet, input-format, values-only, threshold, sorted-groups, encoding, delimiter, decimal-comma, decimal-point\n"},
		{"data-dir flag", []part{{"file", "a.csv", "x"}, {"data-dir", "", "/"}}, "unknown field data-dir; the fields are file, priors (repeatable), data (repeatable: files pmp_data cells name), format, and these flags of riskbatch eval: confidence, columns, sheet, input-format, values-only, threshold, sorted-groups, encoding, delimiter, decimal-comma, decimal-point\n"},
		{"long field", []part{{"file", "a.csv", "x"}, {"columns", "", strings.Repeat("x", maxField+1)}}, "the field columns is longer than 4096 bytes\n"},
	} {
		check(t, tc.name, do(s, evalRequest(t, tc.parts...)), 400, tc.body)
	}
	r := httptest.NewRequest("POST", "http://127.0.0.1:8421/api/eval", strings.NewReader("x"))
	r.Header.Set("Content-Type", "text/plain")
	check(t, "not multipart", do(s, r), 400, "the request must be multipart/form-data, with the table in the field file\n")
	if w := do(s, get("/api/eval")); w.Code != 405 {
		t.Errorf("GET /api/eval: %d", w.Code)
	}
	empty(t, tmp, "after the refusals")
}

// TestUploadLimit: a body over --max-upload is 413 naming the limit,
// whether its length is declared or not.
func TestUploadLimit(t *testing.T) {
	s, tmp := newTest(t, &fake{}, Config{MaxUpload: 1 << 10})
	const want = "the upload is larger than this server's limit of 1KiB (riskbatch serve --max-upload)\n"
	check(t, "declared", do(s, evalRequest(t, part{"file", "big.csv", strings.Repeat("1\n", 1000)})), 413, want)
	r := evalRequest(t, part{"file", "big.csv", strings.Repeat("1\n", 1000)})
	r.ContentLength = -1 // chunked: found while reading
	check(t, "chunked", do(s, r), 413, want)
	check(t, "under the limit", do(s, evalRequest(t, part{"file", "small.csv", "1\n"})), 200, "evaluated:1\n")
	empty(t, tmp, "after the uploads")
}

// TestEvalErrors: eval's refusal is 422 with its message, the request's
// folder taken out; another failure is 500 without its text.
func TestEvalErrors(t *testing.T) {
	f := &fake{}
	s, tmp := newTest(t, f, Config{})
	f.evalHook = func(ctx context.Context, req EvalRequest) error {
		return &InputError{Msg: req.Input + ": row 3: not a table; see " + req.Dir + " and " + req.Output}
	}
	w := do(s, evalRequest(t, part{"file", "t.csv", "x"}))
	check(t, "input error", w, 422, "t.csv: row 3: not a table; see the upload and t-risk.csv\n")
	if strings.Contains(w.Body.String(), tmp) {
		t.Errorf("the answer names the server's folder: %s", w.Body)
	}
	// Through a link to the temporary folder, the real path is taken out too.
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	ls, _ := newTest(t, f, Config{TempDir: link})
	f.evalHook = func(ctx context.Context, req EvalRequest) error {
		resolved, err := filepath.EvalSymlinks(req.Input)
		if err != nil {
			return err
		}
		return &InputError{Msg: resolved + " leads nowhere"}
	}
	check(t, "input error through a link", do(ls, evalRequest(t, part{"file", "t.csv", "x"})), 422, "t.csv leads nowhere\n")
	empty(t, real, "after the error through a link")
	f.evalHook = func(ctx context.Context, req EvalRequest) error { return errors.New("disk full at " + req.Dir) }
	check(t, "other error", do(s, evalRequest(t, part{"file", "t.csv", "x"})), 500, "the evaluation failed\n")
	empty(t, tmp, "after the errors")
}

// TestBusyAndTimeout: beyond --workers evaluations a request gets 503
// with Retry-After; an evaluation past the time limit is stopped (503)
// and its folder removed.
func TestBusyAndTimeout(t *testing.T) {
	f := &fake{}
	s, tmp := newTest(t, f, Config{Workers: 1, Timeout: time.Hour})
	started, finish := make(chan struct{}), make(chan struct{})
	f.evalHook = func(ctx context.Context, req EvalRequest) error {
		close(started)
		<-finish
		return os.WriteFile(req.Output, []byte("done"), 0o600)
	}
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- do(s, evalRequest(t, part{"file", "t.csv", "x"})) }()
	<-started
	const busy = "busy: 1 evaluations are running, the most this server runs at once (--workers 1); try again in a few seconds\n"
	w := do(s, evalRequest(t, part{"file", "t.csv", "x"}))
	check(t, "second eval", w, 503, busy)
	if w.Header().Get("Retry-After") != "5" {
		t.Errorf("Retry-After %q", w.Header().Get("Retry-After"))
	}
	check(t, "row while busy", do(s, postRow(`{"mu": 1}`)), 503, busy)
	close(finish)
	check(t, "first eval", <-first, 200, "done")

	s, tmp2 := newTest(t, f, Config{Timeout: 20 * time.Millisecond})
	f.evalHook = func(ctx context.Context, req EvalRequest) error { <-ctx.Done(); return ctx.Err() }
	check(t, "timeout", do(s, evalRequest(t, part{"file", "t.csv", "x"})), 503, "the evaluation was stopped at the time limit of 20ms per request; evaluate this file with riskbatch eval\n")
	empty(t, tmp, "after the busy answers")
	empty(t, tmp2, "after the timeout")
}

// TestClientGone: when the client goes away the evaluation is stopped
// (its context is done) and the request's folder removed.
func TestClientGone(t *testing.T) {
	f := &fake{}
	s, tmp := newTest(t, f, Config{})
	started, stopped := make(chan struct{}), make(chan struct{})
	f.evalHook = func(ctx context.Context, req EvalRequest) error {
		close(started)
		<-ctx.Done()
		close(stopped)
		return ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := evalRequest(t, part{"file", "t.csv", "x"}).WithContext(ctx)
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- do(s, r) }()
	<-started
	cancel()
	<-stopped
	if w := <-done; w.Body.Len() != 0 {
		t.Errorf("answered a client that went away: %d %s", w.Code, w.Body)
	}
	empty(t, tmp, "after the client went away")
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"releases.csv": "releases.csv", "../../etc/passwd": "passwd", `C:\data\q1 (v2).xlsx`: "q1 (v2).xlsx",
		".hidden": "_.hidden", "..": "", "": "", "a\x00b;rm -rf.csv": "a_b_rm -rf.csv", "données.csv": "données.csv",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := safeName(strings.Repeat("é", 100) + ".csv"); len(got) > 120 || !strings.HasSuffix(got, "é.csv") {
		t.Errorf("long name: %q (%d bytes)", got, len(got))
	}
}

func postRow(body string) *http.Request {
	r := httptest.NewRequest("POST", "http://127.0.0.1:8421/api/row", strings.NewReader(body))
	r.Host = "127.0.0.1:8421"
	r.Header.Set("Content-Type", "application/json")
	return r
}

// TestRow: one row, evaluated as eval evaluates it: the same cells as the
// façade's, in the registry's order.
func TestRow(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	w := do(s, postRow(`{"id": "r1", "mechanism": "gaussian", "sigma": "2", "baseline": 0.01, "note": "kept"}`))
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var got map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	ev := evaluate.New()
	if len(got) != ev.Width() {
		t.Errorf("%d keys, want %d (status, message, every output column)", len(got), ev.Width())
	}
	// The façade on the same cells, as a table would give them.
	b, err := ev.Bind(rowColumns("id", "mechanism", "sigma", "baseline", "note"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]cellT, ev.Width())
	b.Evaluate(cells("r1", "gaussian", "2", 0.01, "kept"), out)
	for k, c := range ev.Columns() {
		want := any(nil)
		if !out[k].IsEmpty() {
			if out[k].Kind == table.Number {
				want = out[k].Num
			} else {
				want = out[k].String() // status, message, and any text output
			}
		}
		if fmt.Sprint(got[c.Name]) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", c.Name, got[c.Name], want)
		}
	}
	if got["status"] != "partial" || got["fdp_success"] == nil {
		t.Errorf("status %v, fdp_success %v", got["status"], got["fdp_success"])
	}
	// Keys come in the registry's order.
	if !strings.HasPrefix(w.Body.String(), `{"status":"partial","message":`) {
		t.Errorf("order: %.60s", w.Body)
	}
	// An error row: status error, the message naming the column.
	w = do(s, postRow(`{"sigma": -1, "baseline": 0.01}`))
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got["status"] != "error" || !strings.Contains(fmt.Sprint(got["message"]), "sigma") {
		t.Errorf("bad sigma: %s", w.Body)
	}
}

// TestRowNamesNoServerFile: a pmp_data cell naming a file of the server
// is an error of the row; the file is not read.
func TestRowNamesNoServerFile(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	secret := filepath.Join(t.TempDir(), "secret.csv")
	if err := os.WriteFile(secret, []byte("x,y\n0,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"epsilon": 1, "pmp_data": secret, "baseline": 0.01})
	w := do(s, postRow(string(body)))
	var got map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprint(got["message"])
	if got["status"] != "error" || !strings.Contains(msg, "pmp_data") {
		t.Errorf("pmp_data naming a server file: %s", w.Body)
	}
}

func TestRowRefusals(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	const notObject = "the body must be one JSON object of input columns, such as {\"mechanism\": \"gaussian\", \"sigma\": 2, \"baseline\": 0.01}\n"
	for _, tc := range []struct{ body, want string }{
		{`[1, 2]`, notObject},
		{`{"mu": 1`, notObject},
		{`{"mu": 1} {}`, notObject},
		{`{"mu": [1]}`, "mu: a cell is a string, a number, true, false or null, not a list or an object\n"},
		{`{"mu": 1, "mu": 2}`, "the column mu is given twice\n"},
		{`{"mu": 1e999}`, "mu: 1e999 is not a number riskbatch can hold\n"},
	} {
		check(t, tc.body, do(s, postRow(tc.body)), 400, tc.want)
	}
	r := postRow(`{"mu": 1}`)
	r.Header.Set("Content-Type", "text/plain")
	check(t, "text/plain", do(s, r), 415, "send the row as a JSON object, with Content-Type: application/json\n")
	check(t, "large", do(s, postRow(`{"note": "`+strings.Repeat("x", maxRowBody)+`"}`)), 413, "the row is larger than 1048576 bytes\n")
	check(t, "two mu", do(s, postRow(`{"mu": 1, "MU": 2}`)), 422, "columns \"mu\" and \"MU\" both name the input mu; keep one\n")
}

// TestCurve: f(α) = 1 − fdp_success at baseline α: from 1 at α = 0 down to
// 0 at α = 1, never above 1 − α, and the row's baseline on the grid with
// 1 − f(baseline) the row's fdp_success.
func TestCurve(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	body := `{"mu": 1, "baseline": 0.0123}`
	r := postRow(body)
	r.URL.Path = "/api/curve"
	w := do(s, r)
	var c struct {
		Alpha, F []float64
		Baseline *float64
	}
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil || w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if len(c.Alpha) != len(c.F) || c.Baseline == nil || *c.Baseline != 0.0123 {
		t.Fatalf("%d α, %d f, baseline %v", len(c.Alpha), len(c.F), c.Baseline)
	}
	if c.F[0] > 1 || c.F[0] < 0.99 || c.F[len(c.F)-1] != 0 {
		t.Errorf("f(0) = %v, f(1) = %v", c.F[0], c.F[len(c.F)-1])
	}
	for i := range c.Alpha {
		if i > 0 && (c.Alpha[i] <= c.Alpha[i-1] || c.F[i] > c.F[i-1]) {
			t.Errorf("at %d: α %v after %v, f %v after %v", i, c.Alpha[i], c.Alpha[i-1], c.F[i], c.F[i-1])
		}
		if c.F[i] > 1-c.Alpha[i]+1e-12 {
			t.Errorf("f(%v) = %v above 1 − α", c.Alpha[i], c.F[i])
		}
	}
	var row map[string]any
	json.Unmarshal(do(s, postRow(body)).Body.Bytes(), &row)
	k := slices.Index(c.Alpha, 0.0123)
	if d := 1 - c.F[k] - row["fdp_success"].(float64); d > 1e-15 || d < -1e-15 {
		t.Errorf("1 − f(baseline) = %v, fdp_success %v", 1-c.F[k], row["fdp_success"])
	}
	r = postRow(`{"sigma": -1}`)
	r.URL.Path = "/api/curve"
	if w := do(s, r); w.Code != 422 || !strings.Contains(w.Body.String(), "sigma") {
		t.Errorf("error row: %d %s", w.Code, w.Body)
	}
}

// TestColumns: the registry, every column once, inputs with choices.
func TestColumns(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	w := do(s, get("/api/columns"))
	var cols []column
	if err := json.Unmarshal(w.Body.Bytes(), &cols); err != nil {
		t.Fatal(err)
	}
	ev := evaluate.New()
	want := len(ev.Vocabulary().Columns()) + ev.Width()
	if len(cols) != want {
		t.Errorf("%d columns, want %d", len(cols), want)
	}
	names := map[string]column{}
	for _, c := range cols {
		if _, dup := names[c.Name]; dup || c.Meaning == "" || c.Kind == "" {
			t.Errorf("column %+v", c)
		}
		names[c.Name] = c
	}
	for _, o := range ev.Outputs() {
		c, ok := names[o.Name]
		if !ok || c.Formula != o.Formula || c.Paper != o.Citation || c.Applies != o.Applies.Text() {
			t.Errorf("%s: %+v", o.Name, c)
		}
	}
	if m := names["mechanism"]; !slices.Equal(m.Choices, release.MechanismNames()) || m.Kind != "input" {
		t.Errorf("mechanism: %+v", m)
	}
	if e := names["epsilon"]; !slices.Contains(e.Aliases, "eps") {
		t.Errorf("epsilon: %+v", e)
	}
	w = do(s, get("/api/mechanisms"))
	var ms []struct {
		Name   string
		Inputs []string
	}
	if err := json.Unmarshal(w.Body.Bytes(), &ms); err != nil || len(ms) != len(release.MechanismNames()) {
		t.Fatalf("mechanisms: %s", w.Body)
	}
	for _, m := range ms {
		for _, in := range m.Inputs {
			if names[in].Kind != "input" {
				t.Errorf("%s: %s is not an input column", m.Name, in)
			}
		}
	}
}

func TestTemplate(t *testing.T) {
	s, tmp := newTest(t, &fake{}, Config{})
	w := do(s, get("/api/template"))
	check(t, "template", w, 200, "PK template")
	if got := w.Header().Get("Content-Disposition"); got != `attachment; filename="releases.xlsx"` {
		t.Errorf("Content-Disposition %q", got)
	}
	empty(t, tmp, "after the template")
}

// TestSlowUpload: an upload that takes longer than the time limit is
// answered 408 and gives its slot back.
func TestSlowUpload(t *testing.T) {
	f := &fake{}
	s, tmp := newTest(t, f, Config{Timeout: 300 * time.Millisecond, Workers: 1})
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Start()
	defer ts.Close()
	body, ct := multipartBody(t, part{"file", "t.csv", "sigma\n1\n"})
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The headers and half the body, then nothing.
	fmt.Fprintf(conn, "POST /api/eval HTTP/1.1\r\nHost: 127.0.0.1:8421\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, body.Len())
	conn.Write(body.Bytes()[:body.Len()/2])
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 408 || string(got) != "the upload took longer than the time limit of 300ms per request\n" {
		t.Errorf("%d %q", resp.StatusCode, got)
	}
	// The slot is free again.
	check(t, "after the slow upload", do(s, evalRequest(t, part{"file", "t.csv", "x"})), 200, "evaluated:x")
	empty(t, tmp, "after the slow upload")
}

// TestSweep: the row again at a quarter to four times one input, and one
// output column of each: the row's own value at factor 1, fdp_success
// rising with μ, whole numbers for a whole input.
func TestSweep(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	sweep := func(query, body string) *httptest.ResponseRecorder {
		r := postRow(body)
		r.URL.Path, r.URL.RawQuery = "/api/sweep", query
		return do(s, r)
	}
	type result struct {
		Input, Column string
		Value         float64
		X             []float64
		Y             []*float64
	}
	check(t, "a column of text", sweep("input=mu&column=headline_says", `{"mu": 1, "baseline": 0.01}`), 400, "column headline_says: not a column of numbers, which a sweep draws\n")
	var got result
	w := sweep("input=mu&column=fdp_success", `{"mu": 1, "baseline": 0.01}`)
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if got.Input != "mu" || got.Column != "fdp_success" || got.Value != 1 || len(got.X) != 13 || len(got.Y) != 13 || got.X[6] != 1 || got.X[0] != 0.25 || got.X[12] != 4 {
		t.Fatalf("%+v", got)
	}
	var row map[string]any
	json.Unmarshal(do(s, postRow(`{"mu": 1, "baseline": 0.01}`)).Body.Bytes(), &row)
	if *got.Y[6] != row["fdp_success"] {
		t.Errorf("at the row's own μ: %v, /api/row %v", *got.Y[6], row["fdp_success"])
	}
	for i := 1; i < len(got.Y); i++ {
		if *got.Y[i] < *got.Y[i-1] {
			t.Errorf("fdp_success falls from μ %v to %v", got.X[i-1], got.X[i])
		}
	}
	w = sweep("input=compositions&column=fdp_success", `{"mu": 1, "baseline": 0.01, "compositions": 3}`)
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if !slices.Equal(got.X, []float64{1, 2, 3, 4, 5, 6, 8, 10, 12}) {
		t.Errorf("compositions %v", got.X)
	}
	for _, tc := range []struct {
		query, body string
		status      int
		want        string
	}{
		{"input=nope&column=fdp_success", `{"mu": 1}`, 400, "input nope: not an input column (see /api/columns)\n"},
		{"input=mu&column=status", `{"mu": 1}`, 400, "column status: not an output column (see /api/columns)\n"},
		{"input=mu&column=nope", `{"mu": 1}`, 400, "column nope: not an output column (see /api/columns)\n"},
		{"input=sigma&column=fdp_success", `{"mu": 1}`, 422, "the row has no sigma to vary\n"},
		{"input=mu&column=fdp_success", `{"mu": -1}`, 422, "mu must be a positive number to vary it\n"},
		{"input=mu&column=fdp_success", `{"mu": "x"}`, 422, "mu must be a positive number to vary it\n"},
	} {
		check(t, tc.query+" "+tc.body, sweep(tc.query, tc.body), tc.status, tc.want)
	}
}

// TestRowTimeLimit: /api/row and /api/sweep answer 503 once a row's
// evaluation passes the time limit, and the slot comes back once the
// evaluation ends (a row's cannot be stopped midway); a sweep stops
// between its points.
func TestRowTimeLimit(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{Workers: 2, Timeout: time.Millisecond})
	// A DP-SGD row of 3,000 steps: its accountant takes far longer than
	// a millisecond.
	const slow = `{"noise_multiplier": %v, "sample_rate": 0.01, "steps": 3000, "baseline": 0.01}`
	const limit = "the evaluation was stopped at the time limit of 1ms per request; evaluate this row with riskbatch eval\n"
	check(t, "row past the limit", do(s, postRow(fmt.Sprintf(slow, 1.37))), 503, limit)
	r := postRow(fmt.Sprintf(slow, 1.41))
	r.URL.Path, r.URL.RawQuery = "/api/sweep", "input=noise_multiplier&column=fdp_success"
	check(t, "sweep past the limit", do(s, r), 503, limit)
	// Both slots come back once the two evaluations end.
	deadline := time.Now().Add(30 * time.Second)
	for len(s.slots) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d slots still held 30 s after the time limits", len(s.slots))
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.cfg.Timeout = time.Minute
	if w := do(s, postRow(`{"mu": 1}`)); w.Code != 200 {
		t.Errorf("a row after the time limits: %d %s", w.Code, w.Body)
	}
}
