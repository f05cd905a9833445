package readers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/riskbatch/riskbatch/internal/compression"
)

// StdinPath is the path that names standard input (Options.Stdin) in
// Open, as in most Unix commands.
const StdinPath = "-"

// StdinName is how positions and messages name standard input.
const StdinName = "standard input"

// streamSource is a table's bytes that come as a stream: standard input,
// a pipe, or a compressed file being decompressed. codec is the
// compression named by the file's name (nil: none, or for standard input
// none yet: it is sniffed); format is the table's format ("" for standard
// input without Options.Format: sniffed).
type streamSource struct {
	name   string
	raw    io.Reader
	closer io.Closer // closed with the tables, or on error; may be nil
	codec  *compression.Codec
	sniff  bool // tell the compression by the first bytes when codec is nil
	format string
}

// openStream opens the tables of a stream. CSV and TSV are read as the
// bytes come; XLSX and Parquet are read out of order, so the stream is
// first copied to a temporary file (spool), of at most Limits.SpoolBytes,
// which is removed when the tables are closed (at once where the system
// lets an open file lose its name). The bytes read from raw, compressed
// ones for a compressed stream, count in Options.BytesRead.
//
// The format of a stream without one is its content's: XLSX for a zip
// archive, Parquet for "PAR1", an Excel 97-2003 workbook is refused, and
// anything else is delimited text, read as CSV whose delimiter is
// detected (a tab-separated stream is read as TSV).
func openStream(src streamSource, opts Options) (tables []Table, err error) {
	closers := []io.Closer{src.closer}
	defer func() {
		if err != nil {
			closeAll(closers)
		}
	}()
	raw := countReader(src.raw, opts.BytesRead)
	codec := src.codec
	if codec == nil && src.sniff {
		br := bufio.NewReaderSize(raw, 64<<10)
		head, err := br.Peek(compression.MagicLen)
		if err != nil && err != io.EOF {
			return nil, fileError(src.name, fmt.Errorf("cannot read: %w", err))
		}
		raw = br
		if c, ok := compression.Sniff(head); ok {
			codec = &c
		}
	}
	data := raw
	if codec != nil {
		dec, err := codec.NewReader(raw)
		if err != nil {
			return nil, fileError(src.name, err)
		}
		closers = append(closers, dec)
		data = dec
	}
	format := src.format
	if format == "" {
		br := bufio.NewReaderSize(data, 64<<10)
		head, err := br.Peek(len(oleMagic))
		if err != nil && err != io.EOF {
			return nil, fileError(src.name, fatalError{fmt.Errorf("cannot read: %w", err)})
		}
		data = br
		format = sniffFormat(head)
	}
	switch {
	case format == "csv" || format == "tsv":
		t, err := newDelimited(src.name, delimitedSource{stream: data}, format, multiCloser(closers), opts)
		if err != nil {
			return nil, err
		}
		return []Table{t}, nil
	case refused(format):
		return nil, fileError(src.name, errors.New(refusal(src.name, format, "")))
	}
	spool, size, err := spoolStream(src.name, data, opts.Limits.SpoolBytes)
	if err != nil {
		return nil, err
	}
	closeAll(closers) // the stream is read; the spool replaces it
	closers = []io.Closer{spool}
	o := opts
	o.BytesRead = nil // the stream's bytes were counted as it was copied
	return open(src.name, format, spool.f, size, spool, o)
}

// sniffFormat tells the format of a table from its first bytes: "xlsx"
// for a zip archive (open tells an .xlsx from other archives),
// "parquet", "xls" for an OLE2 file (refused), else "csv".
func sniffFormat(head []byte) string {
	switch s := string(head); {
	case len(s) >= 4 && s[:4] == "PK\x03\x04":
		return "xlsx"
	case len(s) >= 4 && s[:4] == "PAR1":
		return "parquet"
	case s == oleMagic:
		return "xls"
	}
	return "csv"
}

// spooled is a temporary copy of a stream, removed when closed.
type spooled struct {
	f    *os.File
	name string // "" once removed
}

func (s *spooled) Close() error {
	err := s.f.Close()
	if s.name != "" {
		if rerr := os.Remove(s.name); err == nil {
			err = rerr
		}
	}
	return err
}

// spoolStream copies r to a temporary file of at most limit bytes (a
// longer stream is a *LimitError), for a format read out of order.
func spoolStream(name string, r io.Reader, limit int64) (*spooled, int64, error) {
	f, err := os.CreateTemp("", "riskbatch-input-*")
	if err != nil {
		return nil, 0, fileError(name, fmt.Errorf("cannot make the temporary file that holds it while it is read (it is read out of order): %w", err))
	}
	s := &spooled{f: f, name: f.Name()}
	// Where an open file may lose its name (not Windows), a killed run
	// leaves nothing behind.
	if runtime.GOOS != "windows" && os.Remove(f.Name()) == nil {
		s.name = ""
	}
	n, err := io.Copy(f, io.LimitReader(r, limit))
	if err == nil && n == limit {
		var one [1]byte
		if m, _ := io.ReadFull(r, one[:]); m > 0 {
			_ = s.Close()
			return nil, 0, fileError(name, limitError(limitSpoolBytes, limit, "it is more than %s long, and is held in a temporary file while it is read (XLSX and Parquet are read out of order)", byteSize(limit)))
		}
	}
	if err != nil {
		_ = s.Close()
		var ce *compression.Error
		if errors.As(err, &ce) {
			return nil, 0, fileError(name, err)
		}
		return nil, 0, fileError(name, fmt.Errorf("cannot copy it to a temporary file (it is read out of order): %w", err))
	}
	return s, n, nil
}

// multiCloser closes each of its closers, the last first.
type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var err error
	for i := len(m) - 1; i >= 0; i-- {
		if m[i] == nil {
			continue
		}
		if cerr := m[i].Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// closeAll closes the closers, the last first, ignoring errors.
func closeAll(closers []io.Closer) { _ = multiCloser(closers).Close() }

// Compressed reports whether Open and OpenReader read the file named name
// decompressed: its name ends .gz, .zst or .bz2 (in any case). Such a file
// is read as one stream, from its start: its bytes cannot be cut into
// parts read apart.
func Compressed(name string) bool {
	_, _, ok := compression.ByName(name)
	return ok
}
