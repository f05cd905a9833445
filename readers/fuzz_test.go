package readers

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// readAllFuzz opens data under name and reads every table to the end,
// checking the readers' contract on hostile bytes: no panic, no endless
// loop, every error a *table.Error, rows no wider than their header.
func readAllFuzz(t *testing.T, name string, data []byte) {
	tables, err := OpenReader(name, bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		var te *table.Error
		if !errors.As(err, &te) {
			t.Fatalf("Open error %v (%T) is not a *table.Error", err, err)
		}
		return
	}
	for _, tb := range tables {
		width := len(tb.Columns())
		for i := 0; ; i++ {
			if i > 4*len(data)+16 {
				t.Fatal("more rows than the input could hold: Next does not end")
			}
			row, err := tb.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var te *table.Error
				if !errors.As(err, &te) {
					t.Fatalf("Next error %v (%T) is not a *table.Error", err, err)
				}
				if IsFatal(err) {
					break
				}
				continue
			}
			if len(row.Cells) > width {
				t.Fatalf("row of %d cells under a header of %d", len(row.Cells), width)
			}
		}
		tb.Close()
	}
}

// seedFiles adds the sample release table in the given format, and a few
// damaged copies of it, to a fuzz corpus.
func seedFiles(f *testing.F, ext string) {
	data, err := os.ReadFile(filepath.Join("..", "samples", "releases"+ext))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	flipped := bytes.Clone(data)
	for i := len(flipped) / 3; i < len(flipped); i += 97 {
		flipped[i] ^= 0x5a
	}
	f.Add(flipped)
	f.Add([]byte{})
}

// FuzzXLSX: any bytes named .xlsx (a zip of XML parts, the shared strings,
// inline strings, formulas with cached values, errors like #DIV/0!) are
// read without panicking, within the readers' contract.
func FuzzXLSX(f *testing.F) {
	seedFiles(f, ".xlsx")
	f.Fuzz(func(t *testing.T, data []byte) { readAllFuzz(t, "fuzz.xlsx", data) })
}

// FuzzParquet: any bytes named .parquet (forged footers, absurd metadata,
// damaged pages) are read without panicking, within the readers' contract.
func FuzzParquet(f *testing.F) {
	seedFiles(f, ".parquet")
	f.Fuzz(func(t *testing.T, data []byte) { readAllFuzz(t, "fuzz.parquet", data) })
}

// Damaged Parquet files are refused, never fatal: random damage of one to
// four bytes anywhere in the sample file (footer, page headers, the stored
// Arrow schema) gives rows or a *table.Error. Two such damages once ended
// the process from inside Arrow: a forged length in the stored Arrow schema
// (a 177 GB allocation) and a row group without a chunk for every column
// (a nil dereference on one of pqarrow's own goroutines).
func TestParquetRandomDamage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "samples", "releases.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 1500; i++ {
		d := bytes.Clone(data)
		for k := 0; k < 1+rng.Intn(4); k++ {
			d[rng.Intn(len(d))] = byte(rng.Intn(256))
		}
		readAllFuzz(t, "damaged.parquet", d)
	}
}
