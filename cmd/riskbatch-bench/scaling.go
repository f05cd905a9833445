package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

// scalingCase is one input of the scaling benchmark: a kind of generated
// rows and how many.
type scalingCase struct {
	name string
	kind benchinput.Kind
	rows int
}

// scalingCases are the inputs of onlyScaling for rows closed-form rows:
// the closed-form sweep (bound by reading and writing), and three
// evaluation-bound kinds (zCDP's numerical conversion, DP-SGD rows from
// cached accountants, one-run tails of 100 targets), fewer rows each.
func scalingCases(rows int) []scalingCase {
	return []scalingCase{
		{"closed-form, CSV → Parquet", benchinput.ClosedForm(), rows},
		{"zCDP (evaluation-bound)", benchinput.Heavy(), max(rows/50, 1000)},
		{"DP-SGD (evaluation-bound)", benchinput.DPSGD(), max(rows/50, 1000)},
		{"one-run tail, 100 targets (evaluation-bound)", benchinput.Tail(), max(rows/4, 1000)},
	}
}

// onlyScaling measures `riskbatch eval` with --workers 1 and 2 on each
// scaling case, best of repeat runs each, and prints a table of the times
// and the speed-up of two workers over one, with the machine's load
// average before and after, and the CPU time of the runs (user and
// system, least of the runs): two workers gain at most what a second core
// adds to one worker's run, which already reads, writes and collects
// garbage on the other core; a CPU time of one worker near twice its wall
// time leaves them nothing.
func onlyScaling(rows, repeat int, bin, dir string) error {
	dir, bin, cleanup, err := prepare(dir, bin)
	if err != nil {
		return err
	}
	defer cleanup()
	fmt.Printf("--workers 1 against 2, best of %d runs each (load average %s before)\n\n", max(repeat, 1), loadAverage())
	defer func() { fmt.Printf("\n(load average %s after)\n", loadAverage()) }()
	fmt.Println("| case | rows | --workers 1 (s) | --workers 2 (s) | rows/s, 2 workers | speed-up | CPU, 1 / 2 workers (s) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for i, c := range scalingCases(rows) {
		in := filepath.Join(dir, fmt.Sprintf("scaling%d.csv", i))
		if err := benchinput.WriteCSV(in, c.kind, c.rows); err != nil {
			return err
		}
		// Rounds of one run with each worker count, so that a burst of
		// the machine's other load hits both alike.
		var best, cpu [2]time.Duration
		for range max(repeat, 1) {
			for w := range best {
				r, err := measure(bin, c.name, c.rows, 0, "eval", in, "-o", filepath.Join(dir, "scaling.parquet"), "-q", "--force", "--workers", fmt.Sprint(w+1))
				if err != nil {
					return err
				}
				if best[w] == 0 || r.elapsed < best[w] {
					best[w] = r.elapsed
				}
				if cpu[w] == 0 || r.cpu < cpu[w] {
					cpu[w] = r.cpu
				}
			}
		}
		fmt.Fprintf(os.Stderr, "%-46s --workers 1: %.2fs, 2: %.2fs (load %s)\n", c.name, best[0].Seconds(), best[1].Seconds(), loadAverage())
		fmt.Printf("| %s | %d | %.2f | %.2f | %.0f | %.2f× | %.2f / %.2f |\n", c.name, c.rows, best[0].Seconds(), best[1].Seconds(),
			float64(c.rows)/best[1].Seconds(), best[0].Seconds()/best[1].Seconds(), cpu[0].Seconds(), cpu[1].Seconds())
	}
	return nil
}
