package writers

import (
	"bufio"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// parquetDictionaryBytes is the dictionary page size above which a column
// chunk falls back from dictionary to plain encoding. Text columns with few
// distinct values (status, message, mechanism) stay dictionary-encoded;
// columns of identifiers or free text whose first row group passes it are
// written without a dictionary (see textDictionary).
const parquetDictionaryBytes = 64 << 10

// dictionaryRepeatSample is how many values of a text column's first row
// group show that they repeat: where fewer than half of them are distinct,
// the column keeps its dictionary without a look at the rest (see
// textDictionary).
const dictionaryRepeatSample = 4096

// open opens the Parquet file with the properties chosen for the columns
// from their values in the first row group, cols (nil when there is no
// row): Snappy compression, row groups of rowGroupRows rows and a
// dictionary for the columns whose values repeat (see textDictionary).
func (w *parquetWriter) open(cols [][]arrow.Array) error {
	popts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(w.rowGroupRows)),
		parquet.WithDictionaryPageSizeLimit(parquetDictionaryBytes),
	}
	for i, f := range w.schema.Fields() {
		var chunks []arrow.Array
		if i < len(cols) {
			chunks = cols[i]
		}
		if !useDictionary(f.Type, chunks) {
			popts = append(popts, parquet.WithDictionaryPath(parquet.ColumnPath{f.Name}, false))
		}
	}
	props := parquet.NewWriterProperties(popts...)
	// The bufio.Writer also keeps pqarrow from closing the file: the
	// temporary file must stay open for the sync before the rename.
	w.buf = bufio.NewWriterSize(w.out.f, 1<<20)
	fw, err := newRowGroupFile(w.schema, w.buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return w.fail(fmt.Errorf("writers: starting the Parquet file %s: %w", w.out.target, err))
	}
	w.fw = fw
	if err := fw.AppendKeyValueMetadata(Marker, Version()); err != nil {
		return w.fail(fmt.Errorf("writers: starting the Parquet file %s: %w", w.out.target, err))
	}
	return nil
}

// useDictionary reports whether a column of type dt whose first row group
// is chunks is written with a dictionary (Parquet's default, with its
// fallback to plain encoding past parquetDictionaryBytes in each row
// group). A dictionary costs a hash of every value until that fallback,
// in every row group, and pays only where values repeat. Numbers (bounds,
// parameters) are nearly all distinct: they never take one. Text takes
// one unless its first row group shows too many distinct values (see
// textDictionary). Other types keep the default.
func useDictionary(dt arrow.DataType, chunks []arrow.Array) bool {
	switch dt.ID() {
	case arrow.FLOAT64, arrow.INT64:
		return false
	case arrow.STRING, arrow.LARGE_STRING:
		return textDictionary(chunks)
	}
	return true
}

// textDictionary reports whether a text column whose first row group is
// chunks is written with a dictionary: unless the dictionary of that row
// group's values would pass parquetDictionaryBytes, where Parquet's writer
// falls back to plain encoding, having hashed every value up to there, as
// it then would in each row group. That is so of identifiers, free text
// and numbers kept as text from a CSV file; a column whose first values
// are fewer than half distinct (codes, names, flags) is taken to repeat
// after dictionaryRepeatSample values without a look at the rest. The
// dictionary's size is counted as Parquet's writer counts it: the bytes of
// each distinct value and 4 of length.
func textDictionary(chunks []arrow.Array) bool {
	seen := make(map[string]struct{})
	n, size := 0, 0
	for _, c := range chunks {
		text, ok := c.(interface{ Value(int) string }) // *array.String, *array.LargeString
		if !ok || c.NullN() == c.Len() {
			continue
		}
		for j := range c.Len() {
			if c.IsNull(j) {
				continue
			}
			if v := text.Value(j); !has(seen, v) {
				seen[v] = struct{}{}
				if size += 4 + len(v); size > parquetDictionaryBytes {
					return false
				}
			}
			if n++; n == dictionaryRepeatSample && 2*len(seen) < n {
				return true
			}
		}
	}
	return true
}

// has reports whether set holds v.
func has(set map[string]struct{}, v string) bool {
	_, ok := set[v]
	return ok
}
