package readers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/table"
)

// delimited is a CSV or TSV file.
//
// The text is decoded to UTF-8 from the file's encoding (see chooseEncoding,
// or Options.Encoding), split into records by recordParser with the
// delimiter of the file (see openDelimited), and the header is the first
// record that is not blank; its names are trimmed of surrounding space, and
// every column has kind Text.
//
// Cells: an empty field is an Empty cell, any other field a Text cell (the
// evaluator parses numbers). A record with fewer fields than the header is
// padded with Empty cells; a record with more is an error for that record
// only, unless the extra fields are all empty (trailing separators), which
// are dropped. A field that is not text of the file's encoding (an invalid
// UTF-8 sequence, a byte a legacy encoding does not define) is an error for
// its record, never replaced; so is a record the end of the file cuts
// inside a quoted field. Blank records (blank lines, and lines of
// delimiters only, ",,,," as spreadsheets export) are skipped.
//
// Limits: a header of more than Limits.Columns fields, or with a field
// longer than Limits.CellBytes, makes Open fail; a data field longer than
// Limits.CellBytes is an error for its record only (the record's other
// cells come with it); a record longer than Limits.RowBytes ends the
// stream, since the reader cannot tell where it would end.
//
// Row numbers are the row a spreadsheet application shows when it opens
// the file, the header being row 1 when it is on the first line: 1 plus the
// line ends before the record that are outside quoted fields. Blank lines
// still count, as they do in a spreadsheet; a first line sep=X does not,
// since Excel, whose convention it is, does not show it. Without quoted
// line breaks or a sep= line, the row is the line number a text editor
// shows.
type delimited struct {
	name    string
	lim     Limits
	p       *recordParser
	enc     textEncoding
	dialect Dialect
	cols    []table.Column
	closer  io.Closer

	// sel maps each column to 1 + its index among the columns
	// NextFields returns (0: not returned), once SelectColumns chose them;
	// nsel is their number.
	sel  []int
	nsel int

	// runText is, by column, the bytes of text per row (times 1024) of
	// the last run ReadColumns read as an array: the next run's buffer
	// is made that size at once rather than grown.
	runText []int

	last   int   // row of the last record read
	err    error // io.EOF once the stream ended
	closed bool
}

// delimitedSource is the bytes of a CSV or TSV file: a file read by offset
// (at, of size bytes), which can be read twice and whose length is checked
// against size, or a stream (a pipe), read once. data, when set, is at
// as the records are read from it (counting the bytes for the progress),
// while at serves the look-ahead that chooses the encoding.
type delimitedSource struct {
	at     io.ReaderAt
	data   io.ReaderAt
	size   int64
	stream io.Reader
}

// newDelimited opens a CSV or TSV file: it chooses the encoding and the
// delimiter and reads the header. format is "csv" or "tsv". closer, if not
// nil, is closed by Close but not on error.
//
// The encoding is opts.Encoding, else chosen by chooseEncoding from the
// first 16 MiB of the file (of a stream: its first lines, see sniffStream). The delimiter is
// opts.Delimiter, else the one a first line sep=X names, else the one
// detectDelimiter finds in the first records, which keeps the format's
// default (',' for CSV, tab for TSV) unless another is clearly the file's.
func newDelimited(name string, src delimitedSource, format string, closer io.Closer, opts Options) (*delimited, error) {
	choice, raw, err := chooseSourceEncoding(name, src, format, opts.Encoding)
	if err != nil {
		return nil, err
	}
	p := newRecordParser(choice.enc.decoder(raw), opts.Limits.RowBytes)
	t := &delimited{name: name, lim: opts.Limits, p: p, enc: choice.enc, closer: closer}
	t.dialect = Dialect{Encoding: choice.enc.name, EncodingAssumed: choice.why}
	if err := t.chooseDelimiter(format, opts.Delimiter); err != nil {
		return nil, err
	}
	if err := t.readHeader(); err != nil {
		return nil, err
	}
	return t, nil
}

// chooseSourceEncoding reads the start of the file, refuses a file that is
// not text, and chooses its encoding (named, else the one chooseEncoding
// finds). raw reads the file after its byte order mark.
func chooseSourceEncoding(name string, src delimitedSource, format, named string) (choice encodingChoice, raw io.Reader, err error) {
	var head []byte
	whole := false // head is the whole file
	var scan func() (bool, bool, error)
	if src.at != nil {
		head = make([]byte, min(src.size, sniffLen))
		whole = src.size <= sniffLen
		if _, err := io.ReadFull(&sizedReader{r: src.at, size: src.size}, head); err != nil {
			return choice, nil, fileError(name, fatalError{fmt.Errorf("cannot read the file: %w", err)})
		}
		scan = func() (bool, bool, error) { return scanUTF8(&sizedReader{r: src.at, size: src.size}, scanLen) }
	} else {
		var err error
		if head, whole, err = sniffStream(src.stream); err != nil {
			return choice, nil, fileError(name, fatalError{fmt.Errorf("cannot read the file: %w", err)})
		}
	}
	if err := notText(head, format); err != nil {
		return choice, nil, fileError(name, err)
	}
	choice, err = chooseEncoding(head, whole, named, scan)
	if err != nil {
		return choice, nil, fileError(name, err)
	}
	if src.at != nil {
		data := src.data
		if data == nil {
			data = src.at
		}
		return choice, &sizedReader{r: data, off: int64(choice.skip), size: src.size}, nil
	}
	return choice, io.MultiReader(bytes.NewReader(head[choice.skip:]), src.stream), nil
}

// chooseDelimiter sets the parser's delimiter: option (Options.Delimiter),
// else the one a first line sep=X names (that line is skipped), else the
// one detectDelimiter finds, the format's default unless another is
// clearly the file's. It also tells the parser whether a lone CR ends
// lines.
func (t *delimited) chooseDelimiter(format string, option rune) error {
	p := t.p
	text, atEOF, err := p.peek()
	if err != nil {
		return t.readError(err, 1)
	}
	sep, n, hasSep := sepLine(text)
	if hasSep {
		p.skipLine(n)
		text = text[n:]
		t.dialect.SepLine = true
	}
	switch {
	case option != 0:
		d, err := delimiterByte(option)
		if err != nil {
			return fileError(t.name, err)
		}
		p.setDelim(d)
		t.dialect.DelimiterFrom = "option"
	case hasSep:
		p.setDelim(sep)
		t.dialect.DelimiterFrom = "sep line"
	default:
		d, detected := detectDelimiter(text, atEOF, delimiterOf(format))
		p.setDelim(d)
		t.dialect.DelimiterFrom = "format"
		if detected {
			t.dialect.DelimiterFrom = "detected"
		}
	}
	t.dialect.Delimiter = rune(p.delim)
	p.crBreak = crLineEnds(text)
	return nil
}

// readHeader reads the header record: its cells, trimmed of surrounding
// space, name the columns, all of kind Text.
func (t *delimited) readHeader() error {
	rec, err := t.p.next()
	if err == io.EOF {
		return fileError(t.name, errors.New("the file is empty: there is no header row"))
	}
	if err != nil {
		return t.readError(err, 1)
	}
	header := rec.fields
	t.last = rec.row
	at := func(col int) table.Position { return table.Position{File: t.name, Row: rec.row, Column: col} }
	if rec.cut >= 0 {
		return &table.Error{Pos: at(rec.cut),
			Err: fmt.Errorf("the file ends inside the quoted header cell that starts on line %d: the header has no end", rec.cutLine)}
	}
	if int64(len(header)) > t.lim.Columns {
		return &table.Error{Pos: at(-1),
			Err: limitError(limitColumns, t.lim.Columns, "the header row has %s columns", groupDigits(int64(len(header))))}
	}
	for i, h := range header {
		if int64(len(h)) > t.lim.CellBytes {
			return &table.Error{Pos: at(i),
				Err: limitError(limitCellBytes, t.lim.CellBytes, "this header cell holds %s", byteSize(int64(len(h))))}
		}
		if err := t.enc.checkCell(h); err != nil {
			return &table.Error{Pos: at(i), Err: fmt.Errorf("this header cell %w", err)}
		}
	}
	t.cols = make([]table.Column, len(header))
	for i, h := range header {
		t.cols[i] = table.Column{Name: strings.TrimSpace(h), Kind: table.Text}
	}
	return nil
}

// delimiterByte checks a delimiter given by the caller: one ASCII
// character other than a quote or a line end.
func delimiterByte(d rune) (byte, error) {
	if d <= 0 || d >= 0x80 || d == '"' || d == '\r' || d == '\n' {
		return 0, fmt.Errorf("the delimiter %q cannot separate fields: give one ASCII character other than a quote or a line end", d)
	}
	return byte(d), nil
}

// File returns the file's name as given to Open.
func (t *delimited) File() string { return t.name }

// Sheet returns "": CSV and TSV files have no sheets.
func (t *delimited) Sheet() string { return "" }

// Columns returns the header's columns, all of kind Text.
func (t *delimited) Columns() []table.Column { return t.cols }

// Dialect says how the file was read.
func (t *delimited) Dialect() Dialect { return t.dialect }

// DecimalComma reports whether the file is semicolon-delimited, which
// suggests decimal commas in its numbers.
func (t *delimited) DecimalComma() bool { return t.dialect.Delimiter == ';' }

// Next returns the next record. An error about one record (too many
// fields, a cell that is not text of the file's encoding, a record cut by
// the end of the file) concerns that record only, comes with its readable
// cells, and the next call reads on; after a read error the stream ends
// (io.EOF).
func (t *delimited) Next() (table.Row, error) {
	if t.sel != nil {
		return table.Row{}, fileError(t.name, errors.New("rows read after SelectColumns"))
	}
	rec, pos, err := t.nextRecord()
	if err != nil {
		return table.Row{}, err
	}
	cells := make([]table.Cell, len(t.cols))
	err = t.checkRecord(rec, &pos, func(i int, f string) { cells[i] = table.TextCell(f) })
	return table.Row{Pos: pos, Cells: cells}, err
}

// nextRecord reads the next record that is not blank, and the position of
// its row. It returns io.EOF at the end, and a read error once, which ends
// the stream.
func (t *delimited) nextRecord() (*record, table.Position, error) {
	if t.err != nil {
		return nil, table.Position{}, t.err
	}
	if t.closed {
		return nil, table.Position{}, fileError(t.name, errors.New("read after close"))
	}
	rec, err := t.p.next()
	if err == io.EOF {
		t.err = io.EOF
		return nil, table.Position{}, io.EOF
	}
	if err != nil {
		t.err = io.EOF // the error is reported once
		return nil, table.Position{}, t.readError(err, t.last+1)
	}
	row := max(rec.row, t.last+1)
	t.last = row
	return rec, table.Position{File: t.name, Row: row, Column: -1}, nil
}

// checkRecord checks the fields of a record at *pos and calls keep with
// each field under the header that is kept as a cell (not empty, not too
// long, text of the file's encoding, not cut). It returns the error of the
// record, if any, about its first bad field (*pos then names it): the
// record's other cells are still kept.
func (t *delimited) checkRecord(rec *record, pos *table.Position, keep func(i int, f string)) error {
	fields := rec.fields
	n := len(t.cols)
	if rec.ascii && rec.cut < 0 && len(fields) <= n && int64(rec.text) <= t.lim.CellBytes {
		// The common record, read by plainRecord: every field is
		// text, none is too long, none is beyond the header.
		for i, f := range fields {
			if f != "" {
				keep(i, f)
			}
		}
		return nil
	}
	bad, why := -1, error(nil) // the first cell that is not kept, and why
	for i := 0; i < n && i < len(fields); i++ {
		f := fields[i]
		if f == "" {
			continue
		}
		switch {
		case i == rec.cut:
			continue // not kept: its value is incomplete
		case int64(len(f)) > t.lim.CellBytes:
			if bad < 0 {
				bad, why = i, limitError(limitCellBytes, t.lim.CellBytes, "this cell holds %s", byteSize(int64(len(f))))
			}
			continue // not kept: the row is an error row, its message says why
		}
		// ASCII is text of every encoding the reader decodes.
		if !rec.ascii {
			if err := t.enc.checkCell(f); err != nil {
				if bad < 0 {
					bad, why = i, fmt.Errorf("this cell %w", err)
				}
				continue
			}
		}
		keep(i, f)
	}
	if rec.cut >= 0 {
		bad, why = rec.cut, fmt.Errorf("the file ends inside this quoted cell, which starts on line %d: the record is cut (a quote without its closing quote, or a file cut short)", rec.cutLine)
	}
	if bad >= 0 {
		pos.Column = bad
		if bad < n {
			pos.ColumnName = t.cols[bad].Name
		}
		return &table.Error{Pos: *pos, Err: why}
	}
	for i := n; i < len(fields); i++ {
		if fields[i] == "" {
			continue
		}
		pos.Column = i
		where := ""
		if rec.line != pos.Row {
			where = fmt.Sprintf(" (line %d)", rec.line)
		}
		// The row's cells under the header come with the error, so the
		// caller can keep the row as an error row.
		return &table.Error{Pos: *pos, Err: fmt.Errorf("this record%s has %d fields but the header names %d columns; field %d (%q) has no header", where, len(fields), n, i+1, clip(fields[i]))}
	}
	return nil
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
	var le *LimitError
	if !errors.As(err, &le) {
		err = fmt.Errorf("cannot read the file: %w", err)
	}
	return &table.Error{Pos: table.Position{File: t.name, Row: row, Column: -1}, Err: fatalError{err}}
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

// sniffLines is the number of line end bytes (CR or LF) after which the
// start of a stream is enough to choose an encoding and a delimiter: the
// header and 20 records, or half as many CRLF lines.
const sniffLines = 22

// sniffStream reads the start of a stream (a pipe), to choose its
// encoding and delimiter: up to sniffLen bytes, but no further than
// sniffLines line ends, so that a pipe fed a line at a time is read as
// its lines come rather than after 64 KiB.
// It reports whether that is the whole stream.
func sniffStream(r io.Reader) ([]byte, bool, error) {
	buf := make([]byte, sniffLen)
	n := 0
	for n < len(buf) && lineEnds(buf[:n]) < sniffLines {
		m, err := r.Read(buf[n:])
		n += m
		if err == io.EOF {
			return buf[:n], true, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	return buf[:n], false, nil
}

// lineEnds counts the CR and LF bytes of b.
func lineEnds(b []byte) int {
	return bytes.Count(b, []byte{'\n'}) + bytes.Count(b, []byte{'\r'})
}

// sizedReader reads a file of a known size through its io.ReaderAt from
// off, and fails when the file is not that size any more: a file cut or
// rewritten while it is read ends early, one appended to goes on past the
// size it had when it was opened. Either is an error, never fewer or
// other rows than the file had.
type sizedReader struct {
	r         io.ReaderAt
	off, size int64
}

// Read reads the next bytes of the file.
func (s *sizedReader) Read(p []byte) (int, error) {
	if s.off >= s.size {
		var one [1]byte
		if n, _ := s.r.ReadAt(one[:], s.size); n > 0 {
			return 0, fmt.Errorf("the file grew while it was read: it had %s bytes when it was opened", groupDigits(s.size))
		}
		return 0, io.EOF
	}
	if rest := s.size - s.off; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := s.r.ReadAt(p, s.off)
	s.off += int64(n)
	if n < len(p) {
		if err == nil || err == io.EOF {
			err = fmt.Errorf("the file ended after %s of the %s bytes it had when it was opened: it was cut or rewritten while it was read", groupDigits(s.off), groupDigits(s.size))
		}
		return n, err
	}
	return n, nil
}
