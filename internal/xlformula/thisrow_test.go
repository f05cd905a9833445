package xlformula

import "testing"

// ThisRow writes names as Excel's structured references do; ResolveThisRow
// reads them back, whatever their characters.
func TestThisRow(t *testing.T) {
	for _, c := range []struct{ name, ref string }{
		{"epsilon", "[@epsilon]"},
		{"fdp_success", "[@fdp_success]"},
		{"ε2", "[@ε2]"},
		{"my column", "[@[my column]]"},
		{"a[1]", "[@[a'[1']]]"},
		{"#n", "[@['#n]]"},
		{"it's", "[@[it''s]]"},
		{"x.y", "[@[x.y]]"},
		{"']", "[@[''']]]"},
	} {
		if got := ThisRow(c.name); got != c.ref {
			t.Errorf("ThisRow(%q) = %q, want %q", c.name, got, c.ref)
		}
		got, ok := ResolveThisRow("1+"+c.ref+"*2", func(n string) (string, bool) { return "<" + n + ">", true })
		if want := "1+<" + c.name + ">*2"; !ok || got != want {
			t.Errorf("ResolveThisRow of %q = %q, %v; want %q", c.ref, got, ok, want)
		}
	}
}

// References resolve to their cells; string literals stay as they are; a
// name without a cell or a malformed reference gives no formula.
func TestResolveThisRow(t *testing.T) {
	cells := map[string]string{"baseline": "A7", "epsilon": "B7", "a b": "Z7"}
	cell := func(n string) (string, bool) { c, ok := cells[n]; return c, ok }
	for _, c := range []struct {
		formula, want string
		ok            bool
	}{
		{"[@baseline]*EXP([@epsilon])/([@baseline]*EXP([@epsilon])+1-[@baseline])", "A7*EXP(B7)/(A7*EXP(B7)+1-A7)", true},
		{"NORMSDIST(1)", "NORMSDIST(1)", true},
		{`IF([@[a b]]>0,"[@epsilon] ""[@x]""",0)`, `IF(Z7>0,"[@epsilon] ""[@x]""",0)`, true},
		{"[@delta]+1", "", false},
		{"[@]", "", false},
		{"[@epsilon", "", false},
		{"[@[a b]+1", "", false},
		{"[@a[b]", "", false},
		{"[@x'", "", false},
	} {
		got, ok := ResolveThisRow(c.formula, cell)
		if got != c.want || ok != c.ok {
			t.Errorf("ResolveThisRow(%q) = %q, %v; want %q, %v", c.formula, got, ok, c.want, c.ok)
		}
	}
}
