package readers

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/riskbatch/riskbatch/internal/arrowcell"
	"github.com/riskbatch/riskbatch/table"
)

// The cells of a Parquet column, by its Arrow type (as pqarrow gives it
// from the Parquet schema):
//
//   - int8 to int64, uint8 to uint32: Integer. uint64: Integer, and a
//     value above math.MaxInt64 a Decimal cell holding its digits, exact
//     (a Number would round 18446744073709551615 up to 2⁶⁴).
//   - float32 and float16: Number, the float64 of the shortest decimal
//     that reads back as the same float32 or float16 (a float32 0.1 is
//     0.1, not 0.10000000149011612: the value its author wrote); float64:
//     Number as it is.
//   - decimal128, decimal256: Decimal, the exact value in plain notation
//     with as many fraction digits as the column's scale ("-100.0000"),
//     and its nearest float64.
//   - string types: Text; an empty string is a Text cell holding "",
//     distinct from null. JSON (binary in Arrow): Text, the JSON text.
//   - binary types (and fixed-size binary other than UUID, Parquet's
//     INTERVAL among them): Text, the bytes as they are when they are
//     text and do not look like "0x" and hexadecimal digits, else "0x"
//     followed by their hexadecimal digits, so that the text names the
//     bytes exactly (see textFromBytes).
//   - UUID: Text in the canonical 8-4-4-4-12 form.
//   - bool: Bool.
//   - date32, date64: Date.
//   - timestamp of every unit: Timestamp in that unit, marked as an
//     instant in UTC when the column has a time zone (Parquet's
//     isAdjustedToUTC), a wall-clock date and time when it has none.
//   - time32, time64: TimeOfDay in the column's unit.
//   - duration: Integer, a count of the column's unit.
//   - list, large list, fixed-size list, struct, map (and other nested
//     types): Nested, the value as JSON text as Arrow marshals it
//     (array.GetOneForMarshal: lists as arrays, structs as objects with
//     their fields in name order, maps as arrays of {"key", "value"}
//     objects, binary values in base64, timestamps and decimals as
//     strings).
//   - dictionary-encoded columns: decoded, with the cells of their values.
//   - null: Empty.
//
// Nulls are Empty cells.

// getter returns the cell of row i of a column of the current batch.
type getter func(i int) table.Cell

// kindOf is the kind of the cells of a column of type dt (see above).
func kindOf(dt arrow.DataType) (table.Kind, error) {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.DURATION:
		return table.Integer, nil
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return table.Number, nil
	case arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256:
		return table.Decimal, nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW,
		arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY:
		return table.Text, nil
	case arrow.BOOL:
		return table.Bool, nil
	case arrow.DATE32, arrow.DATE64:
		return table.Date, nil
	case arrow.TIMESTAMP:
		return table.Timestamp, nil
	case arrow.TIME32, arrow.TIME64:
		return table.TimeOfDay, nil
	case arrow.NULL:
		return table.Empty, nil
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW,
		arrow.STRUCT, arrow.MAP:
		return table.Nested, nil
	case arrow.DICTIONARY:
		if d, ok := dt.(*arrow.DictionaryType); ok {
			return kindOf(d.ValueType)
		}
	case arrow.EXTENSION:
		if _, ok := dt.(*extensions.UUIDType); ok {
			return table.Text, nil
		}
		if e, ok := dt.(arrow.ExtensionType); ok {
			k, err := kindOf(e.StorageType())
			if err == nil && e.StorageType().ID() == arrow.STRUCT {
				// Variant and other extensions stored as structs are
				// values of their own, which Arrow marshals as such.
				return table.Nested, nil
			}
			return k, err
		}
	}
	return table.Empty, fmt.Errorf("the column's type %s is not supported", dt)
}

// getterFor returns the cells of a column of a batch. A nested value that
// cannot be written as JSON sets *bad.
func getterFor(arr arrow.Array, bad *error) (getter, error) {
	g, err := valueGetter(arr, bad)
	if err != nil || arr.NullN() == 0 {
		return g, err
	}
	return func(i int) table.Cell {
		if arr.IsNull(i) {
			return table.Cell{}
		}
		return g(i)
	}, nil
}

// valueGetter returns the cells of the non-null values of a column.
func valueGetter(arr arrow.Array, bad *error) (getter, error) {
	switch a := arr.(type) {
	case *array.Int8:
		return integers(a.Value), nil
	case *array.Int16:
		return integers(a.Value), nil
	case *array.Int32:
		return integers(a.Value), nil
	case *array.Int64:
		return integers(a.Value), nil
	case *array.Uint8:
		return integers(a.Value), nil
	case *array.Uint16:
		return integers(a.Value), nil
	case *array.Uint32:
		return integers(a.Value), nil
	case *array.Uint64:
		return func(i int) table.Cell {
			v := a.Value(i)
			if v > math.MaxInt64 {
				return table.DecimalCell(strconv.FormatUint(v, 10))
			}
			return table.IntegerCell(int64(v))
		}, nil
	case *array.Duration:
		return integers(a.Value), nil
	case *array.Float16:
		return func(i int) table.Cell { return table.NumberCell(arrowcell.Float16Value(a.Value(i))) }, nil
	case *array.Float32:
		return func(i int) table.Cell { return table.NumberCell(arrowcell.Float32Value(a.Value(i))) }, nil
	case *array.Float64:
		return func(i int) table.Cell { return table.NumberCell(a.Value(i)) }, nil
	case *array.Decimal32:
		scale := a.DataType().(*arrow.Decimal32Type).Scale
		return func(i int) table.Cell { return decimalCell(big.NewInt(int64(a.Value(i))), scale) }, nil
	case *array.Decimal64:
		scale := a.DataType().(*arrow.Decimal64Type).Scale
		return func(i int) table.Cell { return decimalCell(big.NewInt(int64(a.Value(i))), scale) }, nil
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(i int) table.Cell { return decimalCell(a.Value(i).BigInt(), scale) }, nil
	case *array.Decimal256:
		scale := a.DataType().(*arrow.Decimal256Type).Scale
		return func(i int) table.Cell { return decimalCell(a.Value(i).BigInt(), scale) }, nil
	case *array.String:
		return texts(a.Value), nil
	case *array.LargeString:
		return texts(a.Value), nil
	case *array.StringView:
		return texts(a.Value), nil
	case *array.Binary:
		return binaries(a.Value), nil
	case *array.LargeBinary:
		return binaries(a.Value), nil
	case *array.BinaryView:
		return binaries(a.Value), nil
	case *array.FixedSizeBinary:
		return binaries(a.Value), nil
	case *array.Boolean:
		return func(i int) table.Cell { return table.BoolCell(a.Value(i)) }, nil
	case *array.Date32:
		return func(i int) table.Cell { return table.DateCell(int64(a.Value(i))) }, nil
	case *array.Date64:
		const day = 86_400_000
		return func(i int) table.Cell {
			ms := int64(a.Value(i))
			if ms%day != 0 { // not a date at midnight, as date64 should be
				return table.TimestampCell(ms, table.Millisecond)
			}
			return table.DateCell(ms / day)
		}, nil
	case *array.Timestamp:
		tt := a.DataType().(*arrow.TimestampType)
		unit := arrowcell.TableUnit(tt.Unit)
		if tt.TimeZone != "" {
			unit = unit.InUTC()
		}
		return func(i int) table.Cell { return table.TimestampCell(int64(a.Value(i)), unit) }, nil
	case *array.Time32:
		return timesOfDay(a.Value, a.DataType().(*arrow.Time32Type).Unit), nil
	case *array.Time64:
		return timesOfDay(a.Value, a.DataType().(*arrow.Time64Type).Unit), nil
	case *array.Null:
		return func(int) table.Cell { return table.Cell{} }, nil
	case *array.Dictionary:
		values, err := getterFor(a.Dictionary(), bad)
		if err != nil {
			return nil, err
		}
		return func(i int) table.Cell { return values(a.GetValueIndex(i)) }, nil
	case *extensions.UUIDArray:
		storage := a.Storage().(*array.FixedSizeBinary)
		return func(i int) table.Cell { return table.TextCell(uuidText(storage.Value(i))) }, nil
	case array.ExtensionArray:
		if a.Storage().DataType().ID() == arrow.STRUCT {
			return nestedGetter(a, bad), nil
		}
		return getterFor(a.Storage(), bad)
	case *array.List, *array.LargeList, *array.FixedSizeList, *array.ListView, *array.LargeListView,
		*array.Struct, *array.Map:
		return nestedGetter(arr, bad), nil
	}
	return nil, fmt.Errorf("the column's type %s is not supported", arr.DataType())
}

// integers is the getter of an integer column whose values fit an int64.
func integers[T ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32](value func(int) T) getter {
	return func(i int) table.Cell { return table.IntegerCell(int64(value(i))) }
}

// texts is the getter of a string column. Its values are cloned: they
// point into the batch's buffers.
func texts(value func(int) string) getter {
	return func(i int) table.Cell { return table.TextCell(strings.Clone(value(i))) }
}

// binaries is the getter of a binary column (see textFromBytes).
func binaries(value func(int) []byte) getter {
	return func(i int) table.Cell { return table.TextCell(textFromBytes(value(i))) }
}

// timesOfDay is the getter of a time32 or time64 column of Arrow unit u.
func timesOfDay[T ~int32 | ~int64](value func(int) T, u arrow.TimeUnit) getter {
	unit := arrowcell.TableUnit(u)
	return func(i int) table.Cell { return table.TimeOfDayCell(int64(value(i)), unit) }
}

// nestedGetter returns the values of a nested column as JSON text.
func nestedGetter(arr arrow.Array, bad *error) getter {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	return func(i int) table.Cell {
		buf.Reset()
		err := marshalOne(enc, arr, i)
		if err != nil {
			if *bad == nil {
				*bad = fmt.Errorf("its value cannot be written as JSON: %w", err)
			}
			return table.Cell{}
		}
		return table.NestedCell(strings.TrimSuffix(buf.String(), "\n"))
	}
}

// marshalOne encodes value i of arr, recovering a panic of Arrow's
// marshalling (array.List panics on a value it cannot encode).
func marshalOne(enc *json.Encoder, arr arrow.Array, i int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return enc.Encode(arr.GetOneForMarshal(i))
}

// decimalCell is the Decimal cell of unscaled × 10^-scale.
func decimalCell(unscaled *big.Int, scale int32) table.Cell {
	return table.DecimalCell(decimalText(unscaled, scale))
}

// decimalText writes unscaled × 10^-scale in plain notation, with scale
// fraction digits when scale > 0: (-1000000, 4) gives "-100.0000", (7, -2)
// "700".
func decimalText(unscaled *big.Int, scale int32) string {
	digits := unscaled.String()
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	switch {
	case scale > 0:
		if n := int(scale) + 1 - len(digits); n > 0 {
			digits = strings.Repeat("0", n) + digits
		}
		digits = digits[:len(digits)-int(scale)] + "." + digits[len(digits)-int(scale):]
	case scale < 0 && digits != "0":
		digits += strings.Repeat("0", int(-scale))
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// uuidText formats 16 bytes as a UUID: 8-4-4-4-12 lower-case hexadecimal
// digits.
func uuidText(b []byte) string {
	if len(b) != 16 {
		return textFromBytes(b)
	}
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// textFromBytes is the text of a binary value: the bytes themselves when
// they are text (valid UTF-8 without control characters other than tab,
// line feed and carriage return) and do not read as a hexadecimal literal
// ("0x" followed by pairs of lower-case hexadecimal digits), else "0x"
// followed by their hexadecimal digits. The text so names the bytes
// exactly: the Parquet writer writes a text that is such a literal as the
// bytes it spells, any other text as its UTF-8 bytes.
func textFromBytes(b []byte) string {
	if isText(b) && !isHexLiteral(string(b)) {
		return string(b)
	}
	return "0x" + hex.EncodeToString(b)
}

// isText reports whether b is valid UTF-8 without control characters
// other than tab, line feed and carriage return.
func isText(b []byte) bool {
	for _, c := range b {
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
			return false
		}
	}
	return utf8.Valid(b)
}

// isHexLiteral reports whether s is "0x" followed by pairs of lower-case
// hexadecimal digits.
func isHexLiteral(s string) bool {
	if !strings.HasPrefix(s, "0x") || len(s)%2 != 0 {
		return false
	}
	for _, c := range []byte(s[2:]) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
