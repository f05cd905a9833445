package readers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// A Parquet file ends with its footer: the file metadata (a Thrift struct),
// its length as a 4-byte little-endian integer, and the magic bytes "PAR1"
// ("PARE" when the footer is encrypted). Arrow trusts what the footer and
// the page headers declare: it allocates a list from its declared count, a
// page from its declared size, and reads column chunks where the footer
// says. The checks below run before Arrow reads each of them, so that a
// damaged or forged file is refused with an error instead of exhausting
// memory or ending the process.

const (
	// parquetTail is the footer length field and the magic bytes.
	parquetTail = 8
	// maxPageHeaderBytes is the largest page header read (Arrow's own
	// limit); headers are small unless they hold long statistics.
	maxPageHeaderBytes = 4 << 20
	// legacyDictHeaderPad is what Arrow adds to the column chunks of files
	// written by parquet-mr 1.2.8 and older, which left the dictionary page
	// header out of the chunk's size (PARQUET-816).
	legacyDictHeaderPad = 100
)

// Parquet page types (parquet.thrift, PageType).
const (
	pageData       = 0
	pageDictionary = 2
	pageDataV2     = 3
)

// readParquetFooter checks the file's tail and its footer before Arrow
// reads them: the magic bytes, a footer length that lies inside the file
// and within lim.ParquetMetadataBytes, and a footer that is well-formed
// Thrift whose every declared count and length fits in its bytes (so that
// a footer of a few bytes cannot declare a hundred million row groups:
// arrow-go v18.8.0 allocates 800 MB for that one). It returns the footer's
// index (see parquetFooter).
func readParquetFooter(r io.ReaderAt, size int64, lim Limits) (*parquetFooter, error) {
	if size < 4+parquetTail {
		return nil, fmt.Errorf("the file is %s long, too short for a Parquet file", byteSize(size))
	}
	var tail [parquetTail]byte
	if _, err := r.ReadAt(tail[:], size-parquetTail); err != nil {
		return nil, fmt.Errorf("cannot read the footer: %w", err)
	}
	switch string(tail[4:]) {
	case "PAR1":
	case "PARE":
		return nil, errors.New("the file is encrypted; encrypted Parquet files cannot be read")
	default:
		return nil, errors.New("it does not end with the Parquet magic bytes PAR1")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-4-parquetTail {
		return nil, fmt.Errorf("the footer declares %s of metadata, more than the file holds before it (%s)", byteSize(n), byteSize(size-4-parquetTail))
	}
	if n > lim.ParquetMetadataBytes {
		return nil, limitError(limitParquetMetadataBytes, lim.ParquetMetadataBytes, "the footer (the file metadata) holds %s", byteSize(n))
	}
	start := size - parquetTail - n
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, start); err != nil {
		return nil, fmt.Errorf("cannot read the footer: %w", err)
	}
	if _, err := checkThriftStruct(footer); err != nil {
		return nil, fmt.Errorf("the footer is damaged: %w", err)
	}
	f, err := indexParquetFooter(footer, start)
	if err != nil {
		return nil, fmt.Errorf("the footer is damaged: %w", err)
	}
	return f, nil
}

// checkParquetMetadata refuses metadata that does not describe the file it
// sits in: a row group without a chunk for every column, a chunk whose
// pages lie outside the file, whose sizes or counts are negative, or whose
// number of values differs from its row group's rows (for a flat column,
// one value per row, nulls included). Arrow reads such chunks without an
// error (checked with arrow-go v18.8.0: a row group declaring 2⁵⁰ rows
// gives its 3 rows and no error) or panics on them (a missing chunk is
// dereferenced, found by fuzzing with v17). It runs inside Next's recover,
// which turns a panic while checking into an error.
func checkParquetMetadata(pf *file.Reader, size int64) error {
	md := pf.MetaData()
	if md == nil || md.Schema == nil {
		return errors.New("no file metadata")
	}
	ncol := md.Schema.NumColumns()
	if md.NumRows < 0 {
		return fmt.Errorf("the footer gives %d rows", md.NumRows)
	}
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		if rg == nil || rg.NumColumns() != ncol {
			return fmt.Errorf("it does not have one column chunk for each of the %d columns", ncol)
		}
		if rg.NumRows() < 0 || rg.NumRows() > md.NumRows {
			return fmt.Errorf("it gives %d rows, the file %d", rg.NumRows(), md.NumRows)
		}
		for c := 0; c < ncol; c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return fmt.Errorf("column %d: %w", c, err)
			}
			if cc == nil {
				return fmt.Errorf("column %d: no chunk", c)
			}
			off, n := chunkRange(cc)
			if off < 0 || n < 0 || off > size || n > size-off || cc.NumValues() < 0 || cc.TotalUncompressedSize() < 0 {
				return fmt.Errorf("column %d: its pages (offset %d, %d bytes) lie outside the file of %d bytes", c, off, n, size)
			}
			if md.Schema.Column(c).MaxRepetitionLevel() == 0 && cc.NumValues() != rg.NumRows() {
				return fmt.Errorf("column %d: its chunk declares %d values for %d rows", c, cc.NumValues(), rg.NumRows())
			}
		}
	}
	return nil
}

// checkRows checks the rows the footer declares: none negative, and the
// row groups' adding up to the file's.
func (f *parquetFooter) checkRows() error {
	if f.numRows < 0 {
		return fmt.Errorf("the footer gives %d rows", f.numRows)
	}
	var sum int64
	for g, ref := range f.groups {
		if ref.rows < 0 || ref.rows > f.numRows {
			return fmt.Errorf("row group %d gives %d rows, the file %d", g, ref.rows, f.numRows)
		}
		if sum += ref.rows; sum > f.numRows {
			return fmt.Errorf("its first %d row groups give more than the %d rows of the file", g+1, f.numRows)
		}
	}
	if sum != f.numRows {
		return fmt.Errorf("its row groups give %d rows, the file %d", sum, f.numRows)
	}
	return nil
}

// chunkRange is where Arrow reads a column chunk: from its dictionary page,
// if any, else its first data page, for its total compressed size.
func chunkRange(cc *metadata.ColumnChunkMetaData) (off, n int64) {
	off = cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < off {
		off = cc.DictionaryPageOffset()
	}
	return off, cc.TotalCompressedSize()
}

// checkChunkPages walks the page headers of a column chunk, before Arrow
// reads its pages, and refuses a chunk whose codec or encodings Arrow
// lacks (see checkDecodable), a page that unpacks to more than lim.ParquetPageBytes, runs
// past its chunk, or whose counts are absurd (a dictionary of more values
// than bytes, pages that hold a number of values other than the chunk's).
// Arrow allocates each page from the size its header declares. legacy
// marks the files of old parquet-mr writers, whose chunk sizes leave out
// the dictionary page header.
func checkChunkPages(r io.ReaderAt, size int64, cc *metadata.ColumnChunkMetaData, legacy bool, lim Limits) error {
	if err := checkDecodable(cc); err != nil {
		return err
	}
	start, n := chunkRange(cc)
	end := start + n
	if legacy {
		end = min(end+legacyDictHeaderPad, size)
	}
	want := cc.NumValues()
	var values int64
	var buf []byte
	for pos := start; values < want; {
		if pos >= end {
			return fmt.Errorf("its pages hold %d values, its metadata declares %d", values, want)
		}
		var h pageHeader
		var err error
		h, buf, err = readPageHeader(r, pos, end, buf)
		if err != nil {
			return fmt.Errorf("the page header at byte %d: %w", pos, err)
		}
		if h.compressed < 0 || h.uncompressed < 0 {
			return fmt.Errorf("the page at byte %d declares a negative size", pos)
		}
		if int64(h.uncompressed) > lim.ParquetPageBytes {
			return limitError(limitParquetPageBytes, lim.ParquetPageBytes, "the page at byte %d unpacks to %s", pos, byteSize(int64(h.uncompressed)))
		}
		next := pos + int64(h.length) + int64(h.compressed)
		if next > end {
			return fmt.Errorf("the page at byte %d runs %s past the end of its column chunk", pos, byteSize(next-end))
		}
		switch h.typ {
		case pageDictionary:
			// Every plain-encoded dictionary value takes a byte or more.
			if h.values < 0 || h.values > int64(h.uncompressed) {
				return fmt.Errorf("the dictionary page at byte %d declares %d values in %s", pos, h.values, byteSize(int64(h.uncompressed)))
			}
		case pageData, pageDataV2:
			if !h.hasValues || h.values < 0 {
				return fmt.Errorf("the data page at byte %d does not give its number of values", pos)
			}
			values += h.values
		}
		pos = next
	}
	if values != want {
		return fmt.Errorf("its pages hold %d values, its metadata declares %d", values, want)
	}
	return nil
}

// pageHeader is what checkChunkPages needs of a Parquet PageHeader.
type pageHeader struct {
	typ          int32
	uncompressed int32
	compressed   int32
	values       int64 // num_values of the data, dictionary or v2 data page header
	hasValues    bool
	length       int // bytes of the header
}

// readPageHeader reads the page header at pos, reading more bytes (into
// buf, which it returns for reuse) as long as the header is cut short, up
// to maxPageHeaderBytes or end.
func readPageHeader(r io.ReaderAt, pos, end int64, buf []byte) (pageHeader, []byte, error) {
	for n := int64(256); ; n *= 4 {
		m := min(n, end-pos, maxPageHeaderBytes)
		if int64(cap(buf)) < m {
			buf = make([]byte, m)
		}
		buf = buf[:m]
		if k, err := r.ReadAt(buf, pos); int64(k) < m {
			return pageHeader{}, buf, fmt.Errorf("cannot read it: %w", err)
		}
		h, err := parsePageHeader(buf)
		if err == nil {
			return h, buf, nil
		}
		if !errors.Is(err, errThriftShort) || m == end-pos || m == maxPageHeaderBytes {
			return pageHeader{}, buf, err
		}
	}
}

// parsePageHeader reads a Thrift PageHeader (parquet.thrift): type (1),
// uncompressed_page_size (2), compressed_page_size (3), and num_values,
// field 1 of data_page_header (5), dictionary_page_header (7) and
// data_page_header_v2 (8).
func parsePageHeader(b []byte) (pageHeader, error) {
	c := &compactReader{b: b}
	var h pageHeader
	var seen [4]bool
	err := c.structFields(func(id int16, typ byte) error {
		var err error
		switch {
		case id >= 1 && id <= 3 && typ == ctI32:
			var v int32
			v, err = c.i32()
			seen[id] = true
			switch id {
			case 1:
				h.typ = v
			case 2:
				h.uncompressed = v
			case 3:
				h.compressed = v
			}
		case (id == 5 || id == 7 || id == 8) && typ == ctStruct:
			err = c.structFields(func(id int16, typ byte) error {
				if id == 1 && typ == ctI32 {
					v, err := c.i32()
					h.values, h.hasValues = int64(v), true
					return err
				}
				return c.skip(typ, true)
			})
		default:
			err = c.skip(typ, true)
		}
		return err
	})
	if err != nil {
		return pageHeader{}, err
	}
	if !seen[1] || !seen[2] || !seen[3] {
		return pageHeader{}, errors.New("it lacks the page type or sizes")
	}
	h.length = c.i
	return h, nil
}

// isLegacyWriter reports whether the file was written by parquet-mr 1.2.8
// or older (PARQUET-816), as Arrow decides it.
func isLegacyWriter(md *metadata.FileMetaData) bool {
	return md.WriterVersion().LessThan(metadata.Parquet816FixedVersion)
}

// decodable lists the encodings arrow-go v18 decodes for a physical type,
// besides dictionary encoding (PLAIN_DICTIONARY, RLE_DICTIONARY) and the
// encodings of repetition and definition levels (RLE, BIT_PACKED), which
// a chunk's list of encodings also names.
func decodable(t parquet.Type) []parquet.Encoding {
	plain, delta, split := parquet.Encodings.Plain, parquet.Encodings.DeltaBinaryPacked, parquet.Encodings.ByteStreamSplit
	switch t {
	case parquet.Types.Boolean, parquet.Types.Int96:
		return []parquet.Encoding{plain}
	case parquet.Types.Int32, parquet.Types.Int64:
		return []parquet.Encoding{plain, delta, split}
	case parquet.Types.Float, parquet.Types.Double, parquet.Types.FixedLenByteArray:
		return []parquet.Encoding{plain, split}
	case parquet.Types.ByteArray:
		return []parquet.Encoding{plain, parquet.Encodings.DeltaLengthByteArray, parquet.Encodings.DeltaByteArray}
	}
	return nil
}

// checkDecodable refuses a column chunk that Arrow cannot unpack or decode:
// compressed with the legacy LZ4 codec (Hadoop's framing, which arrow-go
// does not read; LZ4_RAW replaced it), LZO or an unknown codec, or whose
// metadata lists an encoding Arrow does not decode for the column's type
// (DELTA_BYTE_ARRAY for FIXED_LEN_BYTE_ARRAY, which parquet-mr's version 2
// writer uses for long decimals: Arrow would panic on the first page).
func checkDecodable(cc *metadata.ColumnChunkMetaData) error {
	if _, err := compress.GetCodec(cc.Compression()); err != nil {
		return &unsupportedError{fmt.Sprintf("its pages are compressed with %s, which riskbatch cannot unpack; write the file again with SNAPPY, ZSTD, GZIP, BROTLI, LZ4_RAW or no compression", cc.Compression())}
	}
	for _, e := range cc.Encodings() {
		switch e {
		case parquet.Encodings.PlainDict, parquet.Encodings.RLEDict, parquet.Encodings.RLE, parquet.Encodings.BitPacked:
			continue
		}
		if !slices.Contains(decodable(cc.Type()), e) {
			return &unsupportedError{fmt.Sprintf("its pages use the encoding %s, which riskbatch cannot decode for %s values; write the file again with the default encodings", e, cc.Type())}
		}
	}
	return nil
}

// unsupportedError reports a column chunk that is well-formed but uses a
// codec or an encoding that cannot be read: not damage.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }
