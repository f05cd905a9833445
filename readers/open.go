package readers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/riskbatch/riskbatch/internal/compression"
	"github.com/riskbatch/riskbatch/table"
)

// formatList names the formats Open reads, for error messages.
const formatList = "csv, tsv, xlsx and parquet"

// Open opens the file at path and returns its tables: one for a CSV, TSV or
// Parquet file, one per selected sheet for an XLSX workbook (see Options).
// The format is opts.Format, or else the file name's extension (.csv, .tsv,
// .xlsx, .parquet, in any case).
//
// A name ending .gz, .zst or .bz2 is decompressed as it is read (gzip,
// zstd, bzip2; see package internal/compression), the format coming from
// the extension before (releases.csv.gz is CSV); a damaged or truncated
// stream is an error naming the byte of the compressed file where it
// failed, which ends the table's stream: never fewer rows without an
// error. The path "-" is Options.Stdin when it is set, whose format is
// Options.Format or else its content's, after decompression when it starts
// as a compressed stream does (a zip archive: XLSX; "PAR1": Parquet; else
// CSV or TSV, told by the delimiter). XLSX and Parquet from a stream
// (standard input, a pipe, a compressed file) are copied to a temporary
// file first, since they are read out of order (see Limits.SpoolBytes).
//
// Every error that makes the file unreadable (it does not exist, it is not
// of its format, it is damaged, no sheet qualifies, a Parquet column has an
// unsupported type) is a *table.Error whose position names the file and, as
// far as known, the sheet, row and column; its Column is -1 when the error
// is not about one column. Input beyond one of opts.Limits is refused with
// a *LimitError (wrapped in the *table.Error) naming the limit: a whole
// file at Open, a row or a cell where it is met (see Limits).
//
// The caller must Close every returned table; the file stays open until the
// last of them is closed.
//
// CSV and TSV: the text is decoded from its encoding (Options.Encoding,
// else a byte order mark, else UTF-16 recognised by its zero bytes, else
// UTF-8 when valid, else Windows-1252) and never replaced: a field that is
// not text of its encoding is an error of its record. Lines end with LF,
// CRLF or CR. The delimiter is Options.Delimiter, else the one a first line
// sep=X names (that line is neither header nor row), else the one the
// header and first records show, kept at the format's default (',' for
// CSV, tab for TSV) in any doubt. The tables implement DialectTable, which
// says how the file was read. A file that starts like a ZIP archive, a
// Parquet file or an .xls workbook is refused, saying so. The header is the
// first record that is not blank (names trimmed of space); quotes are
// lenient; every non-empty field is a Text cell, every empty one an Empty
// cell; short records are padded with Empty cells, long ones are an error
// for that record unless the extra fields are empty; blank records (blank
// lines, lines of delimiters only) are skipped; a record cut inside a
// quoted field by the end of the file is an error for that record, and a
// file that gets shorter or longer while it is read ends the stream with
// an error. Row is the row a spreadsheet application shows: 1 plus the
// line ends before the record outside quoted fields, blank lines included
// (so without quoted line breaks Row is the line number).
//
// XLSX: each worksheet is streamed from the archive (see Options for the
// choice of sheets and of the header row, and Limits for the unpacking
// limits); .xlsm is read alike. Row is the sheet's own row number; rows
// whose cells are all empty are skipped. Numbers are Number cells, or
// Date, Timestamp and TimeOfDay cells under a date or time format; strings
// are Text, booleans Bool, error values such as #DIV/0! Text; a formula
// gives its cached value, or the value excelize's engine computes, with
// Cell.Formula set; a formula that cannot be computed is an error for its
// row. Column kinds are Empty (unknown). OpenDocument, Excel 97-2003,
// Numbers and Excel binary workbooks are refused, by extension and by
// content, with a message saying what to save them as.
//
// Parquet: read by record batches of Options.BatchRows rows, one row group
// at a time; columns keep their types: Integer, Number, Decimal, Text,
// Bool, Date, Timestamp, TimeOfDay or Nested (JSON text) cells, and their
// Arrow type as the column's Source (see parquetcells.go). Row is the
// 0-based data row index plus 2: the first data row is row 2, as under a
// spreadsheet's header row.
func Open(path string, opts Options) ([]Table, error) {
	opts.Limits = opts.Limits.orDefaults()
	if path == StdinPath && opts.Stdin != nil {
		return openStream(streamSource{name: StdinName, raw: opts.Stdin, sniff: true, format: explicitFormat(opts.Format)}, opts)
	}
	format, err := formatOf(path, opts.Format)
	if err != nil {
		return nil, err
	}
	codec, _, compressed := compression.ByName(path)
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the position already names the file
		}
		return nil, fileError(path, fmt.Errorf("cannot open the file: %w", err))
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fileError(path, fmt.Errorf("cannot read the file: %w", err))
	}
	if st.IsDir() {
		_ = f.Close()
		if format == "numbers" {
			// A Numbers document may be a package: a folder.
			return nil, fileError(path, errors.New(containerMessage(zipNumbers)))
		}
		return nil, fileError(path, errors.New("is a directory, not a file"))
	}
	if compressed {
		return openStream(streamSource{name: path, raw: f, closer: f, codec: &codec, format: format}, opts)
	}
	if !st.Mode().IsRegular() {
		if refused(format) {
			_ = f.Close()
			return nil, fileError(path, errors.New(refusal(path, format, "")))
		}
		// A pipe or a device: CSV and TSV stream from it; XLSX and Parquet
		// are read out of order, from a temporary copy.
		return openStream(streamSource{name: path, raw: f, closer: f, format: format}, opts)
	}
	tables, err := open(path, format, f, st.Size(), f, opts)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return tables, nil
}

// OpenReader is Open for data already in memory or in another store: it
// reads size bytes from r. name is reported as File() in every position and
// supplies the extension when opts.Format is empty (for example a workbook
// embedded in the binary as "sample.xlsx"). Closing the tables does not
// close r.
func OpenReader(name string, r io.ReaderAt, size int64, opts Options) ([]Table, error) {
	opts.Limits = opts.Limits.orDefaults()
	format, err := formatOf(name, opts.Format)
	if err != nil {
		return nil, err
	}
	if r == nil || size < 0 {
		return nil, fileError(name, errors.New("no data to read"))
	}
	if codec, _, ok := compression.ByName(name); ok {
		return openStream(streamSource{name: name, raw: io.NewSectionReader(r, 0, size), codec: &codec, format: format}, opts)
	}
	return open(name, format, r, size, nil, opts)
}

// open dispatches on the format. closer, when not nil, is closed when the
// last returned table is closed; open does not close it on error.
//
// The content is sniffed first: a workbook riskbatch reads is read as
// XLSX whatever its extension among the spreadsheet ones (a .xls that is
// an .xlsx renamed); a spreadsheet it does not read (OpenDocument, Excel
// 97–2003, Numbers, Excel binary) gets one message saying what to save it
// as, and so does a workbook named as a CSV, TSV or Parquet file.
func open(name, format string, r io.ReaderAt, size int64, closer io.Closer, opts Options) ([]Table, error) {
	kind := sniff(r, size, opts.Limits.XLSXParts)
	plain := r // for looking ahead, which the progress does not count
	r = countReaderAt(r, opts.BytesRead)
	switch {
	case refused(format) && kind == zipXLSX:
		format = "xlsx"
	case refused(format):
		return nil, fileError(name, errors.New(refusal(name, format, kind)))
	case format != "xlsx" && kind != "" && kind != zipOther:
		msg := refusal(name, format, kind)
		if kind == zipXLSX {
			msg = fmt.Sprintf("this is an XLSX workbook, not a %s file: rename it to .xlsx or pass --input-format xlsx", strings.ToUpper(format))
		}
		return nil, fileError(name, errors.New(msg))
	}
	switch format {
	case "csv", "tsv":
		t, err := newDelimited(name, delimitedSource{at: plain, size: size, data: r}, format, closer, opts)
		if err != nil {
			return nil, err
		}
		return []Table{t}, nil
	case "xlsx":
		return openXLSX(name, r, size, closer, opts)
	case "parquet":
		t, err := openParquet(name, r, size, closer, opts)
		if err != nil {
			return nil, err
		}
		return []Table{t}, nil
	}
	return nil, fileError(name, fmt.Errorf("unknown format %q: the readable formats are %s", format, formatList))
}

// countReader is r, counting its bytes into n when n is not nil.
func countReader(r io.Reader, n *atomic.Int64) io.Reader {
	if n == nil {
		return r
	}
	return countingReader{r, byteCount{n}}
}

// countReaderAt is r, counting its bytes into n when n is not nil.
func countReaderAt(r io.ReaderAt, n *atomic.Int64) io.ReaderAt {
	if n == nil {
		return r
	}
	return countingReaderAt{r, byteCount{n}}
}

// byteCount adds the bytes a read returned to n.
type byteCount struct{ n *atomic.Int64 }

func (c byteCount) add(k int, err error) (int, error) {
	c.n.Add(int64(k))
	return k, err
}

// countingReader and countingReaderAt count the bytes they read.
type (
	countingReader struct {
		r io.Reader
		byteCount
	}
	countingReaderAt struct {
		r io.ReaderAt
		byteCount
	}
)

func (c countingReader) Read(p []byte) (int, error) { return c.add(c.r.Read(p)) }

func (c countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	return c.add(c.r.ReadAt(p, off))
}

// explicitFormat is the format a caller named (Options.Format), in the
// reader's spelling, or "" when it named none or one no reader reads
// (formatOf says so).
func explicitFormat(explicit string) string {
	f := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(explicit), "."))
	switch f {
	case "csv", "tsv", "xlsx", "parquet":
		return f
	case "xlsm":
		return "xlsx"
	}
	return ""
}

// formatOf returns the format named by explicit, or else by the extension
// of name, after a compressed format's extension (releases.csv.gz: csv).
func formatOf(name, explicit string) (string, error) {
	if explicit != "" {
		if f := explicitFormat(explicit); f != "" {
			return f, nil
		}
		return "", fileError(name, fmt.Errorf("unknown format %q: the readable formats are %s", explicit, formatList))
	}
	_, inner, compressed := compression.ByName(name)
	ext := strings.ToLower(filepath.Ext(inner))
	if compressed && ext == "" {
		return "", fileError(name, fmt.Errorf("the file name has no extension before %s to tell its format: the readable formats are %s (name it like releases.csv%s, or name the format explicitly)", filepath.Ext(name), formatList, filepath.Ext(name)))
	}
	switch ext {
	case ".csv", ".tsv", ".xlsx", ".parquet":
		return ext[1:], nil
	case ".xlsm":
		return "xlsx", nil // a macro-enabled workbook: its sheets are read, its macros never run
	case ".ods", ".xls", ".numbers", ".xlsb":
		return ext[1:], nil // refused by open, with what to save it as
	case "":
		return "", fileError(name, fmt.Errorf("the file name has no extension to tell its format: the readable formats are %s (name the format explicitly)", formatList))
	}
	return "", fileError(name, fmt.Errorf("unknown file type %q: the readable formats are %s (name the format explicitly if the extension is misleading)", ext, formatList))
}

// fileError is an error about a whole file.
func fileError(name string, err error) *table.Error {
	return &table.Error{Pos: table.Position{File: name, Column: -1}, Err: err}
}

// sharedCloser closes an underlying file when the last of the tables that
// share it is released. A nil *sharedCloser, or one with a nil closer, does
// nothing.
type sharedCloser struct {
	mu   sync.Mutex
	c    io.Closer
	refs int
}

// newSharedCloser returns a closer of c shared by refs tables.
func newSharedCloser(c io.Closer, refs int) *sharedCloser {
	return &sharedCloser{c: c, refs: refs}
}

// release drops one reference and closes the underlying closer when none
// is left.
func (s *sharedCloser) release() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refs--
	if s.refs > 0 || s.c == nil {
		return nil
	}
	c := s.c
	s.c = nil
	return c.Close()
}

// IsFatal reports whether an error from Table.Next ended its stream (a
// read error, a damaged sheet or Parquet file), as opposed to an error
// about one row, after which Next reads on. Either way Next returns io.EOF
// after a fatal error, so a caller may simply record every error and go on.
func IsFatal(err error) bool {
	var f fatalError
	return errors.As(err, &f)
}

// fatalError marks the error that ends a stream; its message is the
// wrapped error's.
type fatalError struct{ err error }

func (f fatalError) Error() string { return f.err.Error() }
func (f fatalError) Unwrap() error { return f.err }

// delimiterOf returns the default field separator of a delimited format.
func delimiterOf(format string) byte {
	if format == "tsv" {
		return '\t'
	}
	return ','
}

// refused reports whether a format (from an extension) is a spreadsheet
// riskbatch does not read.
func refused(format string) bool {
	switch format {
	case "ods", "xls", "numbers", "xlsb":
		return true
	}
	return false
}

// refusal is the message for a file riskbatch does not read: by its
// content when sniff recognised it, else by its extension.
func refusal(name, format, kind string) string {
	switch kind {
	case zipODS, zipODF, zipNumbers, zipXLSB:
		return containerMessage(kind)
	case "ole2":
		return oleMessage(name)
	}
	switch format {
	case "ods":
		return containerMessage(zipODS)
	case "numbers":
		return containerMessage(zipNumbers)
	case "xlsb":
		return containerMessage(zipXLSB)
	case "xls":
		return oleMessage(".xls")
	}
	return fmt.Sprintf("unknown format %q: the readable formats are %s", format, formatList)
}
