package readers

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// BenchmarkCSVRead reads a 10 MB CSV file of release rows from memory.
func BenchmarkCSVRead(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("id,mechanism,epsilon,delta,sigma,baseline,note,extra\n")
	for i := 0; buf.Len() < 10<<20; i++ {
		fmt.Fprintf(&buf, "release-%d,gaussian,%d.5,1e-5,%d.25,0.01,\"a note, quoted\",x\n", i, i%7, i%13)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		tables, err := OpenReader("bench.csv", bytes.NewReader(data), int64(len(data)), Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := tables[0].Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		tables[0].Close()
	}
}
