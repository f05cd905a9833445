// Package arrowcell holds the conversions between Arrow values and table
// cells that the Parquet reader and the Parquet writer share, so that a
// value written back is the value that was read.
package arrowcell

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/riskbatch/riskbatch/table"
)

// TableUnit is the table unit of an Arrow time unit.
func TableUnit(u arrow.TimeUnit) table.TimeUnit {
	switch u {
	case arrow.Second:
		return table.Second
	case arrow.Millisecond:
		return table.Millisecond
	case arrow.Microsecond:
		return table.Microsecond
	}
	return table.Nanosecond
}

// ArrowUnit is the Arrow time unit of a table unit: the one whose
// TableUnit is u's resolution (microseconds for an unknown one).
func ArrowUnit(u table.TimeUnit) arrow.TimeUnit {
	for _, a := range [...]arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Nanosecond} {
		if TableUnit(a) == u.Resolution() {
			return a
		}
	}
	return arrow.Microsecond
}

// Float32Value is the float64 of the shortest decimal that reads back as v
// (strconv formats a float32 so): a float32 column's 0.1 is read as 0.1,
// not as 0.10000000149011612.
func Float32Value(v float32) float64 {
	x, err := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', -1, 32), 64)
	if err != nil {
		return float64(v) // NaN and infinities format as such and parse back; not reached
	}
	return x
}

// Float16Value is the float64 of the shortest decimal that reads back as v
// (at most 5 significant digits).
func Float16Value(v float16.Num) float64 {
	f := v.Float32()
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return float64(f)
	}
	for digits := 1; digits < 5; digits++ {
		x, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', digits, 32), 64)
		if float16.New(float32(x)).Uint16() == v.Uint16() {
			return x
		}
	}
	return Float32Value(f)
}
