package writers

import (
	"bufio"
	"encoding/csv"
	"fmt"

	"github.com/riskbatch/riskbatch/table"
)

// delimitedWriter writes CSV or TSV with encoding/csv: a header row of the
// column names, then one record per row with every cell as its String()
// (numbers in the shortest form that reads back to the same float64, empty
// cells as ""). Fields holding the separator, a quote or a line break are
// quoted, in TSV too.
type delimitedWriter struct {
	lifecycle
	buf    *bufio.Writer
	csv    *csv.Writer // writes into buf
	record []string
}

func newDelimited(path string, sep rune, opts Options) (*delimitedWriter, error) {
	format := FormatCSV
	if sep == '\t' {
		format = FormatTSV
	}
	out, err := openOutput(path, opts, format)
	if err != nil {
		return nil, err
	}
	// csv.NewWriter uses a *bufio.Writer of its size as it is, so that
	// writeRecord can write into the same buffer.
	buf := bufio.NewWriterSize(out.f, 64<<10)
	w := csv.NewWriter(buf)
	w.Comma = sep
	return &delimitedWriter{lifecycle: lifecycle{out: out}, buf: buf, csv: w}, nil
}

// WriteHeader writes the column names as the first record.
func (w *delimitedWriter) WriteHeader(cols []table.Column) error {
	if err := w.beginHeader(cols); err != nil {
		return err
	}
	w.record = make([]string, len(cols))
	for i, c := range cols {
		w.record[i] = c.Name
	}
	if err := w.writeRecord(); err != nil {
		return w.fail(fmt.Errorf("writers: writing the header of %s: %w", w.out.target, err))
	}
	return nil
}

// Write writes one record.
func (w *delimitedWriter) Write(cells []table.Cell) error {
	if err := w.beginRow(cells); err != nil {
		return err
	}
	for i, c := range cells {
		w.record[i] = c.String()
	}
	if err := w.writeRecord(); err != nil {
		return w.fail(fmt.Errorf("writers: writing data row %d of %s: %w", w.rows+1, w.out.target, err))
	}
	w.rows++
	return nil
}

// writeRecord writes w.record. A record of one empty field is written as
// "" rather than as an empty line, which readers skip.
func (w *delimitedWriter) writeRecord() error {
	if len(w.record) == 1 && w.record[0] == "" {
		_, err := w.buf.WriteString("\"\"\n")
		return err
	}
	return w.csv.Write(w.record)
}

// Close flushes the buffer and renames the file into place.
func (w *delimitedWriter) Close() error {
	if err := w.beginClose(); err != nil {
		return err
	}
	w.csv.Flush()
	err := w.csv.Error()
	if err == nil {
		err = w.buf.Flush()
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
