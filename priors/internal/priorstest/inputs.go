package priorstest

import (
	"fmt"
	"strings"
)

// The inputs of priors/build's tests, which check the priors built from
// them in memory, row by row; priorfiles' tests build them from CSV files,
// column by column, and check that they get the same.

const (
	// MissingCSV has attribute values missing (u) and known values
	// missing (k).
	MissingCSV = "k,u\nx,A\nx,\nx,\n,B\n,B\n,A\nx,A\n"
	// ErrorsCSV has a number written as a word (b, row 3) and a count
	// column n.
	ErrorsCSV = "a,b,n\nx,1,2\ny,two,1\n"
)

// IDsCSV is 30 records of an id, one of two colors and one of four sizes.
func IDsCSV() string {
	var b strings.Builder
	b.WriteString("id,color,size\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,%s,%d\n", i, []string{"red", "blue"}[i%2], i%4)
	}
	return b.String()
}

// AggregatedCSV returns 21 records of a known value k and an attribute u,
// raw (one row each), and aggregated (one row per pair, with its count,
// and a row of count 0).
func AggregatedCSV() (raw, agg string) {
	var r, a strings.Builder
	r.WriteString("k,u\n")
	a.WriteString("k,u,count\n")
	for _, c := range []struct {
		k, u string
		n    int
	}{{"a", "x", 7}, {"b", "y", 4}, {"a", "y", 2}, {"c", "z", 3}, {"b", "x", 1}, {"b", "z", 4}} {
		r.WriteString(strings.Repeat(c.k+","+c.u+"\n", c.n))
		fmt.Fprintf(&a, "%s,%s,%d\n", c.k, c.u, c.n)
	}
	a.WriteString("d,x,0\n") // a row of count 0 is no record
	return r.String(), a.String()
}

// ZipfCounts are the counts of the values v0, v1, … of ZipfCSV.
var ZipfCounts = [...]int{40, 20, 13, 10, 8}

// ZipfCSV is one column w whose value vi appears ZipfCounts[i] times.
func ZipfCSV() string {
	var b strings.Builder
	b.WriteString("w\n")
	for i, c := range ZipfCounts {
		b.WriteString(strings.Repeat(fmt.Sprintf("v%d\n", i), c))
	}
	return b.String()
}
