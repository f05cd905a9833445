package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/table"
)

// outputRow is one row of the output table: the cells under the layout's
// header (layout.Layout.Header), input side first, then status, message
// and the bounds.
type outputRow struct {
	Cells []table.Cell
}

// encodeRow is the coder of outputRow: the number of cells, then for each
// its kind and value (numbers as their IEEE 754 bits, so they decode to
// the same float64; dates, timestamps and times of day as their unit and
// count; decimals as their text and nearest float64; nested values as
// their JSON text). It is only used where a runner moves rows between
// workers; within a fused stage rows are handed on as they are.
func encodeRow(r outputRow) ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(r.Cells)))
	for _, c := range r.Cells {
		b = append(b, byte(c.Kind))
		switch c.Kind {
		case table.Empty:
		case table.Number:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(c.Num))
		case table.Integer:
			b = binary.AppendVarint(b, c.Int)
		case table.Text, table.Nested:
			b = binary.AppendUvarint(b, uint64(len(c.Str)))
			b = append(b, c.Str...)
		case table.Bool:
			v := byte(0)
			if c.Bool {
				v = 1
			}
			b = append(b, v)
		case table.Date, table.Timestamp, table.TimeOfDay:
			b = append(b, byte(c.Unit))
			b = binary.AppendVarint(b, c.Int)
		case table.Decimal:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(c.Num))
			b = binary.AppendUvarint(b, uint64(len(c.Str)))
			b = append(b, c.Str...)
		default:
			return nil, fmt.Errorf("encoding a row: cell of unknown kind %d", c.Kind)
		}
	}
	return b, nil
}

// errShortRow is the error of decodeRow on truncated data.
var errShortRow = errors.New("decoding a row: data ends inside a cell")

// decodeRow is the inverse of encodeRow.
func decodeRow(b []byte) (outputRow, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) { // every cell takes at least one byte
		return outputRow{}, errShortRow
	}
	b = b[k:]
	cells := make([]table.Cell, n)
	for i := range cells {
		if len(b) == 0 {
			return outputRow{}, errShortRow
		}
		kind := table.Kind(b[0])
		b = b[1:]
		c := table.Cell{Kind: kind}
		switch kind {
		case table.Empty:
		case table.Number:
			if len(b) < 8 {
				return outputRow{}, errShortRow
			}
			c.Num = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		case table.Integer:
			v, k := binary.Varint(b)
			if k <= 0 {
				return outputRow{}, errShortRow
			}
			c.Int, b = v, b[k:]
		case table.Text, table.Nested:
			str, rest, ok := decodeText(b)
			if !ok {
				return outputRow{}, errShortRow
			}
			c.Str, b = str, rest
		case table.Date, table.Timestamp, table.TimeOfDay:
			if len(b) < 1 {
				return outputRow{}, errShortRow
			}
			c.Unit = table.TimeUnit(b[0])
			v, k := binary.Varint(b[1:])
			if k <= 0 {
				return outputRow{}, errShortRow
			}
			c.Int, b = v, b[1+k:]
		case table.Decimal:
			if len(b) < 8 {
				return outputRow{}, errShortRow
			}
			c.Num = math.Float64frombits(binary.LittleEndian.Uint64(b))
			str, rest, ok := decodeText(b[8:])
			if !ok {
				return outputRow{}, errShortRow
			}
			c.Str, b = str, rest
		case table.Bool:
			if len(b) < 1 {
				return outputRow{}, errShortRow
			}
			c.Bool, b = b[0] == 1, b[1:]
		default:
			return outputRow{}, fmt.Errorf("decoding a row: cell of unknown kind %d", kind)
		}
		cells[i] = c
	}
	if len(b) != 0 {
		return outputRow{}, fmt.Errorf("decoding a row: %d bytes left after the last cell", len(b))
	}
	return outputRow{Cells: cells}, nil
}

// decodeText reads a length-prefixed string.
func decodeText(b []byte) (s string, rest []byte, ok bool) {
	l, k := binary.Uvarint(b)
	if k <= 0 || l > uint64(len(b)-k) {
		return "", nil, false
	}
	return string(b[k : k+int(l)]), b[k+int(l):], true
}
