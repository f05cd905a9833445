// Package priorfiles reads and writes the files of packages priors and
// priors/build: it loads the prior tables given to the evaluator's
// --priors (CSV, TSV, XLSX or Parquet, with package readers) and the
// frequency tables written beside them, builds priors from a data file
// (package build), and writes a build's result as a prior table, a
// frequency table and a summary (with package writers). Packages priors
// and build know no file format, so that the evaluator's math does not
// depend on them.
package priorfiles
