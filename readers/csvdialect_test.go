package readers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// readCSV opens data as name with opts and drains its table.
func readCSV(t *testing.T, name string, data []byte, opts Options) (Table, []entry) {
	t.Helper()
	tables, err := OpenReader(name, bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		t.Fatalf("OpenReader(%s): %v", name, err)
	}
	t.Cleanup(func() { tables[0].Close() })
	return tables[0], drain(t, tables[0])
}

// Options.Encoding decodes a file as the caller says; the decoded text is
// exact, a byte the encoding does not define is an error of its cell.
func TestCSVEncodingOption(t *testing.T) {
	cases := []struct {
		encoding, name string // the option, and the name the dialect gives
		data           string
		id             string // the id read, or "" for a row error
		err            string
	}{
		// ISO-8859-15 has € at A4, ISO-8859-1 has ¤ there; Mac OS Roman
		// has é at 8E (their code charts).
		{"iso-8859-15", "ISO-8859-15", "\xA4uro", "€uro", ""},
		{"latin1", "ISO-8859-1", "\xA4uro", "¤uro", ""},
		{"mac-roman", "Mac OS Roman", "caf\x8E", "café", ""},
		{"Windows-1252", "Windows-1252", "caf\xE9", "café", ""},
		{"cp1252", "Windows-1252", "x\x81", "", `this cell holds a byte that Windows-1252 does not define (after "x"); pass --encoding`},
		// Declared UTF-8: an invalid byte is an error naming the cell,
		// never U+FFFD.
		{"utf-8", "UTF-8", "caf\xE9", "", `this cell is not valid UTF-8 (byte 0xE9 after "caf")`},
	}
	for _, c := range cases {
		data := []byte("id,epsilon\n" + c.data + ",1\n")
		tb, got := readCSV(t, "enc.csv", data, Options{Encoding: c.encoding})
		if d := tb.(DialectTable).Dialect(); d.Encoding != c.name || d.EncodingAssumed != "" {
			t.Errorf("%s: dialect %+v", c.encoding, d)
		}
		if len(got) != 1 {
			t.Fatalf("%s: %d rows", c.encoding, len(got))
		}
		if c.err == "" {
			wantRow(t, got[0], pos("enc.csv", "", 2), cells(txt(c.id), txt("1")))
			continue
		}
		wantError(t, got[0].Err, table.Position{File: "enc.csv", Row: 2, Column: 0, ColumnName: "id"}, c.err)
	}

	// utf-16le on a file with its byte order mark drops the mark.
	_, got := readCSV(t, "u.csv", utf16Bytes("id,epsilon\nx,1\n", false, true), Options{Encoding: "UTF-16LE"})
	wantRow(t, got[0], pos("u.csv", "", 2), cells(txt("x"), txt("1")))
	// utf-16 follows the byte order mark.
	_, got = readCSV(t, "u.csv", utf16Bytes("id,epsilon\nx,1\n", false, true), Options{Encoding: "utf-16"})
	wantRow(t, got[0], pos("u.csv", "", 2), cells(txt("x"), txt("1")))

	for _, name := range []string{"klingon", "utf-32"} {
		_, err := OpenReader("e.csv", strings.NewReader("a\n"), 2, Options{Encoding: name})
		wantError(t, err, pos("e.csv", "", 0), "e.csv:", name)
	}
}

// A lone surrogate in UTF-16 text is an error of its cell, not U+FFFD.
func TestCSVUTF16LoneSurrogate(t *testing.T) {
	data := utf16Bytes("id,epsilon\nab,1\n", false, true)
	// Replace the "b" (code unit 0x0062) by a lone high surrogate D800.
	i := bytes.Index(data, []byte{'b', 0})
	data[i], data[i+1] = 0x00, 0xD8
	_, got := readCSV(t, "s.csv", data, Options{})
	wantError(t, got[0].Err, table.Position{File: "s.csv", Row: 2, Column: 0, ColumnName: "id"},
		`this cell is not valid UTF-16LE (a lone surrogate or a cut character after "a")`)
	if IsFatal(got[0].Err) {
		t.Error("fatal")
	}
}

// Options.Delimiter overrides detection and a sep= line (which is still
// not a row); a delimiter that cannot separate fields is refused.
func TestCSVDelimiterOption(t *testing.T) {
	tb, got := readCSV(t, "d.csv", []byte("sep=;\nid,epsilon\na,1\n"), Options{Delimiter: ','})
	if d := tb.(DialectTable).Dialect(); d.Delimiter != ',' || d.DelimiterFrom != "option" || !d.SepLine || d.Note() != "" {
		t.Errorf("dialect %+v, note %q", d, d.Note())
	}
	wantRow(t, got[0], pos("d.csv", "", 2), cells(txt("a"), txt("1")))

	tb, _ = readCSV(t, "d.csv", []byte("id;epsilon\na;1,5\n"), Options{Delimiter: '\t'})
	if names, _ := columnNames(tb.Columns()); len(names) != 1 || names[0] != "id;epsilon" {
		t.Errorf("header %q", names)
	}
	for _, d := range []rune{'"', '\n', 'é'} {
		_, err := OpenReader("d.csv", strings.NewReader("a\n"), 2, Options{Delimiter: d})
		wantError(t, err, pos("d.csv", "", 0), "cannot separate fields")
	}
}

// The notes riskbatch prints for a file read with an assumed encoding or
// a detected delimiter.
func TestDialectNote(t *testing.T) {
	for _, c := range []struct {
		d    Dialect
		want string
	}{
		{Dialect{Encoding: "UTF-8", Delimiter: ',', DelimiterFrom: "format"}, ""},
		{Dialect{Encoding: "UTF-16LE", Delimiter: '\t', DelimiterFrom: "option"}, ""},
		{Dialect{Encoding: "Windows-1252", EncodingAssumed: "not valid UTF-8", Delimiter: ',', DelimiterFrom: "format"},
			"read as Windows-1252 (not valid UTF-8); pass --encoding to choose another"},
		{Dialect{Encoding: "UTF-8", Delimiter: ';', DelimiterFrom: "detected"},
			"fields separated by ';' (detected from the header); pass --delimiter to choose another"},
		{Dialect{Encoding: "UTF-8", Delimiter: '\t', DelimiterFrom: "sep line", SepLine: true},
			"fields separated by tab (as its first line, sep=\t, says)"},
	} {
		if got := c.d.Note(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.d, got, c.want)
		}
	}
}

// detectDelimiter keeps the format's default unless another delimiter is
// clearly the file's.
func TestDetectDelimiter(t *testing.T) {
	for _, c := range []struct {
		text      string
		def, want byte
	}{
		{"id,epsilon\na,1\n", ',', ','},
		{"id;epsilon\na;1,5\nb;2,5\n", ',', ';'},
		{"id\tepsilon\na\t1\n", ',', '\t'},
		{"id|epsilon\na|1\n", ',', '|'},
		{"id,epsilon\na,1\n", '\t', ','},                // a .tsv holding commas
		{"epsilon\n1\n", ',', ','},                      // one column
		{"\"a;b\",c\n\"x;y\",z\n", ',', ','},            // semicolons only inside quotes
		{"id;eps,x\na;1,5\nb;2,5\n", ',', ','},          // the default scores as well as ';'
		{"id;epsilon|x\na;1|2\n", ',', ','},             // a tie between ';' and '|'
		{"id;epsilon;delta\na;1;2\nb;3;4\n", '\t', ';'}, // header and records agree
		{"id,a;b;c\nx,1;2;3\ny,4;5;6\n", ',', ','},      // ';' occurs more often, but the default agrees as well
		{"id;epsilon\na;1\nb;2;3\nc;4\n", ',', ';'},     // a record with a stray delimiter scores nothing
	} {
		got, _ := detectDelimiter([]byte(c.text), true, c.def)
		if got != c.want {
			t.Errorf("%q (default %q): %q, want %q", c.text, c.def, got, c.want)
		}
	}
}

// changingFile is a file whose bytes are data: the test changes them
// after Open, as another program would.
type changingFile struct{ data []byte }

func (f *changingFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// A file that changes while it is read is a fatal error naming the file
// and the row, never fewer (or other) rows.
func TestCSVFileChangesWhileRead(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("id,epsilon\n")
	for i := 0; b.Len() < 200<<10; i++ {
		fmt.Fprintf(&b, "r%06d,1\n", i) // 10 bytes a row
	}
	data := b.Bytes()
	size := int64(len(data))
	for _, c := range []struct {
		name   string
		change func(f *changingFile)
		want   string
	}{
		{"shrunk", func(f *changingFile) { f.data = f.data[:150_000] },
			fmt.Sprintf("the file ended after 150,000 of the %s bytes it had when it was opened: it was cut or rewritten while it was read", groupDigits(size))},
		{"grown", func(f *changingFile) { f.data = append(f.data, "r9,1\n"...) },
			fmt.Sprintf("the file grew while it was read: it had %s bytes when it was opened", groupDigits(size))},
	} {
		f := &changingFile{data: slices.Clone(data)}
		tables, err := OpenReader(c.name+".csv", f, size, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c.change(f)
		got := drain(t, tables[0])
		last := got[len(got)-1]
		if !IsFatal(last.Err) || !strings.Contains(last.Err.Error(), c.want) {
			t.Fatalf("%s: last entry %+v", c.name, last)
		}
		// The rows before the error are the file's, in order.
		var te *table.Error
		errors.As(last.Err, &te)
		if te.Pos.Row != len(got)+1 || got[len(got)-2].Row.Pos.Row != len(got) {
			t.Errorf("%s: error at row %d after %d rows", c.name, te.Pos.Row, len(got)-1)
		}
	}
	// A file that shrank before its first bytes were read: Open fails.
	_, err := OpenReader("short.csv", &changingFile{data: data[:16]}, size, Options{})
	wantError(t, err, pos("short.csv", "", 0), "the file ended after 16 of the")
}

// The start of a stream may end inside a character: that is not a byte
// that is not UTF-8, unless it is the end of the file.
func TestChooseEncodingCutCharacter(t *testing.T) {
	head := []byte("id,epsilon\ncaf\xC3")
	for _, c := range []struct {
		whole bool
		want  string
	}{{false, "UTF-8"}, {true, "Windows-1252"}} {
		got, err := chooseEncoding(head, c.whole, "", nil)
		if err != nil || got.enc.name != c.want {
			t.Errorf("whole %v: %+v, %v; want %s", c.whole, got, err, c.want)
		}
	}
}
