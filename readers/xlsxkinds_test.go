package readers

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// With ColumnKinds, each column of kinds.xlsx (openpyxl) and of the same
// workbook saved by LibreOffice (kinds-lo.xlsx) has the kind its cells
// share, as testdata/gen_xlsx.py writes them: text, numbers (compositions
// written as Python integers are numbers: a sheet holds float64), a
// formula column (=C2*2: computed in kinds.xlsx, cached in kinds-lo.xlsx),
// booleans, dates, timestamps and times with an empty cell among them;
// "mixed" (1, "two", 3) and "spaced" (1, " ", 2) are of two kinds, "note"
// has no cell: Empty. Without the option every kind is Empty, and the
// rows read the same either way.
func TestXLSXColumnKinds(t *testing.T) {
	want := []table.Kind{table.Text, table.Text, table.Number, table.Number, table.Number, table.Bool, table.Date,
		table.Timestamp, table.TimeOfDay, table.Empty, table.Empty, table.Number, table.Empty}
	for _, name := range []string{"kinds.xlsx", "kinds-lo.xlsx"} {
		path := filepath.Join("testdata", name)
		typed := openOne(t, path, Options{Known: knownNames, ColumnKinds: true})
		_, kinds := columnNames(typed.Columns())
		if !reflect.DeepEqual(kinds, want) {
			t.Errorf("%s: kinds %v, want %v", name, kinds, want)
		}
		typedRows := drain(t, typed)
		plain := openOne(t, path, Options{Known: knownNames})
		_, kinds = columnNames(plain.Columns())
		for i, k := range kinds {
			if k != table.Empty {
				t.Errorf("%s without ColumnKinds: column %d is %v, want empty", name, i, k)
			}
		}
		if plainRows := drain(t, plain); !reflect.DeepEqual(typedRows, plainRows) || len(plainRows) != 4 {
			t.Errorf("%s: %d rows with ColumnKinds, %d without, or they differ", name, len(typedRows), len(plainRows))
		}
	}
}

// Folding a column's cells: numbers with empty cells are a number column,
// and a text after them makes it of two kinds; timestamps finer than
// milliseconds or in UTC (ISO cells) are not typed, as a typed column of
// the first row's unit could not hold them all; a blank text among
// numbers keeps the column text, where a typed column would write it as a
// null.
func TestXLSXColumnKindsFold(t *testing.T) {
	var k kindFold
	for _, c := range []table.Cell{num(1), empty(), num(2)} {
		k.add(c)
	}
	if k.result() != table.Number {
		t.Errorf("numbers and an empty cell: %v", k.result())
	}
	k.add(txt("x"))
	if k.result() != table.Empty {
		t.Errorf("numbers and a text: %v", k.result())
	}
	for _, c := range []table.Cell{stamp(1, table.Microsecond), stamp(1, table.Second.InUTC()), clock(1, table.Nanosecond)} {
		var f kindFold
		f.add(stamp(5, table.Second))
		if f.add(c); f.result() != table.Empty {
			t.Errorf("a timestamp column with %+v: %v", c, f.result())
		}
	}
	var ms kindFold
	ms.add(stamp(5, table.Second))
	ms.add(stamp(5500, table.Millisecond))
	if ms.result() != table.Timestamp {
		t.Errorf("seconds and milliseconds: %v", ms.result())
	}
	var blank kindFold
	blank.add(txt(" "))
	blank.add(num(1))
	if blank.result() != table.Empty {
		t.Errorf("a blank text and a number: %v (a typed column would write the blank as null)", blank.result())
	}
}
