package readers

import (
	"archive/zip"
	"io"
	"path/filepath"
	"strings"
)

// Spreadsheets riskbatch does not read are recognised by their content as
// well as by their extension, so that each gets one line saying what to
// save it as instead of an error about its insides: an OpenDocument
// spreadsheet (.ods, a zip archive whose mimetype entry says so), an Excel
// 97–2003 workbook (.xls, an OLE2 compound file, which is also the
// container of a password-protected .xlsx), an Apple Numbers document
// (.numbers, a zip archive of Index/*.iwa parts) and an Excel binary
// workbook (.xlsb, a zip archive with xl/workbook.bin).

// The kinds of zip archive sniffed.
const (
	zipXLSX    = "xlsx"
	zipODS     = "ods"
	zipODF     = "odf" // another OpenDocument file (text, presentation)
	zipNumbers = "numbers"
	zipXLSB    = "xlsb"
	zipOther   = "zip"
)

// oleMagic starts an OLE2 compound file.
const oleMagic = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"

// isOLE2 reports whether r starts with the OLE2 signature.
func isOLE2(r io.ReaderAt) bool {
	var magic [len(oleMagic)]byte
	n, _ := r.ReadAt(magic[:], 0)
	return n == len(magic) && string(magic[:]) == oleMagic
}

// isZip reports whether r starts with a zip local file header.
func isZip(r io.ReaderAt) bool {
	var magic [4]byte
	n, _ := r.ReadAt(magic[:], 0)
	return n == len(magic) && string(magic[:]) == "PK\x03\x04"
}

// zipParts indexes an archive's files by their lower-case, slash-separated
// name (the first of duplicates).
func zipParts(zr *zip.Reader) map[string]*zip.File {
	parts := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		key := strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(f.Name, `\`, "/"), "/"))
		if _, dup := parts[key]; !dup {
			parts[key] = f
		}
	}
	return parts
}

// zipKind tells what kind of document a zip archive is.
func zipKind(zr *zip.Reader, parts map[string]*zip.File) string {
	if f := parts["mimetype"]; f != nil && f.UncompressedSize64 < 256 {
		if rc, err := f.Open(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(rc, 256))
			_ = rc.Close()
			mime := strings.TrimSpace(string(b))
			switch {
			case strings.HasPrefix(mime, "application/vnd.oasis.opendocument.spreadsheet"):
				return zipODS
			case strings.HasPrefix(mime, "application/vnd.oasis.opendocument."):
				return zipODF
			}
		}
	}
	switch {
	case parts["index/document.iwa"] != nil || parts["index.zip"] != nil:
		return zipNumbers
	case parts["xl/workbook.bin"] != nil:
		return zipXLSB
	case parts["xl/workbook.xml"] != nil || parts["_rels/.rels"] != nil:
		return zipXLSX
	}
	for name := range parts {
		if strings.HasPrefix(name, "index/") && strings.HasSuffix(name, ".iwa") {
			return zipNumbers
		}
	}
	return zipOther
}

// sniff tells what kind of container the data is: a zip kind, "ole2", or
// "" for neither. It reads the archive's directory only when the data
// starts as a zip archive does and declares at most maxParts files.
func sniff(r io.ReaderAt, size int64, maxParts int64) string {
	if isOLE2(r) {
		return "ole2"
	}
	if !isZip(r) {
		return ""
	}
	if n, ok := zipEntries(r, size); ok && n > uint64(maxParts) {
		return zipOther
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && zr == nil {
		return zipOther
	}
	return zipKind(zr, zipParts(zr))
}

// containerMessage says what to do with a document of a kind riskbatch
// does not read.
func containerMessage(kind string) string {
	switch kind {
	case zipODS:
		return "this is an OpenDocument spreadsheet (.ods), which riskbatch does not read: save it as .xlsx (File › Save As › Excel 2007-365 (.xlsx)) or export CSV"
	case zipODF:
		return "this is an OpenDocument file, not a spreadsheet: riskbatch reads .xlsx, .csv, .tsv and .parquet tables"
	case zipNumbers:
		return "this is an Apple Numbers document, which riskbatch does not read: export it as Excel (File › Export To › Excel…, .xlsx) or CSV"
	case zipXLSB:
		return "this is an Excel binary workbook (.xlsb), which riskbatch does not read: save it as an Excel Workbook (.xlsx) (File › Save As) or export CSV"
	}
	return "not a workbook riskbatch reads"
}

// oleMessage says what to do with an OLE2 file: an Excel 97–2003 workbook,
// or a password-protected .xlsx (which Excel keeps in the same container).
func oleMessage(name string) string {
	if strings.EqualFold(filepath.Ext(name), ".xls") {
		return "this is an Excel 97-2003 workbook (.xls), which riskbatch does not read: save it as an Excel Workbook (.xlsx) (File › Save As) or export CSV"
	}
	return "this is an Excel 97-2003 workbook (.xls) or a password-protected workbook, which riskbatch does not read: save it as an Excel Workbook (.xlsx) without a password (File › Save As) or export CSV"
}
