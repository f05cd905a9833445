package readers

import (
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// testfiles.DeflateRepeat's data (the zip bombs of these tests) unpacks
// to head and the repeated unit, and its length and CRC-32 (combined from
// that of one chunk) are those of the unpacked bytes, hashed here byte by
// byte. It is tested here, not beside it: a test binary of package
// testfiles would link Arrow, seconds of linking in every go test ./...
func TestDeflateRepeat(t *testing.T) {
	head, unit := []byte(testfiles.BombHead), []byte(testfiles.BombUnit)
	for _, total := range []int64{1, 1 << 20, 5<<20 + 3} {
		data, size, crc := testfiles.DeflateRepeat(t, head, unit, total)
		got, err := io.ReadAll(flate.NewReader(bytes.NewReader(data)))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != size || size < total {
			t.Errorf("total %d: %d bytes unpacked, size %d", total, len(got), size)
		}
		if !bytes.HasPrefix(got, head) || len(bytes.ReplaceAll(got[len(head):], unit, nil)) != 0 {
			t.Errorf("total %d: not head and the unit repeated", total)
		}
		if want := crc32.ChecksumIEEE(got); crc != want {
			t.Errorf("total %d: CRC-32 %08x, of the bytes %08x", total, crc, want)
		}
	}
}
