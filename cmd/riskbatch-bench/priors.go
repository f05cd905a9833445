package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/riskbatch/riskbatch/internal/surveydata"
)

// priorsRows is the size of the Parquet file `riskbatch priors` counts.
const priorsRows = 3_000_000

// priorsCase is one `riskbatch priors` run and the DuckDB queries that
// count the same columns.
type priorsCase struct {
	name    string
	args    []string // after `riskbatch priors FILE -o OUT -q`
	queries []string // GROUP BY counts; FILE stands for the data file
}

// priorsCases are the cases of benchPriors: the marginals of two columns
// (a string and an integer with nulls), and a conditional prior given two
// columns, whose prior table has one row per record.
func priorsCases() []priorsCase {
	return []priorsCase{
		{
			name: "priors, marginals of 2 columns",
			args: []string{"--columns", "region,age"},
			queries: []string{
				"SELECT region, count(*) FROM read_parquet(FILE) GROUP BY region",
				"SELECT age, count(*) FROM read_parquet(FILE) GROUP BY age",
			},
		},
		{
			name:    "priors, conditional (--given 2 columns)",
			args:    []string{"--columns", "occupation", "--given", "sex,region"},
			queries: []string{"SELECT sex, region, occupation, count(*) FROM read_parquet(FILE) GROUP BY ALL"},
		},
	}
}

// benchPriors measures `riskbatch priors` on a generated Parquet file of
// priorsRows rows and 12 columns (surveydata.WriteParquet) against
// DuckDB's GROUP BY counts of the same columns over the same file, in the
// same run, and prints a table of the times and their ratio. Without
// DuckDB (see duckDBSeconds) the DuckDB column is left empty.
func benchPriors(bin, dir string) error {
	data := filepath.Join(dir, "priors.parquet")
	start := time.Now()
	if err := surveydata.WriteParquet(data, priorsRows); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "riskbatch-bench: wrote %s (%d rows, 12 columns) in %.1fs\n", data, priorsRows, time.Since(start).Seconds())
	fmt.Printf("\n`riskbatch priors` on %d rows of Parquet (%d row groups of 65,536 rows) against DuckDB's GROUP BY counts of the same columns (best of 3):\n\n", priorsRows, (priorsRows+65535)/65536)
	fmt.Println("| case | riskbatch (s) | peak RSS (MB) | DuckDB (s) | ratio |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, c := range priorsCases() {
		out := filepath.Join(dir, "priors-out.csv")
		args := append([]string{"priors", data, "-o", out, "-q", "--force"}, c.args...)
		var best result
		for i := range 3 {
			r, err := measure(bin, c.name, priorsRows, 0, args...)
			if err != nil {
				return err
			}
			if i == 0 || r.elapsed < best.elapsed {
				best = r
			}
		}
		duck, err := duckDBQueries(data, c.queries)
		if err != nil {
			return err
		}
		ds, ratio := "", ""
		if duck > 0 {
			ds = fmt.Sprintf("%.3f", duck)
			ratio = fmt.Sprintf("%.1f×", best.elapsed.Seconds()/duck)
		}
		fmt.Printf("| %s | %.3f | %.0f | %s | %s |\n", c.name, best.elapsed.Seconds(), best.rssMB, ds, ratio)
	}
	return nil
}

// duckDBQueries runs the queries over the file data in DuckDB (see
// duckDBSeconds), FILE standing for the file, and returns the least time
// of three rounds, or 0 when DuckDB is absent.
func duckDBQueries(data string, queries []string) (float64, error) {
	qs := make([]string, len(queries))
	for i, q := range queries {
		qs[i] = strings.ReplaceAll(q, "FILE", sqlString(data))
	}
	wall, _, err := duckDBSeconds(filepath.Dir(data), qs, 3)
	return wall, err
}

// onlyPriors is benchPriors alone (-priors-only), in dir or a temporary
// directory, with bin or riskbatch built from this module.
func onlyPriors(bin, dir string) error {
	dir, bin, cleanup, err := prepare(dir, bin)
	if err != nil {
		return err
	}
	defer cleanup()
	return benchPriors(bin, dir)
}
