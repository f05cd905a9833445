package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/serve"
)

// chromiumPath finds Debian's chromium (or another Chrome); the browser
// test skips where there is none, and fails under CI=true (.ci/run
// installs it).
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: the browser test of riskbatch serve needs it (apt-get install chromium)")
	}
	t.Skip("chromium is not installed: the browser test of riskbatch serve needs it (apt-get install chromium)")
	return ""
}

// TestServeBrowser opens the page in a headless Chromium: it uploads the
// sample, sees the row count and the first row's status and message as
// riskbatch eval writes them, types into the one-release form and sees
// the message and the curve change, searches the column reference, and
// fails on any error in the browser's console. A screenshot of each tab
// is written in the test's temporary folder (or RISKBATCH_SCREENSHOTS).
func TestServeBrowser(t *testing.T) {
	chrome := chromiumPath(t)
	shots := os.Getenv("RISKBATCH_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	ts := httptest.NewUnstartedServer(nil)
	addr := ts.Listener.Addr().String()
	srv, err := serve.New(serve.Config{Addr: addr, Token: "browser-token", EvalFile: serveEval(evaluate.WithCachesOf(sharedCaches)),
		Template: serveTemplate, TempDir: t.TempDir(), Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = srv.Handler()
	ts.Start()
	defer ts.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.WindowSize(1280, 900))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	// Every console message of warning or error level, every exception
	// and every error of the browser's log (a refused request, a blocked
	// script) is a failure.
	if err := chromedp.Do(ctx); err != nil { // start the browser
		t.Fatalf("starting %s: %v", chrome, err)
	}
	var mu sync.Mutex
	var problems []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			switch m.Type {
			case chromedp.ConsoleWarning, chromedp.ConsoleError, chromedp.ConsoleException:
				mu.Lock()
				problems = append(problems, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
				mu.Unlock()
			}
		}
	}()
	shot := func(name string) {
		t.Helper()
		buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	attr := func(sel, name string) string {
		t.Helper()
		a, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(sel), name))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return a.Value
	}
	poll := func(expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("waiting for %s: %v (console: %q)", expr, err, problems)
		}
	}

	// The sample evaluated by riskbatch eval: the rows to see.
	sample, err := filepath.Abs(filepath.Join("..", "..", "samples", "releases.csv"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "cli.csv")
	if code, stderr := riskbatchShared(t, "eval", sample, "-o", out, "-q"); code != exitRowErrors {
		t.Fatalf("eval: %d %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	status := indexOf(rows[0], "status")

	err = chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?token=browser-token"),
		chromedp.WaitVisible(chromedp.ID("file")),
		chromedp.SetUploadFiles(chromedp.ID("file"), []string{sample}),
		chromedp.Click(chromedp.ID("run")),
		chromedp.WaitVisible(chromedp.CSS("#rows tbody tr")),
	)
	if err != nil {
		t.Fatalf("evaluating the sample in the page: %v", err)
	}
	shot("evaluate.png")
	if got, want := text("#page"), fmt.Sprintf("(%d rows)", len(rows)-1); !strings.Contains(got, want) {
		t.Errorf("the page says %q, want %q", got, want)
	}
	shownStatus, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("#rows thead th")].findIndex((th) => th.textContent === "status")`))
	if err != nil || shownStatus < 0 {
		t.Fatalf("no status column on the page (%v)", err)
	}
	firstStatus := text(fmt.Sprintf("#rows tbody tr:first-child td:nth-child(%d)", shownStatus+1))
	firstMessage := text(fmt.Sprintf("#rows tbody tr:first-child td:nth-child(%d)", shownStatus+2))
	if firstStatus != rows[1][status] || firstMessage != rows[1][status+1] {
		t.Errorf("first row: %q %q, eval wrote %q %q", firstStatus, firstMessage, rows[1][status], rows[1][status+1])
	}
	// Every cell of the first page is eval's: a number's full value is
	// its title, its text the value rounded.
	type shown struct {
		Header []string
		Rows   [][]string
	}
	page, err := chromedp.Run(ctx, chromedp.Evaluate[shown](`({
		header: [...document.querySelectorAll("#rows thead th")].map((th) => th.textContent),
		rows: [...document.querySelectorAll("#rows tbody tr")].map((tr) => [...tr.children].map((td) => td.title || td.textContent)),
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) != min(50, len(rows)-1) || !slices.Contains(page.Header, "message") {
		t.Errorf("the first page shows %d rows, columns %q", len(page.Rows), page.Header)
	}
	bounds := 0 // output cells with a value, compared below
	for j, name := range page.Header {
		k := indexOf(rows[0], name)
		if k < 0 {
			t.Errorf("the page shows a column %q that eval did not write", name)
			continue
		}
		for i, r := range page.Rows {
			if r[j] != rows[1+i][k] {
				t.Errorf("row %d, %s: the page shows %q, eval wrote %q", i+1, name, r[j], rows[1+i][k])
			}
			if k > status+1 && r[j] != "" {
				bounds++
			}
		}
	}
	if bounds == 0 {
		t.Errorf("the first page shows no output value (columns %q)", page.Header)
	}
	errorRows := 0
	for _, r := range rows[1:] {
		if r[status] == "error" {
			errorRows++
		}
	}
	if got := text("#counts"); !strings.Contains(got, fmt.Sprintf("%d error", errorRows)) {
		t.Errorf("counts %q, want %d error rows", got, errorRows)
	}
	marked, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll("#rows tr.st-error"), chromedp.AtLeast(0)))
	if err != nil {
		t.Fatal(err)
	}
	if onFirstPage := countStatus(rows[1:min(len(rows), 51)], status, "error"); len(marked) != onFirstPage {
		t.Errorf("%d rows marked as errors on the first page, want %d", len(marked), onFirstPage)
	}

	// One release: the curve and the message follow the typing.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-tab="release"]`)), chromedp.WaitVisible(chromedp.ID("curve-line"))); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("row-status").textContent !== "" && document.getElementById("sweep-line") !== null`)
	before, statusBefore := attr("#curve-line", "points"), text("#row-status")
	shot("release.png")
	if err := chromedp.Do(ctx, chromedp.Clear(chromedp.ID("in-sigma")), chromedp.SendKeys(chromedp.ID("in-sigma"), "4")); err != nil {
		t.Fatal(err)
	}
	sweepBefore := attr("#sweep-line", "points")
	poll(fmt.Sprintf(`document.getElementById("curve-line") !== null && document.getElementById("curve-line").getAttribute("points") !== %q`, before))
	poll(fmt.Sprintf(`document.getElementById("sweep-line") !== null && document.getElementById("sweep-line").getAttribute("points") !== %q`, sweepBefore))
	if err := chromedp.Do(ctx, chromedp.Clear(chromedp.ID("in-sigma")), chromedp.SendKeys(chromedp.ID("in-sigma"), "-1")); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("row-status").textContent.startsWith("error")`)
	if statusAfter := text("#row-status"); !strings.HasPrefix(statusBefore, "partial") || !strings.Contains(statusAfter, "sigma") {
		t.Errorf("one release: status %q, then with sigma -1 %q", statusBefore, statusAfter)
	}

	// The column reference, searched.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-tab="columns"]`)), chromedp.SendKeys(chromedp.ID("search"), "fdp_success"),
		chromedp.WaitVisible(chromedp.ID("col-fdp_success"))); err != nil {
		t.Fatal(err)
	}
	shot("columns.png")
	if got := text("#column-count"); !strings.Contains(got, " of ") || strings.HasPrefix(got, "0 of") {
		t.Errorf("column count %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("browser console: %s", p)
	}
	t.Logf("screenshots in %s", shots)
}

// countStatus counts the rows of a status.
func countStatus(rows [][]string, col int, status string) int {
	n := 0
	for _, r := range rows {
		if r[col] == status {
			n++
		}
	}
	return n
}

// indexOf is the index of name in names, -1 if absent.
func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}
