package priorfiles

import (
	"os"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/readers"
)

// Load reads prior tables (CSV, TSV, XLSX or Parquet, by extension) with
// readers.Open, streaming their rows into a priors.Loader (which says
// what a prior table and a frequency table hold). In a workbook every
// sheet with the columns of either is read (so a table continued over
// several sheets is read whole). The frequency table written beside a
// prior table ("PATH-frequencies.EXT", see OutputPaths) is loaded with it
// when it exists.
//
// Errors name their position (*table.Error, joined with errors.Join; Load
// stops after 20). opened lists every file Load read, in order: the files
// it was given and the frequency tables it found beside prior tables. A
// program that writes files must not replace any of them.
func Load(paths []string) (ts *priors.Tables, opened []string, err error) {
	return load(paths, diskFiles{})
}

// load is Load reading the files of files.
func load(paths []string, files fileSet) (ts *priors.Tables, opened []string, err error) {
	l := priors.NewLoader()
	loaded := map[string]bool{}
	for _, path := range paths {
		loaded[path] = true
	}
	for i := 0; i < len(paths); i++ {
		path := paths[i]
		opened = append(opened, path)
		tables, err := files.open(path, readers.Options{Accept: priors.LoadableHeader})
		if err != nil {
			l.Err(err)
			continue
		}
		l.File(path)
		priorTable := false
		for _, t := range tables {
			if l.Read(t) {
				priorTable = true
			}
			l.Err(t.Close())
		}
		if priorTable {
			if freq, ok := files.frequencies(path); ok && !loaded[freq] {
				loaded[freq] = true
				paths = append(paths[:len(paths):len(paths)], freq)
			}
		}
		if l.Done() {
			break
		}
	}
	ts, err = l.Tables()
	if err != nil {
		return nil, nil, err
	}
	return ts, opened, nil
}

// siblingFrequencies returns the frequency table that `riskbatch priors`
// writes beside a prior table at path (see OutputPaths), when it exists
// and is not path itself.
func siblingFrequencies(path string) (string, bool) {
	_, freq, _, err := OutputPaths(path, "")
	if err != nil || freq == path {
		return "", false
	}
	if st, err := os.Stat(freq); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return freq, true
}
