package serve

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// A progress ID as the page draws it: 128 bits in hex.
const (
	progressID = "0123456789abcdef0123456789ABCDEF"
	otherID    = "fedcba9876543210fedcba9876543210"
)

// TestProgress: an evaluation posted with ?progress=ID is told to report
// its progress, which /api/progress?id=ID answers while it runs and 404
// once it ended; an evaluation without ID is not.
func TestProgress(t *testing.T) {
	f := &fake{}
	s, tmp := newTest(t, f, Config{Workers: 2})
	reported, finish := make(chan struct{}), make(chan struct{})
	f.evalHook = func(ctx context.Context, req EvalRequest) error {
		if req.Progress == nil {
			return os.WriteFile(req.Output, []byte("untracked"), 0o600)
		}
		req.Progress(10, 50, 200)
		reported <- struct{}{}
		<-finish
		req.Progress(20, 300, -1) // a table whose size is not known
		reported <- struct{}{}
		<-finish
		return os.WriteFile(req.Output, []byte("done"), 0o600)
	}
	r := evalRequest(t, part{"file", "t.csv", "x,y\n1,2\n"})
	length := r.ContentLength
	r.URL.RawQuery = "progress=" + progressID
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- do(s, r) }()
	<-reported
	w := do(s, get("/api/progress?id="+progressID))
	check(t, "progress", w, 200, fmt.Sprintf(`{"phase":"evaluate","uploaded":%d,"upload_size":%d,"rows":10,"read":50,"size":200,"fraction":0.25}`+"\n", length, length))
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	if strings.Contains(w.Body.String(), tmp) {
		t.Errorf("the answer names the server's folder: %s", w.Body)
	}
	check(t, "another id", do(s, get("/api/progress?id="+otherID)), 404, "no evaluation is running under this id\n")
	// A second evaluation under the same ID is refused; one without an ID
	// runs untracked.
	r2 := evalRequest(t, part{"file", "t.csv", "x"})
	r2.URL.RawQuery = "progress=" + progressID
	check(t, "same id twice", do(s, r2), 409, "progress: another evaluation is running under this id; draw a new one\n")
	check(t, "untracked", do(s, evalRequest(t, part{"file", "t.csv", "x"})), 200, "untracked")
	finish <- struct{}{}
	<-reported
	check(t, "size unknown", do(s, get("/api/progress?id="+progressID)), 200,
		fmt.Sprintf(`{"phase":"evaluate","uploaded":%d,"upload_size":%d,"rows":20,"read":300,"size":null,"fraction":null}`+"\n", length, length))
	finish <- struct{}{}
	check(t, "tracked eval", <-first, 200, "done")
	check(t, "after the end", do(s, get("/api/progress?id="+progressID)), 404, "no evaluation is running under this id\n")
	if n := len(s.progress.runs); n != 0 {
		t.Errorf("%d progress entries left after the requests ended", n)
	}
	empty(t, tmp, "after the evaluations")
}

// TestProgressUpload: while the body arrives the phase is upload, with the
// bytes received (no fraction when the client sent no length), and an ID
// is forgotten when its client goes away.
func TestProgressUpload(t *testing.T) {
	f := &fake{}
	s, tmp := newTest(t, f, Config{})
	body, ct := multipartBody(t, part{"file", "t.csv", strings.Repeat("x,y\n", 1000)})
	pr, pw := io.Pipe()
	r := httptest.NewRequest("POST", "http://127.0.0.1:8421/api/eval?progress="+progressID, pr)
	r.Header.Set("Content-Type", ct)
	r.ContentLength = -1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r = r.WithContext(ctx)
	done := make(chan struct{})
	go func() { do(s, r); close(done) }()
	const first = 1000
	if _, err := pw.Write(body.Bytes()[:first]); err != nil {
		t.Fatal(err)
	}
	// The handler has read the bytes written once Write returned; the
	// counter is added to as Read returns, so wait for it.
	want := fmt.Sprintf(`{"phase":"upload","uploaded":%d,"upload_size":null,"rows":0,"read":0,"size":null,"fraction":null}`+"\n", first)
	var w *httptest.ResponseRecorder
	for range 1000 {
		if w = do(s, get("/api/progress?id="+progressID)); w.Body.String() == want {
			break
		}
		time.Sleep(time.Millisecond)
	}
	check(t, "uploading", w, 200, want)
	cancel()
	pw.CloseWithError(context.Canceled)
	<-done
	check(t, "client gone", do(s, get("/api/progress?id="+progressID)), 404, "no evaluation is running under this id\n")
	empty(t, tmp, "after the client went away")
}

// TestProgressRefusals: malformed IDs, and the checks of every endpoint.
func TestProgressRefusals(t *testing.T) {
	s, _ := newTest(t, &fake{}, Config{})
	const badID = "id must be 32 to 64 letters, digits, - or _, drawn at random by the page\n"
	for _, q := range []string{"", "?id=", "?id=short", "?id=" + progressID + "%2F..", "?id=" + strings.Repeat("a", 65), "?id=" + strings.Repeat("é", 16)} {
		check(t, "progress"+q, do(s, get("/api/progress"+q)), 400, badID)
	}
	check(t, "unknown id", do(s, get("/api/progress?id="+progressID)), 404, "no evaluation is running under this id\n")
	check(t, "POST", do(s, httptest.NewRequest("POST", "http://127.0.0.1:8421/api/progress?id="+progressID, nil)), 405, "Method Not Allowed\n")
	const badEval = "progress must be one id of 32 to 64 letters, digits, - or _, drawn at random\n"
	for _, q := range []string{"progress=", "progress=short", "progress=" + progressID + "&progress=" + otherID} {
		r := evalRequest(t, part{"file", "t.csv", "x"})
		r.URL.RawQuery = q
		check(t, "eval?"+q, do(s, r), 400, badEval)
	}
	r := get("/api/progress?id=" + progressID)
	r.Host = "evil.example:8421"
	check(t, "foreign Host", do(s, r), 403, "Host evil.example:8421 is not this server's address (127.0.0.1:8421) nor a loopback name: refused (DNS rebinding)\n")

	f := &fake{}
	s, _ = newTest(t, f, Config{Addr: "0.0.0.0:8421", Token: "s3cret"})
	started, finish := make(chan struct{}), make(chan struct{})
	f.evalHook = func(ctx context.Context, req EvalRequest) error {
		close(started)
		<-finish
		return os.WriteFile(req.Output, nil, 0o600)
	}
	er := evalRequest(t, part{"file", "t.csv", "x"})
	er.Host = "myhost.example:8421"
	er.URL.RawQuery = "progress=" + progressID + "&token=s3cret"
	done := make(chan struct{})
	go func() { do(s, er); close(done) }()
	<-started
	r = get("/api/progress?id=" + progressID)
	r.Host = "myhost.example:8421"
	check(t, "no token", do(s, r), 401, "a token is required: open the address riskbatch serve printed (with ?token=), or send Authorization: Bearer TOKEN\n")
	r = get("/api/progress?id=" + progressID)
	r.Host = "myhost.example:8421"
	r.Header.Set("Authorization", "Bearer s3cret")
	if w := do(s, r); w.Code != 200 {
		t.Errorf("with the token: %d %s", w.Code, w.Body)
	}
	close(finish)
	<-done
}
