// Package surveydata generates the survey-like Parquet file that the
// benchmarks of `riskbatch priors` count: the go test benchmarks of package
// priorfiles and the benchmark command, which times it against DuckDB.
package surveydata

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// column describes a column of the generated file: name, kind ("s"
// string, "i" int64, "f" float64) and number of distinct values (0:
// continuous).
type column struct {
	name     string
	kind     byte
	distinct int
}

// columns are the 12 columns of the generated file.
func columns() []column {
	return []column{
		{"sex", 's', 2}, {"region", 's', 5}, {"education", 's', 12}, {"occupation", 's', 40},
		{"marital", 's', 6}, {"race", 's', 5}, {"household", 'i', 9}, {"children", 'i', 7},
		{"age", 'i', 91}, {"hours", 'i', 60}, {"income", 'f', 0}, {"zip", 's', 3000},
	}
}

// WriteParquet writes rows rows of survey-like data to path, Snappy
// compressed, in row groups of 65,536 rows: 12 columns (see columns),
// strings of 2 to 3,000 values (sex, region, education, occupation,
// marital, race, zip), integers of 7 to 91 values with 1% nulls
// (household, children, age, hours) and an income (float64). Values are
// drawn with a skew towards the first ones, from a fixed seed: the file is
// the same every time.
func WriteParquet(path string, rows int) error {
	cols := columns()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		var t arrow.DataType = arrow.BinaryTypes.String
		switch c.kind {
		case 'i':
			t = arrow.PrimitiveTypes.Int64
		case 'f':
			t = arrow.PrimitiveTypes.Float64
		}
		fields[i] = arrow.Field{Name: c.name, Type: t, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithMaxRowGroupLength(65536))
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	labels := make([][]string, len(cols))
	for i, c := range cols {
		for v := range c.distinct {
			labels[i] = append(labels[i], fmt.Sprintf("%s-%d", c.name, v))
		}
	}
	draw := func(m int) int { // skewed towards small values
		u := rng.Float64()
		return int(float64(m) * u * u)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for done := 0; done < rows; {
		n := min(65536, rows-done)
		for i, c := range cols {
			switch c.kind {
			case 's':
				b := rb.Field(i).(*array.StringBuilder)
				for range n {
					b.Append(labels[i][draw(c.distinct)])
				}
			case 'i':
				b := rb.Field(i).(*array.Int64Builder)
				for range n {
					if rng.IntN(100) == 0 {
						b.AppendNull() // 1% missing
					} else {
						b.Append(int64(draw(c.distinct)))
					}
				}
			case 'f':
				b := rb.Field(i).(*array.Float64Builder)
				for range n {
					b.Append(math.Round(rng.ExpFloat64()*30000*100) / 100)
				}
			}
		}
		rec := rb.NewRecordBatch()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
		done += n
	}
	return w.Close()
}
