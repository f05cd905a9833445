package writers

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riskbatch/riskbatch/table"
)

// BenchmarkParquetPassThrough writes what a pass-through run of the
// closed-form benchmark table writes (internal/benchinput.ClosedForm read
// from CSV): its seven input columns as text arrays (an identifier, a
// mechanism, numbers kept as text, some empty), a status column of cells
// and 60 bound columns empty on every row, given as arrays of Arrow's Null
// type as the command gives them in a pass-through run, by WriteColumns in
// runs of 512 rows, 2¹⁷ rows (two row groups) an operation.
func BenchmarkParquetPassThrough(b *testing.B) {
	const rows, run, bounds = 1 << 17, 512, 60 // run divides rows
	inputs := []string{"id", "mechanism", "epsilon", "delta", "sigma", "mu", "baseline"}
	builders := make([]*array.StringBuilder, len(inputs))
	for i := range builders {
		builders[i] = array.NewStringBuilder(memory.DefaultAllocator)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	num := func(v float64, digits int) string { return strconv.FormatFloat(v, 'g', digits, 64) }
	for r := range rows {
		kind := r % 4
		vals := []string{fmt.Sprintf("r%d", r), []string{"pure", "approx", "gaussian", "gdp"}[kind], "", "1e-5", "", "", num(rng.Float64()*0.5, 6)}
		switch kind {
		case 0:
			vals[2], vals[3] = num(rng.Float64()*10, 4), ""
		case 1:
			vals[2] = num(rng.Float64()*10, 4)
		case 2:
			vals[4] = num(0.5+rng.Float64()*10, 4)
		default:
			vals[5] = num(rng.Float64()*3, 4)
		}
		for i, v := range vals {
			if v == "" {
				builders[i].AppendNull()
			} else {
				builders[i].Append(v)
			}
		}
	}
	var cols []table.Column
	arrays := make([]arrow.Array, 0, len(inputs)+1+bounds)
	for i, name := range inputs {
		cols = append(cols, table.Column{Name: name, Kind: table.Text, Role: table.Input})
		arr := builders[i].NewArray()
		defer arr.Release()
		arrays = append(arrays, arr)
	}
	cols = append(cols, table.Column{Name: "status", Kind: table.Text, Role: table.Status})
	for i := range bounds {
		cols = append(cols, table.Column{Name: fmt.Sprintf("bound_%d", i), Kind: table.Number, Role: table.Output})
	}
	cells := make([][]table.Cell, rows)
	for r := range cells {
		cells[r] = make([]table.Cell, len(cols))
		cells[r][len(inputs)] = table.TextCell("ok")
	}
	path := filepath.Join(b.TempDir(), "out.parquet")
	b.ResetTimer()
	for range b.N {
		w, err := Create(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := w.WriteHeader(cols); err != nil {
			b.Fatal(err)
		}
		part := make([]arrow.Array, len(cols))
		nulls := array.NewNull(run)
		for i := len(arrays) + 1; i < len(cols); i++ {
			part[i] = nulls
		}
		for start := 0; start < rows; start += run {
			end := min(start+run, rows)
			for i, a := range arrays {
				part[i] = array.NewSlice(a, int64(start), int64(end))
			}
			err := w.(ColumnsWriter).WriteColumns(cells[start:end], part)
			for _, a := range part[:len(arrays)] {
				a.Release()
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		nulls.Release()
	}
}
