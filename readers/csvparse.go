package readers

import (
	"io"
	"unsafe"
)

// recordParser splits CSV text (UTF-8, already decoded) into records.
//
// Fields follow RFC 4180 with the leniency of encoding/csv's LazyQuotes,
// which real exports need: a field is quoted when it starts with '"'; in a
// quoted field "" is a quote, and a quote followed by anything but a
// quote, the delimiter or a line end is kept as a character; a quote
// inside an unquoted field is an ordinary character.
//
// Line ends are LF, CRLF or a lone CR (old Mac files), in any mixture.
// Inside a quoted field a line end is a line break of the value and is
// kept as "\n", as encoding/csv keeps CRLF; a lone CR there is such a
// line break only in a file whose lines end with CR (crBreak), and is
// kept as it is otherwise.
//
// Unlike encoding/csv, the parser tells a record that the end of the text
// cut inside a quoted field (record.cut), counts the rows a spreadsheet
// shows (record.row: line ends outside quoted fields, blank lines
// included), and bounds the bytes of a record (maxBytes).
type recordParser struct {
	r        io.Reader
	buf      []byte
	pos, end int
	taken    int64 // bytes dropped from the front of buf so far
	rerr     error // the reader's error (io.EOF at the end), met once buf is drained
	delim    byte
	crBreak  bool
	maxBytes int64
	lines    int // line ends read so far
	rows     int // line ends read so far outside quoted fields

	rec    []byte   // the fields of the record being read, one after the other
	ends   []int    // the end of each field in rec (of a plainRecord: in buf, from pos)
	fields []string // the fields of the last record, reused
	cur    record   // the last record, which next returns
	// borrow makes the fields views of rec (of buf, for a record that
	// plainRecord read), valid until the next record is read, rather
	// than parts of a string of their own: for a caller that copies what
	// it keeps (ReadColumns), a record then costs no allocation.
	borrow bool
	// slowOnly makes parse read every record the slow way, never by
	// plainRecord: the tests compare the two.
	slowOnly bool

	// stops marks the bytes that end a run of an unquoted field (the
	// delimiter, CR, LF) with 1, and of a quoted field ('"', CR, LF) with 2.
	stops [256]uint8
}

// record is one record of the text. The parser returns its own (cur),
// valid until the next record is read, rather than copies of it.
type record struct {
	fields []string // valid until the next record is read
	row    int      // 1 + the line ends outside quoted fields before the record
	line   int      // the line of the text the record starts on
	// cut is the index of the field that the end of the text cut inside
	// its quotes, or -1; cutLine is the line its quote opened on.
	cut, cutLine int
	// ascii reports that every byte of the record's fields is ASCII, and
	// so text of any encoding the reader decodes (see checkCell); false
	// when not known.
	ascii bool
	// text is the bytes of the record's fields and the delimiters between
	// them, when plainRecord read it (0 otherwise): no field is longer.
	text int
}

// newRecordParser returns a parser of r with delimiter ','; the caller
// sets the delimiter (setDelim) and crBreak once it has looked at the start
// of the text (peek).
func newRecordParser(r io.Reader, maxBytes int64) *recordParser {
	p := &recordParser{r: r, buf: make([]byte, sniffLen), maxBytes: maxBytes}
	p.setDelim(',')
	return p
}

// setDelim sets the delimiter.
func (p *recordParser) setDelim(d byte) {
	p.delim = d
	p.stops = [256]uint8{}
	p.stops['\r'], p.stops['\n'] = 3, 3
	p.stops['"'] |= 2
	p.stops[d] |= 1
}

// fill reads more text into buf; false when no more is coming (rerr set).
func (p *recordParser) fill() bool {
	if p.rerr != nil {
		return false
	}
	if p.pos > 0 {
		p.taken += int64(p.pos)
		p.end = copy(p.buf, p.buf[p.pos:p.end])
		p.pos = 0
	}
	for p.end < len(p.buf) {
		n, err := p.r.Read(p.buf[p.end:])
		p.end += n
		if err != nil {
			p.rerr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	return true
}

// more reports whether a byte is there to read, reading more text if needed.
func (p *recordParser) more() bool {
	for p.pos == p.end {
		if !p.fill() {
			return false
		}
	}
	return true
}

// peek returns the unread start of the text, up to len(buf) bytes but no
// further than the sniffLines-th line end (a pipe fed a line at a time is
// not kept waiting), and whether it reaches the end of the text. Its error
// is a read error.
func (p *recordParser) peek() ([]byte, bool, error) {
	for p.end-p.pos < len(p.buf) && p.rerr == nil && lineEnds(p.buf[p.pos:p.end]) < sniffLines {
		p.fill()
	}
	if p.rerr != nil && p.rerr != io.EOF {
		return nil, false, p.rerr
	}
	return p.buf[p.pos:p.end], p.rerr == io.EOF, nil
}

// skipLine drops the rest of the current line, which the caller has
// peeked at (a sep= line), counting it as a line but not as a row.
func (p *recordParser) skipLine(n int) {
	p.pos += n
	p.lines++
}

// endErr is the error of a text that ended: io.EOF, or a read error.
func (p *recordParser) endErr() error {
	if p.rerr == nil {
		return io.EOF
	}
	return p.rerr
}

// next returns the next record that is not blank: blank lines, and records
// whose fields are all empty (",,,," as spreadsheets export rows they think
// used), are skipped, but count as rows. At the end of the text it returns
// io.EOF; a read error, or a record longer than maxBytes (a *LimitError),
// ends the text.
func (p *recordParser) next() (*record, error) {
	for {
		rec, err := p.parse()
		if err != nil {
			return nil, err
		}
		if rec.cut >= 0 {
			return rec, nil
		}
		for _, f := range rec.fields {
			if f != "" {
				return rec, nil
			}
		}
	}
}

// errTooLong is the error of a record longer than maxBytes.
func (p *recordParser) errTooLong() error {
	return limitError(limitRowBytes, p.maxBytes, "this record (a line, or the lines of a quoted field) is too long; a quote without its closing quote makes the rest of the file one record")
}

// parse reads one record into p.cur.
func (p *recordParser) parse() (*record, error) {
	if !p.more() {
		return nil, p.endErr()
	}
	if !p.slowOnly {
		if rec, ok := p.plainRecord(); ok {
			return rec, nil
		}
	}
	rec := &p.cur
	*rec = record{row: p.rows + 1, line: p.lines + 1, cut: -1}
	p.rec = p.rec[:0]
	p.ends = p.ends[:0]
	start := p.consumed()
	for more := true; more; {
		var err error
		if p.more() && p.buf[p.pos] == '"' {
			p.pos++
			more, err = p.quotedField(rec, start)
		} else {
			more, err = p.plainField(start)
		}
		if err != nil {
			return nil, err
		}
	}
	if p.consumed()-start > p.maxBytes {
		return nil, p.errTooLong()
	}
	rec.fields = p.split(p.rec, 0)
	return rec, nil
}

// split returns the fields of text, a record's fields one after the
// other with gap bytes between them (0, or 1 for a delimiter), that
// p.ends delimits: views of text if p.borrow, else of one string for the
// record.
func (p *recordParser) split(text []byte, gap int) []string {
	var s string
	if p.borrow {
		s = unsafe.String(unsafe.SliceData(text), len(text))
	} else {
		s = string(text)
	}
	p.fields = p.fields[:0]
	prev := 0
	for _, e := range p.ends {
		p.fields = append(p.fields, s[prev:e])
		prev = e + gap
	}
	return p.fields
}

// plainRecord reads the next record the quick way when it can: when no
// field of it is quoted and its line end is in the buffer (after reading
// more text if it is not), one scan of the buffer finds its fields, its
// end, and whether it is all ASCII, and the fields are the buffer's bytes
// as they are, with nothing copied but the record's one string (none with
// borrow). The record is the one parse would read, byte for byte. When it
// cannot (a quoted field, a record longer than the buffer or than
// maxBytes, a CR at the buffer's end that may start a CRLF, the text's
// last record without a line end) it reports false having consumed
// nothing, and parse reads the record the slow way.
func (p *recordParser) plainRecord() (*record, bool) {
	n, ascii := p.scanPlain()
	if n == needMore && p.rerr == nil && (p.pos > 0 || p.end < len(p.buf)) {
		p.fill() // the record may go on past the buffer's end
		n, ascii = p.scanPlain()
	}
	if n <= 0 {
		return nil, false
	}
	text := p.ends[len(p.ends)-1]
	rec := &p.cur
	*rec = record{row: p.rows + 1, line: p.lines + 1, cut: -1, ascii: ascii, text: text}
	rec.fields = p.split(p.buf[p.pos:p.pos+text], 1)
	p.pos += n
	p.lines++
	p.rows++
	return rec, true
}

// What scanPlain returns for a record plainRecord does not read.
const (
	notPlain = 0  // a quoted field
	needMore = -1 // the buffer ends (or maxBytes is reached) before the record
)

// scanPlain splits the unread text of the buffer into the fields of one
// record without quoted fields, setting p.ends (offsets from p.pos), and
// returns the bytes of the record with its line end, and whether its
// fields are all ASCII; or notPlain or needMore, p.ends then undefined.
func (p *recordParser) scanPlain() (n int, ascii bool) {
	buf := p.buf[p.pos:p.end]
	if int64(len(buf)) > p.maxBytes {
		buf = buf[:p.maxBytes] // a longer record is an error parse reports
	}
	p.ends = p.ends[:0]
	var hi byte // the bits of every byte of the fields, or'ed
	for i := 0; i < len(buf); i++ {
		if buf[i] == '"' {
			return notPlain, false
		}
		for ; i < len(buf) && p.stops[buf[i]]&1 == 0; i++ {
			hi |= buf[i]
		}
		if i == len(buf) {
			break
		}
		p.ends = append(p.ends, i)
		switch buf[i] {
		case p.delim:
			continue
		case '\n':
			return i + 1, hi < 0x80
		}
		// A CR: a line end, with the LF after it if there is one.
		switch {
		case i+1 < len(buf) && buf[i+1] == '\n':
			return i + 2, hi < 0x80
		case i+1 < len(buf):
			return i + 1, hi < 0x80
		case p.pos+i+1 == p.end && p.rerr != nil:
			return i + 1, hi < 0x80 // the text's last byte
		}
		break
	}
	return needMore, false
}

// quotedField reads a quoted field of the record that began at start,
// after its opening quote, up to the delimiter or line end after its
// closing quote. A field that the end of the text cuts is kept as far as
// it goes, and marked in rec. more reports that another field follows.
func (p *recordParser) quotedField(rec *record, start int64) (more bool, err error) {
	opened := p.lines + 1
	for {
		if !p.more() {
			rec.cut, rec.cutLine = len(p.ends), opened
			return p.lastField()
		}
		if atEnd, err := p.copyUntil(2, start); err != nil {
			return false, err
		} else if atEnd {
			continue
		}
		c := p.buf[p.pos]
		p.pos++
		switch c {
		case '\n':
			p.rec = append(p.rec, '\n')
			p.lines++
		case '\r':
			switch {
			case p.more() && p.buf[p.pos] == '\n':
				p.pos++
				p.rec = append(p.rec, '\n')
				p.lines++
			case p.crBreak:
				p.rec = append(p.rec, '\n')
				p.lines++
			default:
				p.rec = append(p.rec, '\r')
			}
		case '"':
			if !p.more() {
				return p.lastField()
			}
			switch n := p.buf[p.pos]; {
			case n == '"':
				p.rec = append(p.rec, '"')
				p.pos++
			case n == p.delim:
				p.pos++
				p.ends = append(p.ends, len(p.rec))
				return true, nil
			case n == '\n' || n == '\r':
				p.ends = append(p.ends, len(p.rec))
				p.lineEnd()
				return false, nil
			default:
				p.rec = append(p.rec, '"') // a lone quote, kept
			}
		}
	}
}

// plainField reads an unquoted field of the record that began at start,
// up to the delimiter or line end after it. more reports that another
// field follows.
func (p *recordParser) plainField(start int64) (more bool, err error) {
	for {
		if !p.more() {
			return p.lastField()
		}
		if atEnd, err := p.copyUntil(1, start); err != nil {
			return false, err
		} else if atEnd {
			continue
		}
		p.ends = append(p.ends, len(p.rec))
		if p.buf[p.pos] == p.delim {
			p.pos++
			return true, nil
		}
		p.lineEnd()
		return false, nil
	}
}

// lastField ends the record's last field at the end of the text, or
// returns the read error that ended the text.
func (p *recordParser) lastField() (more bool, err error) {
	if p.rerr != io.EOF {
		return false, p.rerr
	}
	p.ends = append(p.ends, len(p.rec))
	return false, nil
}

// copyUntil appends to the record the bytes up to the next one whose stop
// classes include class (1: outside quotes, 2: inside), or up to the end
// of the buffer, and fails once the record, begun at start, is longer than
// maxBytes. It reports whether it reached the end of the buffer.
func (p *recordParser) copyUntil(class uint8, start int64) (atEnd bool, err error) {
	i := p.pos
	for i < p.end && p.stops[p.buf[i]]&class == 0 {
		i++
	}
	p.rec = append(p.rec, p.buf[p.pos:i]...)
	p.pos = i
	if p.consumed()-start > p.maxBytes {
		return false, p.errTooLong()
	}
	return p.pos == p.end, nil
}

// lineEnd consumes a line end outside quoted fields: LF, CRLF or CR.
func (p *recordParser) lineEnd() {
	if p.buf[p.pos] == '\r' {
		p.pos++
		if p.more() && p.buf[p.pos] == '\n' {
			p.pos++
		}
	} else {
		p.pos++
	}
	p.lines++
	p.rows++
}

// consumed counts the bytes the parser has taken from the text; only
// differences of it are meaningful.
func (p *recordParser) consumed() int64 { return p.taken + int64(p.pos) }
