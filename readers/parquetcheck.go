package readers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
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

// Parquet encodings (parquet.thrift, Encoding) that the checks read.
const (
	encodingPlainDictionary = 2
	encodingRLE             = 3
	encodingBitPacked       = 4
	encodingRLEDictionary   = 8
)

// checkParquetFooter checks the file's tail and its footer before Arrow
// reads them: the magic bytes, a footer length that lies inside the file
// and within lim.ParquetMetadataBytes, and a footer that is well-formed
// Thrift whose every declared count and length fits in its bytes (so that
// a footer of a few bytes cannot declare a hundred million row groups).
func checkParquetFooter(r io.ReaderAt, size int64, lim Limits) error {
	if size < 4+parquetTail {
		return fmt.Errorf("the file is %s long, too short for a Parquet file", byteSize(size))
	}
	var tail [parquetTail]byte
	if _, err := r.ReadAt(tail[:], size-parquetTail); err != nil {
		return fmt.Errorf("cannot read the footer: %w", err)
	}
	switch string(tail[4:]) {
	case "PAR1":
	case "PARE":
		return errors.New("the file is encrypted; encrypted Parquet files cannot be read")
	default:
		return errors.New("it does not end with the Parquet magic bytes PAR1")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-4-parquetTail {
		return fmt.Errorf("the footer declares %s of metadata, more than the file holds before it (%s)", byteSize(n), byteSize(size-4-parquetTail))
	}
	if n > lim.ParquetMetadataBytes {
		return limitError(limitParquetMetadataBytes, lim.ParquetMetadataBytes, "the footer (the file metadata) holds %s", byteSize(n))
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-parquetTail-n); err != nil {
		return fmt.Errorf("cannot read the footer: %w", err)
	}
	if _, err := checkThriftStruct(footer); err != nil {
		return fmt.Errorf("the footer is damaged: %w", err)
	}
	return nil
}

// checkParquetMetadata refuses a footer that does not describe the file it
// sits in: a row group without a chunk for every column, a chunk whose
// pages lie outside the file, whose sizes or counts are negative, or whose
// number of values differs from its row group's rows (for a flat column,
// one value per row, nulls included). pqarrow reads the columns of a row
// group on goroutines of its own, where a panic on such a footer (found by
// fuzzing: a missing chunk is dereferenced) cannot be recovered and would
// end the process. It also applies lim.Columns. It runs inside open's
// recover, which turns a panic while checking into an error.
func checkParquetMetadata(pf *file.Reader, size int64, lim Limits) error {
	md := pf.MetaData()
	if md == nil || md.Schema == nil {
		return errors.New("no file metadata")
	}
	ncol := md.Schema.NumColumns()
	if int64(ncol) > lim.Columns {
		return limitError(limitColumns, lim.Columns, "the file has %s columns", groupDigits(int64(ncol)))
	}
	if md.NumRows < 0 {
		return fmt.Errorf("the footer gives %d rows", md.NumRows)
	}
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		if rg == nil || rg.NumColumns() != ncol {
			return fmt.Errorf("row group %d does not have one column chunk for each of the %d columns", g, ncol)
		}
		if rg.NumRows() < 0 || rg.NumRows() > md.NumRows {
			return fmt.Errorf("row group %d gives %d rows, the file %d", g, rg.NumRows(), md.NumRows)
		}
		for c := 0; c < ncol; c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return fmt.Errorf("row group %d, column %d: %w", g, c, err)
			}
			if cc == nil {
				return fmt.Errorf("row group %d, column %d: no chunk", g, c)
			}
			off, n := chunkRange(cc)
			if off < 0 || n < 0 || off > size || n > size-off || cc.NumValues() < 0 || cc.TotalUncompressedSize() < 0 {
				return fmt.Errorf("row group %d, column %d: its pages (offset %d, %d bytes) lie outside the file of %d bytes", g, c, off, n, size)
			}
			if md.Schema.Column(c).MaxRepetitionLevel() == 0 && cc.NumValues() != rg.NumRows() {
				return fmt.Errorf("row group %d, column %d: its chunk declares %d values for %d rows", g, c, cc.NumValues(), rg.NumRows())
			}
		}
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
// reads its pages, and refuses a page that unpacks to more than
// lim.ParquetPageBytes, runs past its chunk, or whose counts are absurd (a
// dictionary of more values than bytes, pages that hold a number of values
// other than the chunk's), or whose dictionary indices could reach far
// past its dictionary (see checkDictIndexWidth). Arrow allocates each page
// from the size its header declares. col is the chunk's column. legacy
// marks the files of old parquet-mr writers, whose chunk sizes leave out
// the dictionary page header.
func checkChunkPages(r io.ReaderAt, size int64, cc *metadata.ColumnChunkMetaData, col *schema.Column, legacy bool, lim Limits) error {
	start, n := chunkRange(cc)
	end := start + n
	if legacy {
		end = min(end+legacyDictHeaderPad, size)
	}
	want := cc.NumValues()
	var values int64
	var buf []byte
	dict := pageDict{codec: cc.Compression(), col: col}
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
			dict.values = h.values
		case pageData, pageDataV2:
			if !h.hasValues || h.values < 0 {
				return fmt.Errorf("the data page at byte %d does not give its number of values", pos)
			}
			values += h.values
			if err := dict.checkDictIndexWidth(r, pos, h, lim); err != nil {
				return err
			}
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
	// Of a data page: the encoding of its values; of a v1 data page, the
	// encodings of its repetition and definition levels; of a v2 data
	// page, the bytes of its levels (stored unpacked before the values)
	// and whether its values are packed.
	encoding                 int32
	repEncoding, defEncoding int32
	repBytes, defBytes       int32
	v2Unpacked               bool
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
// data_page_header_v2 (8); of data_page_header, encoding (2),
// definition_level_encoding (3) and repetition_level_encoding (4); of
// data_page_header_v2, encoding (4), definition_levels_byte_length (5),
// repetition_levels_byte_length (6) and is_compressed (7).
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
			page := id
			err = c.structFields(func(id int16, typ byte) error {
				if id == 1 && typ == ctI32 {
					v, err := c.i32()
					h.values, h.hasValues = int64(v), true
					return err
				}
				if page == 8 && id == 7 && (typ == ctTrue || typ == ctFalse) {
					h.v2Unpacked = typ == ctFalse
					return nil
				}
				var field *int32
				switch {
				case page == 5 && id == 2, page == 8 && id == 4:
					field = &h.encoding
				case page == 5 && id == 3:
					field = &h.defEncoding
				case page == 5 && id == 4:
					field = &h.repEncoding
				case page == 8 && id == 5:
					field = &h.defBytes
				case page == 8 && id == 6:
					field = &h.repBytes
				}
				if field != nil && typ == ctI32 {
					v, err := c.i32()
					*field = v
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

// pageDict is what checkDictIndexWidth needs of a column chunk: its codec,
// its column, and the number of values its dictionary page declares.
type pageDict struct {
	codec  compress.Compression
	col    *schema.Column
	values int64
	buf    []byte // for unpacking pages, reused
}

// checkDictIndexWidth checks the dictionary indices of a data page before
// Arrow decodes them. A dictionary-encoded page stores its indices with a
// bit width given by the first byte of its values, and Arrow (arrow/go
// v17, parquet/internal/encoding's DictConverter.ensure) allocates room for
// the largest index of a batch before it checks that the index lies in the
// dictionary: a page of a few bytes, with 31-bit indices under a
// dictionary of 16 values (found by fuzzing), made it allocate 16 GiB. The
// page is refused, at lim.ParquetPageBytes, when its bit width lets an
// index reach past the dictionary and so far that decoding up to it would
// take more than the limit. Writers store indices in the fewest bits that
// hold the dictionary's, so in a genuine file this cannot exceed twice the
// size of the decoded dictionary.
func (d *pageDict) checkDictIndexWidth(r io.ReaderAt, pos int64, h pageHeader, lim Limits) error {
	if h.encoding != encodingRLEDictionary && h.encoding != encodingPlainDictionary {
		return nil
	}
	elem := dictValueBytes(d.col)
	if elem == 0 || int64(1<<31)*elem <= lim.ParquetPageBytes {
		return nil // no bit width can exceed the limit
	}
	values, err := d.pageValues(r, pos, h)
	if err != nil {
		return fmt.Errorf("the data page at byte %d: %w", pos, err)
	}
	if len(values) == 0 {
		return nil // no indices: every value is null
	}
	w := int(values[0])
	// Arrow reads indices of up to 63 bits into an int32.
	reach := int64(1) << min(w, 31)
	if reach <= d.values || reach*elem <= lim.ParquetPageBytes {
		return nil
	}
	return limitError(limitParquetPageBytes, lim.ParquetPageBytes,
		"the data page at byte %d stores dictionary indices of %d bits for a dictionary of %s; an index past the dictionary would unpack it to %s",
		pos, w, valueCount(d.values), byteSize(reach*elem))
}

// pageValues returns the values section of the data page at pos, whose
// header h has been checked: the page's bytes unpacked, after its
// repetition and definition levels.
func (d *pageDict) pageValues(r io.ReaderAt, pos int64, h pageHeader) (values []byte, err error) {
	stored := make([]byte, h.compressed)
	if _, err := r.ReadAt(stored, pos+int64(h.length)); err != nil {
		return nil, fmt.Errorf("cannot read it: %w", err)
	}
	if h.typ == pageDataV2 {
		levels := int64(h.repBytes) + int64(h.defBytes)
		if h.repBytes < 0 || h.defBytes < 0 || levels > int64(len(stored)) || levels > int64(h.uncompressed) {
			return nil, fmt.Errorf("its levels take %d and %d bytes of %s", h.repBytes, h.defBytes, byteSize(int64(len(stored))))
		}
		if h.v2Unpacked {
			return stored[levels:], nil
		}
		return d.unpack(stored[levels:], int(int64(h.uncompressed)-levels))
	}
	data, err := d.unpack(stored, int(h.uncompressed))
	if err != nil {
		return nil, err
	}
	// Version 1: repetition levels, definition levels, then the values.
	off := int64(0)
	for _, l := range []struct {
		max int16
		enc int32
	}{{d.col.MaxRepetitionLevel(), h.repEncoding}, {d.col.MaxDefinitionLevel(), h.defEncoding}} {
		if l.max <= 0 {
			continue
		}
		switch l.enc {
		case encodingRLE:
			if int64(len(data))-off < 4 {
				return nil, errors.New("its levels are cut short")
			}
			off += 4 + int64(binary.LittleEndian.Uint32(data[off:]))
		case encodingBitPacked:
			width := int64(0)
			for v := l.max; v > 0; v >>= 1 {
				width++
			}
			off += (h.values*width + 7) / 8
		default:
			return nil, fmt.Errorf("its levels have the unknown encoding %d", l.enc)
		}
		if off > int64(len(data)) {
			return nil, errors.New("its levels run past its end")
		}
	}
	return data[off:], nil
}

// unpack unpacks a page's stored bytes to n bytes with the chunk's codec
// (the bounded codecs of codecs.go, which panic on data they refuse).
func (d *pageDict) unpack(stored []byte, n int) (data []byte, err error) {
	if d.codec == compress.Codecs.Uncompressed {
		return stored, nil
	}
	codec, err := compress.GetCodec(d.codec)
	if err != nil {
		return nil, err
	}
	if cap(d.buf) < n {
		d.buf = make([]byte, n)
	}
	defer func() {
		if p := recover(); p != nil {
			data, err = nil, fmt.Errorf("it cannot be unpacked: %v", p)
		}
	}()
	data = codec.Decode(d.buf[:n], stored)
	if len(data) != n {
		return nil, fmt.Errorf("it unpacks to %s, its header declares %s", byteSize(int64(len(data))), byteSize(int64(n)))
	}
	return data, nil
}

// dictValueBytes is the memory Arrow's dictionary decoder takes per value
// of the column's physical type (0 for a type without dictionaries).
func dictValueBytes(col *schema.Column) int64 {
	switch col.PhysicalType() {
	case parquet.Types.Int32, parquet.Types.Float:
		return 4
	case parquet.Types.Int64, parquet.Types.Double:
		return 8
	case parquet.Types.Int96:
		return 12
	case parquet.Types.ByteArray, parquet.Types.FixedLenByteArray:
		return 24 // a slice header
	}
	return 0
}

// valueCount is "1 value" or "1,000 values".
func valueCount(n int64) string {
	if n == 1 {
		return "1 value"
	}
	return groupDigits(n) + " values"
}
