package writers

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestZip64Mark checks the repair of local headers for entries over 4 GiB
// on a small archive (the entries are marked by name).
func TestZip64Mark(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "a.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zs := &zipSink{Writer: zip.NewWriter(f)}
	for _, name := range []string{"xl/a.xml", "xl/worksheets/sheet1.xml", "z.xml"} {
		w, err := zs.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, strings.Repeat(name, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zs.Close(); err != nil || !zs.closed || len(zs.big) != 0 {
		t.Fatalf("Close: %v closed=%v big=%v", err, zs.closed, zs.big)
	}
	if err := markZip64(f, []string{"xl/worksheets/sheet1.xml"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte("PK\x03\x04"))
		if i < 0 {
			break
		}
		off += i
		nameLen := int(b[off+26]) | int(b[off+27])<<8
		name := string(b[off+30 : off+30+nameLen])
		version := int(b[off+4]) | int(b[off+5])<<8
		if (name == "xl/worksheets/sheet1.xml") != (version == 45) {
			t.Errorf("%s has version %d", name, version)
		}
		if version == 45 {
			marked++
		}
		off++
	}
	if marked != 1 {
		t.Errorf("%d entries marked", marked)
	}
	for _, e := range readZip(t, f.Name()) {
		if string(e.Data) != strings.Repeat(e.Name, 1000) {
			t.Errorf("%s reads back wrong", e.Name)
		}
	}
}
