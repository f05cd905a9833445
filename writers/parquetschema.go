package writers

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riskbatch/riskbatch/internal/arrowcell"
	"github.com/riskbatch/riskbatch/table"
)

// columnType is the Arrow type a column is written with: its Source's when
// that is an Arrow type, else its kind's (see parquetWriter); first is the
// column's cell in the first row (an empty cell when there is no row).
func columnType(c table.Column, first table.Cell) arrow.DataType {
	if dt, ok := c.Source.(arrow.DataType); ok {
		if d, ok := dt.(*arrow.DictionaryType); ok {
			dt = d.ValueType // Parquet has no dictionary type, only the encoding
		}
		if writable(dt) {
			return dt
		}
	}
	switch c.Kind {
	case table.Number:
		return arrow.PrimitiveTypes.Float64
	case table.Integer:
		return arrow.PrimitiveTypes.Int64
	case table.Bool:
		return arrow.FixedWidthTypes.Boolean
	case table.Date:
		return arrow.FixedWidthTypes.Date32
	case table.Timestamp:
		t := &arrow.TimestampType{Unit: arrow.Microsecond}
		if first.Kind == table.Timestamp {
			t.Unit = parquetUnit(first.Unit)
			if first.Unit.UTC() {
				t.TimeZone = "UTC"
			}
		}
		return t
	case table.TimeOfDay:
		unit := arrow.Microsecond
		if first.Kind == table.TimeOfDay {
			unit = parquetUnit(first.Unit)
		}
		if unit == arrow.Millisecond {
			return &arrow.Time32Type{Unit: unit}
		}
		return &arrow.Time64Type{Unit: unit}
	}
	return arrow.BinaryTypes.String
}

// parquetUnit is the Arrow unit of a column of cells in unit u: u, but
// milliseconds for seconds, which Parquet's TIMESTAMP and TIME lack.
func parquetUnit(u table.TimeUnit) arrow.TimeUnit {
	if u := arrowcell.ArrowUnit(u); u != arrow.Second {
		return u
	}
	return arrow.Millisecond
}

// writable reports whether the writer writes columns of type dt: types
// with a putter, and nested types (read from JSON).
func writable(dt arrow.DataType) bool {
	if isNested(dt) {
		return true
	}
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	return putterFor(dt, b) != nil
}

// isNested reports whether values of type dt are written from JSON text.
func isNested(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST, arrow.STRUCT, arrow.MAP:
		return true
	case arrow.EXTENSION:
		switch dt.(arrow.ExtensionType).StorageType().ID() {
		case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
			return true
		}
	}
	return false
}

// roleName names a role for the Parquet field metadata.
func roleName(r table.Role) string {
	return enumName(r, "role", []string{table.Input: "input", table.Output: "output", table.Status: "status", table.Message: "message"})
}

// formatName names a display format for the Parquet field metadata.
func formatName(f table.Format) string {
	return enumName(f, "format", []string{table.General: "general", table.Probability: "probability", table.Real: "real", table.Count: "count"})
}

// enumName is names[v], or kind(v) for a value without a name.
func enumName[T ~uint8](v T, kind string, names []string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, v)
}
