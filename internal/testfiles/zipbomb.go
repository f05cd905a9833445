package testfiles

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"testing"
)

// A zip bomb: an XLSX workbook whose one sheet, "Bomb", unpacks to
// gigabytes of XML from a few megabytes, made without ever holding the
// unpacked bytes.

const (
	// NSMain and NSRel are the namespace declarations of a worksheet's
	// main elements and of its relationship attributes (ECMA-376 Part 1).
	NSMain = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	NSRel  = `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	// RelDoc starts the type of an Office document relationship.
	RelDoc = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

	// BombHead is the start of a worksheet whose header row names
	// epsilon, and whose row 2 is open.
	BombHead = `<?xml version="1.0" encoding="UTF-8"?><worksheet ` + NSMain + `><sheetData>` +
		`<row r="1"><c r="A1" t="inlineStr"><is><t>epsilon</t></is></c></row><row r="2">`
	// BombUnit is repeated after BombHead: cells of row 2, without end.
	BombUnit = `<c><v>1</v></c>`
)

// DeflateRepeat returns raw deflate data that unpacks to head followed by unit
// repeated to total bytes in all (at least), with the unpacked length and
// CRC-32. It compresses about 1 MiB of the repetition once and repeats the
// compressed blocks: each copy starts a new block at a byte boundary
// (after a sync flush) and refers only to its own bytes, so the copies
// decode one after the other (RFC 1951 §3.2.3: a block may be followed by
// any other).
func DeflateRepeat(t testing.TB, head, unit []byte, total int64) (data []byte, size int64, crc uint32) {
	t.Helper()
	chunk := bytes.Repeat(unit, (1<<20)/len(unit))
	block := func(p []byte) []byte {
		var b bytes.Buffer
		w, err := flate.NewWriter(&b, flate.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p)
		w.Flush()
		return b.Bytes()
	}
	h, c := block(head), block(chunk)
	data = append(data, h...)
	size = int64(len(head))
	copies := 0
	for size < total {
		data = append(data, c...)
		size += int64(len(chunk))
		copies++
	}
	data = append(data, 0x01, 0x00, 0x00, 0xff, 0xff) // a final, empty stored block
	// The CRC-32 of head and the copies, from that of one chunk by
	// doubling: hashing the gigabytes would take a quarter of a second.
	crc = crc32.ChecksumIEEE(head)
	rep, repLen := crc32.ChecksumIEEE(chunk), int64(len(chunk))
	for ; copies > 0; copies >>= 1 {
		if copies&1 != 0 {
			crc = crc32Combine(crc, rep, repLen)
		}
		rep, repLen = crc32Combine(rep, rep, repLen), 2*repLen
	}
	return data, size, crc
}

// crc32Combine returns the CRC-32 (IEEE) of bytes A followed by bytes B
// from the CRC-32 of A, that of B and the length of B, without the bytes:
// appending n zero bits to A is a linear map over GF(2), applied by
// squaring the one-zero-bit operator (zlib's crc32_combine).
func crc32Combine(crcA, crcB uint32, lenB int64) uint32 {
	if lenB <= 0 {
		return crcA
	}
	var even, odd [32]uint32 // operators for 2^k zero bits
	odd[0] = crc32.IEEE      // one zero bit: the reversed polynomial
	for n, row := 1, uint32(1); n < 32; n, row = n+1, row<<1 {
		odd[n] = row
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four zero bits
	for {
		// The first square gives the operator for one zero byte.
		gf2Square(&even, &odd)
		if lenB&1 != 0 {
			crcA = gf2Times(&even, crcA)
		}
		if lenB >>= 1; lenB == 0 {
			break
		}
		gf2Square(&odd, &even)
		if lenB&1 != 0 {
			crcA = gf2Times(&odd, crcA)
		}
		if lenB >>= 1; lenB == 0 {
			break
		}
	}
	return crcA ^ crcB
}

// gf2Times returns the product of a 32×32 matrix over GF(2) (its columns)
// and a vector.
func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

// gf2Square sets square to mat·mat.
func gf2Square(square, mat *[32]uint32) {
	for n := range mat {
		square[n] = gf2Times(mat, mat[n])
	}
}

// BombWorkbook is a workbook whose one sheet, "Bomb", is written raw: data
// packed with deflate, declared to unpack to declared bytes with the given
// CRC-32.
func BombWorkbook(t testing.TB, data []byte, declared int64, crc uint32) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, p := range [][2]string{
		{"_rels/.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + RelDoc + `officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<?xml version="1.0"?><workbook ` + NSMain + ` ` + NSRel + `><sheets><sheet name="Bomb" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + RelDoc + `worksheet" Target="worksheets/sheet1.xml"/></Relationships>`},
	} {
		f, err := w.Create(p[0])
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(p[1]))
	}
	f, err := w.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
		CRC32: crc, CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(declared)})
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
