package writers

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/apache/arrow/go/v17/parquet/metadata"
	"github.com/xuri/excelize/v2"
)

// Every file riskbatch writes carries a mark by which a later run knows it
// may replace the file (see Replaceable):
//
//   - a workbook names riskbatch as its application (docProps/app.xml),
//     which every spreadsheet program rewrites when it saves the file, so a
//     workbook someone edited and saved is no longer riskbatch's;
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
// text file whose first line, read as CSV or as TSV, header accepts (nil:
// none). A file that cannot be read is not riskbatch's.
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
	return header != nil && ownHeader(f, header)
}

// markedWorkbook reports whether the workbook's docProps/app.xml names
// riskbatch as its application.
func markedWorkbook(f io.ReaderAt, size int64) bool {
	zr, err := zip.NewReader(f, size)
	if err != nil {
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
