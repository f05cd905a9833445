package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/riskbatch/riskbatch/internal/compression"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/writers"
)

// inputName is how messages call an input: "standard input" for "-".
func inputName(path string) string {
	if path == readers.StdinPath {
		return readers.StdinName
	}
	return path
}

// checkStdinInputs refuses the command lines that would read standard
// input wrongly: "-" named twice (it can be read once), as a --priors
// table (the release table or the data comes from it), or with no -o
// (an output beside standard input has no folder to go in).
//
// Standard input that is a terminal is refused too: a table is piped or
// redirected into riskbatch, and a run would otherwise wait silently for
// typing.
func checkStdinInputs(cmd string, stdin io.Reader, inputs, priors []string, output string) error {
	n := 0
	for _, in := range inputs {
		if in == readers.StdinPath {
			n++
		}
	}
	if n > 1 {
		return usagef(cmd, "%s: - (standard input) is named %d times; it can be read once", cmd, n)
	}
	if slices.Contains(priors, readers.StdinPath) {
		return usagef(cmd, "%s: --priors -: a prior table is not read from standard input; name its file", cmd)
	}
	if n == 1 && output == "" {
		return usagef(cmd, "%s: - (standard input) has no folder to write the output beside: name it with -o (-o - for standard output)", cmd)
	}
	if f, ok := stdin.(*os.File); n == 1 && ok && term.IsTerminal(int(f.Fd())) {
		return usagef(cmd, "%s: - (standard input) is a terminal: pipe or redirect a table into riskbatch (riskbatch %s - < releases.csv)", cmd, cmd)
	}
	return nil
}

// defaultOutput names the output of an input: releases.csv →
// releases-risk.csv. A compressed input's output is compressed alike when
// it is a CSV or TSV file riskbatch can compress (releases.csv.gz →
// releases-risk.csv.gz); a compressed workbook or Parquet file gets an
// output of its format, uncompressed (releases.xlsx.gz → releases-risk.xlsx),
// since those formats are compressed inside.
func defaultOutput(input string) string {
	codec, inner, compressed := compression.ByName(input)
	ext := filepath.Ext(inner)
	out := strings.TrimSuffix(inner, ext) + "-risk" + ext
	if f, err := writers.FormatOf(out, ""); compressed && codec.Writable() && err == nil && (f == writers.FormatCSV || f == writers.FormatTSV) {
		out += input[len(inner):] // the input's spelling: .gz, .GZ
	}
	return out
}
