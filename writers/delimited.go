package writers

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/internal/compression"
	"github.com/riskbatch/riskbatch/table"
)

// delimitedWriter writes CSV or TSV as encoding/csv does: a header row of
// the column names, then one record per row with every cell as its
// String() (numbers in the shortest form that reads back to the same
// float64, empty cells as ""). Fields holding the separator, a quote or a
// line break, starting with a space, or that are `\.` are quoted, in TSV
// too, with their quotes doubled. Each record is appended, numbers with
// strconv.Append*, straight into the output buffer: no string per cell.
//
// A codec (a path ending .gz or .zst) compresses the records on their way
// to the output; the compressed stream is ended before the output is made
// final.
type delimitedWriter struct {
	lifecycle
	sep byte
	buf *bufio.Writer
	// compressor is the compressed stream buf writes into, nil for none.
	compressor io.WriteCloser
}

func newDelimited(path string, sep rune, codec *compression.Codec, opts Options) (*delimitedWriter, error) {
	format := FormatCSV
	if sep == '\t' {
		format = FormatTSV
	}
	out, err := openOutput(path, opts, format)
	if err != nil {
		return nil, err
	}
	w := &delimitedWriter{lifecycle: lifecycle{out: out}, sep: byte(sep)}
	var dst io.Writer = out.f
	if codec != nil {
		if w.compressor, err = codec.NewWriter(out.f); err != nil {
			_ = out.abort()
			return nil, fmt.Errorf("writers: %s: %w", path, err)
		}
		dst = w.compressor
	}
	w.buf = bufio.NewWriterSize(dst, 64<<10)
	return w, nil
}

// WriteHeader writes the column names as the first record.
func (w *delimitedWriter) WriteHeader(cols []table.Column) error {
	if err := w.beginHeader(cols); err != nil {
		return err
	}
	line := w.buf.AvailableBuffer()
	if len(cols) == 1 && cols[0].Name == "" {
		line = append(line, `""`...)
	}
	for i, c := range cols {
		if i > 0 {
			line = append(line, w.sep)
		}
		line = w.appendField(line, c.Name)
	}
	if _, err := w.buf.Write(append(line, '\n')); err != nil {
		return w.fail(fmt.Errorf("writers: writing the header of %s: %w", w.out.target, err))
	}
	return nil
}

// Write writes one record. A record of one empty field is written as ""
// rather than as an empty line, which readers skip.
func (w *delimitedWriter) Write(cells []table.Cell) error {
	return w.writeRow(cells, nil, 0)
}

// writeRow writes one record: field i from fields[i](line, r) when
// fields[i] is not nil (a column given as an array), else from cells[i].
func (w *delimitedWriter) writeRow(cells []table.Cell, fields []fieldAppender, r int) error {
	if err := w.beginRow(cells); err != nil {
		return err
	}
	line := w.buf.AvailableBuffer()
	for i := range cells {
		if i > 0 {
			line = append(line, w.sep)
		}
		if i < len(fields) && fields[i] != nil {
			line = fields[i](line, r)
		} else {
			line = w.appendCell(line, &cells[i])
		}
	}
	if len(cells) == 1 && len(line) == 0 {
		line = append(line, `""`...)
	}
	if _, err := w.buf.Write(append(line, '\n')); err != nil {
		return w.fail(fmt.Errorf("writers: writing data row %d of %s: %w", w.rows+1, w.out.target, err))
	}
	w.rows++
	return nil
}

// appendCell appends the field of a cell: its String(), quoted if need be.
func (w *delimitedWriter) appendCell(line []byte, c *table.Cell) []byte {
	switch c.Kind {
	case table.Empty:
		return line
	case table.Number: // never quoted: digits, '.', 'e', signs, NaN, Inf
		return strconv.AppendFloat(line, c.Num, 'g', -1, 64)
	case table.Integer:
		return strconv.AppendInt(line, c.Int, 10)
	case table.Bool:
		return strconv.AppendBool(line, c.Bool)
	case table.Text, table.Decimal, table.Nested:
		return w.appendField(line, c.Str)
	}
	return w.appendField(line, c.String())
}

// appendField appends one field, quoted when encoding/csv would quote it.
func (w *delimitedWriter) appendField(line []byte, field string) []byte {
	if !w.needsQuotes(field) {
		return append(line, field...)
	}
	line = append(line, '"')
	for i := 0; i < len(field); i++ {
		if field[i] == '"' {
			line = append(line, '"')
		}
		line = append(line, field[i])
	}
	return append(line, '"')
}

// needsQuotes reports whether encoding/csv's Writer quotes field (its
// fieldNeedsQuotes, for an ASCII separator).
func (w *delimitedWriter) needsQuotes(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` {
		return true
	}
	for i := 0; i < len(field); i++ {
		if c := field[i]; c == '\n' || c == '\r' || c == '"' || c == w.sep {
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
}

// Close flushes the buffer and renames the file into place.
func (w *delimitedWriter) Close() error {
	if err := w.beginClose(); err != nil {
		return err
	}
	err := w.buf.Flush()
	if w.compressor != nil {
		if cerr := w.compressor.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		_ = w.out.abort()
		return fmt.Errorf("writers: writing %s: %w", w.out.target, err)
	}
	return w.out.commit()
}

// Abort removes the temporary file.
func (w *delimitedWriter) Abort() error {
	if !w.beginAbort() {
		return nil
	}
	return w.out.abort()
}
