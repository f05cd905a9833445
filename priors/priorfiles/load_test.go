package priorfiles_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/table"
)

// writeFile writes text to a file in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadAndLookup(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.csv", " Prior ,P,Targets,note\n"+
		"x:sex,0.5,,first\n"+
		"x:sex|island,0.6,,\n"+
		"x:sex|island,0.6,2,\n"+
		",,,blank row\n"+
		"x:sex|island,0.25,1,\n"+
		"x:sex,0.5,3,later rows of a key\n")
	b := writeFile(t, dir, "b.tsv", "p\tprior\n1\tother\n0\tother\n")
	ts := mustLoad(t, []string{a, b})
	if ts.Len() != 3 || !slices.Equal(ts.Keys(), []string{"other", "x:sex", "x:sex|island"}) || !slices.Equal(ts.Files(), []string{a, b}) {
		t.Errorf("keys %q files %q", ts.Keys(), ts.Files())
	}
	p, err := ts.Lookup("x:sex|island")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Ps(); !slices.Equal(got, []float64{0.6, 0.6, 0.6, 0.25}) || p.Targets() != 4 || p.Max() != 0.6 {
		t.Errorf("x:sex|island: %v (%d targets, max %v)", got, p.Targets(), p.Max())
	}
	if p.P(3) != 0.25 || p.P(0) != 0.6 || !math.IsNaN(p.P(4)) || !math.IsNaN(p.P(-1)) {
		t.Errorf("P(i): %v %v %v", p.P(0), p.P(3), p.P(4))
	}
	if g := p.Groups(); len(g) != 2 || g[0] != (priors.Group{P: 0.6, Count: 3}) {
		t.Errorf("groups %v", g)
	}
	if _, ok := p.Candidates(); ok {
		t.Errorf("a table prior has no candidate count")
	}
	if p.Source() != a {
		t.Errorf("source %q", p.Source())
	}
	// Case-insensitive match, surrounding spaces ignored.
	if p, err := ts.Lookup("  X:SEX "); err != nil || p.Targets() != 4 || p.Key() != "x:sex" {
		t.Errorf("X:SEX: %d targets (%v)", p.Targets(), err)
	}
	// A missing key names the key, the tables and close keys.
	_, err = ts.Lookup("x:sexx")
	var ke *priors.KeyError
	if !errors.As(err, &ke) {
		t.Fatalf("missing key: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{`"x:sexx"`, "a.csv (2 keys)", "b.tsv (1 key)", `"x:sex"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error %q does not say %q", msg, want)
		}
	}
	// Resolve: inline priors first, then keys.
	if p, err := ts.Resolve("uniform(4)"); err != nil || p.Max() != 0.25 {
		t.Errorf("uniform(4): %v %v", p.Max(), err)
	}
	if p, err := ts.Resolve("other"); err != nil || !slices.Equal(p.Ps(), []float64{1, 0}) {
		t.Errorf("other: %v %v", p.Ps(), err)
	}
	if _, err := ts.Resolve("zipf(1, inf)"); err == nil {
		t.Errorf("a malformed inline prior resolved")
	}
	// No tables at all.
	var none *priors.Tables
	if _, err := none.Lookup("x"); err == nil || !strings.Contains(err.Error(), "no prior tables") {
		t.Errorf("nil tables: %v", err)
	}
	if p, err := none.Resolve("uniform(2)"); err != nil || p.Max() != 0.5 {
		t.Errorf("nil tables, inline: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.csv", "prior,p,targets\n"+
		"a,0.5,\n"+ // row 2 fine
		"a,1.5,\n"+ // row 3: p > 1
		",0.2,\n"+ // row 4: empty key
		"b,NaN,\n"+ // row 5
		"c,,\n"+ // row 6: empty p
		"d,abc,\n"+ // row 7
		"e,0.1,0\n"+ // row 8: targets 0
		"f,0.1,2.5\n"+ // row 9
		"g,-0.1,\n") // row 10
	_, _, err := priorfiles.Load([]string{bad})
	if err == nil {
		t.Fatal("no error")
	}
	want := map[int]string{3: "p", 4: "prior", 5: "p", 6: "p", 7: "p", 8: "targets", 9: "targets", 10: "p"}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		t.Fatalf("not a joined error: %v", err)
	}
	got := map[int]string{}
	for _, e := range joined.Unwrap() {
		var te *table.Error
		if !errors.As(e, &te) {
			t.Errorf("not a *table.Error: %v", e)
			continue
		}
		got[te.Pos.Row] = te.Pos.ColumnName
	}
	for row, col := range want {
		if got[row] != col {
			t.Errorf("row %d: error in column %q, want %q (all: %v)", row, got[row], col, err)
		}
	}
	if len(got) != len(want) {
		t.Errorf("errors on rows %v, want %v", got, want)
	}

	// Missing columns, a key defined by two files, a missing file.
	noP := writeFile(t, dir, "nop.csv", "prior,q\na,0.5\n")
	if _, _, err := priorfiles.Load([]string{noP}); err == nil || !strings.Contains(err.Error(), "prior and p") {
		t.Errorf("missing p column: %v", err)
	}
	one := writeFile(t, dir, "one.csv", "prior,p\nk,0.5\n")
	two := writeFile(t, dir, "two.csv", "prior,p\nk,0.5\n")
	if _, _, err := priorfiles.Load([]string{one, two}); err == nil || !strings.Contains(err.Error(), "also defined in") {
		t.Errorf("key in two files: %v", err)
	}
	if _, _, err := priorfiles.Load([]string{filepath.Join(dir, "none.csv")}); err == nil {
		t.Errorf("missing file: no error")
	}
	dup := writeFile(t, dir, "dup.csv", "prior,p,P\nk,0.5,0.5\n")
	if _, _, err := priorfiles.Load([]string{dup}); err == nil {
		t.Errorf("two p columns: no error")
	}
}

// A p cell may be a percentage, as a release cell may ("30%" is 0.3, the
// value a person means by it); forms no one types as a probability stay
// errors.
func TestLoadPercentages(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "pct.csv", "prior,p,targets\n"+
		"a,30%,\n"+
		"a, 12.5 % ,2\n"+
		"b,100%,\n"+
		"c,0%,\n"+
		"d,3e-1,\n"+
		"e,7%,\n")
	ts := mustLoad(t, []string{path})
	for key, want := range map[string][]float64{"a": {0.3, 0.125, 0.125}, "b": {1}, "c": {0}, "d": {0.3}, "e": {0.07}} {
		p, err := ts.Lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Ps(); !slices.Equal(got, want) {
			t.Errorf("%s: p = %v, want %v", key, got, want)
		}
	}
	for _, bad := range []string{"130%", "-5%", "%", "0x1p-2", "inf", "Infinity", "30%%", "1/3"} {
		path := writeFile(t, dir, "bad.csv", "prior,p\nk,"+bad+"\n")
		if _, _, err := priorfiles.Load([]string{path}); err == nil {
			t.Errorf("p %q loaded without an error", bad)
		}
	}
}
