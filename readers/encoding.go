package readers

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/transform"
)

// textEncoding is the character encoding a CSV or TSV file is decoded from
// before it is split into records: UTF-8 (read as it is), UTF-16 (decoded
// by utf16Reader), or a legacy encoding of golang.org/x/text.
type textEncoding struct {
	name   string            // the name messages give: "UTF-8", "UTF-16LE", "Windows-1252"
	kind   encodingKind      // how the bytes are decoded
	legacy encoding.Encoding // the decoder of a legacy encoding
	bom    string            // the byte order mark of the encoding, dropped where the file starts with it
}

// encodingKind tells how the bytes of a file become UTF-8 text.
type encodingKind uint8

const (
	kindUTF8    encodingKind = iota // as they are; invalid sequences are errors of their cells
	kindUTF16LE                     // utf16Reader, little-endian
	kindUTF16BE                     // utf16Reader, big-endian
	kindLegacy                      // a golang.org/x/text decoder; U+FFFD marks a byte it does not define
)

// The encodings riskbatch chooses by itself.
func encUTF8() textEncoding {
	return textEncoding{name: "UTF-8", kind: kindUTF8, bom: "\xEF\xBB\xBF"}
}
func encUTF16LE() textEncoding {
	return textEncoding{name: "UTF-16LE", kind: kindUTF16LE, bom: "\xFF\xFE"}
}
func encUTF16BE() textEncoding {
	return textEncoding{name: "UTF-16BE", kind: kindUTF16BE, bom: "\xFE\xFF"}
}
func encWindows1252() textEncoding {
	return textEncoding{name: "Windows-1252", kind: kindLegacy, legacy: charmap.Windows1252}
}

// encodingAlias returns the name messages give to an encoding that users
// spell in several ways, some of which the IANA index does not know, or
// "". key is the name in lower case without spaces, '-' or '_'.
func encodingAlias(key string) string {
	switch key {
	case "utf8":
		return "UTF-8"
	case "utf16le":
		return "UTF-16LE"
	case "utf16be":
		return "UTF-16BE"
	case "utf16":
		return "UTF-16"
	case "cp1252", "windows1252", "ansi":
		return "Windows-1252"
	case "latin1", "iso88591", "l1":
		return "ISO-8859-1"
	case "latin9", "iso885915":
		return "ISO-8859-15"
	case "macroman", "macintosh", "mac", "xmacroman":
		return "Macintosh"
	}
	return ""
}

// encodingByName returns the encoding a user names (Options.Encoding): UTF-8,
// UTF-16LE, UTF-16BE, UTF-16 (byte order mark, else big-endian as RFC 2781
// says), or any encoding of the IANA registry that golang.org/x/text
// decodes (windows-1252, iso-8859-1, iso-8859-15, macintosh, shift_jis, …).
func encodingByName(name string) (textEncoding, error) {
	key := strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(strings.TrimSpace(name)))
	display := encodingAlias(key)
	switch display {
	case "UTF-8":
		return encUTF8(), nil
	case "UTF-16LE":
		return encUTF16LE(), nil
	case "UTF-16BE", "UTF-16":
		e := encUTF16BE()
		if display == "UTF-16" {
			e.name = "UTF-16"
		}
		return e, nil
	case "Windows-1252":
		return encWindows1252(), nil
	case "ISO-8859-1":
		return textEncoding{name: display, kind: kindLegacy, legacy: charmap.ISO8859_1}, nil
	case "ISO-8859-15":
		return textEncoding{name: display, kind: kindLegacy, legacy: charmap.ISO8859_15}, nil
	case "Macintosh":
		return textEncoding{name: "Mac OS Roman", kind: kindLegacy, legacy: charmap.Macintosh}, nil
	}
	enc, err := ianaindex.IANA.Encoding(strings.TrimSpace(name))
	if enc == nil || err != nil {
		enc, err = htmlindex.Get(strings.TrimSpace(name))
	}
	if enc == nil || err != nil {
		return textEncoding{}, fmt.Errorf("unknown encoding %q: name one such as utf-8, utf-16le, utf-16be, windows-1252, iso-8859-1, iso-8859-15 or mac-roman", name)
	}
	display, _ = ianaindex.IANA.Name(enc)
	if display == "" {
		display = strings.TrimSpace(name)
	}
	if strings.HasPrefix(strings.ToUpper(display), "UTF-") {
		// UTF-32 and the like: x/text would replace invalid sequences.
		return textEncoding{}, fmt.Errorf("encoding %q is not supported: save the file as UTF-8 or UTF-16", name)
	}
	return textEncoding{name: display, kind: kindLegacy, legacy: enc}, nil
}

// decoder returns r decoded to UTF-8 text.
func (e textEncoding) decoder(r io.Reader) io.Reader {
	switch e.kind {
	case kindUTF16LE:
		return &utf16Reader{r: r}
	case kindUTF16BE:
		return &utf16Reader{r: r, bigEndian: true}
	case kindLegacy:
		return transform.NewReader(r, e.legacy.NewDecoder())
	}
	return r
}

// invalidByte is what utf16Reader writes for a code unit that is not part
// of a character (an unpaired surrogate, an odd last byte). It is never
// valid in UTF-8, so the cell that holds it is an error of its row, as an
// invalid sequence of a UTF-8 file is.
const invalidByte = 0xFF

// checkCell returns an error when a decoded field holds something that is
// not text of the file's encoding: an invalid UTF-8 sequence (a UTF-8 file,
// or the mark utf16Reader leaves), or U+FFFD from a legacy decoder, which
// writes it for a byte the encoding does not define (a legacy encoding has
// no U+FFFD of its own). Nothing is ever replaced silently.
func (e textEncoding) checkCell(s string) error {
	switch e.kind {
	case kindLegacy:
		if i := strings.IndexRune(s, utf8.RuneError); i >= 0 {
			return fmt.Errorf("holds a byte that %s does not define (after %q); pass --encoding to name the file's encoding", e.name, clipTail(s[:i]))
		}
		return nil
	}
	if utf8.ValidString(s) {
		return nil
	}
	i := invalidAt(s)
	if e.kind == kindUTF8 {
		return fmt.Errorf("is not valid UTF-8 (byte 0x%02X after %q); pass --encoding to name the file's encoding", s[i], clipTail(s[:i]))
	}
	return fmt.Errorf("is not valid %s (a lone surrogate or a cut character after %q)", e.name, clipTail(s[:i]))
}

// invalidAt returns the index of the first invalid UTF-8 sequence of s.
func invalidAt(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// clipTail keeps the end of a text quoted before an invalid byte.
func clipTail(s string) string {
	const n = 20
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return "…" + s[i:]
}

// utf16Reader decodes UTF-16 to UTF-8. A code unit that is not part of a
// character becomes invalidByte, so that its cell is an error rather than
// a silent U+FFFD (golang.org/x/text's decoder replaces it).
type utf16Reader struct {
	r         io.Reader
	bigEndian bool
	in        [4096]byte
	n         int    // bytes in in
	out       []byte // decoded, not yet returned
	high      rune   // a high surrogate waiting for its low half, or 0
	err       error  // from r, returned once out is empty
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			if u.high != 0 || u.n > 0 {
				// A high surrogate or an odd byte at the end.
				u.high, u.n = 0, 0
				u.out = append(u.out, invalidByte)
				break
			}
			return 0, u.err
		}
		m, err := u.r.Read(u.in[u.n:])
		u.n += m
		if err != nil {
			u.err = err
		}
		u.decode()
	}
	k := copy(p, u.out)
	u.out = u.out[k:]
	return k, nil
}

// decode moves the whole code units of in to out.
func (u *utf16Reader) decode() {
	u.out = u.out[:0]
	i := 0
	for ; i+1 < u.n; i += 2 {
		var c rune
		if u.bigEndian {
			c = rune(u.in[i])<<8 | rune(u.in[i+1])
		} else {
			c = rune(u.in[i+1])<<8 | rune(u.in[i])
		}
		switch {
		case c >= 0xD800 && c < 0xDC00:
			if u.high != 0 {
				u.out = append(u.out, invalidByte)
			}
			u.high = c
		case c >= 0xDC00 && c < 0xE000:
			if u.high == 0 {
				u.out = append(u.out, invalidByte)
				continue
			}
			u.out = utf8.AppendRune(u.out, 0x10000+(u.high-0xD800)<<10+(c-0xDC00))
			u.high = 0
		default:
			if u.high != 0 {
				u.out = append(u.out, invalidByte)
				u.high = 0
			}
			u.out = utf8.AppendRune(u.out, c)
		}
	}
	u.n = copy(u.in[:], u.in[i:u.n])
}

// sniffLen is how much of the start of a file the readers look at to
// choose an encoding and a delimiter.
const sniffLen = 64 << 10

// fileMagic names the formats a file named .csv or .tsv may really be,
// by the bytes they start with.
func fileMagic() []struct{ magic, what string } {
	return []struct{ magic, what string }{
		{"PK\x03\x04", "this is a ZIP archive (an .xlsx workbook?) named .%s; rename it to .xlsx or pass --input-format xlsx"},
		{"PAR1", "this is a Parquet file named .%s; rename it to .parquet or pass --input-format parquet"},
		{"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", "this is an Excel 97–2003 workbook (.xls) named .%s; save it as .xlsx or as CSV (UTF-8)"},
		{"\xFF\xFE\x00\x00", "this is UTF-32 text, which riskbatch does not read; save it as UTF-8 or UTF-16 .%s"},
		{"\x00\x00\xFE\xFF", "this is UTF-32 text, which riskbatch does not read; save it as UTF-8 or UTF-16 .%s"},
		{"\x1f\x8b", "this is a gzip-compressed file named .%[1]s; name it .%[1]s.gz to have it decompressed as it is read"},
		{"\x28\xb5\x2f\xfd", "this is a zstd-compressed file named .%[1]s; name it .%[1]s.zst to have it decompressed as it is read"},
	}
}

// notText returns why a file whose first bytes are head is not CSV or TSV
// text, or nil.
func notText(head []byte, format string) error {
	for _, m := range fileMagic() {
		if bytes.HasPrefix(head, []byte(m.magic)) {
			return fmt.Errorf(m.what, format)
		}
	}
	return nil
}

// encodingChoice is the encoding chosen for a file and why.
type encodingChoice struct {
	enc textEncoding
	// why says how it was chosen when riskbatch assumed it ("not valid
	// UTF-8"); empty when the file declares it (a byte order mark), the
	// caller named it, or the file is valid UTF-8.
	why string
	// skip is the length of the byte order mark at the start, dropped.
	skip int
}

// chooseEncoding chooses the encoding of a file that starts with head (up
// to sniffLen bytes; whole tells whether that is the whole file). named is
// Options.Encoding. scan, when not nil,
// tells whether the file (its first scanLen bytes) is valid UTF-8 and
// whether it has non-ASCII UTF-8 characters, for a file that can be read
// twice; otherwise head alone decides.
//
// The order: a byte order mark (UTF-8, UTF-16LE, UTF-16BE); then, for a
// file without one, the zero bytes of UTF-16 (the high byte of every ASCII
// character is zero); then UTF-8 when the bytes are valid UTF-8; then, for
// a file that is not, Windows-1252, the legacy encoding of Excel and of
// Windows in western Europe and the Americas. A file with valid UTF-8
// characters and invalid bytes is read as UTF-8: its invalid bytes are
// errors of their cells (decoding it as Windows-1252 would turn its UTF-8
// characters into two or three wrong ones each).
func chooseEncoding(head []byte, whole bool, named string, scan func() (valid, multibyte bool, err error)) (encodingChoice, error) {
	if named != "" {
		enc, err := encodingByName(named)
		if err != nil {
			return encodingChoice{}, err
		}
		c := encodingChoice{enc: enc}
		switch {
		case enc.name == "UTF-16" && bytes.HasPrefix(head, []byte(encUTF16LE().bom)):
			c.enc = encUTF16LE()
			c.skip = 2
		case enc.name == "UTF-16" && bytes.HasPrefix(head, []byte(encUTF16BE().bom)):
			c.enc = encUTF16BE()
			c.skip = 2
		case enc.bom != "" && bytes.HasPrefix(head, []byte(enc.bom)):
			c.skip = len(enc.bom)
		}
		return c, nil
	}
	for _, e := range []textEncoding{encUTF8(), encUTF16LE(), encUTF16BE()} {
		if bytes.HasPrefix(head, []byte(e.bom)) {
			return encodingChoice{enc: e, skip: len(e.bom)}, nil
		}
	}
	if e, ok := bomlessUTF16(head); ok {
		return encodingChoice{enc: e, why: "no byte order mark, but the zero bytes of UTF-16 text"}, nil
	}
	valid, multibyte := utf8Stats(head, whole)
	if scan != nil {
		var err error
		if valid, multibyte, err = scan(); err != nil {
			return encodingChoice{}, err
		}
	}
	switch {
	case valid:
		return encodingChoice{enc: encUTF8()}, nil
	case multibyte:
		return encodingChoice{enc: encUTF8(), why: "it mixes UTF-8 characters and bytes that are not UTF-8, which are errors of their cells"}, nil
	}
	return encodingChoice{enc: encWindows1252(), why: "not valid UTF-8"}, nil
}

// bomlessUTF16 recognises UTF-16 text without a byte order mark by its
// zero bytes: in text that is mostly ASCII (a header of column names,
// digits, separators), every other byte is zero, at odd offsets in
// little-endian text and at even ones in big-endian. At least a third of
// the code units must have a zero high byte and almost none a zero low
// byte; UTF-8 text has no zero bytes at all, save a stray NUL.
func bomlessUTF16(head []byte) (textEncoding, bool) {
	n := min(len(head), 4096) &^ 1
	if n < 4 {
		return textEncoding{}, false
	}
	var even, odd int
	for i := 0; i < n; i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	units := n / 2
	switch {
	case 3*odd >= units && 16*even <= odd:
		return encUTF16LE(), true
	case 3*even >= units && 16*odd <= even:
		return encUTF16BE(), true
	}
	return textEncoding{}, false
}

// utf8Stats reports whether b is valid UTF-8 and whether it has a valid
// multi-byte character. When b is not the whole file (atEnd false), a
// character cut at its end is not held against it.
func utf8Stats(b []byte, atEnd bool) (valid, multibyte bool) {
	valid = true
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			if !atEnd && len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:]) {
				break
			}
			valid = false
			i++
			continue
		}
		multibyte = true
		i += n
	}
	return valid, multibyte
}

// scanLen is how much of a file that can be read twice is checked for
// UTF-8 before it is read: all of a release table, and enough of a large
// file to meet its first accented letters. Past it, a byte that is not
// UTF-8 is an error of its cell (see textEncoding.checkCell).
const scanLen = 16 << 20

// scanUTF8 reads r, up to limit bytes, and reports whether that is valid
// UTF-8 and whether it holds a multi-byte character. It stops early once
// it has met both an invalid byte and a valid character.
func scanUTF8(r io.Reader, limit int64) (valid, multibyte bool, err error) {
	buf := make([]byte, sniffLen+utf8.UTFMax)
	valid = true
	carry := 0
	for read := int64(0); ; {
		want := int(min(int64(sniffLen), limit-read))
		n, rerr := io.ReadFull(r, buf[carry:carry+want])
		read += int64(n)
		atEnd := rerr == io.EOF || rerr == io.ErrUnexpectedEOF
		if rerr != nil && !atEnd {
			return valid, multibyte, rerr
		}
		last := atEnd || read >= limit
		chunk := buf[:carry+n]
		carry = 0
		if utf8.Valid(chunk) {
			// The fast path: ASCII or valid UTF-8 throughout.
			multibyte = multibyte || !isASCII(chunk)
		} else {
			v, m := utf8Stats(chunk, atEnd)
			valid = valid && v
			multibyte = multibyte || m
			if !last {
				// Carry a character cut at the end into the next chunk.
				for k := 1; k < utf8.UTFMax && k <= len(chunk); k++ {
					if c := chunk[len(chunk)-k]; utf8.RuneStart(c) {
						if !utf8.FullRune(chunk[len(chunk)-k:]) {
							carry = k
						}
						break
					}
				}
				copy(buf, chunk[len(chunk)-carry:])
			}
		}
		if last || (!valid && multibyte) {
			return valid, multibyte, nil
		}
	}
}

// isASCII reports whether b is all ASCII.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
