package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/serve"
)

// newServeTest is the server riskbatch serve runs, wired as the command
// wires it (its runs sharing the tests' caches), with a temporary folder
// of the test's own.
func newServeTest(t *testing.T) (*serve.Server, string) {
	t.Helper()
	tmp := t.TempDir()
	s, err := serve.New(serve.Config{EvalFile: serveEval(evaluate.WithCachesOf(sharedCaches)), Template: serveTemplate, TempDir: tmp, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return s, tmp
}

// upload is a file of a request: its field, name and content.
type upload struct {
	field, name string
	content     []byte
}

// postEval sends files and fields to /api/eval and returns the answer.
func postEval(t *testing.T, s *serve.Server, files []upload, fields ...string) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range files {
		w, err := mw.CreateFormFile(f.field, f.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.content)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	mw.Close()
	r := httptest.NewRequest("POST", "http://127.0.0.1:8421/api/eval", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	return w
}

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestServeEvalSameBytes: the download is, byte for byte, the file
// riskbatch eval writes for the same table and flags; an XLSX file apart
// from what differs between two runs of eval itself (sameWorkbook).
func TestServeEvalSameBytes(t *testing.T) {
	s, tmp := newServeTest(t)
	for _, tc := range []struct {
		input, format string
		flags         []string
	}{
		{"releases.csv", "csv", nil},
		{"releases.csv", "tsv", []string{"confidence", "0.5,0.95", "columns", "fdp_*,onerun"}},
		{"releases.csv", "parquet", nil},
		{"releases.parquet", "parquet", []string{"columns", "seed003"}},
		{"releases.xlsx", "xlsx", nil},
	} {
		name := tc.input + " → " + tc.format + " " + strings.Join(tc.flags, " ")
		w := postEval(t, s, []upload{{"file", tc.input, readSample(t, tc.input)}}, append([]string{"format", tc.format}, tc.flags...)...)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", name, w.Code, w.Body)
		}
		stem := strings.TrimSuffix(tc.input, filepath.Ext(tc.input))
		if got, want := w.Header().Get("Content-Disposition"), "attachment; filename="+stem+"-risk."+tc.format; got != want {
			t.Errorf("%s: Content-Disposition %q, want %q", name, got, want)
		}
		// eval on a copy of the table in a folder of its own.
		dir := t.TempDir()
		in := filepath.Join(dir, tc.input)
		if err := os.WriteFile(in, readSample(t, tc.input), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "cli."+tc.format)
		args := []string{"eval", in, "-o", out, "-q"}
		for i := 0; i+1 < len(tc.flags); i += 2 {
			args = append(args, "--"+tc.flags[i], tc.flags[i+1])
		}
		if code, stderr := riskbatchShared(t, args...); code != exitRowErrors {
			t.Fatalf("%s: riskbatch eval: exit %d, %s", name, code, stderr)
		}
		want, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if tc.format == "xlsx" {
			sameWorkbook(t, name, w.Body.Bytes(), want)
		} else if !bytes.Equal(w.Body.Bytes(), want) {
			t.Errorf("%s: the download (%d bytes) differs from riskbatch eval's output (%d bytes)", name, w.Body.Len(), len(want))
		}
	}
	empty(t, tmp)
}

// sameWorkbook compares two XLSX files part by part: equal bytes, apart
// from the times of writing (docProps/core.xml) and the order of the
// Default entries of [Content_Types].xml, which excelize writes from a
// map (two runs of riskbatch eval differ in both).
func sameWorkbook(t *testing.T, name string, got, want []byte) {
	t.Helper()
	parts := func(b []byte) map[string]string {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := map[string]string{}
		for _, e := range testfiles.ZipEntries(t, name, zr) {
			s := string(e.Data)
			switch e.Name {
			case "docProps/core.xml":
				s = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`).ReplaceAllString(s, "TIME")
			case "[Content_Types].xml":
				entries := regexp.MustCompile(`<(Default|Override) [^>]*></(Default|Override)>`).FindAllString(s, -1)
				slices.Sort(entries)
				s = strings.Join(entries, "\n")
			}
			m[e.Name] = s
		}
		return m
	}
	g, w := parts(got), parts(want)
	if len(g) != len(w) {
		t.Errorf("%s: %d parts, eval's %d", name, len(g), len(w))
	}
	for p, ws := range w {
		if g[p] != ws {
			t.Errorf("%s: part %s differs from eval's", name, p)
		}
	}
}

// empty fails unless dir has no entry: the requests' folders are gone.
func empty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left in the temporary folder: %s", e.Name())
	}
}

// TestServeCellFiles: a pmp_data cell may name a file uploaded with the
// table, read as eval reads the file beside its input; any other name is
// an error of its row saying so, and no answer names the server's folder.
func TestServeCellFiles(t *testing.T) {
	s, tmp := newServeTest(t)
	secretDir := t.TempDir()
	secret := filepath.Join(secretDir, "secret.csv")
	vals := "x,y\n0.1,0.2\n0.4,0.1\n0.3,0.3\n0.2,0.5\n"
	if err := os.WriteFile(secret, []byte(vals), 0o644); err != nil {
		t.Fatal(err)
	}
	table := "id,sigma,delta,baseline,pmp_data\nr1,1,1e-5,0.5,vals.csv\nr2,1,1e-5,0.5," + secret + "\nr3,1,1e-5,0.5,../secret.csv\nr4,1,1e-5,0.5,in.csv\n"
	w := postEval(t, s, []upload{{"file", "in.csv", []byte(table)}, {"data", "vals.csv", []byte(vals)}}, "format", "csv")
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	got := w.Body.String()
	if strings.Contains(got, tmp) || strings.Contains(got, "0.4,0.1") {
		t.Errorf("the output names the server's folder or quotes a file:\n%s", got)
	}
	// eval with vals.csv beside the table.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "vals.csv"), vals)
	in := writeFile(t, filepath.Join(dir, "in.csv"), table)
	out := filepath.Join(dir, "out.csv")
	riskbatchShared(t, "eval", in, "-o", out, "-q")
	cli, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	gotLines, cliLines := strings.Split(got, "\n"), strings.Split(string(cli), "\n")
	if gotLines[0] != cliLines[0] || gotLines[1] != cliLines[1] || !strings.Contains(gotLines[1], ",ok,") {
		t.Errorf("the row naming an uploaded file:\n%s\neval:\n%s", gotLines[1], cliLines[1])
	}
	for i, ref := range []string{secret, "../secret.csv", "in.csv"} {
		want := ",error,pmp_data: " + ref + " is not a file uploaded with the table; a cell may name only those (field data),"
		if line := gotLines[2+i]; !strings.Contains(line, want) {
			t.Errorf("row naming %s: %s", ref, line)
		}
	}
	empty(t, tmp)
}

// TestServeEvalRefused: a table eval refuses is 422 with eval's message,
// the table named by its own name.
func TestServeEvalRefused(t *testing.T) {
	s, tmp := newServeTest(t)
	w := postEval(t, s, []upload{{"file", "other.csv", []byte("foo,bar\n1,2\n")}})
	if w.Code != 422 || !strings.HasPrefix(w.Body.String(), "other.csv") || strings.Contains(w.Body.String(), tmp) || strings.Contains(w.Body.String(), string(filepath.Separator)+"in"+string(filepath.Separator)) {
		t.Errorf("%d %s", w.Code, w.Body)
	}
	w = postEval(t, s, []upload{{"file", "r.csv", []byte("sigma,baseline\n1,0.01\n")}}, "confidence", "2")
	if w.Code != 422 || !strings.HasPrefix(w.Body.String(), "--confidence: ") {
		t.Errorf("--confidence 2: %d %s", w.Code, w.Body)
	}
	empty(t, tmp)
}

// TestServeTemplate: /api/template is the workbook riskbatch template
// writes.
func TestServeTemplate(t *testing.T) {
	s, tmp := newServeTest(t)
	r := httptest.NewRequest("GET", "http://127.0.0.1:8421/api/template", nil)
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	out := filepath.Join(t.TempDir(), "releases.xlsx")
	if code, stderr := riskbatchShared(t, "template", "-q", "-o", out); code != exitOK {
		t.Fatalf("template: %d %s", code, stderr)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sameWorkbook(t, "template", w.Body.Bytes(), want)
	empty(t, tmp)
}

// TestServeCommand: riskbatch serve listens, prints its address with the
// token, answers with it only, and stops when its context is done.
func TestServeCommand(t *testing.T) {
	if code, stderr := riskbatchShared(t, "serve", "x.csv"); code != exitUsage || !strings.Contains(stderr, "serve takes no file") {
		t.Errorf("serve x.csv: %d %s", code, stderr)
	}
	if code, stderr := riskbatchShared(t, "serve", "--max-upload", "lots"); code != exitUsage || !strings.Contains(stderr, "--max-upload lots") {
		t.Errorf("--max-upload lots: %d %s", code, stderr)
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	app := newApp(nil, pw, io.Discard)
	done := make(chan error, 1)
	go func() {
		done <- app.RunContext(ctx, []string{"riskbatch", "serve", "--port", "0", "--token", "t0k", "--workers", "1"})
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^riskbatch: serving (http://127\.0\.0\.1:\d+/)\?token=t0k \(Ctrl-C to stop\)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("printed %q", line)
	}
	go io.Copy(io.Discard, pr)
	client := &http.Client{Timeout: 10 * time.Second}
	for token, want := range map[string]int{"": 401, "?token=t0k": 200} {
		resp, err := client.Get(m[1] + "healthz" + token)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET /healthz%s: %d, want %d", token, resp.StatusCode, want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestServeEvalFlagsExist: every eval flag a request to the page may set
// as a form field (serve.EvalFlags) is a flag of riskbatch eval, so that a
// renamed flag cannot leave the page accepting a field eval refuses.
func TestServeEvalFlagsExist(t *testing.T) {
	names := map[string]bool{}
	for _, f := range evalFlags() {
		for _, n := range f.Names() {
			names[n] = true
		}
	}
	for _, n := range serve.EvalFlags() {
		if !names[n] {
			t.Errorf("serve.EvalFlags names %q, which is not a flag of riskbatch eval", n)
		}
	}
}
