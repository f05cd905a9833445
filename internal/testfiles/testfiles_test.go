package testfiles

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestReadCSV(t *testing.T) {
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
	}
}
