package main

import (
	"bytes"
	"context"
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

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/serve"
)

// chromiumPath finds Debian's chromium (or another Chrome); the browser
// test skips where there is none, and fails under CI=true (.ci/run
// installs it).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Absent(t, "chromium is not installed: the browser test of riskbatch serve needs it (apt-get install chromium)")
	return ""
}

// TestServeBrowser opens the page in a headless Chromium: it uploads the
// sample, sees the row count and the first row's status and message as
// riskbatch eval writes them, downloads the result with the page's CSV,
// Parquet and XLSX buttons and compares each file with eval's for the
// same options (an XLSX file part by part, sameWorkbook), types into the
// one-release form and sees
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
			// A poll of /api/progress that reaches the server after the
			// evaluation's request ended, and before the page has its
			// answer, is answered 404, which the browser logs: expected.
			if strings.Contains(m.URL, "/api/progress?") && strings.Contains(m.Text, "status of 404") {
				continue
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
	// typeInto replaces the text of a field by typing text into it, as a
	// user does: its input events go off. (chromedp.Clear sets the value
	// attribute, which no longer changes a field the user has typed into.)
	typeInto := func(id, text string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById(%q).value = ""`, id))); err != nil {
			t.Fatalf("clearing %s: %v", id, err)
		}
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID(id), text)); err != nil {
			t.Fatalf("typing into %s: %v", id, err)
		}
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
	rows := readback.ReadCSV(t, out, 0)
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

	// The downloads: the page's CSV button gives eval's file for the
	// page's options; with other options (two confidence levels), its
	// Parquet and XLSX buttons give eval's files for those.
	downloads := browserDownloads(t, ctx)
	dir := t.TempDir()
	in := filepath.Join(dir, "releases.csv")
	if err := os.WriteFile(in, readSample(t, "releases.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	evalOutput := func(format string, flags ...string) []byte {
		t.Helper()
		out := filepath.Join(dir, "cli."+format)
		args := append([]string{"eval", in, "-o", out, "-q"}, flags...)
		if code, stderr := riskbatchShared(t, args...); code != exitRowErrors {
			t.Fatalf("riskbatch %s: exit %d, %s", strings.Join(args, " "), code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if got, want := downloads.click("csv"), evalOutput("csv", "--confidence", "0.95"); !bytes.Equal(got, want) {
		t.Errorf("the page's CSV download (%d bytes) differs from riskbatch eval's output (%d bytes)", len(got), len(want))
	}
	typeInto("confidence", "0.5,0.95")
	if got, want := downloads.click("parquet"), evalOutput("parquet", "--confidence", "0.5,0.95"); !bytes.Equal(got, want) {
		t.Errorf("the page's Parquet download with confidence 0.5,0.95 (%d bytes) differs from riskbatch eval's output (%d bytes)", len(got), len(want))
	}
	sameWorkbook(t, "the page's XLSX download with confidence 0.5,0.95", downloads.click("xlsx"), evalOutput("xlsx", "--confidence", "0.5,0.95"))

	// One release: the curve and the message follow the typing.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-tab="release"]`)), chromedp.WaitVisible(chromedp.ID("curve-line"))); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("row-status").textContent !== "" && document.getElementById("sweep-line") !== null`)
	before, statusBefore := attr("#curve-line", "points"), text("#row-status")
	shot("release.png")
	typeInto("in-sigma", "4")
	sweepBefore := attr("#sweep-line", "points")
	poll(fmt.Sprintf(`document.getElementById("curve-line") !== null && document.getElementById("curve-line").getAttribute("points") !== %q`, before))
	poll(fmt.Sprintf(`document.getElementById("sweep-line") !== null && document.getElementById("sweep-line").getAttribute("points") !== %q`, sweepBefore))
	typeInto("in-sigma", "-1")
	poll(`document.getElementById("row-status").textContent.startsWith("error")`)
	if statusAfter := text("#row-status"); !strings.HasPrefix(statusBefore, "partial") || !strings.HasPrefix(statusAfter, "error: sigma: -1 ") {
		t.Errorf("one release: status %q, then with sigma -1 %q", statusBefore, statusAfter)
	}

	// Each output column links to its paper: the link leads to the
	// paper's entry in the column reference, with the theorem or
	// equation beside it (as the registry cites fdp_success, seed 003's
	// Thm 3.2, Eq. (10); the paper as docs/README.md names it).
	link := `#outputs tr[data-column="fdp_success"] a.paper-link`
	typeInto("in-sigma", "4")
	poll(fmt.Sprintf(`!document.getElementById("row-status").textContent.startsWith("error") && document.querySelector(%q) !== null`, link))
	if href := attr(link, "href"); href != "#paper-seed003" {
		t.Errorf("one release: fdp_success links to %q, want #paper-seed003", href)
	}
	if got := text(`#outputs tr[data-column="fdp_success"] td.paper`); got != "Kulynych et al. (seed003), Thm 3.2, Eq. (10)" {
		t.Errorf("one release: fdp_success's paper %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(link))); err != nil {
		t.Fatal(err)
	}
	poll(`!document.getElementById("tab-columns").hidden && document.getElementById("paper-seed003").classList.contains("target")`)
	if got := text("#paper-seed003"); !strings.Contains(got, `"Unifying Re-Identification, Attribute Inference, and Data Reconstruction Risks in Differential Privacy", NeurIPS 2025`) || !strings.Contains(got, "fdp_success") {
		t.Errorf("the entry of seed003: %q", got)
	}
	inView, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const r = document.getElementById("paper-seed003").getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()`))
	if err != nil || !inView {
		t.Errorf("the entry of seed003 is not in view after the link (%v)", err)
	}
	shot("papers.png")
	if href := attr(`#col-fdp_success a.paper-link`, "href"); href != "#paper-seed003" {
		t.Errorf("column reference: fdp_success links to %q, want #paper-seed003", href)
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

// pageDownloads clicks the page's download buttons and reads the files
// the browser saves.
type pageDownloads struct {
	t    *testing.T
	ctx  context.Context
	dir  string
	mu   sync.Mutex
	name map[string]string // suggested file name by download
	done chan string       // downloads completed
}

// browserDownloads makes the browser save downloads in a temporary
// folder, each under the id of its download, and report them.
func browserDownloads(t *testing.T, ctx context.Context) *pageDownloads {
	t.Helper()
	d := &pageDownloads{t: t, ctx: ctx, dir: t.TempDir(), name: map[string]string{}, done: make(chan string, 8)}
	err := chromedp.ListenBrowser(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *browser.EventDownloadWillBegin:
			d.mu.Lock()
			d.name[ev.GUID] = ev.SuggestedFilename
			d.mu.Unlock()
		case *browser.EventDownloadProgress:
			if ev.State == browser.DownloadProgressStateCompleted || ev.State == browser.DownloadProgressStateCanceled {
				select {
				case d.done <- ev.GUID + " " + string(ev.State):
				default:
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	events := true
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: d.dir, EventsEnabled: &events}); err != nil {
		t.Fatal(err)
	}
	return d
}

// click presses the download button of a format and returns the file the
// browser saved, named releases-risk.FORMAT as eval names its output.
func (d *pageDownloads) click(format string) []byte {
	d.t.Helper()
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.CSS(`button.dl[data-format="`+format+`"]`))); err != nil {
		d.t.Fatalf("download %s: %v", format, err)
	}
	var done string
	select {
	case done = <-d.done:
	case <-time.After(30 * time.Second):
		d.t.Fatalf("download %s: no file after 30 s", format)
	}
	guid, state, _ := strings.Cut(done, " ")
	if state != string(browser.DownloadProgressStateCompleted) {
		d.t.Fatalf("download %s: %s", format, state)
	}
	d.mu.Lock()
	name := d.name[guid]
	d.mu.Unlock()
	if want := "releases-risk." + format; name != want {
		d.t.Errorf("download %s: named %q, want %q", format, name, want)
	}
	b, err := os.ReadFile(filepath.Join(d.dir, guid))
	if err != nil {
		d.t.Fatalf("download %s: %v", format, err)
	}
	return b
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
