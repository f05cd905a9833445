package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows rows done and rows per second on stderr while a run goes,
// when stderr is a terminal and --quiet is off.
type progress struct {
	bar *progressbar.ProgressBar
}

func newProgress(stderr io.Writer, quiet bool) *progress {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	bar := progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("evaluating"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("rows"),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
	)
	return &progress{bar: bar}
}

func (p *progress) add(n int) {
	if p.bar != nil {
		p.bar.Add(n)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
