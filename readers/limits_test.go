package readers

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// measure runs f and returns the bytes it allocated (TotalAlloc), the
// growth of the heap in use, and the time it took.
func measure(f func()) (alloc, inuse uint64, took time.Duration) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	took = time.Since(start)
	runtime.ReadMemStats(&after)
	if after.HeapInuse > before.HeapInuse {
		inuse = after.HeapInuse - before.HeapInuse
	}
	return after.TotalAlloc - before.TotalAlloc, inuse, took
}

// drainMeasured opens r, which must give one table, and reads it to its
// end, measuring what that allocates and how long it takes.
func drainMeasured(t *testing.T, name string, r io.ReaderAt, size int64, opts Options) (got []entry, alloc, inuse uint64, took time.Duration) {
	t.Helper()
	alloc, inuse, took = measure(func() {
		tables, err := OpenReader(name, r, size, opts)
		if err != nil {
			t.Fatal(err)
		}
		got = drain(t, tables[0])
		tables[0].Close()
	})
	return got, alloc, inuse, took
}

// memoryBound is the most a refusal of hostile input may allocate.
const memoryBound = 64 << 20

// wantLimit checks that err is a *table.Error at p wrapping a *LimitError
// of the given name, whose message is exactly msg (position included).
func wantLimit(t *testing.T, err error, p table.Position, name, msg string) {
	t.Helper()
	wantError(t, err, p)
	var le *LimitError
	if !errors.As(err, &le) || le.Name != name {
		t.Errorf("error %v is not a *LimitError %s", err, name)
	}
	if err != nil && err.Error() != msg {
		t.Errorf("message\n got %q\nwant %q", err.Error(), msg)
	}
}

func TestLimitText(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1: "1 byte", 1023: "1,023 bytes", 1024: "1 KiB", 1 << 20: "1 MiB",
		3 << 30: "3 GiB", 1<<30 + 1: "1,073,741,825 bytes", 5 << 40: "5 TiB", math.MaxInt64: "no limit"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 100000000: "100,000,000"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
	e := &LimitError{Name: "max-xlsx-ratio", Limit: 200, What: "x"}
	if got, want := e.Error(), "x: the limit is 200 to 1; if the file is genuine, raise it with --max-xlsx-ratio"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// A zero limit takes its default; an explicit one is kept.
	l := Limits{CellBytes: 10}.orDefaults()
	if l.CellBytes != 10 || l.RowBytes != DefaultRowBytes || l.XLSXRatio != DefaultXLSXRatio || l.ParquetPageBytes != DefaultParquetPageBytes {
		t.Errorf("orDefaults: %+v", l)
	}
}

// virtualFile is a file of size bytes made up on the fly by byteAt: a file
// of any size, without the memory to hold it.
type virtualFile struct {
	size   int64
	byteAt func(off int64) byte
}

func (f *virtualFile) ReadAt(b []byte, off int64) (int, error) {
	if off >= f.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(b) && off < f.size {
		b[n] = f.byteAt(off)
		n++
		off++
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// patternFile is size bytes of head followed by unit repeated.
func patternFile(head, unit []byte, size int64) *virtualFile {
	return &virtualFile{size: size, byteAt: func(off int64) byte {
		if off < int64(len(head)) {
			return head[off]
		}
		return unit[(off-int64(len(head)))%int64(len(unit))]
	}}
}

// tailFile is size bytes of zeros ending with tail.
func tailFile(size int64, tail []byte) *virtualFile {
	return &virtualFile{size: size, byteAt: func(off int64) byte {
		if i := off - (size - int64(len(tail))); i >= 0 {
			return tail[i]
		}
		return 0
	}}
}

// A 2 GiB CSV line is refused after max-row-bytes, with bounded memory.
func TestCSVEndlessLine(t *testing.T) {
	src := patternFile([]byte("name,epsilon\nr1,0.5\n"), []byte("x,"), 2<<30)
	got, alloc, inuse, took := drainMeasured(t, "endless.csv", src, src.size, Options{})
	t.Logf("2 GiB line refused in %v: %d MB allocated, heap +%d MB", took, alloc>>20, inuse>>20)
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantRow(t, got[0], pos("endless.csv", "", 2), cells(txt("r1"), txt("0.5")))
	wantLimit(t, got[1].Err, pos("endless.csv", "", 3), "max-row-bytes",
		"endless.csv, row 3: this record (a line, or the lines of a quoted field) is too long; a quote without its closing quote makes the rest of the file one record: the limit is 2 MiB; if the file is genuine, raise it with --max-row-bytes")
	if !IsFatal(got[1].Err) {
		t.Error("not fatal")
	}
	// encoding/csv parses the 2 MiB it read into a million fields, with a
	// string, an index and a position each: about 80 bytes a comma.
	if alloc > 4*memoryBound {
		t.Errorf("%d bytes allocated", alloc)
	}
}

// A cell longer than max-cell-bytes is an error for its row only: the row
// is kept, without that cell, and the next rows are read.
func TestCSVLongCellAndWideHeader(t *testing.T) {
	long := strings.Repeat("é", 600) // 1,200 bytes
	data := "name,note,epsilon\nr1," + long + ",1\nr2,short,2\n"
	tables, err := OpenReader("long.csv", strings.NewReader(data), int64(len(data)), Options{Limits: Limits{CellBytes: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, tables[0])
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantLimit(t, got[0].Err, table.Position{File: "long.csv", Row: 2, Column: 1, ColumnName: "note"}, "max-cell-bytes",
		"long.csv, row 2, column note: this cell holds 1,200 bytes: the limit is 1,000 bytes; if the file is genuine, raise it with --max-cell-bytes")
	if IsFatal(got[0].Err) {
		t.Error("a long cell is fatal")
	}
	wantRow(t, got[1], pos("long.csv", "", 3), cells(txt("r2"), txt("short"), txt("2")))

	// The header: too many columns, or a header cell too long.
	wide := strings.Repeat("c,", 20) + "epsilon\n1\n"
	_, err = OpenReader("wide.csv", strings.NewReader(wide), int64(len(wide)), Options{Limits: Limits{Columns: 20}})
	wantLimit(t, err, pos("wide.csv", "", 1), "max-columns",
		"wide.csv, row 1: the header row has 21 columns: the limit is 20 columns; if the file is genuine, raise it with --max-columns")
	_, err = OpenReader("long.csv", strings.NewReader(data), int64(len(data)), Options{Limits: Limits{CellBytes: 3}})
	wantLimit(t, err, table.Position{File: "long.csv", Row: 1, Column: 0}, "max-cell-bytes",
		"long.csv, row 1, column 1: this header cell holds 4 bytes: the limit is 3 bytes; if the file is genuine, raise it with --max-cell-bytes")
}

// sheetHead and bombUnit make the sheet of a zip bomb: its header, then
// cells of row 2 without end.
const (
	sheetHead = testfiles.BombHead
	bombUnit  = testfiles.BombUnit
)

// A zip bomb: a sheet of 2 GiB of XML packed into about 2 MB is refused at
// Open, from the sizes its archive declares, with bounded memory; the
// declared sizes cannot lie (a forged smaller size is refused once the
// part unpacks past it); and with the ratio limit raised, the sheet's one
// endless row is refused at max-row-bytes.
func TestXLSXZipBomb(t *testing.T) {
	data, size, crc := testfiles.DeflateRepeat(t, []byte(sheetHead), []byte(bombUnit), 2<<30)
	book := testfiles.BombWorkbook(t, data, size, crc)
	t.Logf("zip bomb: %d bytes unpack to %d (%d to 1)", len(book), size, size/int64(len(data)))

	// The bomb is real: its first 16 MiB unpack to the pattern.
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.File[3].Open()
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 16<<20)
	if _, err := io.ReadFull(rc, head); err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if !bytes.HasPrefix(head, []byte(sheetHead+bombUnit)) || !bytes.HasSuffix(head[:len(head)-(len(head)-len(sheetHead))%len(bombUnit)], []byte(bombUnit)) {
		t.Fatal("the bomb does not unpack to its pattern")
	}

	var openErr error
	alloc, inuse, took := measure(func() {
		_, openErr = OpenReader("bomb.xlsx", bytes.NewReader(book), int64(len(book)), Options{})
	})
	t.Logf("2 GiB zip bomb refused in %v: %d KB allocated, heap +%d KB", took, alloc>>10, inuse>>10)
	ratio := size / int64(len(data))
	wantLimit(t, openErr, pos("bomb.xlsx", "Bomb", 0), "max-xlsx-ratio",
		"bomb.xlsx, sheet Bomb: the part xl/worksheets/sheet1.xml unpacks from "+byteSize(int64(len(data)))+" to "+byteSize(size)+
			" ("+groupDigits(ratio)+" times its size), as a zip bomb does: the limit is 200 to 1; if the file is genuine, raise it with --max-xlsx-ratio")
	if alloc > memoryBound {
		t.Errorf("refusing the bomb allocated %d bytes", alloc)
	}

	// The same sheet, declared below the sheet limit but above the ratio.
	_, err = OpenReader("bomb.xlsx", bytes.NewReader(book), int64(len(book)), Options{Limits: Limits{XLSXRatio: 2000, XLSXSheetBytes: 1 << 30}})
	wantLimit(t, err, pos("bomb.xlsx", "Bomb", 0), "max-xlsx-sheet-bytes",
		"bomb.xlsx, sheet Bomb: the part xl/worksheets/sheet1.xml unpacks to "+groupDigits(size)+" bytes: the limit is 1 GiB; if the file is genuine, raise it with --max-xlsx-sheet-bytes")

	// The ratio raised: the endless row 2 is refused at max-row-bytes.
	got, alloc, inuse, took := drainMeasured(t, "bomb.xlsx", bytes.NewReader(book), int64(len(book)), Options{Limits: Limits{XLSXRatio: 2000, RowBytes: 1 << 20}})
	t.Logf("endless row refused in %v: %d MB allocated, heap +%d KB", took, alloc>>20, inuse>>10)
	if len(got) != 1 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantLimit(t, got[0].Err, pos("bomb.xlsx", "Bomb", 2), "max-row-bytes",
		"bomb.xlsx, sheet Bomb, row 2: this row's XML is too long: the limit is 1 MiB; if the file is genuine, raise it with --max-row-bytes")
	if !IsFatal(got[0].Err) {
		t.Error("not fatal")
	}
	if alloc > memoryBound {
		t.Errorf("refusing the endless row allocated %d bytes", alloc)
	}

	// A forged size: the archive declares 1 MiB (no ratio is checked on
	// so small a part), the data unpacks to 2 GiB.
	forged := testfiles.BombWorkbook(t, data, 1<<20, crc)
	got, alloc, _, took = drainMeasured(t, "forged.xlsx", bytes.NewReader(forged), int64(len(forged)), Options{})
	t.Logf("forged size refused in %v: %d MB allocated", took, alloc>>20)
	if len(got) != 1 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantError(t, got[0].Err, pos("forged.xlsx", "Bomb", 2), "forged.xlsx, sheet Bomb, row 2: the sheet is damaged: the part xl/worksheets/sheet1.xml unpacks to more than the 1 MiB its archive entry declares: the workbook is damaged or forged")
	if alloc > memoryBound {
		t.Errorf("refusing the forged size allocated %d bytes", alloc)
	}
}

// The number of files, of sheets, the size of the parts held in memory and
// of all the parts read, and the length of a cell.
func TestXLSXCountsAndCells(t *testing.T) {
	book := handWorkbook(t, handData) // 8 files, 3 sheets
	// The sizes the archive declares, to check the messages.
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	for _, f := range zr.File {
		sizes[f.Name] = int64(f.UncompressedSize64)
	}
	// Read in order: the workbook index, the shared strings, and the
	// sheets Data, Empty (no header) and Strict.
	total := sizes["xl/workbook.xml"] + sizes["xl/strings.xml"] + sizes["xl/worksheets/data.xml"]
	open := func(lim Limits) error {
		_, err := OpenReader("hand.xlsx", bytes.NewReader(book), int64(len(book)), Options{Limits: lim})
		return err
	}
	wantLimit(t, open(Limits{XLSXParts: 7}), pos("hand.xlsx", "", 0), "max-xlsx-parts",
		"hand.xlsx: the workbook's archive holds 8 files: the limit is 7 parts; if the file is genuine, raise it with --max-xlsx-parts")
	wantLimit(t, open(Limits{XLSXParts: 2}), pos("hand.xlsx", "", 0), "max-xlsx-parts",
		"hand.xlsx: the workbook's archive holds 8 files: the limit is 2 parts; if the file is genuine, raise it with --max-xlsx-parts")
	wantLimit(t, open(Limits{XLSXPartBytes: 300}), pos("hand.xlsx", "", 0), "max-xlsx-part-bytes",
		"hand.xlsx: the part xl/workbook.xml unpacks to "+groupDigits(sizes["xl/workbook.xml"])+" bytes: the limit is 300 bytes; if the file is genuine, raise it with --max-xlsx-part-bytes")
	wantLimit(t, open(Limits{XLSXTotalBytes: total - 1}), pos("hand.xlsx", "", 0), "max-xlsx-total-bytes",
		"hand.xlsx: the parts read up to xl/worksheets/data.xml unpack to "+groupDigits(total)+" bytes in all: the limit is "+groupDigits(total-1)+" bytes; if the file is genuine, raise it with --max-xlsx-total-bytes")
	if err := open(Limits{XLSXTotalBytes: total + sizes["xl/worksheets/empty.xml"] + sizes["xl/worksheets/strict.xml"]}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	// A workbook that lists one sheet many times reads it as many times.
	var repeated strings.Builder
	for i := range 50 {
		repeated.WriteString(`<sheet name="S` + itoa(i) + `" sheetId="1" r:id="rId1"/>`)
	}
	again := zipOf(t, "xl/workbook.xml", `<workbook `+nsMain+` `+nsRel+`><sheets>`+repeated.String()+`</sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Type="`+relDoc+`worksheet" Target="worksheets/s.xml"/></Relationships>`,
		"xl/worksheets/s.xml", `<worksheet><sheetData><row><c t="inlineStr"><is><t>epsilon</t></is></c></row>`+strings.Repeat(`<row><c><v>1</v></c></row>`, 40)+`</sheetData></worksheet>`)
	zr, err = zip.NewReader(bytes.NewReader(again), int64(len(again)))
	if err != nil {
		t.Fatal(err)
	}
	index, sheet := int64(zr.File[0].UncompressedSize64), int64(zr.File[2].UncompressedSize64)
	read := index + (20000-index)/sheet*sheet + sheet // the first total above 20,000
	_, err = OpenReader("again.xlsx", bytes.NewReader(again), int64(len(again)), Options{Limits: Limits{XLSXTotalBytes: 20000}})
	wantLimit(t, err, pos("again.xlsx", "", 0), "max-xlsx-total-bytes",
		"again.xlsx: the parts read up to xl/worksheets/s.xml unpack to "+groupDigits(read)+" bytes in all: the limit is 20,000 bytes; if the file is genuine, raise it with --max-xlsx-total-bytes")

	// An archive that declares 65,535 files in its end record is refused
	// before its directory is read.
	forged := bytes.Clone(book)
	end := bytes.LastIndex(forged, []byte("PK\x05\x06"))
	binary.LittleEndian.PutUint16(forged[end+8:], 0xFFFF)
	binary.LittleEndian.PutUint16(forged[end+10:], 0xFFFF)
	_, err = OpenReader("many.xlsx", bytes.NewReader(forged), int64(len(forged)), Options{})
	wantLimit(t, err, pos("many.xlsx", "", 0), "max-xlsx-parts",
		"many.xlsx: the workbook's archive holds 65,535 files: the limit is 10,000 parts; if the file is genuine, raise it with --max-xlsx-parts")

	// A workbook index that lists more sheets than the limit.
	var sheets strings.Builder
	for i := range 12 {
		sheets.WriteString(`<sheet name="S` + itoa(i) + `" sheetId="1" r:id="rId1"/>`)
	}
	many := zipOf(t, "xl/workbook.xml", `<workbook `+nsMain+` `+nsRel+`><sheets>`+sheets.String()+`</sheets></workbook>`)
	_, err = OpenReader("sheets.xlsx", bytes.NewReader(many), int64(len(many)), Options{Limits: Limits{XLSXParts: 10}})
	wantLimit(t, err, pos("sheets.xlsx", "", 0), "max-xlsx-parts",
		"sheets.xlsx: the workbook lists 12 sheets: the limit is 10 parts; if the file is genuine, raise it with --max-xlsx-parts")

	// Cells: an inline string, a number and a shared string longer than
	// the limit are errors for their rows, which are kept.
	long := strings.Repeat("z", 40)
	data := `<worksheet ` + nsMain + `><sheetData>` +
		`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>note</t></is></c></row>` +
		`<row r="2"><c r="A2"><v>0.5</v></c><c r="B2" t="inlineStr"><is><r><t>` + long + `</t></r><r><t>` + long + `</t></r></is></c></row>` +
		`<row r="3"><c r="A3"><v>` + strings.Repeat("1", 70) + `</v></c><c r="B3" t="inlineStr"><is><t>ok</t></is></c></row>` +
		`<row r="4"><c r="A4"><v>2</v></c><c r="B4" t="s"><v>4</v></c></row>` +
		`</sheetData></worksheet>`
	book = zipOf(t,
		"_rels/.rels", `<Relationships><Relationship Id="rId1" Type="`+relDoc+`officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml", `<workbook `+nsMain+` `+nsRel+`><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Type="`+relDoc+`worksheet" Target="worksheets/s.xml"/></Relationships>`,
		"xl/sharedStrings.xml", `<sst `+nsMain+`><si><t>epsilon</t></si><si><t>a</t></si><si><t>b</t></si><si><t>c</t></si><si><t>`+long+long+`</t></si></sst>`,
		"xl/worksheets/s.xml", data)
	tables, err := OpenReader("cells.xlsx", bytes.NewReader(book), int64(len(book)), Options{Limits: Limits{CellBytes: 64}})
	if err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	var got []entry
	for {
		row, err := tables[0].Next()
		if err == io.EOF {
			break
		}
		got = append(got, entry{Row: row, Err: err})
	}
	if len(got) != 3 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantLimit(t, got[0].Err, table.Position{File: "cells.xlsx", Sheet: "Data", Row: 2, Column: 1, ColumnName: "note"}, "max-cell-bytes",
		"cells.xlsx, sheet Data, row 2, column B (note): this cell holds 80 bytes of text: the limit is 64 bytes; if the file is genuine, raise it with --max-cell-bytes")
	if !slices.Equal(got[0].Row.Cells, cells(num(0.5), empty())) || IsFatal(got[0].Err) {
		t.Errorf("row 2 %+v", got[0])
	}
	wantLimit(t, got[1].Err, table.Position{File: "cells.xlsx", Sheet: "Data", Row: 3, Column: 0, ColumnName: "epsilon"}, "max-cell-bytes",
		"cells.xlsx, sheet Data, row 3, column A (epsilon): this cell holds 70 bytes of text: the limit is 64 bytes; if the file is genuine, raise it with --max-cell-bytes")
	if !slices.Equal(got[1].Row.Cells, cells(empty(), txt("ok"))) {
		t.Errorf("row 3 %+v", got[1])
	}
	wantLimit(t, got[2].Err, table.Position{File: "cells.xlsx", Sheet: "Data", Row: 4, Column: 1, ColumnName: "note"}, "max-cell-bytes",
		"cells.xlsx, sheet Data, row 4, column B (note): this cell's text (shared string 4) holds 80 bytes: the limit is 64 bytes; if the file is genuine, raise it with --max-cell-bytes")
}

// itoa formats an int.
func itoa(i int) string { return groupDigits(int64(i)) }

func TestZipEntries(t *testing.T) {
	book := handWorkbook(t, handData)
	if n, ok := zipEntries(bytes.NewReader(book), int64(len(book))); !ok || n != 8 {
		t.Errorf("zipEntries = %d, %v; want 8", n, ok)
	}
	// A comment after the end record.
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	w.SetComment(strings.Repeat("PK", 100))
	w.Create("a")
	w.Close()
	if n, ok := zipEntries(bytes.NewReader(buf.Bytes()), int64(buf.Len())); !ok || n != 1 {
		t.Errorf("with a comment: zipEntries = %d, %v; want 1", n, ok)
	}
	for _, b := range [][]byte{nil, []byte("PK"), bytes.Repeat([]byte{0}, 100)} {
		if _, ok := zipEntries(bytes.NewReader(b), int64(len(b))); ok {
			t.Errorf("zipEntries(%q) ok", b)
		}
	}
}
