package main

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/riskbatch/riskbatch/table"
)

// TestRowCoderRoundTrip: every cell decodes to what was encoded, numbers
// bit for bit (NaN payloads, -0, subnormals included); truncated data is
// an error, never a panic.
func TestRowCoderRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	specials := []float64{0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(-1), math.Float64frombits(0x7ff8000000000abc)}
	for n := 0; n < 200; n++ {
		cells := make([]table.Cell, rng.Intn(12))
		for i := range cells {
			switch rng.Intn(10) {
			case 0:
			case 1:
				v := rng.NormFloat64() * math.Pow(10, float64(rng.Intn(40)-20))
				if rng.Intn(4) == 0 {
					v = specials[rng.Intn(len(specials))]
				}
				cells[i] = table.NumberCell(v)
			case 2:
				cells[i] = table.IntegerCell(rng.Int63() - rng.Int63())
			case 3:
				cells[i] = table.TextCell(string([]rune{rune(rng.Intn(0x2000)), 'é', '\n', 0})[:rng.Intn(5)])
			case 4:
				cells[i] = table.BoolCell(rng.Intn(2) == 1)
			case 5:
				cells[i] = table.DateCell(rng.Int63n(1e6) - 5e5)
			case 6:
				cells[i] = table.TimestampCell(rng.Int63()-rng.Int63(), table.TimeUnit(1+rng.Intn(4)).InUTC())
			case 7:
				cells[i] = table.TimeOfDayCell(rng.Int63n(86_400_000_000), table.Microsecond)
			case 8:
				cells[i] = table.DecimalCell([]string{"-0.10", "18446744073709551615", "123456789012345678.0000000001"}[rng.Intn(3)])
			case 9:
				cells[i] = table.NestedCell(`{"a":[1,"é"],"b":null}`[:rng.Intn(24)])
			}
		}
		b, err := encodeRow(outputRow{Cells: cells})
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeRow(b)
		if err != nil {
			t.Fatal(err)
		}
		same := slices.EqualFunc(got.Cells, cells, func(a, b table.Cell) bool {
			return a.Kind == b.Kind && math.Float64bits(a.Num) == math.Float64bits(b.Num) && a.Int == b.Int && a.Str == b.Str && a.Bool == b.Bool
		})
		if !same {
			t.Fatalf("decoded %+v, encoded %+v", got.Cells, cells)
		}
		for cut := 0; cut < len(b); cut++ {
			if _, err := decodeRow(b[:cut]); err == nil && len(cells) > 0 {
				t.Fatalf("%d of %d bytes decoded without error", cut, len(b))
			}
		}
	}
	if _, err := encodeRow(outputRow{Cells: []table.Cell{{Kind: 99}}}); err == nil {
		t.Error("a cell of unknown kind encoded")
	}
}

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
