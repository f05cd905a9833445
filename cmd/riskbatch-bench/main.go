// Command riskbatch-bench measures riskbatch end to end on generated inputs
// and prints a table of wall time, rows per second and peak memory (RSS)
// for each case, next to the pass-through baseline that reads and writes
// the same files without evaluating:
//
//	go run ./cmd/riskbatch-bench                 # 10⁶ rows
//	go run ./cmd/riskbatch-bench -rows 100000    # quicker
//	go run ./cmd/riskbatch-bench -big            # adds 10⁷-row Parquet → Parquet
//	go run ./cmd/riskbatch-bench -scaling        # --workers 1 against 2
//	go run ./cmd/riskbatch-bench -ratios         # only the ratios to DuckDB's copy of the file
//	go run ./cmd/riskbatch-bench -accountant     # only the DP-SGD sweep and noise calibration
//	go run ./cmd/riskbatch-bench -accountant -dp-accounting DIR -python /usr/bin/python3   # and dp_accounting on the sweep
//
// It builds riskbatch from this module (or uses -bin), runs each case as a
// separate process, and reads the peak RSS from the process's resource
// usage, so the figures are those a user sees.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

func main() {
	rows := flag.Int("rows", 1_000_000, "rows of the generated inputs")
	big := flag.Bool("big", false, "also run 10⁷-row Parquet → Parquet (several minutes, about 1 GB of disk)")
	bin := flag.String("bin", "", "riskbatch binary to measure (default: build ./cmd/riskbatch)")
	keep := flag.String("dir", "", "directory for the generated files (default: a temporary one, removed)")
	priorsOnly := flag.Bool("priors-only", false, "only `riskbatch priors` against DuckDB (see priors.go)")
	scaling := flag.Bool("scaling", false, "only --workers 1 against --workers 2 on closed-form and evaluation-bound inputs (see scaling.go)")
	ratios := flag.Bool("ratios", false, "only the ratios of `riskbatch eval` to DuckDB copying the same CSV to Parquet (see ratios.go)")
	accountant := flag.Bool("accountant", false, "only the rows that wait for the PLD accountant: a 60-configuration DP-SGD sweep and noise calibrations, --workers 1 (see accountant.go)")
	calibrations := flag.Int("calibrations", 9, "rows of the -accountant calibration case")
	dpAccounting := flag.String("dp-accounting", "", "with -accountant: the python/dp_accounting folder of google/differential-privacy's sources, to run dp_accounting on the sweep in the same run (see dpaccounting.go)")
	python := flag.String("python", "python3", "with -dp-accounting: the Python that has numpy and scipy")
	repeat := flag.Int("repeat", 3, "runs of each case of the ratio, scaling and accountant tables (the best counts, the median for the accountant)")
	flag.Parse()
	runAll := func() error { return run(*rows, *repeat, *big, *bin, *keep) }
	switch {
	case *ratios:
		runAll = func() error { return onlyRatios(*rows, *repeat, *bin, *keep) }
	case *priorsOnly:
		runAll = func() error { return onlyPriors(*bin, *keep) }
	case *scaling:
		runAll = func() error { return onlyScaling(*rows, *repeat, *bin, *keep) }
	case *accountant:
		runAll = func() error { return onlyAccountant(*calibrations, *repeat, *bin, *keep, *python, *dpAccounting) }
	}
	if err := runAll(); err != nil {
		fmt.Fprintln(os.Stderr, "riskbatch-bench:", err)
		os.Exit(1)
	}
}

// result is one measured run.
type result struct {
	name    string
	rows    int
	cells   int // output cells (rows × columns), for the XLSX rate
	elapsed time.Duration
	cpu     time.Duration // user and system time of the process
	rssMB   float64
}

func run(rows, repeat int, big bool, bin, dir string) error {
	dir, bin, cleanup, err := prepare(dir, bin)
	if err != nil {
		return err
	}
	defer cleanup()
	closed := filepath.Join(dir, "closed.csv")
	if err := benchinput.WriteCSV(closed, benchinput.ClosedForm(), rows); err != nil {
		return err
	}
	closedPq := filepath.Join(dir, "closed.parquet")
	if _, err := measure(bin, "make Parquet input", rows, 0, "eval", closed, "-o", closedPq, "-q", "--pass-through"); err != nil {
		return err
	}
	wide := filepath.Join(dir, "wide.csv")
	if err := benchinput.WriteCSV(wide, benchinput.Wide(30), rows); err != nil {
		return err
	}
	heavyRows := max(rows/50, 1000)
	heavy := filepath.Join(dir, "heavy.csv")
	if err := benchinput.WriteCSV(heavy, benchinput.Heavy(), heavyRows); err != nil {
		return err
	}

	var results []result
	add := func(name string, n, cells int, args ...string) error {
		r, err := measure(bin, name, n, cells, args...)
		if err != nil {
			return err
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%-44s %8.2fs %10.0f rows/s %7.0f MB\n", r.name, r.elapsed.Seconds(), float64(r.rows)/r.elapsed.Seconds(), r.rssMB)
		return nil
	}
	out := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name, in, out string
	}{
		{"CSV → Parquet", closed, out("o.parquet")},
		{"Parquet → Parquet", closedPq, out("o2.parquet")},
		{"CSV → CSV", closed, out("o.csv")},
	}
	for _, c := range cases {
		if err := add(c.name+", pass-through", rows, 0, "eval", c.in, "-o", c.out, "-q", "--pass-through"); err != nil {
			return err
		}
		if err := add(c.name+", evaluate", rows, 0, "eval", c.in, "-o", c.out, "-q"); err != nil {
			return err
		}
	}
	// The stream writer's rate: 30 input columns passed through to XLSX
	// (plus status and message).
	if err := add("CSV → XLSX, 30 columns, pass-through", rows, rows*32, "eval", wide, "-o", out("o.xlsx"), "-q", "--pass-through", "--values-only"); err != nil {
		return err
	}
	for _, w := range []string{"1", "2"} {
		if err := add("evaluation-bound rows, --workers "+w, heavyRows, 0, "eval", heavy, "-o", out("h"+w+".parquet"), "-q", "--workers", w); err != nil {
			return err
		}
	}
	if big {
		bigCSV := filepath.Join(dir, "big.csv")
		if err := benchinput.WriteCSV(bigCSV, benchinput.ClosedForm(), 10_000_000); err != nil {
			return err
		}
		bigPq := filepath.Join(dir, "big.parquet")
		if _, err := measure(bin, "make big Parquet input", 10_000_000, 0, "eval", bigCSV, "-o", bigPq, "-q", "--pass-through"); err != nil {
			return err
		}
		os.Remove(bigCSV)
		if err := add("10⁷ rows Parquet → Parquet, evaluate", 10_000_000, 0, "eval", bigPq, "-o", out("big-out.parquet"), "-q"); err != nil {
			return err
		}
	}
	printTable(results)
	if err := benchRatios(bin, dir, closed, rows, repeat); err != nil {
		return err
	}
	return benchPriors(bin, dir)
}

// measure runs riskbatch once and returns its wall time and peak RSS.
// Exit status 1 (some rows failed) is not an error here.
func measure(bin, name string, rows, cells int, args ...string) (result, error) {
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return result{}, fmt.Errorf("%s: %v: %s", name, err, stderr.String())
	}
	r := result{name: name, rows: rows, cells: cells, elapsed: elapsed}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rssMB = float64(ru.Maxrss) / 1024 // kilobytes on Linux
	}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return r, nil
}

func printTable(results []result) {
	fmt.Printf("riskbatch-bench: %s/%s, %d CPUs, %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel())
	fmt.Println("| case | rows | time (s) | rows/s | peak RSS (MB) | note |")
	fmt.Println("|---|---:|---:|---:|---:|---|")
	var passThrough time.Duration
	for _, r := range results {
		note := ""
		switch {
		case strings.HasSuffix(r.name, "pass-through"):
			passThrough = r.elapsed
		case strings.HasSuffix(r.name, ", evaluate") && passThrough > 0 && !strings.HasPrefix(r.name, "10⁷"):
			note = fmt.Sprintf("%.2f× pass-through", r.elapsed.Seconds()/passThrough.Seconds())
		}
		if r.cells > 0 {
			note = fmt.Sprintf("%.0f cells/s", float64(r.cells)/r.elapsed.Seconds())
		}
		fmt.Printf("| %s | %d | %.2f | %.0f | %.0f | %s |\n", r.name, r.rows, r.elapsed.Seconds(), float64(r.rows)/r.elapsed.Seconds(), r.rssMB, note)
	}
}

// cpuModel returns the processor's name from /proc/cpuinfo, if any.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// prepare makes the working directory (a temporary one, removed by
// cleanup, when dir is empty) and builds riskbatch into it when bin is
// empty, returning both.
func prepare(dir, bin string) (string, string, func(), error) {
	cleanup := func() {}
	if dir == "" {
		d, err := os.MkdirTemp("", "riskbatch-bench")
		if err != nil {
			return "", "", cleanup, err
		}
		dir, cleanup = d, func() { os.RemoveAll(d) }
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", cleanup, err
	}
	if bin == "" {
		bin = filepath.Join(dir, "riskbatch")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/riskbatch").CombinedOutput(); err != nil {
			cleanup()
			return "", "", func() {}, fmt.Errorf("building riskbatch (run from the module's root): %v: %s", err, out)
		}
	}
	return dir, bin, cleanup, nil
}
