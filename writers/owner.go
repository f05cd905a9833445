package writers

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"

	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/compression"
)

// Every file riskbatch writes carries a mark by which a later run knows it
// may replace the file (see Replaceable):
//
//   - a workbook names riskbatch as its application (docProps/app.xml) and
//     its archive's comment is a fingerprint of its entries: a workbook
//     that any program changed and saved since (filled in, edited) is no
//     longer riskbatch's;
//   - a Parquet file has the key-value metadata riskbatch = the version;
//   - CSV and TSV have no room for a mark: the caller recognises its own
//     tables by their header.
const Marker = "riskbatch"

// Version is the version of riskbatch written in the marks: the main
// module's version from the build information, "(devel)" for a build from
// a source tree.
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// markWorkbook names riskbatch as the application of a workbook.
func markWorkbook(f *excelize.File) error {
	return f.SetAppProps(&excelize.AppProperties{Application: Marker})
}

// commentedZip is what markedZip needs of the archive it writes into.
type commentedZip interface {
	excelize.ZipWriter
	SetComment(string) error
}

// markedZip is the ZipWriter riskbatch hands to excelize: it writes every
// entry into zw and, on Close, the archive's comment "riskbatch " followed
// by the fingerprint of the entries (zipFingerprint). A program that
// changes the workbook writes a new archive, whose entries no longer match
// the fingerprint (or which has no such comment): by it riskbatch knows a
// workbook it wrote that nobody changed since, such as a template not yet
// filled in.
type markedZip struct {
	zw      commentedZip
	fp      hash.Hash
	cur     *crcWriter
	curName string
}

func markZip(zw commentedZip) *markedZip { return &markedZip{zw: zw, fp: sha256.New()} }

// Create starts an entry.
func (m *markedZip) Create(name string) (io.Writer, error) {
	m.endEntry()
	w, err := m.zw.Create(name)
	if err != nil {
		return nil, err
	}
	m.cur, m.curName = &crcWriter{w: w, crc: crc32.NewIEEE()}, name
	return m.cur, nil
}

// AddFS is refused: the entries would escape the fingerprint.
func (m *markedZip) AddFS(fs.FS) error {
	return errors.New("writers: adding a file system to a workbook is not supported")
}

// Close writes the fingerprint as the archive's comment and finishes the
// archive.
func (m *markedZip) Close() error {
	m.endEntry()
	if err := m.zw.SetComment(Marker + " " + hex.EncodeToString(m.fp.Sum(nil))); err != nil {
		return err
	}
	return m.zw.Close()
}

func (m *markedZip) endEntry() {
	if m.cur != nil {
		addEntry(m.fp, m.curName, m.cur.crc.Sum32(), uint64(m.cur.n))
		m.cur = nil
	}
}

// addEntry adds an archive entry to a fingerprint: its name, CRC-32 and
// size, as the archive's central directory records them.
func addEntry(h hash.Hash, name string, crc uint32, size uint64) {
	var b [12]byte
	binary.LittleEndian.PutUint32(b[:4], crc)
	binary.LittleEndian.PutUint64(b[4:], size)
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(b[:])
}

// crcWriter computes the CRC-32 and counts the bytes written through it.
type crcWriter struct {
	w   io.Writer
	crc hash.Hash32
	n   int64
}

func (c *crcWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.crc.Write(p[:n])
	c.n += int64(n)
	return n, err
}

// ForeignFileError is the refusal to replace a file riskbatch did not
// write.
type ForeignFileError struct {
	Path string // the output as named
}

func (e *ForeignFileError) Error() string {
	return e.Path + " exists and was not written by riskbatch"
}

// Replaceable returns nil when an output may be written at path without
// losing anything riskbatch did not make: nothing is there (links
// followed), or an empty file, or something other than a regular file (a
// stream, or a folder, which Create refuses), or a file riskbatch wrote
// (WrittenByRiskbatch with header). Otherwise it returns a
// *ForeignFileError.
func Replaceable(path string, header func(names []string) bool) error {
	final, err := followLinks(path)
	if err != nil {
		return nil // Create says what is wrong
	}
	fi, err := os.Stat(final)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	if WrittenByRiskbatch(final, header) {
		return nil
	}
	return &ForeignFileError{Path: path}
}

// markerLimit bounds what WrittenByRiskbatch reads of a file: a workbook's
// docProps/app.xml, a Parquet footer, a CSV header line.
const markerLimit = 16 << 20

// WrittenByRiskbatch reports whether the file at path carries riskbatch's
// mark, whatever its name: a workbook (a ZIP archive) whose application is
// riskbatch, a Parquet file with the riskbatch key-value metadata, or a
// text file, as it is or compressed with gzip or zstd, whose first line,
// read as CSV or as TSV, header accepts (nil: none). A file that cannot be read is not riskbatch's.
func WrittenByRiskbatch(path string, header func(names []string) bool) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	var magic [4]byte
	if _, err := f.ReadAt(magic[:], 0); err != nil {
		return false
	}
	switch string(magic[:]) {
	case "PK\x03\x04":
		return markedWorkbook(f, fi.Size())
	case "PAR1":
		return markedParquet(f, fi.Size())
	}
	if c, ok := compression.Sniff(magic[:]); ok && header != nil {
		// A CSV or TSV file riskbatch compressed (out.csv.gz): its header.
		dec, err := c.NewReader(f)
		if err != nil {
			return false
		}
		defer dec.Close()
		return ownHeader(dec, header)
	}
	return header != nil && ownHeader(f, header)
}

// markedWorkbook reports whether a workbook is as riskbatch wrote it: its
// archive's comment is the fingerprint of its entries (see markedZip) and
// its docProps/app.xml names riskbatch as its application.
func markedWorkbook(f io.ReaderAt, size int64) bool {
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return false
	}
	fp := sha256.New()
	for _, zf := range zr.File {
		addEntry(fp, zf.Name, zf.CRC32, zf.UncompressedSize64)
	}
	if zr.Comment != Marker+" "+hex.EncodeToString(fp.Sum(nil)) {
		return false
	}
	for _, zf := range zr.File {
		if zf.Name != "docProps/app.xml" {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return false
		}
		defer rc.Close()
		var app struct {
			Application string `xml:"Application"`
		}
		if err := xml.NewDecoder(io.LimitReader(rc, markerLimit)).Decode(&app); err != nil {
			return false
		}
		return strings.TrimSpace(app.Application) == Marker
	}
	return false
}

// markedParquet reports whether the Parquet file's footer has the
// riskbatch key-value metadata.
func markedParquet(f io.ReaderAt, size int64) bool {
	if size < 12 {
		return false
	}
	var tail [8]byte
	if _, err := f.ReadAt(tail[:], size-8); err != nil || string(tail[4:]) != "PAR1" {
		return false
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n <= 0 || n > markerLimit || n > size-12 {
		return false
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, size-8-n); err != nil {
		return false
	}
	md, err := metadata.NewFileMetaData(buf, nil)
	if err != nil {
		return false
	}
	return md.KeyValueMetadata().FindValue(Marker) != nil
}

// headerLimit bounds the first record of a text file that ownHeader reads.
const headerLimit = 1 << 20

// ownHeader reports whether the first record of a text file, read as CSV
// or as TSV, is a header that header accepts.
func ownHeader(f io.Reader, header func([]string) bool) bool {
	head, err := io.ReadAll(io.LimitReader(f, headerLimit))
	if err != nil {
		return false
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for _, sep := range []rune{',', '\t'} {
		r := csv.NewReader(bytes.NewReader(head))
		r.Comma = sep
		r.FieldsPerRecord = -1
		if rec, err := r.Read(); err == nil && header(rec) {
			return true
		}
	}
	return false
}
