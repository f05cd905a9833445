package readers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// A Parquet footer describes every row group of the file, and Arrow decodes
// it whole: a file of many small row groups has a large footer, and its
// decoded metadata (some 2.4 KB per row group of four columns in arrow-go
// v18, 15 KB in v17, whose Thrift decoder grew each statistics value in a
// 512-byte buffer) stayed in memory until the end of the file. 20,000
// one-row row groups took 668 MB.
//
// parquetFooter keeps instead the footer's bytes without its row groups
// and, for each row group, where its bytes lie in the file and its number
// of rows. Reading row group g decodes a footer of one row group, the
// group's bytes read again from the file spliced into the footer in place
// of the list: memory does not grow with the number of row groups, only
// the index does (24 bytes per row group).
//
// The footer's key-value metadata is dropped (an empty list in its place):
// riskbatch reads none of it, and Arrow's IPC decoder trusts the lengths in
// the Arrow schema that Arrow writers store there (key ARROW:schema): one
// damaged byte made it allocate 177 GB and kill the process (found by
// fuzzing; a fatal out-of-memory cannot be recovered). The Parquet schema
// alone gives every type riskbatch reads; only Arrow-specific refinements
// (dictionary encoding of the Arrow side, large string types, a time zone
// other than UTC, durations) are lost, and the cells are the same.
type parquetFooter struct {
	head, tail []byte     // the footer's bytes before and after the value of its row_groups list
	groups     []groupRef // the row groups, in file order
	numRows    int64      // the file's num_rows
}

// groupRef is where a row group's metadata (a Thrift RowGroup struct) lies
// in the file, and its num_rows.
type groupRef struct {
	off  int64
	size int32
	rows int64
}

// Thrift field ids of FileMetaData and RowGroup (parquet.thrift).
const (
	fileMetaNumRows       = 3
	fileMetaRowGroups     = 4
	fileMetaKeyValues     = 5
	fileMetaEncryptionAlg = 8
	rowGroupNumRows       = 3
)

// indexParquetFooter indexes footer, which starts at byte start of the
// file and has passed checkThriftStruct.
func indexParquetFooter(footer []byte, start int64) (*parquetFooter, error) {
	c := &compactReader{b: footer}
	f := &parquetFooter{}
	var out []byte // head, then tail
	from := 0      // footer bytes from here on are still to be copied to out
	sawRowGroups := false
	err := c.structFields(func(id int16, typ byte) error {
		switch {
		case id == fileMetaNumRows && typ == ctI64:
			v, err := c.int()
			f.numRows = v
			return err
		case id == fileMetaEncryptionAlg:
			return errors.New("its columns are encrypted; encrypted Parquet files cannot be read")
		case id == fileMetaKeyValues && typ == ctList:
			out = append(out, footer[from:c.i]...)
			if err := c.skip(typ, true); err != nil {
				return err
			}
			out = append(out, 0<<4|ctStruct) // an empty list
			from = c.i
			return nil
		case id == fileMetaRowGroups && typ == ctList && !sawRowGroups:
			sawRowGroups = true
			f.head = append(out, footer[from:c.i]...)
			out = nil
			elem, n, err := c.listHeader()
			if err != nil {
				return err
			}
			if elem != ctStruct {
				return fmt.Errorf("its row groups are a list of Thrift type %d", elem)
			}
			f.groups = make([]groupRef, 0, n)
			for range n {
				g := groupRef{off: start + int64(c.i)}
				at := c.i
				err := c.structFields(func(id int16, typ byte) error {
					if id == rowGroupNumRows && typ == ctI64 {
						v, err := c.int()
						g.rows = v
						return err
					}
					return c.skip(typ, true)
				})
				if err != nil {
					return err
				}
				g.size = int32(c.i - at) // footers are at most 4 GiB, their structs within
				f.groups = append(f.groups, g)
			}
			from = c.i
			return nil
		}
		return c.skip(typ, true)
	})
	if err != nil {
		return nil, err
	}
	out = append(out, footer[from:c.i]...)
	if !sawRowGroups {
		return nil, errors.New("the footer lists no row groups")
	}
	f.tail = out
	return f, nil
}

// metadata decodes the footer with the row groups whose bytes are groups
// (each a RowGroup struct), buf being reused for the spliced footer. size
// is the file's size.
func (f *parquetFooter) metadata(groups [][]byte, size int64, buf []byte) (*metadata.FileMetaData, []byte, error) {
	buf = append(buf[:0], f.head...)
	if n := len(groups); n < 15 {
		buf = append(buf, byte(n)<<4|ctStruct)
	} else {
		buf = append(buf, 0xf0|ctStruct)
		buf = binary.AppendUvarint(buf, uint64(n))
	}
	for _, g := range groups {
		buf = append(buf, g...)
	}
	buf = append(buf, f.tail...)
	md, err := metadata.NewFileMetaData(buf, nil)
	if err != nil {
		return nil, buf, err
	}
	md.SetSourceFileSize(size)
	return md, buf, nil
}

// readGroup reads the bytes of row group g into buf.
func (f *parquetFooter) readGroup(r io.ReaderAt, g int, buf []byte) ([]byte, error) {
	ref := f.groups[g]
	if cap(buf) < int(ref.size) {
		buf = make([]byte, ref.size)
	}
	buf = buf[:ref.size]
	if n, err := r.ReadAt(buf, ref.off); n < len(buf) {
		return buf, fmt.Errorf("cannot read the metadata of row group %d: %w", g, err)
	}
	return buf, nil
}
