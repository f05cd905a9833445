package readers

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// csvFixture has a BOM, CRLF and LF line ends, a quoted line break, a
// blank line, short and long records, trailing separators, escaped and
// stray quotes, and invalid UTF-8.
const csvFixture = "\xEF\xBB\xBFname, epsilon ,delta\r\n" + // line 1: header
	"a,1.5,1e-5\r\n" + // line 2: row 2
	"\"multi\r\nline\",2,\r\n" + // lines 3-4: row 3, one record
	"b,3\r\n" + // line 5: row 4, short
	"\r\n" + // line 6: row 5, blank (skipped)
	"c,4,5,extra\r\n" + // line 7: row 6, one field too many
	"d,5,6,,\r\n" + // line 8: row 7, trailing separators
	"\"e \"\"q\"\"\",x\"y,\xff7\n" + // line 9: row 8, LF only
	"f,,\n" // line 10: row 9, empty cells

func TestCSV(t *testing.T) {
	path := writeFile(t, "releases.csv", []byte(csvFixture))
	tb := openOne(t, path, Options{})
	if tb.File() != path || tb.Sheet() != "" {
		t.Errorf("File, Sheet = %q, %q", tb.File(), tb.Sheet())
	}
	names, kinds := columnNames(tb.Columns())
	if !reflect.DeepEqual(names, []string{"name", "epsilon", "delta"}) {
		t.Errorf("header %q", names)
	}
	if !reflect.DeepEqual(kinds, []table.Kind{table.Text, table.Text, table.Text}) {
		t.Errorf("kinds %v", kinds)
	}
	got := drain(t, tb)
	if len(got) != 7 {
		t.Fatalf("%d entries, want 7: %+v", len(got), got)
	}
	wantRow(t, got[0], pos(path, "", 2), cells(txt("a"), txt("1.5"), txt("1e-5")))
	wantRow(t, got[1], pos(path, "", 3), cells(txt("multi\nline"), txt("2"), empty()))
	wantRow(t, got[2], pos(path, "", 4), cells(txt("b"), txt("3"), empty()))
	wantError(t, got[3].Err, table.Position{File: path, Row: 6, Column: 3},
		"row 6, column 4:", "(line 7)", "4 fields but the header names 3 columns", `"extra"`)
	if IsFatal(got[3].Err) {
		t.Errorf("a long record is fatal")
	}
	wantRow(t, got[4], pos(path, "", 7), cells(txt("d"), txt("5"), txt("6")))
	// The file declares UTF-8 (its byte order mark): a byte that is not
	// UTF-8 is an error of its cell, never replaced; the row's other
	// cells come with it.
	bad := table.Position{File: path, Row: 8, Column: 2, ColumnName: "delta"}
	wantError(t, got[5].Err, bad, "row 8, column delta: this cell is not valid UTF-8 (byte 0xFF after \"\"); pass --encoding")
	if IsFatal(got[5].Err) || !reflect.DeepEqual(got[5].Row.Cells, cells(txt(`e "q"`), txt(`x"y`), empty())) {
		t.Errorf("row 8: fatal %v, cells %#v", IsFatal(got[5].Err), got[5].Row.Cells)
	}
	wantRow(t, got[6], pos(path, "", 9), cells(txt("f"), empty(), empty()))
	// After the end, Next keeps returning io.EOF.
	if _, err := tb.Next(); err != io.EOF {
		t.Errorf("after the end: %v", err)
	}
	if err := tb.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := tb.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCSVRowNumbersAfterQuotedLineBreaks(t *testing.T) {
	// A spreadsheet shows record k on row k (plus blank lines); a quoted
	// line break does not start a row.
	data := "h1,h2\n\"1\n2\n3\",x\ny,z\n\n\"a\nb\",c\n"
	tb := openOne(t, writeFile(t, "q.csv", []byte(data)), Options{})
	got := drain(t, tb)
	if len(got) != 3 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	file := tb.File()
	wantRow(t, got[0], pos(file, "", 2), cells(txt("1\n2\n3"), txt("x")))
	wantRow(t, got[1], pos(file, "", 3), cells(txt("y"), txt("z")))
	wantRow(t, got[2], pos(file, "", 5), cells(txt("a\nb"), txt("c")))
}

func TestTSV(t *testing.T) {
	data := "a\tb c\t\"q\"\n1\t\t\"x\ty\"\n2\t3\n"
	tb := openOne(t, writeFile(t, "x.tsv", []byte(data)), Options{})
	names, kinds := columnNames(tb.Columns())
	if !reflect.DeepEqual(names, []string{"a", "b c", "q"}) || kinds[0] != table.Text {
		t.Errorf("header %q %v", names, kinds)
	}
	got := drain(t, tb)
	if len(got) != 2 {
		t.Fatalf("%d entries", len(got))
	}
	wantRow(t, got[0], pos(tb.File(), "", 2), cells(txt("1"), empty(), txt("x\ty")))
	wantRow(t, got[1], pos(tb.File(), "", 3), cells(txt("2"), txt("3"), empty()))

	// The format option overrides the extension.
	tb = openOne(t, writeFile(t, "x.data", []byte(data)), Options{Format: "TSV"})
	if n := len(tb.Columns()); n != 3 {
		t.Errorf("%d columns with Format TSV", n)
	}
}

func TestCSVHeaderOnlyAndEmpty(t *testing.T) {
	tb := openOne(t, writeFile(t, "h.csv", []byte("\xEF\xBB\xBFa,b\r\n")), Options{})
	if names, _ := columnNames(tb.Columns()); !reflect.DeepEqual(names, []string{"a", "b"}) {
		t.Errorf("header %q", names)
	}
	if _, err := tb.Next(); err != io.EOF {
		t.Errorf("Next: %v, want io.EOF", err)
	}

	for _, data := range []string{"", "\xEF\xBB\xBF", "\n\n"} {
		path := writeFile(t, "empty.csv", []byte(data))
		_, err := Open(path, Options{})
		wantError(t, err, pos(path, "", 0), path, "empty", "no header row")
	}
}

func TestCSVRecordTooLong(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("a,b\n1,2\n\"")
	b.Write(bytes.Repeat([]byte("x"), DefaultRowBytes+sniffLen))
	path := writeFile(t, "long.csv", b.Bytes())
	tb := openOne(t, path, Options{})
	got := drain(t, tb)
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantRow(t, got[0], pos(path, "", 2), cells(txt("1"), txt("2")))
	wantError(t, got[1].Err, pos(path, "", 3), "this record (a line, or the lines of a quoted field) is too long",
		"the limit is 2 MiB; if the file is genuine, raise it with --max-row-bytes")
	var le *LimitError
	if !errors.As(got[1].Err, &le) || le.Name != "max-row-bytes" || !IsFatal(got[1].Err) {
		t.Errorf("%v is not a fatal max-row-bytes *LimitError", got[1].Err)
	}
}

func TestCSVOpenReader(t *testing.T) {
	data := []byte("x,y\n1,2\n")
	tables, err := OpenReader("mem.csv", bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	got := drain(t, tables[0])
	if len(got) != 1 {
		t.Fatalf("%d entries", len(got))
	}
	wantRow(t, got[0], pos("mem.csv", "", 2), cells(txt("1"), txt("2")))
}

// FuzzCSV checks that any input, read as CSV or TSV, gives rows as wide as
// the header with increasing row numbers, and only *table.Error errors,
// without panicking or looping.
func FuzzCSV(f *testing.F) {
	f.Add([]byte(csvFixture), false)
	f.Add([]byte("a,b\n\"1\n2\",3\n\n4,5,6\n"), false)
	f.Add([]byte("\xEF\xBB\xBF\"unterminated\n"), false)
	f.Add([]byte("a\tb\n\"x\ty\"\t\"\n"), true)
	f.Add([]byte("\"\"\"a\"b\",\r\r\n\xff,\n"), false)
	f.Add([]byte{}, false)
	// Oddities of real exports: a TSV with a BOM, CRLF and a quoted tab
	// and line break; old Mac line ends (CR only); a spreadsheet's error
	// values and dates as text; NUL bytes; a UTF-16 file (BOM FF FE);
	// semicolons as separators; a quoted field that never ends.
	f.Add([]byte("\xEF\xBB\xBFname\tepsilon\r\n\"a\tb\r\nc\"\t1\r\n"), true)
	f.Add([]byte("name,epsilon\rr1,1\rr2,2\r"), false)
	f.Add([]byte("name,epsilon,when\nr1,#DIV/0!,2024-02-29\nr2,#N/A,29/02/2024 12:00\n"), false)
	f.Add([]byte("name,eps\x00ilon\nr\x001,1\n"), false)
	f.Add([]byte("\xFF\xFEn\x00,\x00e\x00\n\x001\x00"), false)
	f.Add([]byte("name;epsilon\nr1;0,5\n"), false)
	f.Add([]byte("name,epsilon\nr1,\"1\nr2,2\nr3,3\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, tsv bool) {
		name := "fuzz.csv"
		if tsv {
			name = "fuzz.tsv"
		}
		tables, err := OpenReader(name, bytes.NewReader(data), int64(len(data)), Options{})
		if err != nil {
			var te *table.Error
			if !errors.As(err, &te) || te != err {
				t.Fatalf("Open error %v (%T) is not a *table.Error", err, err)
			}
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("Open error %q does not name the file", err)
			}
			return
		}
		if len(tables) != 1 {
			t.Fatalf("%d tables", len(tables))
		}
		tb := tables[0]
		defer tb.Close()
		width := len(tb.Columns())
		last, prev := 1, ""
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("more results than input bytes: Next does not end")
			}
			row, err := tb.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if err.Error() == prev {
					break // a fatal error repeats
				}
				prev = err.Error()
				te, ok := err.(*table.Error)
				if !ok {
					t.Fatalf("Next error %v (%T) is not a *table.Error", err, err)
				}
				if te.Pos.Row <= last {
					t.Fatalf("error row %d after row %d", te.Pos.Row, last)
				}
				last = te.Pos.Row
				continue
			}
			if len(row.Cells) != width {
				t.Fatalf("row %d has %d cells, header %d", row.Pos.Row, len(row.Cells), width)
			}
			if row.Pos.Row <= last || row.Pos.Column != -1 || row.Pos.File != name {
				t.Fatalf("row position %+v after row %d", row.Pos, last)
			}
			last = row.Pos.Row
			for _, c := range row.Cells {
				if c.Kind != table.Empty && (c.Kind != table.Text || c.Str == "") {
					t.Fatalf("cell %#v", c)
				}
			}
		}
	})
}
