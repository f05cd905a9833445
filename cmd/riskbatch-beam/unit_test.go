package main

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/riskbatch/riskbatch/table"
)

func TestSplitOutput(t *testing.T) {
	for _, tc := range []struct{ output, format, prefix, want string }{
		{"out/risk", "", "out/risk", ""},
		{"out/risk.parquet", "", "out/risk", "parquet"},
		{"out/risk.CSV", "csv", "out/risk", "csv"},
		{"out/risk.csv", "parquet", "out/risk.csv", "parquet"},
		{"gs://b/x/risk.tsv", "", "gs://b/x/risk", "tsv"},
	} {
		p, f := splitOutput(tc.output, tc.format)
		if p != tc.prefix || f != tc.want {
			t.Errorf("splitOutput(%q, %q) = %q, %q; want %q, %q", tc.output, tc.format, p, f, tc.prefix, tc.want)
		}
	}
}

// A header travels through Beam with its columns' Arrow types (the Source
// of Parquet input columns), which Beam's schemas cannot hold as they are.
func TestColumnsCarryArrowTypes(t *testing.T) {
	types := []arrow.DataType{
		&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"},
		&arrow.Decimal128Type{Precision: 38, Scale: 10},
		extensions.NewUUIDType(),
		arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(arrow.PrimitiveTypes.Int32)),
	}
	cols := []table.Column{{Name: "plain", Kind: table.Text, Role: table.Status, Format: table.Probability, Note: "n"}}
	for i, dt := range types {
		cols = append(cols, table.Column{Name: fmt.Sprint("c", i), Kind: table.Nested, Source: dt})
	}
	enc, err := toColumns(cols)
	if err != nil {
		t.Fatal(err)
	}
	got := tableColumns(enc)
	if got[0] != cols[0] {
		t.Errorf("%+v, want %+v", got[0], cols[0])
	}
	for i, dt := range types {
		c := got[i+1]
		back, ok := c.Source.(arrow.DataType)
		if c.Name != cols[i+1].Name || c.Kind != table.Nested || !ok || !arrow.TypeEqual(back, dt) {
			t.Errorf("column %d: %+v, want type %v", i+1, c, dt)
		}
	}
}
