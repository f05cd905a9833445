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
	case arrow.INT8:
		b := b.(*array.Int8Builder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, math.MinInt8, math.MaxInt8)
			if ok {
				b.Append(int8(v))
			}
			return ok
		}
	case arrow.INT16:
		b := b.(*array.Int16Builder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, math.MinInt16, math.MaxInt16)
			if ok {
				b.Append(int16(v))
			}
			return ok
		}
	case arrow.INT32:
		b := b.(*array.Int32Builder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, math.MinInt32, math.MaxInt32)
			if ok {
				b.Append(int32(v))
			}
			return ok
		}
	case arrow.INT64:
		b := b.(*array.Int64Builder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, math.MinInt64, math.MaxInt64)
			if ok {
				b.Append(v)
			}
			return ok
		}
	case arrow.UINT8:
		b := b.(*array.Uint8Builder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, 0, math.MaxUint8)
			if ok {
				b.Append(uint8(v))
			}
			return ok
		}
	case arrow.UINT16:
		b := b.(*array.Uint16Builder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, 0, math.MaxUint16)
			if ok {
				b.Append(uint16(v))
			}
			return ok
		}
	case arrow.UINT32:
		b := b.(*array.Uint32Builder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, 0, math.MaxUint32)
			if ok {
				b.Append(uint32(v))
			}
			return ok
		}
	case arrow.UINT64:
		b := b.(*array.Uint64Builder)
		return func(c table.Cell) bool {
			v, ok := cellUint64(c)
			if ok {
				b.Append(v)
			}
			return ok
		}
	case arrow.DURATION:
		b := b.(*array.DurationBuilder)
		return func(c table.Cell) bool {
			v, ok := cellInt(c, math.MinInt64, math.MaxInt64)
			if ok {
				b.Append(arrow.Duration(v))
			}
			return ok
		}
	case arrow.FLOAT16:
		b := b.(*array.Float16Builder)
		return func(c table.Cell) bool {
			v, ok := cellFloat(c)
			f := float16.New(float32(v))
			if ok = ok && sameFloat(arrowcell.Float16Value(f), v); ok {
				b.Append(f)
			}
			return ok
		}
	case arrow.FLOAT32:
		b := b.(*array.Float32Builder)
		return func(c table.Cell) bool {
			v, ok := cellFloat(c)
			f := float32(v)
			if ok = ok && (sameFloat(float64(f), v) || sameFloat(arrowcell.Float32Value(f), v)); ok {
				b.Append(f)
			}
			return ok
		}
	case arrow.FLOAT64:
		b := b.(*array.Float64Builder)
		return func(c table.Cell) bool {
			v, ok := cellFloat(c)
			if ok {
				b.Append(v)
			}
			return ok
		}
	case arrow.DECIMAL128:
		t := dt.(*arrow.Decimal128Type)
		b := b.(*array.Decimal128Builder)
		return func(c table.Cell) bool {
			v, ok := cellDecimal(c, t.Precision, t.Scale)
			if ok {
				b.Append(decimal128.FromBigInt(v))
			}
			return ok
		}
	case arrow.DECIMAL256:
		t := dt.(*arrow.Decimal256Type)
		b := b.(*array.Decimal256Builder)
		return func(c table.Cell) bool {
			v, ok := cellDecimal(c, t.Precision, t.Scale)
			if ok {
				b.Append(decimal256.FromBigInt(v))
			}
			return ok
		}
	case arrow.STRING:
		b := b.(*array.StringBuilder)
		return func(c table.Cell) bool { b.Append(c.String()); return true }
	case arrow.LARGE_STRING:
		b := b.(*array.LargeStringBuilder)
		return func(c table.Cell) bool { b.Append(c.String()); return true }
	case arrow.STRING_VIEW:
		b := b.(*array.StringViewBuilder)
		return func(c table.Cell) bool { b.Append(c.String()); return true }
	case arrow.BINARY, arrow.LARGE_BINARY:
		b := b.(*array.BinaryBuilder)
		return func(c table.Cell) bool { b.Append(cellBytes(c)); return true }
	case arrow.BINARY_VIEW:
		b := b.(*array.BinaryViewBuilder)
		return func(c table.Cell) bool { b.Append(cellBytes(c)); return true }
	case arrow.FIXED_SIZE_BINARY:
		width := dt.(*arrow.FixedSizeBinaryType).ByteWidth
		b := b.(*array.FixedSizeBinaryBuilder)
		return func(c table.Cell) bool {
			v := cellBytes(c)
			if len(v) != width {
				return false
			}
			b.Append(v)
			return true
		}
	case arrow.BOOL:
		b := b.(*array.BooleanBuilder)
		return func(c table.Cell) bool {
			if c.Kind == table.Bool {
				b.Append(c.Bool)
			}
			return c.Kind == table.Bool
		}
	case arrow.DATE32:
		b := b.(*array.Date32Builder)
		return func(c table.Cell) bool {
			ok := c.Kind == table.Date && c.Int >= math.MinInt32 && c.Int <= math.MaxInt32
			if ok {
				b.Append(arrow.Date32(c.Int))
			}
			return ok
		}
	case arrow.DATE64:
		b := b.(*array.Date64Builder)
		return func(c table.Cell) bool {
			var ms int64
			ok := false
			switch c.Kind {
			case table.Date:
				ms, ok = inUnit(c.Int, table.Second, table.Millisecond, 86_400)
			case table.Timestamp:
				ms, ok = inUnit(c.Int, c.Unit, table.Millisecond, 1)
			}
			if ok {
				b.Append(arrow.Date64(ms))
			}
			return ok
		}
	case arrow.TIMESTAMP:
		unit := arrowcell.TableUnit(dt.(*arrow.TimestampType).Unit)
		b := b.(*array.TimestampBuilder)
		return func(c table.Cell) bool {
			var v int64
			ok := false
			switch c.Kind {
			case table.Timestamp:
				v, ok = inUnit(c.Int, c.Unit, unit, 1)
			case table.Date:
				v, ok = inUnit(c.Int, table.Second, unit, 86_400)
			}
			if ok {
				b.Append(arrow.Timestamp(v))
			}
			return ok
		}
	case arrow.TIME32:
		unit := arrowcell.TableUnit(dt.(*arrow.Time32Type).Unit)
		b := b.(*array.Time32Builder)
		return func(c table.Cell) bool {
			if c.Kind != table.TimeOfDay {
				return false
			}
			v, ok := inUnit(c.Int, c.Unit, unit, 1)
			if ok = ok && v >= math.MinInt32 && v <= math.MaxInt32; ok {
				b.Append(arrow.Time32(v))
			}
			return ok
		}
	case arrow.TIME64:
		unit := arrowcell.TableUnit(dt.(*arrow.Time64Type).Unit)
		b := b.(*array.Time64Builder)
		return func(c table.Cell) bool {
			if c.Kind != table.TimeOfDay {
				return false
			}
			v, ok := inUnit(c.Int, c.Unit, unit, 1)
			if ok {
				b.Append(arrow.Time64(v))
			}
			return ok
		}
	case arrow.NULL:
		return func(table.Cell) bool { return false }
	case arrow.EXTENSION:
		eb, ok := b.(interface{ StorageBuilder() array.Builder })
		if !ok {
			return nil
		}
		if _, ok := dt.(*extensions.UUIDType); ok {
			b := eb.StorageBuilder().(*array.FixedSizeBinaryBuilder)
			return func(c table.Cell) bool {
				v, ok := parseUUID(c)
				if ok {
					b.Append(v)
				}
				return ok
			}
		}
		storage := dt.(arrow.ExtensionType).StorageType()
		switch storage.ID() {
		case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
			return nil
		}
		return putterFor(storage, eb.StorageBuilder())
	}
	return nil
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
