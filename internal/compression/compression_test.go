package compression

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestByNameAndSniff: the codecs are told by their extension, in any
// case, and by their signatures; "BZh" needs its block-size digit.
func TestByNameAndSniff(t *testing.T) {
	for _, c := range []struct {
		name, codec, inner string
	}{
		{"releases.csv.gz", "gzip", "releases.csv"},
		{"dir.x/R.TSV.ZST", "zstd", "dir.x/R.TSV"},
		{"a.parquet.bz2", "bzip2", "a.parquet"},
		{"releases.csv", "", "releases.csv"},
		{"releases.gzip", "", "releases.gzip"},
	} {
		codec, inner, ok := ByName(c.name)
		if ok != (c.codec != "") || codec.Name != c.codec || inner != c.inner {
			t.Errorf("ByName(%q) = %q, %q, %v", c.name, codec.Name, inner, ok)
		}
	}
	for _, c := range []struct {
		head, codec string
	}{
		{"\x1f\x8b\x08\x00", "gzip"},
		{"\x28\xb5\x2f\xfd", "zstd"},
		{"BZh9", "bzip2"},
		{"BZhX", ""},
		{"BZh", ""},
		{"id,epsilon", ""},
		{"", ""},
	} {
		if codec, ok := Sniff([]byte(c.head)); ok != (c.codec != "") || codec.Name != c.codec {
			t.Errorf("Sniff(%q) = %q, %v", c.head, codec.Name, ok)
		}
	}
}

// TestRoundTripAndDamage: what the writers compress reads back the same;
// every way of cutting the stream short is a truncation *Error, never a
// shorter text with io.EOF; an empty file is an error; bzip2 has no
// writer.
func TestRoundTripAndDamage(t *testing.T) {
	text := strings.Repeat("id,epsilon,delta\nrow,1.5,1e-6\n", 2000)
	for _, c := range []Codec{Gzip, Zstd} {
		var b bytes.Buffer
		w, err := c.NewWriter(&b)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, text)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		whole := b.Bytes()
		if got := readAll(t, c, whole); got.err != nil || got.text != text {
			t.Fatalf("%s: read back %d bytes, %v", c.Name, len(got.text), got.err)
		}
		for _, n := range []int{len(whole) - 1, len(whole) / 2, 10} {
			got := readAll(t, c, whole[:n])
			var e *Error
			if !errors.As(got.err, &e) || !e.Truncated || e.Codec != c.Name || e.Offset > int64(n) || !strings.Contains(got.err.Error(), "ends early") {
				t.Errorf("%s cut at %d of %d: %d bytes, %v", c.Name, n, len(whole), len(got.text), got.err)
			}
		}
		if got := readAll(t, c, nil); got.err == nil || !strings.Contains(got.err.Error(), "empty") {
			t.Errorf("%s, an empty file: %v", c.Name, got.err)
		}
	}
	if _, err := Bzip2.NewWriter(io.Discard); err == nil || !strings.Contains(err.Error(), ".gz or .zst") {
		t.Errorf("bzip2 writer: %v", err)
	}
	if got := readAll(t, Bzip2, nil); got.err == nil {
		t.Error("bzip2, an empty file: no error")
	}
}

type readResult struct {
	text string
	err  error
}

// readAll decompresses data with c, the error from NewReader or Read.
func readAll(t *testing.T, c Codec, data []byte) readResult {
	t.Helper()
	r, err := c.NewReader(bytes.NewReader(data))
	if err != nil {
		return readResult{err: err}
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return readResult{string(b), err}
}
