package priorfiles

import (
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/readers"
)

// BuildFile opens the data file at path with readers.Open, builds its
// priors (build.Priors) and closes it. opts.Name defaults to the file's
// base name without extension.
func BuildFile(path string, ropts readers.Options, opts build.Options) (*build.Result, error) {
	tables, err := readers.Open(path, ropts)
	if err != nil {
		return nil, err
	}
	res, err := build.Priors(Rows(tables), opts)
	for _, t := range tables {
		if cerr := t.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Rows returns the tables opened by package readers as the rows package
// priors reads: Parquet, CSV and TSV tables as build.Batches, whose
// columns the build reads a batch at a time, only those it uses.
func Rows(tables []readers.Table) []priors.Rows {
	rows := make([]priors.Rows, len(tables))
	for i, t := range tables {
		rows[i] = t
		switch r := t.(type) {
		case readers.ColumnBatches:
			rows[i] = &parquetBatches{Table: t, cb: r}
		case readers.FieldRecords:
			rows[i] = &csvBatches{Table: t, fr: r}
		}
	}
	return rows
}
