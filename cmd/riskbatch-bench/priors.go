package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
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
// priorsRows rows (see writePriorsParquet) against DuckDB's GROUP BY
// counts of the same columns over the same file, in the same run, and
// prints a table of the times and their ratio. DuckDB runs through its
// Node.js package: node on PATH and RISKBATCH_NODE_MODULES naming a
// node_modules folder where `npm install @duckdb/node-api` was run;
// without them the DuckDB column is left empty.
func benchPriors(bin, dir string) error {
	data := filepath.Join(dir, "priors.parquet")
	if err := writePriorsParquet(data, priorsRows); err != nil {
		return err
	}
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
		duck, err := duckDBSeconds(data, c.queries)
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

// duckDBSeconds runs the queries in DuckDB (in memory, one connection)
// three times and returns the least time the queries took together, as
// measured inside node (its start and DuckDB's are not counted), or 0
// when DuckDB for Node.js is absent.
func duckDBSeconds(data string, queries []string) (float64, error) {
	modules := os.Getenv("RISKBATCH_NODE_MODULES")
	node, err := exec.LookPath("node")
	if err != nil || modules == "" {
		fmt.Fprintln(os.Stderr, "riskbatch-bench: DuckDB for Node.js is absent (node, RISKBATCH_NODE_MODULES): no DuckDB times")
		return 0, nil
	}
	script := filepath.Join(filepath.Dir(data), "groupby.mjs")
	if err := os.WriteFile(script, []byte(`import { createRequire } from 'module'
const require = createRequire(process.env.RISKBATCH_NODE_MODULES + '/')
const { DuckDBInstance } = require('@duckdb/node-api')
const con = await (await DuckDBInstance.create(':memory:')).connect()
const queries = JSON.parse(process.argv[2])
let best = Infinity
for (let i = 0; i < 3; i++) {
  const t0 = performance.now()
  for (const q of queries) await con.runAndReadAll(q)
  best = Math.min(best, performance.now() - t0)
}
console.log(JSON.stringify(best / 1000))
`), 0o644); err != nil {
		return 0, err
	}
	file := "'" + strings.ReplaceAll(data, "'", "''") + "'"
	qs := make([]string, len(queries))
	for i, q := range queries {
		qs[i] = strings.ReplaceAll(q, "FILE", file)
	}
	arg, err := json.Marshal(qs)
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(node, script, string(arg))
	cmd.Stderr = os.Stderr
	outb, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("DuckDB: %w", err)
	}
	var secs float64
	if err := json.Unmarshal(outb, &secs); err != nil {
		return 0, fmt.Errorf("DuckDB: %v: %s", err, outb)
	}
	return secs, nil
}

// writePriorsParquet writes n rows of survey-like data to path, Snappy
// compressed, in row groups of 65,536 rows: strings of few values (sex,
// region, education, occupation; dictionary-encoded, as writers do), and
// integers with 1% nulls (age, hours), an income (float64) and a zip code
// of 3,000 values. Values are drawn with a skew towards the first ones.
func writePriorsParquet(path string, n int) error {
	type col struct {
		name     string
		kind     byte // 's' string, 'i' int64, 'f' float64
		distinct int
	}
	cols := []col{{"sex", 's', 2}, {"region", 's', 5}, {"education", 's', 12}, {"occupation", 's', 40},
		{"age", 'i', 91}, {"hours", 'i', 60}, {"income", 'f', 0}, {"zip", 's', 3000}}
	fields := make([]arrow.Field, len(cols))
	labels := make([][]string, len(cols))
	for i, c := range cols {
		t := arrow.DataType(arrow.BinaryTypes.String)
		switch c.kind {
		case 'i':
			t = arrow.PrimitiveTypes.Int64
		case 'f':
			t = arrow.PrimitiveTypes.Float64
		}
		fields[i] = arrow.Field{Name: c.name, Type: t, Nullable: true}
		for v := range c.distinct {
			labels[i] = append(labels[i], fmt.Sprintf("%s-%d", c.name, v))
		}
	}
	schema := arrow.NewSchema(fields, nil)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithMaxRowGroupLength(65536))
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(m int) int { u := rng.Float64(); return int(float64(m) * u * u) }
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	start := time.Now()
	for done := 0; done < n; {
		k := min(65536, n-done)
		for i, c := range cols {
			for range k {
				switch c.kind {
				case 's':
					rb.Field(i).(*array.StringBuilder).Append(labels[i][draw(c.distinct)])
				case 'i':
					if rng.IntN(100) == 0 {
						rb.Field(i).AppendNull()
					} else {
						rb.Field(i).(*array.Int64Builder).Append(int64(draw(c.distinct)))
					}
				case 'f':
					rb.Field(i).(*array.Float64Builder).Append(math.Round(rng.ExpFloat64()*3_000_000) / 100)
				}
			}
		}
		rec := rb.NewRecordBatch()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			w.Close()
			return err
		}
		done += k
	}
	if err := w.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "riskbatch-bench: wrote %s (%d rows) in %.1fs\n", path, n, time.Since(start).Seconds())
	return nil
}

// onlyPriors is benchPriors alone (-priors-only), in dir or a temporary
// directory, with bin or riskbatch built from this module.
func onlyPriors(bin, dir string) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "riskbatch-bench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if bin == "" {
		bin = filepath.Join(dir, "riskbatch")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/riskbatch").CombinedOutput(); err != nil {
			return fmt.Errorf("building riskbatch (run from the module's root): %v: %s", err, out)
		}
	}
	return benchPriors(bin, dir)
}
