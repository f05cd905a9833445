package readers

import (
	"archive/zip"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/riskbatch/riskbatch/table"
)

// updateCSVCorpus rewrites testdata/csv from csvCorpus:
//
//	go test ./readers -run TestCSVCorpus -update-csv-corpus
var updateCSVCorpus = flag.Bool("update-csv-corpus", false, "rewrite readers/testdata/csv from csvCorpus")

// csvCorpusDir holds the corpus files; riskbatch's round-trip test reads
// them too.
const csvCorpusDir = "testdata/csv"

// csvCase is a file of the CSV corpus: its bytes, as the tools named in
// its comment write them, and what reading it must give.
type csvCase struct {
	name    string
	data    []byte
	openErr string // the whole message of Open's error, when it must fail
	header  []string
	dialect Dialect
	comma   bool // DecimalComma
	rows    []csvRow
}

// csvRow is an expected row: its number and cells ("" is an Empty cell),
// and, for a row error, the message and column.
type csvRow struct {
	row   int
	cells []string
	err   string
	col   int
}

func ok(row int, cells ...string) csvRow { return csvRow{row: row, cells: cells} }

// utf16Bytes encodes s as UTF-16, with a byte order mark if bom.
func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var b []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// zipBytes is a small ZIP archive with the first part of a workbook.
func zipBytes() []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, _ := w.Create("[Content_Types].xml")
	f.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`))
	w.Close()
	return buf.Bytes()
}

func utf8Dialect(from string, d rune) Dialect {
	return Dialect{Encoding: "UTF-8", Delimiter: d, DelimiterFrom: from}
}

// csvCorpus is the corpus: one file per way real tools write CSV and TSV.
func csvCorpus() []csvCase {
	return []csvCase{{
		// Excel's "CSV UTF-8": a byte order mark, CRLF.
		name:    "utf8-bom.csv",
		data:    []byte("\xEF\xBB\xBFid,epsilon,delta\r\nCafé,1,1e-5\r\nNaïve ☃,2,0\r\n"),
		header:  []string{"id", "epsilon", "delta"},
		dialect: utf8Dialect("format", ','),
		rows:    []csvRow{ok(2, "Café", "1", "1e-5"), ok(3, "Naïve ☃", "2", "0")},
	}, {
		// Excel's "Unicode Text": UTF-16LE with a byte order mark, tabs,
		// CRLF, a field with a tab quoted; renamed .csv by its user.
		name:    "excel-unicode-text.csv",
		data:    utf16Bytes("id\tepsilon\tnote\r\nrisk €\t0,5\t\"a\tb\"\r\nzweite\t1\t\r\n", false, true),
		header:  []string{"id", "epsilon", "note"},
		dialect: Dialect{Encoding: "UTF-16LE", Delimiter: '\t', DelimiterFrom: "detected"},
		rows:    []csvRow{ok(2, "risk €", "0,5", "a\tb"), ok(3, "zweite", "1", "")},
	}, {
		// UTF-16BE with a byte order mark, a character outside the BMP
		// (a surrogate pair), LF.
		name:    "utf16be-bom.tsv",
		data:    utf16Bytes("id\tepsilon\nβ 😀\t3\n", true, true),
		header:  []string{"id", "epsilon"},
		dialect: Dialect{Encoding: "UTF-16BE", Delimiter: '\t', DelimiterFrom: "format"},
		rows:    []csvRow{ok(2, "β 😀", "3")},
	}, {
		// UTF-16LE without a byte order mark: found by its zero bytes.
		name:    "utf16le-nobom.csv",
		data:    utf16Bytes("id,epsilon\nr1,1\nr2,2\n", false, false),
		header:  []string{"id", "epsilon"},
		dialect: Dialect{Encoding: "UTF-16LE", EncodingAssumed: "no byte order mark, but the zero bytes of UTF-16 text", Delimiter: ',', DelimiterFrom: "format"},
		rows:    []csvRow{ok(2, "r1", "1"), ok(3, "r2", "2")},
	}, {
		// A legacy file: é, € and œ are E9, 80 and 9C in Windows-1252.
		name:    "windows-1252.csv",
		data:    []byte("id,epsilon\r\ncaf\xE9 \x80 \x9Cuvre,1\r\nplain,2\r\n"),
		header:  []string{"id", "epsilon"},
		dialect: Dialect{Encoding: "Windows-1252", EncodingAssumed: "not valid UTF-8", Delimiter: ',', DelimiterFrom: "format"},
		rows:    []csvRow{ok(2, "café € œuvre", "1"), ok(3, "plain", "2")},
	}, {
		// UTF-8 characters and a stray Windows-1252 byte: read as UTF-8,
		// and the stray byte is an error of its cell.
		name:    "mixed-utf8.csv",
		data:    []byte("id,epsilon\ncafé,1\nbad\xE9,2\n"),
		header:  []string{"id", "epsilon"},
		dialect: Dialect{Encoding: "UTF-8", EncodingAssumed: "it mixes UTF-8 characters and bytes that are not UTF-8, which are errors of their cells", Delimiter: ',', DelimiterFrom: "format"},
		rows: []csvRow{ok(2, "café", "1"),
			{row: 3, cells: []string{"", "2"}, col: 0, err: `this cell is not valid UTF-8 (byte 0xE9 after "bad"); pass --encoding to name the file's encoding`}},
	}, {
		// Old Mac line ends (CR only): a quoted CR is a line break of its
		// value, and a blank line counts as a row.
		name:    "cr-only.csv",
		data:    []byte("id,epsilon,note\ra,1,\"line one\rline two\"\rb,2,x\r\rc,3,y\r"),
		header:  []string{"id", "epsilon", "note"},
		dialect: utf8Dialect("format", ','),
		rows:    []csvRow{ok(2, "a", "1", "line one\nline two"), ok(3, "b", "2", "x"), ok(5, "c", "3", "y")},
	}, {
		name:    "crlf.csv",
		data:    []byte("id,epsilon,note\r\na,1,\"x\r\ny\"\r\nb,2,z\r\n"),
		header:  []string{"id", "epsilon", "note"},
		dialect: utf8Dialect("format", ','),
		rows:    []csvRow{ok(2, "a", "1", "x\ny"), ok(3, "b", "2", "z")},
	}, {
		// LF, CRLF, CR, LF, a blank line ended by CR, and no line end at
		// the end.
		name:    "mixed-line-ends.csv",
		data:    []byte("id,epsilon\na,1\r\nb,2\rc,3\n\rd,4"),
		header:  []string{"id", "epsilon"},
		dialect: utf8Dialect("format", ','),
		rows:    []csvRow{ok(2, "a", "1"), ok(3, "b", "2"), ok(4, "c", "3"), ok(6, "d", "4")},
	}, {
		// Excel set to German: semicolons and decimal commas.
		name:    "semicolon-decimal-comma.csv",
		data:    []byte("id;epsilon;delta;sigma;baseline\r\nde-1;1,5;1E-05;;10%\r\nde-2;;;2,5;0,1\r\n"),
		header:  []string{"id", "epsilon", "delta", "sigma", "baseline"},
		dialect: utf8Dialect("detected", ';'),
		comma:   true,
		rows:    []csvRow{ok(2, "de-1", "1,5", "1E-05", "", "10%"), ok(3, "de-2", "", "", "2,5", "0,1")},
	}, {
		// Excel's sep= first line: not the header, not a row, and Excel
		// does not show it, so the header is row 1.
		name:    "sep-line.csv",
		data:    []byte("sep=;\r\nid;epsilon\r\na;0,5\r\n\r\nb;1\r\n"),
		header:  []string{"id", "epsilon"},
		dialect: Dialect{Encoding: "UTF-8", Delimiter: ';', DelimiterFrom: "sep line", SepLine: true},
		comma:   true,
		rows:    []csvRow{ok(2, "a", "0,5"), ok(4, "b", "1")},
	}, {
		// A tab-delimited file named .tsv, with its default delimiter.
		name:    "tab.tsv",
		data:    []byte("id\tepsilon\tnote\na\t1\tsemi;colon, and comma\n"),
		header:  []string{"id", "epsilon", "note"},
		dialect: utf8Dialect("format", '\t'),
		rows:    []csvRow{ok(2, "a", "1", "semi;colon, and comma")},
	}, {
		name:    "pipe.csv",
		data:    []byte("id|epsilon|note\na|1|x,y\nb|2|z\n"),
		header:  []string{"id", "epsilon", "note"},
		dialect: utf8Dialect("detected", '|'),
		rows:    []csvRow{ok(2, "a", "1", "x,y"), ok(3, "b", "2", "z")},
	}, {
		// The file ends inside a quoted field: that record is an error,
		// with its readable cells.
		name:    "cut-last-record.csv",
		data:    []byte("id,epsilon,note\na,1,fine\nb,2,\"a note\nthat was cut"),
		header:  []string{"id", "epsilon", "note"},
		dialect: utf8Dialect("format", ','),
		rows: []csvRow{ok(2, "a", "1", "fine"),
			{row: 3, cells: []string{"b", "2", ""}, col: 2, err: "the file ends inside this quoted cell, which starts on line 3: the record is cut (a quote without its closing quote, or a file cut short)"}},
	}, {
		// Records of delimiters only, as spreadsheets export rows they
		// think used, are skipped like blank lines; rows count on.
		name:    "only-delimiters.csv",
		data:    []byte("id,epsilon,delta\na,1,0\n,,\nb,2,0\n\"\",,\n,,\n"),
		header:  []string{"id", "epsilon", "delta"},
		dialect: utf8Dialect("format", ','),
		rows:    []csvRow{ok(2, "a", "1", "0"), ok(4, "b", "2", "0")},
	}, {
		// A workbook renamed .csv.
		name:    "zip-named.csv",
		data:    zipBytes(),
		openErr: "testdata/csv/zip-named.csv: this is a ZIP archive (an .xlsx workbook?) named .csv; rename it to .xlsx or pass --input-format xlsx",
	}}
}

// TestCSVCorpus reads every corpus file and checks the exact cells, row
// numbers and errors, and how the file was read.
func TestCSVCorpus(t *testing.T) {
	for _, c := range csvCorpus() {
		path := filepath.Join(csvCorpusDir, c.name)
		if *updateCSVCorpus {
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		disk, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(disk, c.data) {
			t.Errorf("%s differs from csvCorpus (%v): run go test ./readers -run TestCSVCorpus -update-csv-corpus", path, err)
			continue
		}
		t.Run(c.name, func(t *testing.T) { checkCSVCase(t, c, path, Options{}) })
	}
}

// checkCSVCase opens a corpus file and checks what it reads.
func checkCSVCase(t *testing.T, c csvCase, path string, opts Options) {
	t.Helper()
	tables, err := Open(path, opts)
	if c.openErr != "" {
		if err == nil {
			tables[0].Close()
			t.Fatalf("Open succeeded, want %s", c.openErr)
		}
		want := strings.Replace(c.openErr, filepath.Join(csvCorpusDir, c.name), path, 1)
		if err.Error() != want {
			t.Fatalf("Open: %v\nwant %s", err, want)
		}
		return
	}
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	tb := tables[0]
	defer tb.Close()
	if names, _ := columnNames(tb.Columns()); !reflect.DeepEqual(names, c.header) {
		t.Errorf("header %q, want %q", names, c.header)
	}
	dt, isDialect := tb.(DialectTable)
	if !isDialect {
		t.Fatalf("%T is not a DialectTable", tb)
	}
	if d := dt.Dialect(); d != c.dialect || dt.DecimalComma() != c.comma {
		t.Errorf("dialect %+v, decimal comma %v; want %+v, %v", d, dt.DecimalComma(), c.dialect, c.comma)
	}
	got := drain(t, tb)
	if len(got) != len(c.rows) {
		t.Fatalf("%d rows, want %d: %+v", len(got), len(c.rows), got)
	}
	for i, w := range c.rows {
		want := make([]table.Cell, len(w.cells))
		for j, s := range w.cells {
			if s != "" {
				want[j] = table.TextCell(s)
			}
		}
		if w.err == "" {
			wantRow(t, got[i], pos(path, "", w.row), want)
			continue
		}
		p := table.Position{File: path, Row: w.row, Column: w.col, ColumnName: c.header[w.col]}
		wantError(t, got[i].Err, p, w.err)
		if IsFatal(got[i].Err) || got[i].Row.Pos != p || !reflect.DeepEqual(got[i].Row.Cells, want) {
			t.Errorf("row %d: fatal %v, row %+v; want cells %#v", w.row, IsFatal(got[i].Err), got[i].Row, want)
		}
	}
}
