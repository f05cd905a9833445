package writers

import (
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/riskbatch/riskbatch/internal/arrowcell"
	"github.com/riskbatch/riskbatch/table"
)

// A putter appends a non-empty cell to a column's builder and reports
// whether the column's type holds the cell's value exactly; when it does
// not, it appends nothing (the caller appends a null and counts it).
type putter func(c table.Cell) bool

// putterFor returns the putter of a column of type dt built by b, or nil
// for a type whose values are written from JSON text (nested types; see
// parquetWriter) or that riskbatch does not write.
func putterFor(dt arrow.DataType, b array.Builder) putter {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.DURATION:
		return integerPutter(dt, b)
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256:
		return numberPutter(dt, b)
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW, arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY:
		return textPutter(dt, b)
	case arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64:
		return timePutter(dt, b)
	case arrow.BOOL:
		return putWith(b.(*array.BooleanBuilder).Append, func(c table.Cell) (bool, bool) { return c.Bool, c.Kind == table.Bool })
	case arrow.NULL:
		return func(table.Cell) bool { return false }
	case arrow.EXTENSION:
		return extensionPutter(dt, b)
	}
	return nil
}

// putWith is the putter that reads a cell with read and, when the value
// it holds fits, appends it with add.
func putWith[T any](add func(T), read func(table.Cell) (T, bool)) putter {
	return func(c table.Cell) bool {
		v, ok := read(c)
		if ok {
			add(v)
		}
		return ok
	}
}

// putInt is the putter of an integer column whose values lie in [lo, hi].
func putInt[T ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32](add func(T), lo, hi int64) putter {
	return putWith(add, func(c table.Cell) (T, bool) {
		v, ok := cellInt(c, lo, hi)
		return T(v), ok
	})
}

// integerPutter is putterFor of the integer types and durations.
func integerPutter(dt arrow.DataType, b array.Builder) putter {
	switch dt.ID() {
	case arrow.INT8:
		return putInt(b.(*array.Int8Builder).Append, math.MinInt8, math.MaxInt8)
	case arrow.INT16:
		return putInt(b.(*array.Int16Builder).Append, math.MinInt16, math.MaxInt16)
	case arrow.INT32:
		return putInt(b.(*array.Int32Builder).Append, math.MinInt32, math.MaxInt32)
	case arrow.INT64:
		return putInt(b.(*array.Int64Builder).Append, math.MinInt64, math.MaxInt64)
	case arrow.UINT8:
		return putInt(b.(*array.Uint8Builder).Append, 0, math.MaxUint8)
	case arrow.UINT16:
		return putInt(b.(*array.Uint16Builder).Append, 0, math.MaxUint16)
	case arrow.UINT32:
		return putInt(b.(*array.Uint32Builder).Append, 0, math.MaxUint32)
	case arrow.UINT64:
		return putWith(b.(*array.Uint64Builder).Append, cellUint64)
	case arrow.DURATION:
		return putInt(b.(*array.DurationBuilder).Append, math.MinInt64, math.MaxInt64)
	}
	return nil
}

// numberPutter is putterFor of the floating-point and decimal types.
func numberPutter(dt arrow.DataType, b array.Builder) putter {
	switch dt.ID() {
	case arrow.FLOAT16:
		return putWith(b.(*array.Float16Builder).Append, func(c table.Cell) (float16.Num, bool) {
			v, ok := cellFloat(c)
			f := float16.New(float32(v))
			return f, ok && sameFloat(arrowcell.Float16Value(f), v)
		})
	case arrow.FLOAT32:
		return putWith(b.(*array.Float32Builder).Append, func(c table.Cell) (float32, bool) {
			v, ok := cellFloat(c)
			f := float32(v)
			return f, ok && (sameFloat(float64(f), v) || sameFloat(arrowcell.Float32Value(f), v))
		})
	case arrow.FLOAT64:
		return putWith(b.(*array.Float64Builder).Append, cellFloat)
	case arrow.DECIMAL128:
		t, b := dt.(*arrow.Decimal128Type), b.(*array.Decimal128Builder)
		return putWith(func(v *big.Int) { b.Append(decimal128.FromBigInt(v)) }, func(c table.Cell) (*big.Int, bool) {
			return cellDecimal(c, t.Precision, t.Scale)
		})
	case arrow.DECIMAL256:
		t, b := dt.(*arrow.Decimal256Type), b.(*array.Decimal256Builder)
		return putWith(func(v *big.Int) { b.Append(decimal256.FromBigInt(v)) }, func(c table.Cell) (*big.Int, bool) {
			return cellDecimal(c, t.Precision, t.Scale)
		})
	}
	return nil
}

// textPutter is putterFor of the string and binary types: every cell has
// a text, hence bytes; a fixed-size binary takes bytes of its width only.
func textPutter(dt arrow.DataType, b array.Builder) putter {
	text := func(c table.Cell) (string, bool) { return c.String(), true }
	bytes := func(c table.Cell) ([]byte, bool) { return cellBytes(c), true }
	switch dt.ID() {
	case arrow.STRING:
		return putWith(b.(*array.StringBuilder).Append, text)
	case arrow.LARGE_STRING:
		return putWith(b.(*array.LargeStringBuilder).Append, text)
	case arrow.STRING_VIEW:
		return putWith(b.(*array.StringViewBuilder).Append, text)
	case arrow.BINARY, arrow.LARGE_BINARY:
		return putWith(b.(*array.BinaryBuilder).Append, bytes)
	case arrow.BINARY_VIEW:
		return putWith(b.(*array.BinaryViewBuilder).Append, bytes)
	case arrow.FIXED_SIZE_BINARY:
		width := dt.(*arrow.FixedSizeBinaryType).ByteWidth
		return putWith(b.(*array.FixedSizeBinaryBuilder).Append, func(c table.Cell) ([]byte, bool) {
			v := cellBytes(c)
			return v, len(v) == width
		})
	}
	return nil
}

// timePutter is putterFor of the dates, timestamps and times of day.
func timePutter(dt arrow.DataType, b array.Builder) putter {
	switch dt.ID() {
	case arrow.DATE32:
		return putWith(b.(*array.Date32Builder).Append, func(c table.Cell) (arrow.Date32, bool) {
			return arrow.Date32(c.Int), c.Kind == table.Date && c.Int >= math.MinInt32 && c.Int <= math.MaxInt32
		})
	case arrow.DATE64:
		return putWith(b.(*array.Date64Builder).Append, func(c table.Cell) (arrow.Date64, bool) {
			ms, ok := cellInstant(c, table.Millisecond)
			return arrow.Date64(ms), ok
		})
	case arrow.TIMESTAMP:
		unit := arrowcell.TableUnit(dt.(*arrow.TimestampType).Unit)
		return putWith(b.(*array.TimestampBuilder).Append, func(c table.Cell) (arrow.Timestamp, bool) {
			v, ok := cellInstant(c, unit)
			return arrow.Timestamp(v), ok
		})
	case arrow.TIME32:
		unit := arrowcell.TableUnit(dt.(*arrow.Time32Type).Unit)
		return putWith(b.(*array.Time32Builder).Append, func(c table.Cell) (arrow.Time32, bool) {
			v, ok := cellTimeOfDay(c, unit)
			return arrow.Time32(v), ok && v >= math.MinInt32 && v <= math.MaxInt32
		})
	case arrow.TIME64:
		unit := arrowcell.TableUnit(dt.(*arrow.Time64Type).Unit)
		return putWith(b.(*array.Time64Builder).Append, func(c table.Cell) (arrow.Time64, bool) {
			v, ok := cellTimeOfDay(c, unit)
			return arrow.Time64(v), ok
		})
	}
	return nil
}

// cellInstant reads a Date or Timestamp cell as a count of unit since the
// epoch, when that is exact and within int64.
func cellInstant(c table.Cell, unit table.TimeUnit) (int64, bool) {
	switch c.Kind {
	case table.Date:
		return inUnit(c.Int, table.Second, unit, 86_400)
	case table.Timestamp:
		return inUnit(c.Int, c.Unit, unit, 1)
	}
	return 0, false
}

// cellTimeOfDay reads a TimeOfDay cell as a count of unit since midnight,
// when that is exact and within int64.
func cellTimeOfDay(c table.Cell, unit table.TimeUnit) (int64, bool) {
	if c.Kind != table.TimeOfDay {
		return 0, false
	}
	return inUnit(c.Int, c.Unit, unit, 1)
}

// extensionPutter is putterFor of an extension type: a UUID from its
// text, any other non-nested type as its storage type.
func extensionPutter(dt arrow.DataType, b array.Builder) putter {
	eb, ok := b.(interface{ StorageBuilder() array.Builder })
	if !ok {
		return nil
	}
	if _, ok := dt.(*extensions.UUIDType); ok {
		return putWith(eb.StorageBuilder().(*array.FixedSizeBinaryBuilder).Append, parseUUID)
	}
	storage := dt.(arrow.ExtensionType).StorageType()
	switch storage.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
		return nil
	}
	return putterFor(storage, eb.StorageBuilder())
}

// cellInt reads a cell as an integer in [lo, hi]: an Integer, a Number
// with an integral value, or a Decimal that is a whole number.
func cellInt(c table.Cell, lo, hi int64) (int64, bool) {
	var v int64
	switch c.Kind {
	case table.Integer:
		v = c.Int
	case table.Number:
		if !integral(c.Num) {
			return 0, false
		}
		v = int64(c.Num)
	case table.Decimal:
		n, ok := decimalUnscaled(c.Str, 0)
		if !ok || !n.IsInt64() {
			return 0, false
		}
		v = n.Int64()
	default:
		return 0, false
	}
	return v, v >= lo && v <= hi
}

// cellUint64 reads a cell as a uint64 (a Decimal cell holds one above
// math.MaxInt64).
func cellUint64(c table.Cell) (uint64, bool) {
	if c.Kind == table.Decimal {
		n, ok := decimalUnscaled(c.Str, 0)
		if !ok || !n.IsUint64() {
			return 0, false
		}
		return n.Uint64(), true
	}
	v, ok := cellInt(c, 0, math.MaxInt64)
	return uint64(v), ok
}

// cellFloat reads a cell as a float64: a Number, or an Integer or Decimal
// that float64 holds exactly.
func cellFloat(c table.Cell) (float64, bool) {
	switch c.Kind {
	case table.Number:
		return c.Num, true
	case table.Integer:
		return float64(c.Int), exactFloat(c.Int)
	case table.Decimal:
		r, ok := new(big.Rat).SetString(c.Str)
		if !ok || math.IsInf(c.Num, 0) || math.IsNaN(c.Num) {
			return 0, false
		}
		f, exact := r.Float64()
		return f, exact
	}
	return 0, false
}

// sameFloat reports whether a and b are the same number (NaN counting as
// itself).
func sameFloat(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}

// cellDecimal reads a cell as a decimal of the given precision and scale,
// returning its unscaled value: a Decimal, an Integer, or a Number written
// in the fewest digits that read back as it, when the digits fit.
func cellDecimal(c table.Cell, precision, scale int32) (*big.Int, bool) {
	var text string
	switch c.Kind {
	case table.Decimal:
		text = c.Str
	case table.Integer:
		text = strconv.FormatInt(c.Int, 10)
	case table.Number:
		if math.IsInf(c.Num, 0) || math.IsNaN(c.Num) {
			return nil, false
		}
		text = strconv.FormatFloat(c.Num, 'f', -1, 64)
	default:
		return nil, false
	}
	n, ok := decimalUnscaled(text, scale)
	if !ok || len(strings.TrimPrefix(n.String(), "-")) > int(precision) {
		return nil, false
	}
	return n, true
}

// decimalUnscaled reads a decimal in plain notation ("-12.340") as an
// integer count of 10^-scale, when it is one exactly.
func decimalUnscaled(s string, scale int32) (*big.Int, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return nil, false
	}
	frac = strings.TrimRight(frac, "0")
	if scale < 0 || len(frac) > int(scale) {
		return nil, false // digits below the scale would be lost
	}
	digits := whole + frac + strings.Repeat("0", int(scale)-len(frac))
	for _, r := range digits {
		if r < '0' || r > '9' {
			return nil, false
		}
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

// cellBytes is the binary value of a cell: the bytes a Text cell names (as
// the Parquet reader writes binary values: "0x" and pairs of lower-case
// hexadecimal digits spell bytes, any other text is its UTF-8 bytes), the
// UTF-8 bytes of any other cell's text.
func cellBytes(c table.Cell) []byte {
	s := c.String()
	if c.Kind == table.Text && strings.HasPrefix(s, "0x") && len(s)%2 == 0 && strings.ToLower(s) == s {
		if b, err := hex.DecodeString(s[2:]); err == nil {
			return b
		}
	}
	return []byte(s)
}

// parseUUID reads a Text cell holding a UUID in the 8-4-4-4-12 form.
func parseUUID(c table.Cell) ([]byte, bool) {
	s := c.Str
	if c.Kind != table.Text || len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, false
	}
	b, err := hex.DecodeString(s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:])
	return b, err == nil
}

// inUnit converts v counted in from, times scale (1, or 86,400 to count
// days in seconds), into a count of to, when that is exact and within
// int64.
func inUnit(v int64, from, to table.TimeUnit, scale int64) (int64, bool) {
	f, t := int64(from.Duration()), int64(to.Duration())
	if f == 0 || t == 0 {
		return 0, false
	}
	if f *= scale; f >= t { // units are powers of 1,000 of each other
		k := f / t
		if v > math.MaxInt64/k || v < math.MinInt64/k {
			return 0, false
		}
		return v * k, true
	}
	k := t / f
	if v%k != 0 {
		return 0, false
	}
	return v / k, true
}
