package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

// accountantCase is one `riskbatch eval --workers 1` run of the accountant
// table: a generated input, its rows, and the columns asked for.
type accountantCase struct {
	name    string
	kind    benchinput.Kind
	rows    int
	columns string
	target  time.Duration // the most a row may take (the target: 25 ms a sweep configuration, 0.15 s a calibration), 0 for none
	// reference: dp_accounting is run on the same rows too (the sweep).
	reference bool
}

// accountantCases are the DP-SGD sweep (60 distinct configurations, each
// a PLD accountant) read for one column and for the accountant's error
// (which builds a second accountant on a grid twice as coarse), and noise
// calibrations (a dozen accountants a row), calibrationRows rows.
func accountantCases(calibrationRows int) []accountantCase {
	return []accountantCase{
		{"DP-SGD sweep, fdp_worst_advantage", benchinput.Sweep(), 60, "fdp_worst_advantage", 25 * time.Millisecond, true},
		{"DP-SGD sweep, fdp_composition_error", benchinput.Sweep(), 60, "fdp_composition_error", 0, false},
		{"calibration, fdp_noise_for_target", benchinput.Calibration(), calibrationRows, "fdp_noise_for_target", 150 * time.Millisecond, false},
	}
}

// onlyAccountant measures the rows that wait for the PLD accountant: each
// case's input through `riskbatch eval --workers 1 --columns …`, repeat
// rounds of every case in turn (so that a burst of the machine's other
// load hits them alike), and prints the median wall time and CPU time
// (user and system) per row. One worker still uses two cores while it
// builds an accountant (its two directions are composed at once), so on
// a loaded machine the CPU time is the steadier figure; the load average
// is printed before and after. With dpAccounting (the python/dp_accounting
// folder of google/differential-privacy's sources, run by python), each
// round also runs dp_accounting's PLD accountant on the sweep's rows, and
// the table gives its times per row and the ratios (the target:
// 20×).
func onlyAccountant(calibrationRows, repeat int, bin, dir, python, dpAccounting string) error {
	dir, bin, cleanup, err := prepare(dir, bin)
	if err != nil {
		return err
	}
	defer cleanup()
	cases := accountantCases(calibrationRows)
	inputs := make([]string, len(cases))
	for i, c := range cases {
		inputs[i] = filepath.Join(dir, fmt.Sprintf("accountant%d.csv", i))
		if err := benchinput.WriteCSV(inputs[i], c.kind, c.rows); err != nil {
			return err
		}
	}
	fmt.Printf("riskbatch eval --workers 1, median of %d runs (load average %s before)\n\n", max(repeat, 1), loadAverage())
	wall := make([][]time.Duration, len(cases))
	cpu := make([][]time.Duration, len(cases))
	var refWall, refCPU []time.Duration
	for range max(repeat, 1) {
		for i, c := range cases {
			r, err := measure(bin, c.name, c.rows, 0, "eval", inputs[i], "-o", filepath.Join(dir, "accountant-out.csv"), "-q", "--force", "--workers", "1", "--columns", c.columns)
			if err != nil {
				return err
			}
			wall[i] = append(wall[i], r.elapsed)
			cpu[i] = append(cpu[i], r.cpu)
			fmt.Fprintf(os.Stderr, "%-40s %6.2fs wall %6.2fs CPU (load %s)\n", c.name, r.elapsed.Seconds(), r.cpu.Seconds(), loadAverage())
			if c.reference && dpAccounting != "" {
				w, u, err := dpAccountingTimes(python, dpAccounting, dir, inputs[i])
				if err != nil {
					return err
				}
				refWall, refCPU = append(refWall, w), append(refCPU, u)
				fmt.Fprintf(os.Stderr, "%-40s %6.2fs wall %6.2fs CPU (load %s)\n", "dp_accounting, the same rows", w.Seconds(), u.Seconds(), loadAverage())
			}
		}
	}
	fmt.Println("| case | rows | wall per row (ms) | CPU per row (ms) | target per row (ms) | dp_accounting: wall / CPU per row (ms) | ratio: wall / CPU (target 20×) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for i, c := range cases {
		target, ref, ratio := "—", "—", "—"
		if c.target > 0 {
			target = fmt.Sprint(c.target.Milliseconds())
		}
		perRow := func(d []time.Duration) float64 { return median(d).Seconds() * 1000 / float64(c.rows) }
		if c.reference && len(refWall) > 0 {
			ref = fmt.Sprintf("%.0f / %.0f", perRow(refWall), perRow(refCPU))
			ratio = fmt.Sprintf("%.1f× / %.1f×", perRow(refWall)/perRow(wall[i]), perRow(refCPU)/perRow(cpu[i]))
		}
		fmt.Printf("| %s | %d | %.0f | %.0f | %s | %s | %s |\n", c.name, c.rows, perRow(wall[i]), perRow(cpu[i]), target, ref, ratio)
	}
	fmt.Printf("\n(load average %s after)\n", loadAverage())
	return nil
}

// median returns the median of d (the lower middle of an even count).
func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
