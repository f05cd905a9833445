package readers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// entry is one result of Next: a row, or an error.
type entry struct {
	Row table.Row
	Err error
}

// drain reads a table to its end. Errors other than io.EOF are kept as
// entries; an error returned twice in a row fails the test (every error is
// reported once, and io.EOF follows one that ends the stream).
func drain(t *testing.T, tb Table) []entry {
	t.Helper()
	var out []entry
	for range 1_000_000 {
		row, err := tb.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			if n := len(out); n > 0 && out[n-1].Err != nil && out[n-1].Err.Error() == err.Error() {
				t.Fatalf("error returned twice: %v", err)
			}
			out = append(out, entry{Row: row, Err: err})
			continue
		}
		out = append(out, entry{Row: row})
	}
	t.Fatal("the table does not end")
	return nil
}

// openOne opens a file that must give exactly one table.
func openOne(t *testing.T, path string, opts Options) Table {
	t.Helper()
	tables, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	if len(tables) != 1 {
		t.Fatalf("Open(%s): %d tables, want 1", path, len(tables))
	}
	t.Cleanup(func() { _ = tables[0].Close() })
	return tables[0]
}

// writeFile writes a fixture into a temporary directory.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// pos is a row position.
func pos(file, sheet string, row int) table.Position {
	return table.Position{File: file, Sheet: sheet, Row: row, Column: -1}
}

// txt, num, integer, boolean and empty abbreviate cells.
func txt(s string) table.Cell            { return table.TextCell(s) }
func num(v float64) table.Cell           { return table.NumberCell(v) }
func integer(v int64) table.Cell         { return table.IntegerCell(v) }
func boolean(b bool) table.Cell          { return table.BoolCell(b) }
func empty() table.Cell                  { return table.Cell{} }
func cells(c ...table.Cell) []table.Cell { return c }

// formula gives a cell its formula.
func formula(c table.Cell, f string) table.Cell { c.Formula = f; return c }

// wantRow checks a row entry.
func wantRow(t *testing.T, got entry, p table.Position, c []table.Cell) {
	t.Helper()
	if got.Err != nil {
		t.Fatalf("at %v: got error %v, want a row", p, got.Err)
	}
	if got.Row.Pos != p {
		t.Errorf("position %+v, want %+v", got.Row.Pos, p)
	}
	if !reflect.DeepEqual(got.Row.Cells, c) {
		t.Errorf("at %v: cells\n got %#v\nwant %#v", p, got.Row.Cells, c)
	}
}

// wantError checks that err is a *table.Error at p whose message holds
// every fragment.
func wantError(t *testing.T, err error, p table.Position, fragments ...string) *table.Error {
	t.Helper()
	var te *table.Error
	if !errors.As(err, &te) {
		t.Fatalf("error %v (%T), want a *table.Error", err, err)
	}
	if te.Pos != p {
		t.Errorf("error position %+v, want %+v (%v)", te.Pos, p, err)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not contain %q", err, f)
		}
	}
	return te
}

// columnNames returns the columns' names, and their kinds.
func columnNames(cols []table.Column) ([]string, []table.Kind) {
	names := make([]string, len(cols))
	kinds := make([]table.Kind, len(cols))
	for i, c := range cols {
		names[i], kinds[i] = c.Name, c.Kind
	}
	return names, kinds
}

// mkdir makes a directory.
func mkdir(path string) error { return os.Mkdir(path, 0o755) }

// addDamaged adds to files n copies of sample, "damaged<i>.parquet", each
// with 1 to 4 bytes changed at random (from seed).
func addDamaged(files map[string][]byte, sample []byte, n int, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	for i := range n {
		d := bytes.Clone(sample)
		for range 1 + rng.Intn(4) {
			d[rng.Intn(len(d))] = byte(rng.Intn(256))
		}
		files[fmt.Sprintf("damaged%d.parquet", i)] = d
	}
}
