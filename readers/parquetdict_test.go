package readers

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// A dictionary-encoded page whose indices are 31 bits wide, under a
// dictionary of two values, made arrow/go v17 allocate 16 GiB (it made room
// up to the largest index of a batch before checking it; found by
// fuzzing: testdata/fuzz/FuzzParquet/fbe899c41d1fbb9e), and riskbatch
// checked the index width of every such page before Arrow decoded it.
// arrow-go v18 checks each index against the dictionary before it
// allocates: Arrow alone refuses the page with a few kilobytes allocated,
// and riskbatch's own check is gone. The same page with 1-bit indices
// reads back.
func TestParquetDictIndexWidth(t *testing.T) {
	page := func(width byte, index byte) []byte {
		// The bit width, then one bit-packed run of one group of 8
		// indices (RLE/bit-packing hybrid: header (1<<1)|1).
		p := []byte{width, 0x03}
		return append(p, bytes.Repeat([]byte{index}, int(width))...)
	}
	dictFile := func(payload []byte) []byte {
		f := newForge(1, 2, 3)
		f.dict, f.dictValues = []int64{7, 9}, 2
		f.encoding = 8 // RLE_DICTIONARY
		f.payload, f.pageUncompressed = payload, int64(len(payload))
		return f.bytes()
	}

	// 1-bit indices 1, 0, 1 (0b101): the dictionary's values.
	rows, _, err := readForged(t, dictFile(page(1, 0b101)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != integer(9) || rows[1][0] != integer(7) || rows[2][0] != integer(9) {
		t.Fatalf("rows %v", rows)
	}

	forged := dictFile(page(31, 0xff))
	// Arrow alone, without riskbatch's checks.
	var arrowErr error
	alloc, _, _ := measure(func() { _, arrowErr = readWithArrow(forged) })
	if arrowErr == nil || !strings.Contains(arrowErr.Error(), "dict") {
		t.Errorf("Arrow reads the forged page: %v", arrowErr)
	}
	if alloc > memoryBound {
		t.Errorf("Arrow allocated %d bytes to refuse it", alloc)
	}
	// Through riskbatch: a fatal *table.Error naming the file.
	_, alloc, err = readForged(t, forged, Options{})
	wantError(t, err, pos("forged.parquet", "", 2), "forged.parquet, row 2: the Parquet file is damaged: row group 0: ", "dict")
	if !IsFatal(err) {
		t.Errorf("%v does not end the stream", err)
	}
	if alloc > memoryBound {
		t.Errorf("refusing it allocated %d bytes", alloc)
	}
}

// readWithArrow reads a Parquet file with arrow-go alone (the settings of
// parquetTable, none of its checks), returning its number of rows.
func readWithArrow(data []byte) (rows int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled = true
	pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(props))
	if err != nil {
		return 0, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: DefaultBatchRows}, memory.DefaultAllocator)
	if err != nil {
		return 0, err
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
	}
	return rows, rr.Err()
}
