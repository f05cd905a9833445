package readers

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

// BenchmarkCSVRead reads a 10 MB CSV file of release rows from memory.
func BenchmarkCSVRead(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("id,mechanism,epsilon,delta,sigma,baseline,note,extra\n")
	for i := 0; buf.Len() < 10<<20; i++ {
		fmt.Fprintf(&buf, "release-%d,gaussian,%d.5,1e-5,%d.25,0.01,\"a note, quoted\",x\n", i, i%7, i%13)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		tables, err := OpenReader("bench.csv", bytes.NewReader(data), int64(len(data)), Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := tables[0].Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		tables[0].Close()
	}
}

// BenchmarkCSVReadColumns reads a 300,000-row CSV file of closed-form
// release rows (internal/benchinput, the rows riskbatch-bench times) from
// memory with ReadColumns, in runs of 512 rows as riskbatch eval reads
// them: "arrays" every column as an array alone, as a pass-through run
// to Parquet reads them; "cells" also the evaluator's input columns
// (mechanism to baseline) as cells, as an evaluating run does.
func BenchmarkCSVReadColumns(b *testing.B) {
	path := filepath.Join(b.TempDir(), "closed.csv")
	if err := benchinput.WriteCSV(path, benchinput.ClosedForm(), benchinput.Rows("RISKBATCH_BENCH_ROWS", 300_000)); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"arrays", "cells"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for range b.N {
				readColumnsOnce(b, data, mode == "cells")
			}
		})
	}
}

// readColumnsOnce reads data, a CSV file, to its end with ReadColumns
// (see BenchmarkCSVReadColumns).
func readColumnsOnce(b *testing.B, data []byte, cells bool) {
	tables, err := OpenReader("bench.csv", bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		b.Fatal(err)
	}
	cr := tables[0].(ColumnReader)
	width := len(cr.Columns())
	arrays, asCells := make([]bool, width), make([]bool, width)
	for i := range width {
		arrays[i] = true
		asCells[i] = cells && i > 0
	}
	var run ColumnRun
	for {
		err := cr.ReadColumns(&run, 512, arrays, asCells)
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range run.Errs {
			if e != nil {
				b.Fatal(e)
			}
		}
	}
	run.Release()
	cr.Close()
}
