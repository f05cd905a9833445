package writers

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/xuri/excelize/v2"
)

// zipSink is the ZipWriter handed to excelize: a zip.Writer on the
// temporary file that remembers which entries outgrew 4 GiB, and that
// writes the real used range into each data sheet's <dimension> element
// in place of the placeholder the sheet was started with, and its final
// <cols> (dims; see headWriter).
type zipSink struct {
	*zip.Writer
	cur     *countWriter
	curName string
	big     []string // entries of more than math.MaxUint32 bytes
	closed  bool
}

// Create starts an entry.
func (z *zipSink) Create(name string) (io.Writer, error) {
	if err := z.endEntry(); err != nil {
		return nil, err
	}
	w, err := z.Writer.Create(name)
	if err != nil {
		return nil, err
	}
	z.cur, z.curName = &countWriter{w: w}, name
	return z.cur, nil
}

// Close finishes the archive.
func (z *zipSink) Close() error {
	if err := z.endEntry(); err != nil {
		return err
	}
	if err := z.Writer.Close(); err != nil {
		return err
	}
	z.closed = true
	return nil
}

func (z *zipSink) endEntry() error {
	if z.cur != nil && z.cur.n > math.MaxUint32 {
		z.big = append(z.big, z.curName)
	}
	z.cur = nil
	return nil
}

// dimensionZip is a ZipWriter that puts each data sheet's real used range
// and column layout into the worksheet entries it passes on (see
// headWriter).
type dimensionZip struct {
	excelize.ZipWriter
	dims map[string]*sheetHead
	dim  *headWriter
}

// Create starts an entry, after finishing the previous one.
func (z *dimensionZip) Create(name string) (io.Writer, error) {
	if err := z.endEntry(); err != nil {
		return nil, err
	}
	w, err := z.ZipWriter.Create(name)
	if err != nil || len(z.dims) == 0 || !strings.HasPrefix(name, "xl/worksheets/") || !strings.HasSuffix(name, ".xml") {
		return w, err
	}
	z.dim = &headWriter{w: w, heads: z.dims}
	return z.dim, nil
}

// Close finishes the last entry and the archive.
func (z *dimensionZip) Close() error {
	if err := z.endEntry(); err != nil {
		return err
	}
	return z.ZipWriter.Close()
}

func (z *dimensionZip) endEntry() error {
	if z.dim == nil {
		return nil
	}
	err := z.dim.flush()
	z.dim = nil
	return err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// markZip64 sets the "version needed" of the local headers of the named
// entries to 4.5 (ZIP64), as excelize does when it writes the archive
// itself: archive/zip leaves 2.0 there, and Excel reports a file whose
// local and central headers disagree as corrupt.
func markZip64(f *os.File, names []string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return fmt.Errorf("reading back the archive: %w", err)
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	for _, zf := range zr.File {
		if !want[zf.Name] {
			continue
		}
		data, err := zf.DataOffset()
		if err != nil {
			return err
		}
		off, err := localHeader(f, data, zf.Name)
		if err != nil {
			return err
		}
		if _, err := f.WriteAt([]byte{45, 0}, off+4); err != nil {
			return err
		}
	}
	return nil
}

// localHeader finds the offset of the local file header of the entry
// named name whose data starts at data: the header is 30 bytes, the name
// and an extra field of unknown length.
func localHeader(f *os.File, data int64, name string) (int64, error) {
	fixed := int64(30 + len(name))
	start := max(data-fixed-math.MaxUint16, 0)
	buf := make([]byte, data-start)
	if _, err := f.ReadAt(buf, start); err != nil {
		return 0, err
	}
	for extra := 0; extra <= math.MaxUint16; extra++ {
		i := int64(len(buf)) - fixed - int64(extra)
		if i < 0 {
			break
		}
		h := buf[i:]
		if bytes.HasPrefix(h, []byte("PK\x03\x04")) &&
			int(h[26])|int(h[27])<<8 == len(name) &&
			int(h[28])|int(h[29])<<8 == extra &&
			string(h[30:30+len(name)]) == name {
			return start + i, nil
		}
	}
	return 0, fmt.Errorf("no local header for %s", name)
}
