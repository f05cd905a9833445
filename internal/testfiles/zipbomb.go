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
	crc = crc32.Update(0, crc32.IEEETable, head)
	for size < total {
		data = append(data, c...)
		crc = crc32.Update(crc, crc32.IEEETable, chunk)
		size += int64(len(chunk))
	}
	data = append(data, 0x01, 0x00, 0x00, 0xff, 0xff) // a final, empty stored block
	return data, size, crc
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
