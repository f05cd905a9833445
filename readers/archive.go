package readers

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
)

// zipEntries returns the number of files a zip archive's end of central
// directory record declares, reading only the archive's tail, so that an
// archive declaring millions of files can be refused before archive/zip
// reads (and holds) its whole directory. ok is false when the record is
// not found; archive/zip then reports the damage.
//
// The record (APPNOTE.TXT 4.3.16) is 22 bytes plus a comment of at most
// 65,535 bytes, at the end of the archive; its total number of entries is
// a 16-bit field at offset 10. An archive with 65,535 or more entries sets
// that field to 0xFFFF and gives the number in the Zip64 end of central
// directory record (4.3.14, a 64-bit field at offset 32), found through the
// Zip64 locator (4.3.15) that precedes the end record.
func zipEntries(r io.ReaderAt, size int64) (n uint64, ok bool) {
	const (
		endLen     = 22
		locatorLen = 20
		zip64Len   = 56
	)
	tail := min(size, endLen+math.MaxUint16)
	if tail < endLen {
		return 0, false
	}
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return 0, false
	}
	at := bytes.LastIndex(buf[:len(buf)-endLen+4], []byte("PK\x05\x06"))
	if at < 0 {
		return 0, false
	}
	n = uint64(binary.LittleEndian.Uint16(buf[at+10:]))
	if n != math.MaxUint16 {
		return n, true
	}
	loc := at - locatorLen
	if loc < 0 || !bytes.Equal(buf[loc:loc+4], []byte("PK\x06\x07")) {
		return n, true
	}
	off := binary.LittleEndian.Uint64(buf[loc+8:])
	if size < zip64Len || off > uint64(size-zip64Len) {
		return n, true
	}
	var rec [zip64Len]byte
	if _, err := r.ReadAt(rec[:], int64(off)); err != nil || !bytes.Equal(rec[:4], []byte("PK\x06\x06")) {
		return n, true
	}
	return binary.LittleEndian.Uint64(rec[32:]), true
}

// clampInt64 converts a size to int64, saturating at math.MaxInt64.
func clampInt64(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// addClamped adds two non-negative sizes, saturating at math.MaxInt64.
func addClamped(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
