package readers

import (
	"errors"
	"fmt"
)

// Parquet's footer and page headers are Thrift structs in the compact
// protocol (Thrift's THRIFT-110 specification, "compact protocol"). The
// Thrift decoder Arrow uses allocates a list's elements from the count the
// list declares (up to 100 million) before reading them, so that a footer
// of a few bytes can ask for gigabytes. compactReader walks such bytes
// without allocating and checks that every declared length fits in the
// bytes that remain; after it accepts a footer, decoding it allocates in
// proportion to its size.

// Compact protocol type codes.
const (
	ctStop   = 0
	ctTrue   = 1
	ctFalse  = 2
	ctByte   = 3
	ctI16    = 4
	ctI32    = 5
	ctI64    = 6
	ctDouble = 7
	ctBinary = 8
	ctList   = 9
	ctSet    = 10
	ctMap    = 11
	ctStruct = 12
	ctUUID   = 13
)

// maxThriftDepth is the deepest nesting of structs and containers accepted
// (Thrift's own default recursion limit).
const maxThriftDepth = 64

// errThriftShort is returned when the bytes end inside a value, or a value
// declares more than the bytes that remain.
var errThriftShort = errors.New("the Thrift data ends inside a value")

// shortError is an errThriftShort with its own message.
type shortError struct{ msg string }

func (e *shortError) Error() string        { return e.msg }
func (e *shortError) Is(target error) bool { return target == errThriftShort }

// compactReader reads Thrift compact-protocol values from b.
type compactReader struct {
	b     []byte
	i     int
	depth int
}

// rest is the number of unread bytes.
func (c *compactReader) rest() int { return len(c.b) - c.i }

// byte1 reads one byte.
func (c *compactReader) byte1() (byte, error) {
	if c.i >= len(c.b) {
		return 0, errThriftShort
	}
	c.i++
	return c.b[c.i-1], nil
}

// uvarint reads an unsigned LEB128 varint of at most 10 bytes.
func (c *compactReader) uvarint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 70; shift += 7 {
		b, err := c.byte1()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("a Thrift varint is longer than 10 bytes")
}

// int reads a zigzag-encoded integer (i16, i32 or i64).
func (c *compactReader) int() (int64, error) {
	u, err := c.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// i32 reads a zigzag-encoded 32-bit integer.
func (c *compactReader) i32() (int32, error) {
	v, err := c.int()
	if err == nil && (v < -1<<31 || v > 1<<31-1) {
		return 0, fmt.Errorf("a Thrift i32 holds %d", v)
	}
	return int32(v), err
}

// length reads a container or binary length and checks that n items of at
// least minBytes bytes each fit in the bytes that remain.
func (c *compactReader) length(n uint64, minBytes int) (int, error) {
	if n > uint64(c.rest()/minBytes) {
		return 0, &shortError{fmt.Sprintf("a Thrift value declares %s items in the %s that remain", groupDigits(clampInt64(n)), byteSize(int64(c.rest())))}
	}
	return int(n), nil
}

// field reads a struct field header after the field last. It returns
// stop at the end of the struct.
func (c *compactReader) field(last int16) (id int16, typ byte, stop bool, err error) {
	b, err := c.byte1()
	if err != nil {
		return 0, 0, false, err
	}
	if b == ctStop {
		return 0, 0, true, nil
	}
	typ = b & 0x0f
	if delta := int16(b >> 4); delta != 0 {
		return last + delta, typ, false, nil
	}
	v, err := c.int()
	if err != nil {
		return 0, 0, false, err
	}
	if v < -1<<15 || v > 1<<15-1 {
		return 0, 0, false, fmt.Errorf("a Thrift field id is %d", v)
	}
	return int16(v), typ, false, nil
}

// structFields reads a struct's fields, calling fn for each; fn must read
// the field's value, or skip it.
func (c *compactReader) structFields(fn func(id int16, typ byte) error) error {
	if c.depth++; c.depth > maxThriftDepth {
		return errors.New("too deeply nested Thrift values")
	}
	defer func() { c.depth-- }()
	last := int16(0)
	for {
		id, typ, stop, err := c.field(last)
		if err != nil || stop {
			return err
		}
		if err := fn(id, typ); err != nil {
			return err
		}
		last = id
	}
}

// skip reads past one value of the given type (in a struct field: a bool
// field's value is in its header, and takes no byte).
func (c *compactReader) skip(typ byte, inField bool) error {
	switch typ {
	case ctTrue, ctFalse:
		if inField {
			return nil
		}
		_, err := c.byte1()
		return err
	case ctByte:
		_, err := c.byte1()
		return err
	case ctI16, ctI32, ctI64:
		_, err := c.uvarint()
		return err
	case ctDouble:
		return c.skipBytes(8)
	case ctUUID:
		return c.skipBytes(16)
	case ctBinary:
		n, err := c.uvarint()
		if err != nil {
			return err
		}
		k, err := c.length(n, 1)
		if err != nil {
			return err
		}
		return c.skipBytes(k)
	case ctList, ctSet:
		elem, n, err := c.listHeader()
		if err != nil {
			return err
		}
		return c.skipMany(n, elem)
	case ctMap:
		u, err := c.uvarint()
		if err != nil || u == 0 {
			return err
		}
		n, err := c.length(u, 2)
		if err != nil {
			return err
		}
		kv, err := c.byte1()
		if err != nil {
			return err
		}
		if c.depth++; c.depth > maxThriftDepth {
			return errors.New("too deeply nested Thrift values")
		}
		defer func() { c.depth-- }()
		for range n {
			if err := c.skip(kv>>4, false); err != nil {
				return err
			}
			if err := c.skip(kv&0x0f, false); err != nil {
				return err
			}
		}
		return nil
	case ctStruct:
		return c.structFields(func(_ int16, t byte) error { return c.skip(t, true) })
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}

// listHeader reads a list or set header: its element type and length,
// checked against the bytes that remain.
func (c *compactReader) listHeader() (elem byte, n int, err error) {
	b, err := c.byte1()
	if err != nil {
		return 0, 0, err
	}
	size := uint64(b >> 4)
	if size == 15 {
		if size, err = c.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	n, err = c.length(size, 1)
	return b & 0x0f, n, err
}

// skipMany skips n values of type elem (container elements).
func (c *compactReader) skipMany(n int, elem byte) error {
	if c.depth++; c.depth > maxThriftDepth {
		return errors.New("too deeply nested Thrift values")
	}
	defer func() { c.depth-- }()
	for range n {
		if err := c.skip(elem, false); err != nil {
			return err
		}
	}
	return nil
}

// skipBytes reads past n bytes.
func (c *compactReader) skipBytes(n int) error {
	if n > c.rest() {
		return errThriftShort
	}
	c.i += n
	return nil
}

// checkThriftStruct checks that b begins with one well-formed compact
// struct whose every declared length fits, and returns its length.
func checkThriftStruct(b []byte) (int, error) {
	c := &compactReader{b: b}
	if err := c.skip(ctStruct, false); err != nil {
		return 0, err
	}
	return c.i, nil
}
