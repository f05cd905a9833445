package testfiles

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"testing"
)

// RewriteZip copies the archive src (a workbook) to dst, each part passed
// through change with its name, and the archive's comment kept; a part
// change returns as it came is copied unchanged.
func RewriteZip(t testing.TB, src, dst string, change func(name string, data []byte) []byte) {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, zf := range zr.File {
		if err := copyPart(zw, zf, change); err != nil {
			t.Fatalf("%s, part %s: %v", src, zf.Name, err)
		}
	}
	if err := zw.SetComment(zr.Comment); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyPart writes one part of an archive to zw, through change.
func copyPart(zw *zip.Writer, zf *zip.File, change func(string, []byte) []byte) error {
	data, err := readPart(zf)
	if err != nil {
		return err
	}
	w, err := zw.Create(zf.Name)
	if err != nil {
		return err
	}
	_, err = w.Write(change(zf.Name, data))
	return err
}

// ZipBomb writes an XLSX workbook whose one sheet, "Bomb", is about 2 GiB
// of XML (a header row naming epsilon, then one row of endless cells)
// packed with deflate into about 4 MB (see DeflateRepeat and
// BombWorkbook): nothing here holds the unpacked bytes. It returns the
// sheet's unpacked and packed sizes.
func ZipBomb(t testing.TB, path string) (size, packedSize int64) {
	t.Helper()
	data, size, crc := DeflateRepeat(t, []byte(BombHead), []byte(BombUnit), 2<<30)
	if err := os.WriteFile(path, BombWorkbook(t, data, size, crc), 0o644); err != nil {
		t.Fatal(err)
	}
	return size, int64(len(data))
}

// ZipPart returns one part of an archive (a workbook's sheet, chart or
// relationships), as stored.
func ZipPart(t testing.TB, path, name string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err == nil {
		defer zr.Close()
		var data []byte
		if data, err = fs.ReadFile(zr, name); err == nil {
			return data
		}
	}
	t.Fatalf("%s, part %s: %v", path, name, err)
	return nil
}

// ZipEntry is one part of an archive and its content, as stored.
type ZipEntry struct {
	Name string
	Data []byte
}

// ZipEntries returns every part of the archive zr with its content, in
// the archive's order; what names the archive in a failure.
func ZipEntries(t testing.TB, what string, zr *zip.Reader) []ZipEntry {
	t.Helper()
	entries := make([]ZipEntry, len(zr.File))
	for i, zf := range zr.File {
		data, err := readPart(zf)
		if err != nil {
			t.Fatalf("%s, part %s: %v", what, zf.Name, err)
		}
		entries[i] = ZipEntry{zf.Name, data}
	}
	return entries
}

// readPart returns the content of one part of an archive.
func readPart(zf *zip.File) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// ZipNames returns the names of an archive's parts, in the archive's order.
func ZipNames(t testing.TB, path string) []string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	names := make([]string, len(zr.File))
	for i, zf := range zr.File {
		names[i] = zf.Name
	}
	return names
}
