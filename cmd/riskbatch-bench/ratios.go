package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

// ratioCase is one `riskbatch eval` run of the ratio table: its flags
// after `eval IN -o OUT -q`, and the most its time may be, as a multiple
// of DuckDB's copy of the same file.
type ratioCase struct {
	name   string
	flags  []string
	target float64
}

// ratioColumns are three closed-form output columns, the --columns case.
const ratioColumns = "fdp_advantage,adp_advantage,eps_at_delta"

// ratioCases are the cases of the ratio table: reading and writing alone,
// three closed-form columns, and every column.
func ratioCases() []ratioCase {
	return []ratioCase{
		{"--pass-through", []string{"--pass-through"}, 1.5},
		{"--columns " + ratioColumns, []string{"--columns", ratioColumns}, 2},
		{"every column", nil, 4},
	}
}

// benchRatios measures, in one run, DuckDB copying the CSV file in to
// Parquet (COPY (SELECT * FROM read_csv(…)) TO … (FORMAT parquet)) and
// `riskbatch eval` writing the same file to Parquet in each ratio case,
// and prints a table of the times and their ratios. Each time is the best
// of repeat rounds; a round runs DuckDB once, then every case once, so
// that a burst of other load on the machine hits them alike. The load
// average before and after is printed with the table, as the ratios move
// with it; so are the CPU times (user and system, least of the rounds) and
// their ratio, which move less with the machine's other load than the
// wall times.
func benchRatios(bin, dir, in string, rows, repeat int) error {
	cases := ratioCases()
	best := make([]result, len(cases))
	cpu := make([]time.Duration, len(cases)) // the least CPU time of each case's runs
	var duck, duckCPU float64
	walls := make([][]time.Duration, len(cases)) // every run's wall time, for the medians
	var duckWalls []time.Duration
	copyTo := fmt.Sprintf("COPY (SELECT * FROM read_csv(%s)) TO %s (FORMAT parquet)", sqlString(in), sqlString(filepath.Join(dir, "duckdb.parquet")))
	loadBefore := loadAverage()
	for round := range max(repeat, 1) {
		d, dc, err := duckDBSeconds(dir, []string{copyTo}, 1)
		if err != nil {
			return err
		}
		duckWalls = append(duckWalls, time.Duration(d*float64(time.Second)))
		if round == 0 || d < duck {
			duck = d
		}
		if round == 0 || dc < duckCPU {
			duckCPU = dc
		}
		for i, c := range cases {
			args := append([]string{"eval", in, "-o", filepath.Join(dir, "ratio.parquet"), "-q", "--force"}, c.flags...)
			r, err := measure(bin, c.name, rows, 0, args...)
			if err != nil {
				return err
			}
			walls[i] = append(walls[i], r.elapsed)
			if round == 0 || r.elapsed < best[i].elapsed {
				best[i] = r
			}
			if round == 0 || r.cpu < cpu[i] {
				cpu[i] = r.cpu
			}
		}
		fmt.Fprintf(os.Stderr, "riskbatch-bench: ratio round %d of %d done (DuckDB %.3fs)\n", round+1, max(repeat, 1), d)
	}
	fmt.Printf("\n`riskbatch eval` and DuckDB's COPY of the same CSV file of %d closed-form rows to Parquet (best of %d each; load average %s before, %s after):\n\n",
		rows, max(repeat, 1), loadBefore, loadAverage())
	fmt.Println("| case | riskbatch (s) | rows/s | peak RSS (MB) | DuckDB (s) | ratio | target | CPU: riskbatch / DuckDB (s) | CPU ratio |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, c := range cases {
		r := best[i]
		ds, ratio, dc, cratio := "", "", "", ""
		if duck > 0 {
			ds = fmt.Sprintf("%.3f", duck)
			ratio = fmt.Sprintf("%.2f×", r.elapsed.Seconds()/duck)
		}
		if duckCPU > 0 {
			dc = fmt.Sprintf(" / %.2f", duckCPU)
			cratio = fmt.Sprintf("%.2f×", cpu[i].Seconds()/duckCPU)
		}
		fmt.Printf("| %s | %.3f | %.0f | %.0f | %s | %s | ≤ %g× | %.2f%s | %s |\n", c.name, r.elapsed.Seconds(), float64(rows)/r.elapsed.Seconds(), r.rssMB, ds, ratio, c.target, cpu[i].Seconds(), dc, cratio)
	}
	// The medians, which a burst of other load moves less than the best.
	fmt.Printf("\nMedians of the %d rounds:", max(repeat, 1))
	duckMedian := median(duckWalls).Seconds()
	if duck > 0 {
		fmt.Printf(" DuckDB %.3f s;", duckMedian)
	}
	for i, c := range cases {
		m := median(walls[i]).Seconds()
		fmt.Printf(" %s %.3f s (%.0f rows/s", c.name, m, float64(rows)/m)
		if duck > 0 {
			fmt.Printf(", %.2f×", m/duckMedian)
		}
		fmt.Print(")")
		if i < len(cases)-1 {
			fmt.Print(";")
		}
	}
	fmt.Println()
	return nil
}

// onlyRatios is benchRatios alone (-ratios), on a generated CSV of rows
// closed-form rows, in dir or a temporary directory, with bin or
// riskbatch built from this module.
func onlyRatios(rows, repeat int, bin, dir string) error {
	dir, bin, cleanup, err := prepare(dir, bin)
	if err != nil {
		return err
	}
	defer cleanup()
	in := filepath.Join(dir, "closed.csv")
	start := time.Now()
	if err := benchinput.WriteCSV(in, benchinput.ClosedForm(), rows); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "riskbatch-bench: wrote %s (%d rows) in %.1fs\n", in, rows, time.Since(start).Seconds())
	return benchRatios(bin, dir, in, rows, repeat)
}

// loadAverage is the machine's load average over the last minute, from
// /proc/loadavg, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
