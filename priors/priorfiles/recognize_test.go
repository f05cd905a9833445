package priorfiles_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest/csvtest"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
)

// TestWrittenHeader: the headers of the three tables WriteResult writes,
// with known columns inserted (a conditional prior), are recognised; the
// header of a data file or a release table is not.
func TestWrittenHeader(t *testing.T) {
	res := csvtest.BuildCSV(t, "d.csv", "zip,age,sex\n1,30,f\n1,31,m\n2,30,f\n", build.Options{Columns: []string{"sex"}, Given: []string{"zip", "age"}})
	dir := t.TempDir()
	out := filepath.Join(dir, "p.csv")
	if err := priorfiles.WriteResult(out, res, ""); err != nil {
		t.Fatal(err)
	}
	pp, fp, sp, _ := priorfiles.OutputPaths(out, "")
	for _, path := range []string{pp, fp, sp} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		header, err := csv.NewReader(f).Read()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !build.WrittenHeader(header) {
			t.Errorf("%s: header %q not recognised", filepath.Base(path), header)
		}
	}
	for _, h := range [][]string{
		{"zip", "age", "sex"},
		{"prior", "p"}, // a prior table typed by hand
		{"prior", "p", "targets"},
		{"key", "attribute", "value", "probability"},
		{"id", "epsilon", "status", "message"},
		nil,
	} {
		if build.WrittenHeader(h) {
			t.Errorf("%q recognised as written by WriteResult", h)
		}
	}
}
