package readers

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// TestParquetRowGroupRanges reads the fixture (5,000 rows in row groups of
// 1,500) by runs of row groups: each run gives the rows of the whole file
// at the same row numbers, and the runs together give every row once.
func TestParquetRowGroupRanges(t *testing.T) {
	data := parquetFixture(t)
	open := func() Table {
		tables, err := OpenReader("f.parquet", bytes.NewReader(data), int64(len(data)), Options{BatchRows: 700})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tables[0].Close() })
		return tables[0]
	}
	groups, ok := RowGroups(open())
	if want := []int64{1500, 1500, 1500, 500}; !ok || !reflect.DeepEqual(groups, want) {
		t.Fatalf("RowGroups = %v, %v; want %v", groups, ok, want)
	}
	for _, r := range [][2]int{{0, 4}, {0, 1}, {1, 3}, {3, 4}, {2, 2}, {4, 4}} {
		tb := open()
		if err := LimitRowGroups(tb, r[0], r[1]); err != nil {
			t.Fatal(err)
		}
		first := 0
		for _, n := range groups[:r[0]] {
			first += int(n)
		}
		want := 0
		for _, n := range groups[r[0]:r[1]] {
			want += int(n)
		}
		got := drain(t, tb)
		if len(got) != want {
			t.Fatalf("groups %v: %d rows, want %d", r, len(got), want)
		}
		for i, e := range got {
			wantRow(t, e, pos("f.parquet", "", first+i+2), wantParquetRow(first+i))
			if t.Failed() {
				t.FailNow()
			}
		}
	}
	tb := open()
	if _, err := tb.Next(); err != nil {
		t.Fatal(err)
	}
	if err := LimitRowGroups(tb, 1, 2); err == nil {
		t.Error("row groups limited after a row was read")
	}
	if err := LimitRowGroups(open(), 2, 5); err == nil {
		t.Error("row groups 2 to 4 of a file of 4")
	}
	csv := openCSVText(t, []byte("a\n1\n"), Options{})
	if _, ok := RowGroups(csv); ok {
		t.Error("RowGroups of a CSV table")
	}
	if err := LimitRowGroups(csv, 0, 0); err == nil {
		t.Error("LimitRowGroups of a CSV table")
	}
}

// openCSVText opens CSV text from memory.
func openCSVText(t *testing.T, data []byte, opts Options) Table {
	t.Helper()
	tables, err := OpenReader("f.csv", bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		t.Fatalf("%v\n%q", err, data)
	}
	t.Cleanup(func() { _ = tables[0].Close() })
	return tables[0]
}

// randomCSV is CSV text that exercises every way the record parser ends a
// record or does not: quoted fields holding delimiters, quotes and line
// ends (LF, CRLF, lone CR), lone quotes in and out of quoted fields, blank
// lines and lines of delimiters only, short and long records, an optional
// sep= line, and a last record without a line end or cut inside quotes.
func randomCSV(rng *rand.Rand, delim string) string {
	var b strings.Builder
	ends := []string{"\n", "\r\n", "\r"}
	end := func() string { return ends[rng.Intn(len(ends))] }
	if rng.Intn(4) == 0 {
		b.WriteString("sep=" + delim + end())
	}
	if rng.Intn(4) == 0 {
		b.WriteString(end()) // a blank line before the header
	}
	b.WriteString(strings.Join([]string{"id", `"na""me"`, "eps", "note"}, delim) + end())
	fields := []string{
		"x", "1.5", "é€", "", `""`, `"a` + delim + `b"`, `"two` + "\n" + `lines"`, `"cr` + "\r\n" + `lf"`,
		`"lone` + "\r" + `cr"`, `"say ""hi"""`, `"ab"c"`, `a"b`, `"` + delim + `"`, `" "`, `""""`,
	}
	for i := 0; i < 30; i++ {
		switch rng.Intn(12) {
		case 0:
			b.WriteString(end()) // a blank line
			continue
		case 1:
			b.WriteString(strings.Repeat(delim, 3) + end())
			continue
		}
		n := 1 + rng.Intn(6) // short, full and long records
		rec := make([]string, n)
		for j := range rec {
			rec[j] = fields[rng.Intn(len(fields))]
		}
		b.WriteString(strings.Join(rec, delim) + end())
	}
	switch rng.Intn(3) {
	case 0:
		b.WriteString("last" + delim + "no end")
	case 1:
		b.WriteString(`cut` + delim + `"open quote` + "\n" + `to the end`)
	}
	return b.String()
}

// TestCSVPartsReadAsWhole: a CSV file read in parts (SplitCSV, then each
// part with OpenCSVPart) gives exactly the rows, cells, positions and
// errors of the file read whole, whatever the part size, in every
// encoding SplitCSV splits; an encoding it cannot split gives no part.
func TestCSVPartsReadAsWhole(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	encodings := []struct {
		name   string
		encode func(string) []byte
		opts   Options
	}{
		{"utf-8", func(s string) []byte { return []byte(s) }, Options{}},
		{"utf-8 bom", func(s string) []byte { return []byte("\ufeff" + s) }, Options{}},
		{"utf-16le bom", func(s string) []byte { return utf16Bytes(s, false, true) }, Options{}},
		{"utf-16be", func(s string) []byte { return utf16Bytes(s, true, false) }, Options{}},
		{"windows-1252", func(s string) []byte {
			b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
			if err != nil {
				t.Fatal(err)
			}
			return append(b, 0x81) // a byte Windows-1252 does not define: an error of its record
		}, Options{}},
	}
	parts := 0
	for n := range testenv.Count(15, 60) { // random texts: 15 by default, 60 in the long run
		delim := []string{",", ";", "\t", "|"}[n%4]
		text := randomCSV(rng, delim)
		for _, enc := range encodings {
			data := enc.encode(text)
			whole := drain(t, openCSVText(t, data, enc.opts))
			for _, size := range []int64{1, 9, 40, 1 << 20} {
				first := openCSVText(t, data, enc.opts)
				ps, err := SplitCSV(first, bytes.NewReader(data), int64(len(data)), size)
				if err != nil || len(ps) == 0 {
					t.Fatalf("%s, parts of %d: %v, %d parts\n%q", enc.name, size, err, len(ps), text)
				}
				parts += len(ps)
				var got []entry
				for i, p := range ps {
					if i > 0 && p.From != ps[i-1].To || p.To < p.From {
						t.Fatalf("%s: parts %+v", enc.name, ps)
					}
					pt, err := OpenCSVPart(first, bytes.NewReader(data), int64(len(data)), p)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, drain(t, pt)...)
				}
				if ps[len(ps)-1].To != int64(len(data)) {
					t.Fatalf("%s: the last part ends at %d of %d", enc.name, ps[len(ps)-1].To, len(data))
				}
				sameEntries(t, fmt.Sprintf("%s, parts of %d bytes (%d)", enc.name, size, len(ps)), got, whole, text)
			}
		}
	}
	t.Logf("%d parts compared", parts)

	sjis, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte("id,名前\n1,ソ\n"))
	if err != nil {
		t.Fatal(err)
	}
	tb := openCSVText(t, sjis, Options{Encoding: "shift_jis"})
	if ps, err := SplitCSV(tb, bytes.NewReader(sjis), int64(len(sjis)), 1); ps != nil || err != nil {
		t.Errorf("Shift JIS split into %+v (%v): its characters have ASCII bytes", ps, err)
	}
}

// sameEntries compares the rows and errors of a file read in parts with
// those of the file read whole.
func sameEntries(t *testing.T, what string, got, want []entry, text string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d entries, whole %d\n%q", what, len(got), len(want), text)
	}
	for i := range got {
		g, w := got[i], want[i]
		ge, we := fmt.Sprint(g.Err), fmt.Sprint(w.Err)
		if !reflect.DeepEqual(g.Row, w.Row) || ge != we {
			t.Fatalf("%s: entry %d:\n%+v %s\nwhole:\n%+v %s\n%q", what, i, g.Row, ge, w.Row, we, text)
		}
	}
}
