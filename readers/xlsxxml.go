package readers

import (
	"encoding/xml"
	"io"
	"strings"
)

// Small helpers on encoding/xml's raw tokens shared by the workbook's
// parts: element text within a size limit, attributes by local name.

// richText returns the text of a string item (<si> or <is>): its <t>
// elements, those of its runs included, without phonetic readings (<rPh>).
// It keeps at most max bytes: n is the text's whole length, and the text
// is "" when n > max.
func richText(d tokenReader, max int64) (s string, n int64, err error) {
	return elementText(d, max, true)
}

// text returns the character data of an element up to its end, keeping at
// most max bytes: n is the data's whole length, and the text is "" when
// n > max.
func text(d tokenReader, max int64) (s string, n int64, err error) {
	return elementText(d, max, false)
}

// elementText reads an element up to its end and returns its character
// data, all of it, or with rich only that inside <t> elements and outside
// <rPh> ones. It keeps at most max bytes: n is the whole length, and the
// text is "" when n > max.
func elementText(d tokenReader, max int64, rich bool) (s string, n int64, err error) {
	var b strings.Builder
	depth, inT, phonetic := 0, 0, 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			return "", 0, unexpected(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "t":
				inT++
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			if depth == 0 {
				if n > max {
					return "", n, nil
				}
				return b.String(), n, nil
			}
			depth--
			switch t.Name.Local {
			case "t":
				inT--
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			if !rich || inT > 0 && phonetic == 0 {
				n += int64(len(t))
				if n <= max {
					b.Write(t)
				}
			}
		}
	}
}

// tokenReader is the part of *xml.Decoder the element readers use.
type tokenReader interface {
	RawToken() (xml.Token, error)
}

// unexpected turns an end of input inside an element into an error.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// attr returns the value of an attribute by local name.
func attr(se xml.StartElement, local string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}
