package priorfiles

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/riskbatch/riskbatch/internal/compression"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/writers"
)

// OutputPaths returns the files WriteResult writes for path: the prior
// table at path itself (the file to give to the evaluator's --priors),
// the frequency table and the summary beside it, named after path's base
// name with "-frequencies" and "-summary" before the extension
// ("out/priors.csv" → "out/priors-frequencies.csv", "out/priors-summary.csv").
// format is "csv", "tsv", "xlsx" or "parquet", or empty for path's
// extension; a path without that extension gets it for the other two. A
// compressed path's files are compressed alike ("priors.csv.gz" →
// "priors-frequencies.csv.gz").
func OutputPaths(path, format string) (prior, frequencies, summary string, err error) {
	f, err := writers.FormatOf(path, format)
	if err != nil {
		return "", "", "", err
	}
	// A compressed table's files are compressed alike: priors.csv.gz,
	// priors-frequencies.csv.gz.
	codec, inner, compressed := compression.ByName(path)
	ext := filepath.Ext(inner)
	base := inner
	if strings.EqualFold(ext, "."+f) {
		base = strings.TrimSuffix(inner, ext)
	} else {
		ext = "." + f
	}
	if compressed {
		ext += codec.Ext
	}
	return path, base + "-frequencies" + ext, base + "-summary" + ext, nil
}

// sheetNames are the XLSX sheet names of the output tables.
func sheetName(name string) string {
	switch name {
	case build.PriorsTable:
		return "Priors"
	case build.FrequenciesTable:
		return "Frequencies"
	}
	return "Summary"
}

// WriteResult writes a Result with package writers as three files of one
// format (see OutputPaths): the prior table at path, the frequency table
// and the summary beside it. Each XLSX file has its data sheet (Priors,
// Frequencies or Summary, continued on further sheets past Excel's row
// limit) and a Columns sheet documenting the columns and the conventions
// (Result.Notes). Nothing is written unless all three tables are: every
// file goes to a temporary file first and is renamed into place only once
// the three are complete (a failure while renaming leaves the files
// already renamed).
func WriteResult(path string, r *build.Result, format string) error {
	if r == nil {
		return errors.New("priors: no result to write")
	}
	f, err := writers.FormatOf(path, format)
	if err != nil {
		return err
	}
	pp, fp, sp, err := OutputPaths(path, f)
	if err != nil {
		return err
	}
	outs := r.Outputs()
	paths := []string{pp, fp, sp}
	var ws []writers.Writer
	defer func() {
		for _, w := range ws {
			_ = w.Abort() // a no-op after a successful Close
		}
	}()
	for i, o := range outs {
		w, err := writers.Create(paths[i], writers.Options{Format: f, SheetName: sheetName(o.Name), Docs: o.Docs})
		if err != nil {
			return err
		}
		ws = append(ws, w)
		if err := w.WriteHeader(o.Columns); err != nil {
			return err
		}
		for row := range o.Rows {
			if err := w.Write(row); err != nil {
				return err
			}
		}
	}
	for i, w := range ws {
		if err := w.Close(); err != nil {
			return fmt.Errorf("priors: writing %s: %w", paths[i], err)
		}
	}
	return nil
}
