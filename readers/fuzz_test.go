package readers

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// readAllFuzz opens data under name and reads every table to the end,
// checking the readers' contract on hostile bytes: no panic, no endless
// loop, every error a *table.Error, rows no wider than their header.
func readAllFuzz(t *testing.T, name string, data []byte) {
	tables, err := OpenReader(name, bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		var te *table.Error
		if !errors.As(err, &te) {
			t.Fatalf("Open error %v (%T) is not a *table.Error", err, err)
		}
		return
	}
	for _, tb := range tables {
		width := len(tb.Columns())
		for i := 0; ; i++ {
			if i > 4*len(data)+16 {
				t.Fatal("more rows than the input could hold: Next does not end")
			}
			row, err := tb.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var te *table.Error
				if !errors.As(err, &te) {
					t.Fatalf("Next error %v (%T) is not a *table.Error", err, err)
				}
				if IsFatal(err) {
					break
				}
				continue
			}
			if len(row.Cells) > width {
				t.Fatalf("row of %d cells under a header of %d", len(row.Cells), width)
			}
		}
		tb.Close()
	}
}

// fuzzFormat fuzzes the reader of files named with extension ext, from
// the sample files (see seedFiles) and the seeds that seeds adds.
func fuzzFormat(f *testing.F, ext string, seeds func(*testing.F)) {
	seedFiles(f, ext)
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { readAllFuzz(t, "fuzz"+ext, data) })
}

// seedFiles adds the sample release table in the given format, and a few
// damaged copies of it, to a fuzz corpus.
func seedFiles(f *testing.F, ext string) {
	data, err := os.ReadFile(filepath.Join("..", "samples", "releases"+ext))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	flipped := bytes.Clone(data)
	for i := len(flipped) / 3; i < len(flipped); i += 97 {
		flipped[i] ^= 0x5a
	}
	f.Add(flipped)
	f.Add([]byte{})
}

// FuzzXLSX: any bytes named .xlsx (a zip of XML parts, the shared strings,
// inline strings, formulas with cached values, errors like #DIV/0!) are
// read without panicking, within the readers' contract.
func FuzzXLSX(f *testing.F) {
	fuzzFormat(f, ".xlsx", xlsxSeeds)
}

// xlsxSeeds adds workbooks with what real ones hold: shared strings (rich
// text, phonetic readings), inline strings, formulas with and without
// cached values, error cells (#DIV/0!, #N/A), booleans, dates as serial
// numbers and in ISO form (t="d"), merged cells, styled empty rows, rows
// and cells without references, namespace prefixes, an empty sheet, a
// sheet listed twice, hidden sheets, and a small zip bomb.
func xlsxSeeds(f *testing.F) {
	f.Add(excelizeWorkbook(f))
	f.Add(handWorkbook(f, handData))
	f.Add(handWorkbook(f, `<worksheet `+nsMain+`><sheetData>`+
		`<row r="1"><c r="A1" t="inlineStr"><is><t>epsilon</t></is></c><c r="B1" t="inlineStr"><is><t>when</t></is></c><c r="C1" t="inlineStr"><is><t>note</t></is></c></row>`+
		`<row r="2"><c r="A2" t="e"><v>#N/A</v></c><c r="B2" t="d"><v>2024-03-01T12:00:00</v></c><c r="C2" s="1"><v>45352.5</v></c></row>`+
		`<row r="3"><c r="A3" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="B3" t="b"><v>true</v></c><c r="C3" t="n"><v>1E-300</v></c></row>`+
		`<row r="4"><c r="A4" t="s"><v>3</v></c><c r="B4"><f t="shared" ref="B4:B6" si="0">A4*2</f><v>2</v></c></row>`+
		`<row r="5"><c r="A5"><v>0.5</v></c><c r="B5"><f t="shared" si="0"/><v>1</v></c></row>`+
		`</sheetData><mergeCells count="2"><mergeCell ref="A1:B1"/><mergeCell ref="C2:C5"/></mergeCells></worksheet>`))

	// Merged cells and dates written by excelize.
	x := excelize.NewFile()
	x.SetSheetRow("Sheet1", "A1", &[]any{"name", "epsilon", "released"})
	x.SetSheetRow("Sheet1", "A2", &[]any{"merged", 0.5, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)})
	x.MergeCell("Sheet1", "A2", "A4")
	x.SetCellFormula("Sheet1", "B3", "B2/0")
	x.SetCellValue("Sheet1", "B4", "#DIV/0!")
	x.NewSheet("Hidden")
	x.SetSheetVisible("Hidden", false)
	x.SetCellValue("Hidden", "A1", "epsilon")
	if buf, err := x.WriteToBuffer(); err == nil {
		f.Add(buf.Bytes())
	}
	x.Close()

	// Two sheets on one part; and a sheet that unpacks 4 MiB from a few KB.
	f.Add(zipOf(f, "xl/workbook.xml", `<workbook `+nsMain+` `+nsRel+`><sheets><sheet name="A" r:id="rId1"/><sheet name="B" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Type="`+relDoc+`worksheet" Target="worksheets/s.xml"/></Relationships>`,
		"xl/worksheets/s.xml", `<worksheet><sheetData><row><c t="inlineStr"><is><t>epsilon</t></is></c></row><row><c><v>1</v></c></row></sheetData></worksheet>`))
	data, size, crc := testfiles.DeflateRepeat(f, []byte(sheetHead), []byte(bombUnit), 4<<20)
	f.Add(testfiles.BombWorkbook(f, data, size, crc))
}

// FuzzParquet: any bytes named .parquet (forged footers, absurd metadata,
// damaged pages) are read without panicking, within the readers' contract.
func FuzzParquet(f *testing.F) {
	fuzzFormat(f, ".parquet", parquetSeeds)
}

// Damaged Parquet files are refused, never fatal: random damage of one to
// four bytes anywhere in the sample file (footer, page headers, the stored
// Arrow schema) gives rows or a *table.Error. Two such damages once ended
// the process from inside Arrow: a forged length in the stored Arrow schema
// (a 177 GB allocation) and a row group without a chunk for every column
// (a nil dereference on one of pqarrow's own goroutines). 100 damaged
// files by default, 1,500 with RISKBATCH_LONG_TESTS=1.
func TestParquetRandomDamage(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "samples", "releases.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	for i, n := 0, testenv.Count(100, 1500); i < n; i++ {
		d := bytes.Clone(data)
		for k := 0; k < 1+rng.Intn(4); k++ {
			d[rng.Intn(len(d))] = byte(rng.Intn(256))
		}
		readAllFuzz(t, "damaged.parquet", d)
	}
}
