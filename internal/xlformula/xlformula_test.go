package xlformula

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	f := Parse(`SUM(A2:$B$3)*'My ''x'' sheet'!C4+Data!$D:E+3:$5+LOG10(x_rate)+"A1"&{1,"B2"}+1E+300+#REF!+T(TRUE)`)
	type ref struct {
		Text, Sheet string
		Kind        RefKind
		C1, R1      int
		C2, R2      int
	}
	var got []ref
	for _, r := range f.Refs {
		got = append(got, ref{f.Text[r.Start:r.End], r.Sheet, r.Kind, r.Col1, r.Row1, r.Col2, r.Row2})
	}
	want := []ref{
		{"A2:$B$3", "", CellRef, 1, 2, 2, 3},
		{"'My ''x'' sheet'!C4", "My 'x' sheet", CellRef, 3, 4, 3, 4},
		{"Data!$D:E", "Data", ColRef, 4, 0, 5, 0},
		{"3:$5", "", RowRef, 0, 3, 0, 5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("refs\n got %+v\nwant %+v", got, want)
	}
	if !reflect.DeepEqual(f.Funcs, []string{"SUM", "LOG10", "T"}) {
		t.Errorf("funcs %q", f.Funcs)
	}
	if !reflect.DeepEqual(f.Names, []string{"X_RATE"}) {
		t.Errorf("names %q", f.Names)
	}
	if f.Unsupported != nil {
		t.Errorf("unsupported %q", f.Unsupported)
	}
	for text, why := range map[string]string{
		"[1]Sheet1!A1*2":           External,
		"'C:\\x\\[b.xlsx]S'!A1":    External,
		"SUM(Table1[Amount])":      Structured,
		"SUM(Sheet1:Sheet3!A1)":    ThreeD,
		"_xlfn.CONCAT(A1,\"[x]\")": "",
	} {
		f := Parse(text)
		if why == "" && f.Unsupported != nil || why != "" && !reflect.DeepEqual(f.Unsupported, []string{why}) {
			t.Errorf("%s: unsupported %q, want %q", text, f.Unsupported, why)
		}
	}
	if f := Parse("_xlfn.CONCAT(A1)"); !reflect.DeepEqual(f.Funcs, []string{"CONCAT"}) || len(f.Refs) != 1 {
		t.Errorf("%+v", f)
	}
}

func TestShift(t *testing.T) {
	for _, c := range []struct {
		in         string
		dRow, dCol int
		want       string
		ok         bool
	}{
		{"A2*2", 3, 0, "A5*2", true},
		{"$A$2+A$2+$A2+B:B+$C:C+2:2", 1, 1, "$A$2+B$2+$A3+C:C+$C:D+3:3", true},
		{"Sheet2!A1+'x y'!B2", 1, 0, "Sheet2!A2+'x y'!B3", true},
		{`"A1"&A1`, 1, 0, `"A1"&A2`, true},
		{"A1", -1, 0, "", false},
		{"SUM(A1:A3)", 2, 2, "SUM(C3:C5)", true},
	} {
		got, ok := Shift(c.in, c.dRow, c.dCol)
		if got != c.want || ok != c.ok {
			t.Errorf("Shift(%q, %d, %d) = %q, %v; want %q, %v", c.in, c.dRow, c.dCol, got, ok, c.want, c.ok)
		}
	}
}
