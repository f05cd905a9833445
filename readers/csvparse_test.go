package readers

import (
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/riskbatch/riskbatch/table"
)

// parsed is what recordParser.next gives for one record, or its error.
type parsed struct {
	Fields       []string
	Row, Line    int
	Cut, CutLine int
	Err          string
}

// parserSetup is how a text is split in parseAll: the parser's buffer
// size and limit, its delimiter and line ends, whether its fields are
// borrowed, and how the text comes (whole, or a byte at a time).
type parserSetup struct {
	bufSize  int
	maxBytes int64
	delim    byte
	crBreak  bool
	borrow   bool
	oneByte  bool
}

// parseAll splits text into records with a parser set up as s, the quick
// way (plainRecord) where it can unless slowOnly. It checks that a record
// said to be ASCII is.
func parseAll(t *testing.T, text string, s parserSetup, slowOnly bool) []parsed {
	t.Helper()
	var r io.Reader = strings.NewReader(text)
	if s.oneByte {
		r = iotest.OneByteReader(r)
	}
	p := newRecordParser(r, s.maxBytes)
	p.buf = make([]byte, s.bufSize)
	p.setDelim(s.delim)
	p.crBreak, p.borrow, p.slowOnly = s.crBreak, s.borrow, slowOnly
	var out []parsed
	for range len(text) + 2 {
		rec, err := p.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			return append(out, parsed{Err: err.Error()})
		}
		if rec.ascii {
			for _, f := range rec.fields {
				if !isASCII([]byte(f)) {
					t.Fatalf("%q: record %d said ASCII, field %q is not", text, rec.row, f)
				}
			}
		}
		fields := make([]string, len(rec.fields))
		for i, f := range rec.fields {
			fields[i] = strings.Clone(f) // a borrowed field lasts until the next record
		}
		out = append(out, parsed{Fields: fields, Row: rec.row, Line: rec.line, Cut: rec.cut, CutLine: rec.cutLine})
	}
	t.Fatalf("%q: the parser does not end", text)
	return nil
}

// samePlainAndSlow checks that text splits into the same records, rows,
// lines, cuts and errors the quick way as the slow way.
func samePlainAndSlow(t *testing.T, text string, s parserSetup) {
	t.Helper()
	got, want := parseAll(t, text, s, false), parseAll(t, text, s, true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q with %+v:\nquick %+v\nslow  %+v", text, s, got, want)
	}
}

// TestPlainRecords checks that plainRecord, which reads a record without
// quoted fields in one scan of the buffer, reads every record as the slow
// way (quotedField, plainField) does: random texts of delimiters, quotes,
// line ends, spaces, ASCII letters, non-ASCII and invalid bytes, read
// with buffers of 1 to 24 bytes and of 64 KiB (records that straddle the
// buffer's end, a CR at its end, a field that turns out quoted after a
// plain one), a byte at a time, with record limits of 6 bytes and 1 MiB.
func TestPlainRecords(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"a,b\n1,2\n",
		"a,b\r\n1,2\r\n3,4",
		"a,b\r1,2\r",
		"a,\"b\"\n1,\"2\n3\"\n",
		"x\xff,y\n,\n\n\xc3\xa9,\"\"\n",
		"abc,def,ghi\nabcdefgh,i\n",
		"ab,de\r\nx\n", "ab,d\r\nx\n", "ab,de\n", "a,\"\"\r\n", // at the limit of 6 bytes
	} {
		for _, s := range parserSetups() {
			samePlainAndSlow(t, text, s)
		}
	}
	rng := rand.New(rand.NewSource(23))
	alphabet := []string{"a", "b", "1", ",", ",", ";", "\"", "\r", "\n", "\n", " ", "\t", "\xff", "\xc3\xa9"}
	setups := parserSetups()
	for k := range 3000 {
		var b strings.Builder
		for range rng.Intn(60) {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		samePlainAndSlow(t, b.String(), setups[k%len(setups)])
	}
}

// parserSetups is the setups TestPlainRecords and FuzzPlainRecords read
// texts with.
func parserSetups() []parserSetup {
	var out []parserSetup
	for _, size := range []int{1, 2, 3, 5, 8, 13, 24, sniffLen} {
		for _, maxBytes := range []int64{6, 1 << 20} {
			out = append(out,
				parserSetup{bufSize: size, maxBytes: maxBytes, delim: ','},
				parserSetup{bufSize: size, maxBytes: maxBytes, delim: ';', crBreak: true, borrow: true},
				parserSetup{bufSize: size, maxBytes: maxBytes, delim: '\t', borrow: true, oneByte: true})
		}
	}
	return out
}

// FuzzPlainRecords checks that any text splits into the same records the
// quick way as the slow way (see TestPlainRecords).
func FuzzPlainRecords(f *testing.F) {
	f.Add([]byte("a,b\r\n1,\"2\r\n3\",\xff\r4\n"), uint8(3))
	f.Add([]byte(csvFixture), uint8(7))
	f.Fuzz(func(t *testing.T, text []byte, setup uint8) {
		setups := parserSetups()
		samePlainAndSlow(t, string(text), setups[int(setup)%len(setups)])
	})
}

// TestCSVRecordAcrossBuffer checks the rows, cells and errors of records
// that the parser's 64 KiB buffer cuts: plain records whose last field is
// invalid UTF-8 in its last byte, or turns out quoted, or whose CRLF the
// buffer's end parts, read by Next and by ReadColumns alike, with the
// positions and messages of records read whole.
func TestCSVRecordAcrossBuffer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, last string // the record the buffer's end cuts
		want       []table.Cell
		err        string
	}{
		{"invalid", "p,q\xff\r\n", cells(txt("p"), empty()), `row 3, column b: this cell is not valid UTF-8 (byte 0xFF after "q"); pass --encoding`},
		{"quoted", "p,\"q\r\nr\"\r\n", cells(txt("p"), txt("q\nr")), ""},
		{"crlf", "p,q\r\n", cells(txt("p"), txt("q")), ""},
		{"extra", "p,q,r\r\n", cells(txt("p"), txt("q")), `row 3, column 3: this record has 3 fields but the header names 2 columns; field 3 ("r") has no header`},
	} {
		for cut := 1; cut <= len(c.last); cut++ {
			// The header (after a byte order mark: the file is UTF-8),
			// then a record that fills the buffer but for cut bytes of
			// the last record.
			head := "a,b\r\n"
			fill := sniffLen - len(head) - cut
			text := "\xEF\xBB\xBF" + head + strings.Repeat("x", fill-4) + ",y\r\n" + c.last + "z,9\r\n"
			name := fmt.Sprintf("%s cut at %d", c.name, cut)
			path := writeFile(t, "across.csv", []byte(text))
			got := drain(t, openOne(t, path, Options{}))
			if len(got) != 3 {
				t.Fatalf("%s: %d entries", name, len(got))
			}
			if !reflect.DeepEqual(got[1].Row.Cells, c.want) || got[1].Row.Pos.Row != 3 {
				t.Errorf("%s: row %d cells %#v, want %#v", name, got[1].Row.Pos.Row, got[1].Row.Cells, c.want)
			}
			if msg := fmt.Sprint(got[1].Err); (c.err == "" && got[1].Err != nil) || (c.err != "" && !strings.Contains(msg, c.err)) {
				t.Errorf("%s: error %q, want %q", name, msg, c.err)
			}
			wantRow(t, got[2], pos(path, "", 4), cells(txt("z"), txt("9"))) // a quoted line break is not a row's
			sameRun(t, name+" by columns", drainColumns(t, openOne(t, path, Options{}), 512, true, func(int) bool { return false }), got)
		}
	}
}

// TestCSVPlainRecordLimits checks that a record plainRecord reads, all
// ASCII, is still checked field by field where checkRecord's shortcut
// does not apply: a cell one byte over max-cell-bytes (of 8 here) is an
// error of its row, one of 8 bytes is kept, and so is a record longer
// than a cell whose fields are not; a field beyond the header is an
// error, by Next and by ReadColumns alike.
func TestCSVPlainRecordLimits(t *testing.T) {
	t.Parallel()
	data := "name,note\nr1,123456789\nr2,12345678\nr3,1,\nr4,1,x\n"
	opts := Options{Limits: Limits{CellBytes: 8}}
	path := writeFile(t, "plain.csv", []byte(data))
	got := drain(t, openOne(t, path, opts))
	if len(got) != 4 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantLimit(t, got[0].Err, table.Position{File: path, Row: 2, Column: 1, ColumnName: "note"}, "max-cell-bytes",
		path+", row 2, column note: this cell holds 9 bytes: the limit is 8 bytes; if the file is genuine, raise it with --max-cell-bytes")
	if !reflect.DeepEqual(got[0].Row.Cells, cells(txt("r1"), empty())) {
		t.Errorf("row 2: cells %#v", got[0].Row.Cells)
	}
	wantRow(t, got[1], pos(path, "", 3), cells(txt("r2"), txt("12345678")))
	wantRow(t, got[2], pos(path, "", 4), cells(txt("r3"), txt("1")))
	wantError(t, got[3].Err, table.Position{File: path, Row: 5, Column: 2},
		`row 5, column 3: this record has 3 fields but the header names 2 columns; field 3 ("x") has no header`)
	sameRun(t, "by columns", drainColumns(t, openOne(t, path, opts), 512, true, func(int) bool { return false }), got)
}

// TestTextColumnStart checks the text buffer ReadColumns makes for a
// column from the last run's bytes per row (times 1024): none before the
// first run, that much for n rows and an eighth, at most textGuessMax
// however long the last run's fields were.
func TestTextColumnStart(t *testing.T) {
	for _, c := range []struct{ n, perRow, want int }{
		{512, 0, 0},
		{512, 10 << 10, 5760},    // 512 rows of 10 bytes: 5,120 bytes and 640
		{512, 1 << 40, 4 << 20},  // a run of one field of 1 GiB
		{1000, 5 << 20, 4 << 20}, // 1,000 fields of 5 KiB
	} {
		var col textColumn
		col.start(c.n, c.perRow)
		if cap(col.data) != c.want || len(col.data) != 0 {
			t.Errorf("start(%d, %d): buffer of %d bytes (length %d), want %d", c.n, c.perRow, cap(col.data), len(col.data), c.want)
		}
	}
}
