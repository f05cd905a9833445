package main

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"

	"github.com/riskbatch/riskbatch/readers"
)

// TestSplitCSVEqualsEval cuts CSV files into shards of 64 bytes, a record
// or two each, so that records with quoted line breaks end and begin
// shards: the shards' outputs, in order, are eval's output row for row,
// messages with row numbers included. Besides writeInputs' files (a byte
// order mark, quoted commas and line breaks, malformed records) it reads a
// Windows-1252 file with a sep=; line and decimal commas, with CRLF line
// ends, and a UTF-16 file: the shards after the first read with the
// encoding, delimiter and header of the whole file.
func TestSplitCSVEqualsEval(t *testing.T) {
	bin, inputs := prepare(t)
	var latin strings.Builder
	latin.WriteString("sep=;\r\nid;epsilon;delta;note\r\n")
	for i := range 40 {
		latin.WriteString(strings.NewReplacer("#", string(rune('0'+i%10))).Replace("l#;0,#5;1e-5;\"caf\u00e9\r\nline #\"\r\n"))
		if i%7 == 0 {
			latin.WriteString(";;;\r\n")
		}
	}
	win, err := charmap.Windows1252.NewEncoder().String(latin.String())
	if err != nil {
		t.Fatal(err)
	}
	var wide strings.Builder
	wide.WriteString("\ufeffid,sigma,delta,note\n")
	for i := range 40 {
		wide.WriteString(strings.NewReplacer("#", string(rune('0'+i%10))).Replace("w#,#.5,1e-6,\"\u03c3 \"\"two\"\"\nlines\"\n"))
	}
	var u16 []byte
	for _, u := range utf16.Encode([]rune(wide.String())) {
		u16 = append(u16, byte(u), byte(u>>8))
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"in/part-3.csv", []byte(win)}, {"in/part-4.csv", u16}} {
		if err := os.WriteFile(f.name, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, f.name)
	}
	eval(t, bin, append(inputs, "-o", "eval.csv", "--priors", "priors.csv")...)
	wantHeader, want := readCSV(t, "eval.csv")

	const shardBytes = 64
	_, counts := runPipeline(t, Config{Inputs: []string{"in/part-*.csv"}, Priors: []string{"priors.csv"}, Output: "out/risk", ShardBytes: shardBytes})
	got := shardRows(t, "out/risk", "csv", wantHeader, readCSV)
	compareRows(t, wantHeader, got, want)
	if n := len(shards(t, "out/risk", "csv")); n < 200 {
		t.Errorf("%d output shards; shards of %d bytes make one for every record or two", n, shardBytes)
	}
	if counts.total() != int64(len(want)) || len(want) != 680 {
		t.Errorf("counted %d rows, eval wrote %d, want 5 files of 200, 200, 200, 40 and 40 rows", counts.total(), len(want))
	}
	// The comparison means something only if shards end with a quoted
	// line break in their last record, and decimal commas were read.
	atBreak := 0
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		tables, err := readers.OpenReader(in, bytes.NewReader(data), int64(len(data)), readers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		parts, err := readers.SplitCSV(tables[0], bytes.NewReader(data), int64(len(data)), shardBytes)
		tables[0].Close()
		if err != nil || len(parts) < 10 {
			t.Fatalf("%s: %d parts (%v)", in, len(parts), err)
		}
		for _, p := range parts[:len(parts)-1] {
			if endsInQuotedBreak(data[:p.To], in == "in/part-4.csv") {
				atBreak++
			}
		}
	}
	t.Logf("%d shards end with a record holding a quoted line break", atBreak)
	if atBreak < 20 {
		t.Errorf("only %d shards end with a record holding a quoted line break", atBreak)
	}
	// 0,05 is read as 0.05 (the file is semicolon-delimited): the row
	// lacks only a baseline.
	if st, msg := want[600][slices.Index(wantHeader, "status")], want[600][slices.Index(wantHeader, "message")]; st != "partial" || !strings.HasPrefix(msg, "add baseline") {
		t.Errorf("the Windows-1252 file's first row: %s, %q; want its epsilon 0,05 read with its decimal comma", st, msg)
	}
}

// endsInQuotedBreak reports whether the last record of text (UTF-16LE
// when wide) ends with a quoted field that holds a line break.
func endsInQuotedBreak(text []byte, wide bool) bool {
	s := string(text)
	if wide {
		units := make([]uint16, len(text)/2)
		for i := range units {
			units[i] = uint16(text[2*i]) | uint16(text[2*i+1])<<8
		}
		s = string(utf16.Decode(units))
	}
	s = strings.TrimRight(s, "\r\n")
	open := max(strings.LastIndex(s, `,"`), strings.LastIndex(s, `;"`))
	return strings.HasSuffix(s, `"`) && open >= 0 && strings.Contains(s[open:], "\n")
}

// TestSplitParquetEqualsEval cuts Parquet files of 29 row groups (of 7
// rows) into shards of two row groups: the shards' outputs, in order, are
// eval's Parquet output row for row, typed cells included.
func TestSplitParquetEqualsEval(t *testing.T) {
	bin, inputs := prepare(t)
	pq := parquetInputs(t, bin, inputs, 7)
	data, err := os.ReadFile(pq[0])
	if err != nil {
		t.Fatal(err)
	}
	tables, err := readers.OpenReader(pq[0], bytes.NewReader(data), int64(len(data)), readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	groups, _ := readers.RowGroups(tables[0])
	tables[0].Close()
	if len(groups) != 29 { // 200 rows in groups of 7
		t.Fatalf("%s has %d row groups, want 29", pq[0], len(groups))
	}
	eval(t, bin, append(pq, "-o", "eval.parquet", "--priors", "priors.csv")...)
	wantHeader, want := parquetRows(t, "eval.parquet")

	_, counts := runPipeline(t, Config{Inputs: []string{"in/*.parquet"}, Priors: []string{"priors.csv"}, Output: "out/risk", Format: "parquet", ShardRows: 14})
	got := shardRows(t, "out/risk", "parquet", wantHeader, parquetRows)
	compareRows(t, wantHeader, got, want)
	if n := len(shards(t, "out/risk", "parquet")); n != 3*15 {
		t.Errorf("%d output shards, want 15 per file (14 of two row groups, one of the last)", n)
	}
	if counts.total() != int64(len(want)) || len(want) != 600 {
		t.Errorf("counters total %d rows, eval wrote %d of 600", counts.total(), len(want))
	}
}
