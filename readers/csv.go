package readers

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/table"
)

// csvBufferSize is the size of the read buffer of CSV and TSV files.
const csvBufferSize = 64 << 10

// delimited is a CSV or TSV file read with encoding/csv.
//
// The header is the first record; its names are trimmed of surrounding
// space, and every column has kind Text. Leading UTF-8 byte order marks are
// dropped, CRLF and LF line ends are both accepted, quotes are lenient
// (csv.Reader.LazyQuotes), and a TSV file follows the same quoting rules as
// a CSV file with a tab as separator (as spreadsheets write it).
//
// Cells: an empty field is an Empty cell, any other field a Text cell (the
// evaluator parses numbers). Text that is not valid UTF-8 has its invalid
// bytes replaced by U+FFFD. A record with fewer fields than the header is
// padded with Empty cells; a record with more is an error for that record
// only, unless the extra fields are all empty (trailing separators), which
// are dropped.
//
// Limits: a header of more than Limits.Columns fields, or with a field
// longer than Limits.CellBytes, makes Open fail; a data field longer than
// Limits.CellBytes is an error for its record only (the record's other
// cells come with it); a record longer than Limits.RowBytes ends the
// stream, since the reader cannot tell where it would end.
//
// Row numbers are the row a spreadsheet application shows when it opens
// the file, the header being row 1 when it is on the first line: the line
// on which the record starts, less the line breaks inside quoted fields of
// the records before it. Blank lines, which encoding/csv skips, still count,
// as they do in a spreadsheet. Without quoted line breaks the row is the
// line number a text editor shows.
type delimited struct {
	name   string
	lim    Limits
	guard  *capReader
	r      *csv.Reader
	cols   []table.Column
	closer io.Closer

	extra  int   // line breaks inside quoted fields of the records read so far
	last   int   // row of the last record read
	err    error // io.EOF once the stream ended
	closed bool
}

// newDelimited reads the header of a CSV (comma ',') or TSV ('\t') stream.
// closer, if not nil, is closed by Close but not on error.
func newDelimited(name string, src io.Reader, comma rune, closer io.Closer, lim Limits) (*delimited, error) {
	// The guard bounds the bytes of one record, so that a file that is not
	// CSV, or a runaway quote, cannot make the reader hold the whole file.
	guard := &capReader{r: src, max: lim.RowBytes}
	br := bufio.NewReaderSize(guard, csvBufferSize)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = br.Discard(3)
	}
	r := csv.NewReader(br)
	r.Comma = comma
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = true
	t := &delimited{name: name, lim: lim, guard: guard, r: r, closer: closer}

	header, err := r.Read()
	if err == io.EOF {
		return nil, fileError(name, errors.New("the file is empty: there is no header row"))
	}
	if err != nil {
		return nil, t.readError(err, 1)
	}
	line, _ := r.FieldPos(0)
	t.last = line
	if int64(len(header)) > lim.Columns {
		return nil, &table.Error{Pos: table.Position{File: name, Row: line, Column: -1},
			Err: limitError(limitColumns, lim.Columns, "the header row has %s columns", groupDigits(int64(len(header))))}
	}
	for i, h := range header {
		if int64(len(h)) > lim.CellBytes {
			return nil, &table.Error{Pos: table.Position{File: name, Row: line, Column: i},
				Err: limitError(limitCellBytes, lim.CellBytes, "this header cell holds %s", byteSize(int64(len(h))))}
		}
	}
	t.cols = make([]table.Column, len(header))
	for i, h := range header {
		t.extra += strings.Count(h, "\n")
		t.cols[i] = table.Column{Name: strings.TrimSpace(validUTF8(h)), Kind: table.Text}
	}
	guard.reset()
	return t, nil
}

// File returns the file's name as given to Open.
func (t *delimited) File() string { return t.name }

// Sheet returns "": CSV and TSV files have no sheets.
func (t *delimited) Sheet() string { return "" }

// Columns returns the header's columns, all of kind Text.
func (t *delimited) Columns() []table.Column { return t.cols }

// Next returns the next record. An error about one record (too many
// fields, a malformed record) concerns that record only, and the next call
// reads on; after a read error the stream ends (io.EOF).
func (t *delimited) Next() (table.Row, error) {
	if t.err != nil {
		return table.Row{}, t.err
	}
	if t.closed {
		return table.Row{}, fileError(t.name, errors.New("read after close"))
	}
	rec, err := t.r.Read()
	t.guard.reset()
	if err == io.EOF {
		t.err = io.EOF
		return table.Row{}, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		var le *LimitError
		if errors.As(err, &pe) && !errors.As(err, &le) && pe.Err != nil && isCSVSyntax(pe.Err) {
			// A malformed record: report it and read on.
			row := max(pe.StartLine-t.extra, t.last+1)
			t.last = row
			return table.Row{}, &table.Error{
				Pos: table.Position{File: t.name, Row: row, Column: -1},
				Err: fmt.Errorf("malformed record (line %d, byte %d): %w", pe.Line, pe.Column, pe.Err),
			}
		}
		t.err = io.EOF // the error is reported once
		return table.Row{}, t.readError(err, t.last+1)
	}

	line, _ := t.r.FieldPos(0)
	row := max(line-t.extra, t.last+1)
	t.last = row
	pos := table.Position{File: t.name, Row: row, Column: -1}
	for _, f := range rec {
		t.extra += strings.Count(f, "\n")
	}

	n := len(t.cols)
	cells := make([]table.Cell, n)
	long := -1 // the first cell longer than the limit
	for i := 0; i < n && i < len(rec); i++ {
		if int64(len(rec[i])) > t.lim.CellBytes {
			if long < 0 {
				long = i
			}
			continue // not kept: the row is an error row, its message says why
		}
		if rec[i] != "" {
			cells[i] = table.TextCell(validUTF8(rec[i]))
		}
	}
	if long >= 0 {
		pos.Column, pos.ColumnName = long, t.cols[long].Name
		return table.Row{Pos: pos, Cells: cells}, &table.Error{Pos: pos,
			Err: limitError(limitCellBytes, t.lim.CellBytes, "this cell holds %s", byteSize(int64(len(rec[long]))))}
	}
	if len(rec) > n {
		for i := n; i < len(rec); i++ {
			if rec[i] == "" {
				continue
			}
			pos.Column = i
			where := ""
			if line != row {
				where = fmt.Sprintf(" (line %d)", line)
			}
			// The row's cells under the header come with the error, so the
			// caller can keep the row as an error row.
			return table.Row{Pos: pos, Cells: cells}, &table.Error{Pos: pos, Err: fmt.Errorf("this record%s has %d fields but the header names %d columns; field %d (%q) has no header", where, len(rec), n, i+1, clip(rec[i]))}
		}
	}
	return table.Row{Pos: pos, Cells: cells}, nil
}

// Close releases the file. It may be called more than once.
func (t *delimited) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if t.closer != nil {
		return t.closer.Close()
	}
	return nil
}

// readError is the fatal error for a failed read at the given row.
func (t *delimited) readError(err error, row int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) && pe.Err != nil {
		err = pe.Err
	}
	var le *LimitError
	if !errors.As(err, &le) {
		err = fmt.Errorf("cannot read the file: %w", err)
	}
	return &table.Error{Pos: table.Position{File: t.name, Row: row, Column: -1}, Err: fatalError{err}}
}

// isCSVSyntax reports whether err is one of encoding/csv's syntax errors,
// after which the reader can go on with the next record.
func isCSVSyntax(err error) bool {
	return errors.Is(err, csv.ErrBareQuote) || errors.Is(err, csv.ErrQuote) || errors.Is(err, csv.ErrFieldCount)
}

// validUTF8 replaces the invalid bytes of s by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// capReader fails with a *LimitError (max-row-bytes) once more than max
// bytes were read since the last reset.
type capReader struct {
	r   io.Reader
	n   int64
	max int64
}

// Read reads from the underlying reader within the cap.
func (c *capReader) Read(p []byte) (int, error) {
	if c.n >= c.max {
		return 0, limitError(limitRowBytes, c.max, "this record (a line, or the lines of a quoted field) is too long; a quote without its closing quote makes the rest of the file one record")
	}
	if rest := c.max - c.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// reset starts a new count.
func (c *capReader) reset() { c.n = 0 }
