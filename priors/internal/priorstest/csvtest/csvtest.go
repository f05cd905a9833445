// Package csvtest builds priors from CSV text held in memory, for the
// tests of priors/priorfiles: read by package readers, and column by
// column as priorfiles reads a CSV file. (The tests of priors/build build
// from tables in memory: priorstest.BuildCSV.)
package csvtest

import (
	"bytes"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// OpenCSV opens CSV text held in memory as the tables of a file name.
func OpenCSV(t testing.TB, name, text string) []priors.Rows {
	t.Helper()
	tables, err := readers.OpenReader(name, bytes.NewReader([]byte(text)), int64(len(text)), readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, tb := range tables {
			tb.Close()
		}
	})
	return priorfiles.Rows(tables)
}

// BuildCSV builds priors from CSV text held in memory as the file name.
func BuildCSV(t testing.TB, name, text string, opts build.Options) *build.Result {
	t.Helper()
	return priorstest.Build(t, OpenCSV(t, name, text), opts)
}
