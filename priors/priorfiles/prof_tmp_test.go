package priorfiles_test

import (
	"testing"

	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

func BenchmarkTmpMarg(b *testing.B) {
	for range b.N {
		if _, err := priorfiles.BuildFile("/tmp/pbench/priors.parquet", readers.Options{}, build.Options{Columns: []string{"region", "age"}}); err != nil {
			b.Fatal(err)
		}
	}
}
func BenchmarkTmpCond(b *testing.B) {
	for range b.N {
		if _, err := priorfiles.BuildFile("/tmp/pbench/priors.parquet", readers.Options{}, build.Options{Columns: []string{"occupation"}, Given: []string{"sex", "region"}}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTmpCondWrite(b *testing.B) {
	for range b.N {
		res, err := priorfiles.BuildFile("/tmp/pbench/priors.parquet", readers.Options{}, build.Options{Columns: []string{"occupation"}, Given: []string{"sex", "region"}})
		if err != nil {
			b.Fatal(err)
		}
		if err := priorfiles.WriteResult("/tmp/pbench/tmpw.csv", res, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTmpCSV(b *testing.B) {
	for range b.N {
		if _, err := priorfiles.BuildFile("/tmp/pbench/priors.csv", readers.Options{}, build.Options{Columns: []string{"region", "age"}}); err != nil {
			b.Fatal(err)
		}
	}
}
