package readers

import (
	"fmt"
	"strings"
)

// Dialect says how a CSV or TSV file was read: the encoding its text was
// decoded from and the delimiter of its fields, and how each was chosen.
// The CSV and TSV tables of Open implement DialectTable.
type Dialect struct {
	// Encoding is the name of the encoding: "UTF-8", "UTF-16LE",
	// "UTF-16BE", "Windows-1252", or the name of the one Options.Encoding
	// named.
	Encoding string
	// EncodingAssumed says why riskbatch assumed the encoding, when the
	// file did not declare it (with a byte order mark), was not valid
	// UTF-8, and Options.Encoding did not name it: "not valid UTF-8" for a
	// legacy file read as Windows-1252. Empty otherwise.
	EncodingAssumed string
	// Delimiter is the field delimiter.
	Delimiter rune
	// DelimiterFrom says where the delimiter comes from: "option"
	// (Options.Delimiter), "sep line" (a first line such as sep=;),
	// "detected" (the header and the first records have it, and not the
	// format's default), or "format" (the default of the format: ',' for
	// CSV, tab for TSV).
	DelimiterFrom string
	// SepLine reports a first line such as "sep=;" (Excel's way of naming
	// the delimiter), which is not the header and is not a row.
	SepLine bool
}

// DialectTable is a table that can say how its file was read: the CSV and
// TSV tables of Open.
type DialectTable interface {
	Table
	Dialect() Dialect
	// DecimalComma reports whether the file's form suggests that its
	// numbers are written with decimal commas: its delimiter is a
	// semicolon, as in the CSV files of spreadsheets set to a language
	// that writes 2,5 for two and a half.
	DecimalComma() bool
}

// DelimiterName spells a delimiter for messages: "','", "';'", "tab".
func DelimiterName(d rune) string {
	switch d {
	case '\t':
		return "tab"
	case ' ':
		return "space"
	}
	return fmt.Sprintf("'%c'", d)
}

// Note describes what riskbatch assumed or detected to read the file, for
// the user to check, or returns "" when the file was read as its format
// says by default (UTF-8, or UTF-16 with a byte order mark, and the
// format's delimiter) or as the options said.
func (d Dialect) Note() string {
	var parts []string
	if d.EncodingAssumed != "" {
		parts = append(parts, fmt.Sprintf("read as %s (%s); pass --encoding to choose another", d.Encoding, d.EncodingAssumed))
	}
	switch d.DelimiterFrom {
	case "detected":
		parts = append(parts, fmt.Sprintf("fields separated by %s (detected from the header); pass --delimiter to choose another", DelimiterName(d.Delimiter)))
	case "sep line":
		parts = append(parts, fmt.Sprintf("fields separated by %s (as its first line, sep=%c, says)", DelimiterName(d.Delimiter), d.Delimiter))
	}
	return strings.Join(parts, "; ")
}

// candidateDelimiters are the delimiters detection chooses from.
const candidateDelimiters = ",;\t|"

// sepLine recognises Excel's first line "sep=X" (also quoted, "sep=X",
// and followed by delimiters where a spreadsheet wrote the line back as a
// row) at the start of text. It returns the delimiter and the length of
// the line with its line end.
func sepLine(text []byte) (delim byte, n int, ok bool) {
	i := 0
	quoted := len(text) > 0 && text[0] == '"'
	if quoted {
		i++
	}
	if len(text) < i+5 || !strings.EqualFold(string(text[i:i+4]), "sep=") {
		return 0, 0, false
	}
	d := text[i+4]
	if d == '\r' || d == '\n' || d == '"' || d >= 0x80 {
		return 0, 0, false
	}
	i += 5
	if quoted {
		if i >= len(text) || text[i] != '"' {
			return 0, 0, false
		}
		i++
	}
	for i < len(text) && text[i] == d {
		i++
	}
	switch {
	case i == len(text):
	case text[i] == '\n':
		i++
	case text[i] == '\r':
		i++
		if i < len(text) && text[i] == '\n' {
			i++
		}
	default:
		return 0, 0, false
	}
	return d, i, true
}

// lineCounts returns, for the first records of text (up to max, blank
// lines left out), how many times each candidate delimiter occurs in
// each outside quoted fields. A quote opens a quoted field at the start
// of a line or after a candidate; "" inside one is a quote. The last
// record is left out when the text does not reach the end of the file,
// since it may be cut.
func lineCounts(text []byte, atEOF bool, max int) [][4]int {
	var out [][4]int
	var cur [4]int
	fieldStart, inQuote, blank := true, false, true
	for i := 0; i < len(text) && len(out) < max; i++ {
		c := text[i]
		switch {
		case c == '"' && fieldStart:
			i = closingQuote(text, i+1)
			inQuote, fieldStart, blank = i == len(text), false, false
			continue
		case c == '\n' || c == '\r':
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			if !blank {
				out = append(out, cur)
			}
			cur, fieldStart, blank = [4]int{}, true, true
			continue
		}
		blank = false
		fieldStart = false
		if k := strings.IndexByte(candidateDelimiters, c); k >= 0 {
			cur[k]++
			fieldStart = true
		}
	}
	if atEOF && !blank && !inQuote && len(out) < max {
		out = append(out, cur)
	}
	return out
}

// detectDelimiter chooses the delimiter of a file from its first records
// (text, the start of the file after a byte order mark). def is the
// format's default, kept unless another candidate is clearly better:
//
//   - a candidate must occur in the header, outside quoted fields;
//   - it scores the number of records among the next 20 that have as many
//     of it as the header (a record with a field missing or a stray
//     delimiter scores nothing), then its count in the header;
//   - the default wins when it occurs in the header and scores as many
//     records as the best; otherwise the best wins if no other candidate
//     ties with it, and the default is kept in a tie.
//
// ok reports that the delimiter chosen is not def.
func detectDelimiter(text []byte, atEOF bool, def byte) (byte, bool) {
	counts := lineCounts(text, atEOF, 21)
	if len(counts) == 0 {
		return def, false
	}
	type score struct{ records, header int }
	scores := make([]score, len(candidateDelimiters))
	for k := range candidateDelimiters {
		h := counts[0][k]
		if h == 0 {
			continue
		}
		s := score{header: h}
		for _, c := range counts[1:] {
			if c[k] == h {
				s.records++
			}
		}
		scores[k] = s
	}
	better := func(a, b score) bool {
		return a.records > b.records || (a.records == b.records && a.header > b.header)
	}
	best, tie := -1, false
	for k, s := range scores {
		if s.header == 0 {
			continue
		}
		switch {
		case best < 0 || better(s, scores[best]):
			best, tie = k, false
		case !better(scores[best], s):
			tie = true
		}
	}
	if best < 0 || candidateDelimiters[best] == def {
		return def, false
	}
	if k := strings.IndexByte(candidateDelimiters, def); k >= 0 && scores[k].header > 0 && scores[k].records >= scores[best].records {
		return def, false
	}
	if tie {
		return def, false
	}
	return candidateDelimiters[best], true
}

// crLineEnds reports whether the first line end of text outside quoted
// fields is a lone CR: the file has old Mac line ends, so that a lone CR
// inside a quoted field is a line break of its value too.
func crLineEnds(text []byte) bool {
	fieldStart := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case '"':
			if fieldStart {
				i = closingQuote(text, i+1)
			}
		case '\n':
			return false
		case '\r':
			return i+1 < len(text) && text[i+1] != '\n'
		}
		fieldStart = strings.IndexByte(candidateDelimiters, c) >= 0
	}
	return false
}

// closingQuote returns the index of the quote that closes a quoted field
// whose value starts at text[i] ("" inside the field is a quote), or
// len(text) when the field is not closed within text.
func closingQuote(text []byte, i int) int {
	for ; i < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		if i+1 < len(text) && text[i+1] == '"' {
			i++
			continue
		}
		return i
	}
	return len(text)
}
