package readers

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// Arrow unpacks a compressed Parquet page into a buffer of the size its
// page header declares (which checkChunkPages bounds), but its codecs do
// not all stop there: the Snappy codec allocates the length written at the
// start of the compressed data (up to 4 GiB) when it exceeds the buffer,
// and the Zstandard codec appends for as long as the frames go on,
// allocating what a frame header declares (checked with arrow-go v18.8.0:
// a page of 24 bytes declaring 8 GiB). A page of a few bytes could so ask
// for gigabytes. boundedCodec wraps Arrow's codec and refuses, before
// decoding, compressed data that could unpack to more than the page
// declares. The gzip and Brotli codecs of v18 stop at the buffer's size
// and LZ4_RAW decodes into the buffer only; they are wrapped all the same,
// for the nil buffer of an empty page (Arrow's gzip and Brotli codecs read
// all of their input into a nil buffer).
//
// The codecs are replaced in Arrow's registry when the package is loaded,
// as compress.RegisterCodec intends (its documentation registers codecs in
// init); only decoding changes, compression is Arrow's own.
func init() {
	for _, c := range []compress.Compression{compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip, compress.Codecs.Brotli, compress.Codecs.Lz4Raw} {
		if codec, err := compress.GetCodec(c); err == nil {
			compress.RegisterCodec(c, boundedCodec{Codec: codec, kind: c})
		}
	}
}

// boundedCodec is an Arrow codec whose Decode never unpacks more than
// len(dst) bytes. It implements compress.ErrorCodec, through which Arrow's
// page reader decodes: data it refuses is an error. Decode, the older
// entry point, panics on it as Arrow's codecs do.
type boundedCodec struct {
	compress.Codec
	kind compress.Compression
}

// DecodeWithError unpacks src into dst, refusing data that could unpack to
// more than len(dst) bytes.
func (b boundedCodec) DecodeWithError(dst, src []byte) ([]byte, error) {
	if dst == nil {
		dst = []byte{} // Arrow's gzip and Brotli codecs read all of src into a nil dst
	}
	switch b.kind {
	case compress.Codecs.Snappy:
		// Snappy data starts with its unpacked length as a uvarint.
		n, k := binary.Uvarint(src)
		if k <= 0 || n > uint64(len(dst)) {
			return nil, fmt.Errorf("the page's Snappy data unpacks to %d bytes, its header declares %d", n, len(dst))
		}
	case compress.Codecs.Zstd:
		if n, ok := zstdBound(src); !ok || n > uint64(len(dst))+zstdBlockMax {
			return nil, fmt.Errorf("the page's Zstandard data may unpack to more than the %d bytes its header declares", len(dst))
		}
	}
	return compress.Decode(b.Codec, dst, src)
}

// Decode is DecodeWithError that panics on an error, as Arrow's codecs do.
func (b boundedCodec) Decode(dst, src []byte) []byte {
	out, err := b.DecodeWithError(dst, src)
	if err != nil {
		panic(err)
	}
	return out
}

// zstdBlockMax is the most bytes a Zstandard block unpacks to
// (Block_Maximum_Size, RFC 8878 section 3.1.1.2.4).
const zstdBlockMax = 128 << 10

// zstdBound returns an upper bound on the bytes Zstandard data unpacks to,
// from its frame and block headers (RFC 8878 section 3.1): for each frame,
// its Frame_Content_Size when it gives one (the decoder Arrow uses
// allocates that size, and refuses a frame that unpacks to more), else the
// sizes of its raw and RLE blocks
// plus Block_Maximum_Size for each compressed block. Skippable frames
// unpack to nothing. ok is false for data that is not Zstandard frames.
func zstdBound(src []byte) (total uint64, ok bool) {
	const (
		magic     = 0xFD2FB528
		skipMagic = 0x184D2A50 // to 0x184D2A5F
	)
	for len(src) > 0 {
		if len(src) < 4 {
			return 0, false
		}
		m := binary.LittleEndian.Uint32(src)
		if m&0xFFFFFFF0 == skipMagic {
			if len(src) < 8 {
				return 0, false
			}
			n := uint64(binary.LittleEndian.Uint32(src[4:]))
			if n > uint64(len(src)-8) {
				return 0, false
			}
			src = src[8+n:]
			continue
		}
		if m != magic || len(src) < 5 {
			return 0, false
		}
		desc := src[4]
		i := 5
		fcsFlag, single, checksum, dictFlag := desc>>6, desc&0x20 != 0, desc&0x04 != 0, desc&0x03
		if desc&0x08 != 0 { // reserved bit
			return 0, false
		}
		if !single {
			i++ // Window_Descriptor
		}
		i += [4]int{0, 1, 2, 4}[dictFlag]
		fcsLen := [4]int{0, 2, 4, 8}[fcsFlag]
		if fcsFlag == 0 && single {
			fcsLen = 1
		}
		if len(src) < i+fcsLen {
			return 0, false
		}
		var fcs uint64
		hasFCS := fcsLen > 0
		switch fcsLen {
		case 1:
			fcs = uint64(src[i])
		case 2:
			fcs = uint64(binary.LittleEndian.Uint16(src[i:])) + 256
		case 4:
			fcs = uint64(binary.LittleEndian.Uint32(src[i:]))
		case 8:
			fcs = binary.LittleEndian.Uint64(src[i:])
		}
		i += fcsLen
		var blocks uint64
		for last := false; !last; {
			if len(src) < i+3 {
				return 0, false
			}
			h := uint32(src[i]) | uint32(src[i+1])<<8 | uint32(src[i+2])<<16
			i += 3
			last = h&1 != 0
			size := uint64(h >> 3)
			switch (h >> 1) & 3 {
			case 0: // raw
				blocks += size
				i += int(size)
			case 1: // RLE: one byte repeated size times
				blocks += size
				i++
			case 2: // compressed
				blocks += zstdBlockMax
				i += int(size)
			default:
				return 0, false
			}
			if i > len(src) {
				return 0, false
			}
		}
		if checksum {
			i += 4
		}
		if i > len(src) {
			return 0, false
		}
		if hasFCS {
			// The decoder allocates the frame's declared size, and
			// refuses a frame that unpacks to more.
			blocks = fcs
		}
		if total += blocks; total > 1<<62 {
			return 0, false
		}
		src = src[i:]
	}
	return total, true
}
