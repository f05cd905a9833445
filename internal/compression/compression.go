// Package compression names the compressed formats riskbatch reads and
// writes tables in (gzip, zstd, bzip2), tells them by file name or by
// their first bytes, and opens their readers and writers. A damaged or
// truncated stream is an *Error naming the byte of the compressed stream
// where the decoder stopped, never a short read that looks like the end.
package compression

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// A Codec is one compressed format.
type Codec struct {
	// Name is the format's name in messages: gzip, zstd, bzip2.
	Name string
	// Ext is the file name extension, with its dot: .gz, .zst, .bz2.
	Ext string
	// magic starts every stream of the format.
	magic string
	// writable says whether riskbatch can write the format.
	writable bool
}

// The codecs. bzip2 is read only: the standard library has no bzip2
// writer, and gzip and zstd do the job.
var (
	Gzip  = Codec{Name: "gzip", Ext: ".gz", magic: "\x1f\x8b", writable: true}
	Zstd  = Codec{Name: "zstd", Ext: ".zst", magic: "\x28\xb5\x2f\xfd", writable: true}
	Bzip2 = Codec{Name: "bzip2", Ext: ".bz2", magic: "BZh"}
)

// codecs lists every Codec, for lookups.
func codecs() []Codec { return []Codec{Gzip, Zstd, Bzip2} }

// ByName returns the codec a file name's extension names (in any case),
// and the name without that extension: "releases.csv.gz" → Gzip,
// "releases.csv". ok is false for a name of no compressed format.
func ByName(name string) (c Codec, inner string, ok bool) {
	ext := filepath.Ext(name)
	for _, c := range codecs() {
		if strings.EqualFold(ext, c.Ext) {
			return c, name[:len(name)-len(ext)], true
		}
	}
	return Codec{}, name, false
}

// Sniff returns the codec whose signature starts head. A bzip2 stream
// starts "BZh" and its block size, a digit from 1 to 9.
func Sniff(head []byte) (Codec, bool) {
	for _, c := range codecs() {
		if !strings.HasPrefix(string(head), c.magic) {
			continue
		}
		if c.Name == Bzip2.Name && (len(head) < 4 || head[3] < '1' || head[3] > '9') {
			continue
		}
		return c, true
	}
	return Codec{}, false
}

// MagicLen is the number of bytes Sniff needs to tell every codec.
const MagicLen = 4

// Writable reports whether riskbatch writes the codec.
func (c Codec) Writable() bool { return c.writable }

// ZstdMaxWindow is the largest zstd window the reader accepts, 128 MiB:
// the largest the zstd command decompresses without --memory (window log
// 27), so that a file that command reads by default reads here too, and a
// forged frame cannot make the decoder reserve gigabytes.
const ZstdMaxWindow = 1 << 27

// An Error is a compressed stream that cannot be read to its end: damaged,
// truncated or not of its format.
type Error struct {
	Codec string // gzip, zstd, bzip2
	// Offset is the number of bytes of the compressed stream the decoder
	// had read when it failed: the damage is at or before it.
	Offset int64
	// Truncated says the stream ends before its format says it does.
	Truncated bool
	Err       error
}

func (e *Error) Error() string {
	if e.Truncated {
		msg := fmt.Sprintf("the %s stream ends early, after byte %s of the compressed file: the file is truncated", e.Codec, groupDigits(e.Offset))
		if !errors.Is(e.Err, io.ErrUnexpectedEOF) && !errors.Is(e.Err, io.EOF) {
			msg += fmt.Sprintf(" (%v)", e.Err)
		}
		return msg
	}
	return fmt.Sprintf("the %s stream is damaged at or before byte %s of the compressed file: %v", e.Codec, groupDigits(e.Offset), e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// NewReader returns the decompressed bytes of r, a stream of codec c.
// Every error the decoder meets, a truncated stream included, is an
// *Error with the offset in r where it stopped; a read of the
// decompressed bytes never ends early with io.EOF. Close releases the
// decoder; it does not close r.
func (c Codec) NewReader(r io.Reader) (io.ReadCloser, error) {
	cr := &countingReader{r: bufio.NewReaderSize(r, 64<<10)}
	fail := func(err error) *Error {
		return &Error{Codec: c.Name, Offset: cr.n, Truncated: errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF), Err: err}
	}
	var dec io.Reader
	closeDec := func() {}
	switch c.Name {
	case Gzip.Name:
		g, err := gzip.NewReader(cr)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("the file is empty")
			}
			return nil, fail(err)
		}
		dec = g
	case Zstd.Name:
		z, err := zstd.NewReader(cr, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(ZstdMaxWindow))
		if err != nil {
			return nil, fail(err)
		}
		dec, closeDec = z, z.Close
	case Bzip2.Name:
		dec = bzip2.NewReader(cr)
	default:
		return nil, fmt.Errorf("compression: unknown codec %q", c.Name)
	}
	return &decoder{r: dec, close: closeDec, fail: fail, counted: cr}, nil
}

// decoder wraps a decompressor so that its errors are *Error.
type decoder struct {
	r       io.Reader
	close   func()
	fail    func(error) *Error
	counted *countingReader
	err     error
	// any says the stream held any byte: an empty file is no stream of
	// the format (gzip's reader says so itself; zstd's and bzip2's would
	// give no bytes and no error).
	any bool
}

func (d *decoder) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.r.Read(p)
	if n > 0 {
		d.any = true
	}
	switch {
	case err == nil:
	case err == io.EOF && (d.any || d.counted.n > 0):
		d.err = io.EOF
	case err == io.EOF:
		d.err = d.fail(errors.New("the file is empty"))
		d.err.(*Error).Truncated = false
	default:
		d.err = d.fail(err)
	}
	return n, d.err
}

func (d *decoder) Close() error {
	d.close()
	return nil
}

// countingReader counts the bytes read from r. It is an io.ByteReader, so
// that gzip's and bzip2's decoders read from it exactly what they decode
// rather than buffering ahead, and the count is where they stopped.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// NewWriter returns a writer that compresses into w with codec c (gzip at
// the default level, zstd at its default level). Close flushes the
// compressed stream's end; it does not close w. A codec riskbatch does not
// write (bzip2) is an error saying which ones it writes.
func (c Codec) NewWriter(w io.Writer) (io.WriteCloser, error) {
	switch c.Name {
	case Gzip.Name:
		return gzip.NewWriter(w), nil
	case Zstd.Name:
		return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	}
	return nil, fmt.Errorf("%s (%s) cannot be written: the Go standard library reads it but has no writer; name the output %s or %s", c.Name, c.Ext, Gzip.Ext, Zstd.Ext)
}

// groupDigits writes n with commas between groups of three digits.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && c != '-' && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
