package readback

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/table"
)

func TestReadFileAndCSV(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		comma      rune
		want       [][]string
	}{
		{"a.csv", "x,y\n1,\"a,b\"\n", 0, [][]string{{"x", "y"}, {"1", "a,b"}}},
		{"a.tsv", "x\ty\n1\ta,b\n", '\t', [][]string{{"x", "y"}, {"1", "a,b"}}},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := ReadCSV(t, path, tc.comma); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		if got := ReadFile(t, path); string(got) != tc.text {
			t.Errorf("%s: ReadFile %q, want %q", tc.name, got, tc.text)
		}
	}
}

func TestAllRows(t *testing.T) {
	want := [][]table.Cell{{table.TextCell("a"), table.IntegerCell(1)}, {table.Cell{}}}
	if got := AllRows(t, memtable.New("t.csv", nil, want...)); !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
	if got := AllRows(t, memtable.New("t.csv", nil)); got != nil {
		t.Errorf("no rows: %v", got)
	}
}

func TestText(t *testing.T) {
	m := memtable.New("t.csv", []string{"x", "y"}, []table.Cell{table.TextCell("a"), table.IntegerCell(1)}, []table.Cell{{}, table.TextCell("b")})
	if got := Text(t, m); got != "x y a 1  b" {
		t.Errorf("%q", got)
	}
}
