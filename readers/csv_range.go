package readers

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"golang.org/x/text/encoding/charmap"
)

// CSVPart is a run of whole records of a CSV or TSV file, to be read apart
// from the rest of the file (by OpenCSVPart), as a pipeline reads a large
// file in parts side by side. SplitCSV finds the parts; the counts let the
// part's rows and messages be numbered as in the whole file.
type CSVPart struct {
	// From and To are the part's bytes in the file: From is where a record
	// starts (the first part's: just after the header), To where the next
	// part starts, or the file's size.
	From, To int64
	// LastRow is the row of the last record before From that is not blank
	// (the header, for the first part).
	LastRow int
	// Rows counts the line ends before From outside quoted fields, Lines
	// every line end before From, as the reader counts them (see Open).
	Rows, Lines int
}

// SplitCSV cuts the records of a CSV or TSV table of Open or OpenReader,
// whose file r holds size bytes, into parts of about partBytes bytes each
// (at least one record each), in file order; reading every part with
// OpenCSVPart gives the rows, cells and errors that reading the table
// gives, numbered alike.
//
// A part can begin only where a record begins, and that is ambiguous from
// an arbitrary offset: a line end may be one inside a quoted field, and
// whether a quote opens or closes a field depends on all the quotes before
// it. So SplitCSV reads the file once from its start, as the reader's
// record parser would, but only tracks quotes, delimiters and line ends
// (no field is decoded or kept): the parts' boundaries are the ends of
// records it meets past each partBytes bytes. This works on the file's
// bytes directly where the quote, the delimiter, CR and LF are the bytes
// (or UTF-16 code units) of their ASCII codes and no other byte or unit
// stands for them: UTF-8, UTF-16 and single-byte encodings whose ASCII
// range is ASCII (Windows-1252, ISO-8859-x, Mac Roman). For any other
// encoding (Shift JIS, for one, whose characters have ASCII bytes) it
// returns no part and no error: read the table whole. A file whose size
// changes while it is read is an error.
func SplitCSV(t Table, r io.ReaderAt, size, partBytes int64) ([]CSVPart, error) {
	d, ok := t.(*delimited)
	if !ok {
		return nil, fmt.Errorf("%s: only a CSV or TSV table can be split", t.File())
	}
	width, ok := d.enc.unitWidth()
	if !ok {
		return nil, nil
	}
	skip := int64(0)
	if bom := d.enc.bom; bom != "" && size >= int64(len(bom)) {
		head := make([]byte, len(bom))
		if _, err := r.ReadAt(head, 0); err != nil {
			return nil, d.readError(err, 1)
		}
		if string(head) == bom {
			skip = int64(len(bom))
		}
	}
	s := &partScanner{
		delim: uint16(d.p.delim), crBreak: d.p.crBreak, skipLine: d.dialect.SepLine,
		width: width, bigEndian: d.enc.kind == kindUTF16BE,
		partBytes: max(partBytes, 1), size: size, at: skip, state: scanFieldStart,
	}
	if err := s.scan(&sizedReader{r: r, off: skip, size: size}); err != nil {
		return nil, d.readError(err, s.rows+1)
	}
	return s.parts, nil
}

// OpenCSVPart returns a table of the records of part of the file that t, a
// CSV or TSV table of Open or OpenReader, reads from r (size bytes): the
// header, encoding, delimiter and limits are t's, and rows and errors are
// numbered as in the whole file. Closing it does not close r or t. A file
// that gets shorter or longer while the part is read ends it with an error.
func OpenCSVPart(t Table, r io.ReaderAt, size int64, part CSVPart) (Table, error) {
	d, ok := t.(*delimited)
	if !ok {
		return nil, fmt.Errorf("%s: only a CSV or TSV table can be read in parts", t.File())
	}
	if part.From < 0 || part.To < part.From || part.To > size {
		return nil, fileError(d.name, fmt.Errorf("bytes %d to %d are not a part of the file of %d bytes", part.From, part.To, size))
	}
	src := &partReader{sizedReader: sizedReader{r: r, off: part.From, size: size}, end: part.To}
	p := newRecordParser(d.enc.decoder(src), d.lim.RowBytes)
	p.setDelim(d.p.delim)
	p.crBreak = d.p.crBreak
	p.rows, p.lines = part.Rows, part.Lines
	return &delimited{name: d.name, lim: d.lim, p: p, enc: d.enc, dialect: d.dialect, cols: d.cols, last: part.LastRow}, nil
}

// partReader reads the bytes of a file from off to end, failing as
// sizedReader does if the file is not of its size any more (checked past
// end only when end is the file's end).
type partReader struct {
	sizedReader
	end int64
}

func (p *partReader) Read(b []byte) (int, error) {
	if p.end < p.size {
		if p.off >= p.end {
			return 0, io.EOF
		}
		b = b[:min(int64(len(b)), p.end-p.off)]
	}
	return p.sizedReader.Read(b)
}

// unitWidth returns the width in bytes of the units in which the quote, the
// delimiter, CR and LF are found in the encoded text (1, or 2 for UTF-16),
// and false when the encoding does not keep them apart from the bytes of
// other characters.
func (e textEncoding) unitWidth() (int, bool) {
	switch e.kind {
	case kindUTF8:
		return 1, true
	case kindUTF16LE, kindUTF16BE:
		return 2, true
	}
	cm, ok := e.legacy.(*charmap.Charmap)
	if !ok {
		return 0, false
	}
	for b := 0; b < 256; b++ {
		if r := cm.DecodeByte(byte(b)); (r < 0x80 || b < 0x80) && r != rune(b) {
			return 0, false // an ASCII byte that is not its character, or the other way round
		}
	}
	return 1, true
}

// The states of partScanner, as the record parser moves between them.
const (
	scanFieldStart = iota // at the start of a field
	scanPlain             // in an unquoted field
	scanQuoted            // in a quoted field
	scanQuote             // after a quote in a quoted field: it closes the field, or is doubled, or is kept
	scanCROut             // after a CR that ends a record: a LF may follow
	scanCRIn              // after a CR in a quoted field: a LF may follow
	scanSepLine           // in the first line sep=X, which is no record
)

// partScanner finds the ends of records, as recordParser reads them, in
// the encoded text of a file, and cuts it into parts.
type partScanner struct {
	delim              uint16
	crBreak, skipLine  bool
	width              int
	bigEndian          bool
	partBytes, size    int64
	at                 int64 // the file offset of the next unit
	state              int
	rows, lines        int // as recordParser counts them
	recRow, lastRow    int // the row of the record being read; of the last one not blank
	content, header    bool
	partFrom           int64 // the start of the part being found; -1 before the header's end
	parts              []CSVPart
	fromRows, fromLine int
	fromLast           int
}

// scan reads the text from src, starting at s.at.
func (s *partScanner) scan(src io.Reader) error {
	s.partFrom = -1
	if s.skipLine {
		s.state = scanSepLine
	}
	s.recRow = 1
	buf := make([]byte, 1<<20)
	for {
		n, err := io.ReadFull(src, buf)
		n -= n % s.width // an odd last byte of UTF-16 is no unit
		s.units(buf[:n])
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	if s.state == scanCROut {
		s.recordEnd()
	}
	from := s.partFrom
	switch {
	case from < 0: // the header is the file's last record: no line end after it
		from, s.fromRows, s.fromLine, s.fromLast = s.size, s.rows, s.lines, s.recRow
	case from == s.size && len(s.parts) > 0:
		return nil // the last part ends with the file
	}
	s.parts = append(s.parts, CSVPart{From: from, To: s.size, LastRow: s.fromLast, Rows: s.fromRows, Lines: s.fromLine})
	return nil
}

// units scans the units of b: bytes of an 8-bit text by runs where it
// can (see run), else one unit at a time (step).
func (s *partScanner) units(b []byte) {
	w := s.width
	for i := 0; i < len(b); {
		if w == 1 {
			if n := s.run(b[i:]); n > 0 {
				i += n
				continue
			}
		}
		c := uint16(b[i])
		if w == 2 {
			if s.bigEndian {
				c = c<<8 | uint16(b[i+1])
			} else {
				c |= uint16(b[i+1]) << 8
			}
		}
		i += w
		s.at += int64(w)
		s.step(c)
	}
}

// run scans a run of bytes at the start of b that needs no look at each
// byte, and returns its length (0: none): outside quotes, the bytes before
// the next quote, CR or LF (fields and delimiters); in a quoted field, the
// bytes before the next quote when there is no CR among them (the LFs
// counted with bytes.Count). bytes.IndexByte and bytes.Count are the
// vectorised searches of the standard library.
func (s *partScanner) run(b []byte) int {
	switch s.state {
	case scanFieldStart, scanPlain:
		if j := bytes.IndexByte(b, '\n'); j >= 0 {
			b = b[:j]
		}
		if j := bytes.IndexByte(b, '"'); j >= 0 {
			b = b[:j]
		}
		if j := bytes.IndexByte(b, '\r'); j >= 0 {
			b = b[:j]
		}
		if len(b) == 0 {
			return 0
		}
		if !s.content && len(bytes.Trim(b, string(rune(s.delim)))) > 0 {
			s.content = true
		}
		s.state = scanPlain
		if b[len(b)-1] == byte(s.delim) {
			s.state = scanFieldStart
		}
		s.at += int64(len(b))
		return len(b)
	case scanQuoted:
		j := bytes.IndexByte(b, '"')
		if j < 0 {
			j = len(b)
		}
		field := b[:j]
		if j == 0 || bytes.IndexByte(field, '\r') >= 0 {
			return 0
		}
		s.lines += bytes.Count(field, []byte{'\n'})
		s.content = true
		s.at += int64(j)
		return j
	}
	return 0
}

// step scans the unit c, which ends just before s.at.
func (s *partScanner) step(c uint16) {
	for {
		switch s.state {
		case scanSepLine:
			switch c {
			case '\r':
				s.state = scanCROut
			case '\n':
				s.recordEnd()
			}
		case scanFieldStart, scanPlain:
			switch {
			case c == '"' && s.state == scanFieldStart:
				s.state = scanQuoted
			case !s.fieldEnd(c):
				s.state, s.content = scanPlain, true
			}
		case scanQuoted:
			switch c {
			case '"':
				s.state = scanQuote
			case '\r':
				s.state, s.content = scanCRIn, true
			case '\n':
				s.lines++
				s.content = true
			default:
				s.content = true
			}
		case scanQuote:
			if !s.fieldEnd(c) { // a doubled quote, or a lone one kept before c
				s.state, s.content = scanQuoted, true
				if c != '"' {
					continue // c is a character of the field
				}
			}
		case scanCROut:
			if c == '\n' {
				s.recordEnd()
				return
			}
			w := int64(s.width)
			s.at -= w // c begins the next record
			s.recordEnd()
			s.at += w
			continue
		case scanCRIn:
			s.state = scanQuoted
			if c == '\n' || s.crBreak {
				s.lines++
			}
			if c != '\n' {
				continue
			}
		}
		return
	}
}

// fieldEnd scans c outside quotes if it ends a field (the delimiter, CR or
// LF), and reports whether it did.
func (s *partScanner) fieldEnd(c uint16) bool {
	switch c {
	case s.delim:
		s.state = scanFieldStart
	case '\r':
		s.state = scanCROut
	case '\n':
		s.recordEnd()
	default:
		return false
	}
	return true
}

// recordEnd ends the record (or the sep= line) whose line end ends just
// before s.at, and ends a part there once it holds partBytes bytes.
func (s *partScanner) recordEnd() {
	s.lines++
	if s.skipLine { // the line sep=X: a line, not a row
		s.state, s.skipLine = scanFieldStart, false
		return
	}
	s.rows++
	if s.content {
		s.lastRow = s.recRow
	}
	s.state, s.recRow = scanFieldStart, s.rows+1
	switch {
	case !s.header && s.content:
		s.header = true
	case !s.header || s.at-s.partFrom < s.partBytes:
		s.content = false
		return
	default:
		s.parts = append(s.parts, CSVPart{From: s.partFrom, To: s.at, LastRow: s.fromLast, Rows: s.fromRows, Lines: s.fromLine})
	}
	s.content = false
	s.partFrom, s.fromRows, s.fromLine, s.fromLast = s.at, s.rows, s.lines, s.lastRow
}
