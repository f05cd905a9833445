package main

import (
	"io"
	"runtime"

	"github.com/urfave/cli/v2"
)

// evalFlags are the flags of `riskbatch eval` and of `riskbatch sample`
// (the same run on the built-in sample). This is the one list of them: a
// new flag goes here and into evalConfigFrom, and nothing else is needed
// for it to be accepted anywhere on the command line (see arrange).
func evalFlags() []cli.Flag {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output file; its extension picks the format (.xlsx, .csv, .tsv, .parquet; .csv.gz, .tsv.zst … compressed); - for standard output (CSV unless --format)"},
		&cli.StringFlag{Name: "sheet", Usage: "XLSX input sheet (default: every sheet whose first row has known column names)"},
		&cli.StringSliceFlag{Name: "priors", Usage: "prior table joined on the prior column (repeatable); see PRIOR TABLES above"},
		&cli.StringFlag{Name: "confidence", Value: "0.95", Usage: "confidence level(s) of the one-run success upper bound, e.g. 0.95 or 0.05,0.5,0.95 (one column per level)"},
		&cli.IntFlag{Name: "workers", Value: runtime.NumCPU(), Usage: "rows evaluated in parallel"},
		&cli.StringSliceFlag{Name: "columns", Usage: "output columns to compute and write, comma-separated or repeated: names, patterns such as fdp_*, families such as onerun, papers such as seed003 (see riskbatch columns), or headline (the columns the headline rule reads); status, message and the headline always (default: every column)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar and no summary on stderr (the progress bar shows only when stderr is a terminal)"},
		&cli.StringFlag{Name: "input-format", Usage: "input format: csv, tsv, xlsx or parquet (default: from the extension)"},
		&cli.StringFlag{Name: "format", Usage: "output format: csv, tsv, xlsx or parquet (default: from the extension)"},
		&cli.BoolFlag{Name: "pass-through", Hidden: true, Usage: "read and write without evaluating (benchmark baseline)"},
		&cli.BoolFlag{Name: "values-only", Usage: "XLSX: write every bound as a value, without the live formulas that recompute closed-form bounds when an input is edited"},
		&cli.StringFlag{Name: "threshold", Usage: "XLSX: shade the advantage columns red above this probability (e.g. 0.1), amber above half of it, green below, on rows without target_advantage (default: green below 0.05, amber to 0.2, red above); a row's own target_advantage takes precedence"},
		&cli.BoolFlag{Name: "force", Usage: "replace an existing output file that riskbatch did not write"},
		&cli.BoolFlag{Name: "sorted-groups", Usage: "the rows of each dataset are contiguous: read the input once and write each dataset's total row right after its last row (its rows are then not marked with dataset_worst_advantage); needed for a dataset column on standard input"},
		&cli.StringSliceFlag{Name: "data-dir", Usage: "a folder whose files cells (pmp_data) may name, besides the input file's own folder (repeatable)"},
	}
	flags = append(flags, textFlags()...)
	return append(flags, limitFlags()...)
}

// evalConfigFrom reads the flags of evalFlags and the input files.
func evalConfigFrom(c *cli.Context, stdout, stderr io.Writer) (evalConfig, error) {
	limits, err := limitsFrom(c)
	if err != nil {
		return evalConfig{}, err
	}
	text, err := textSettingsFrom(c)
	if err != nil {
		return evalConfig{}, err
	}
	return evalConfig{
		inputs:       c.Args().Slice(),
		output:       c.String("output"),
		sheet:        c.String("sheet"),
		priors:       c.StringSlice("priors"),
		confidence:   c.String("confidence"),
		workers:      c.Int("workers"),
		columns:      c.StringSlice("columns"),
		selectCols:   c.IsSet("columns"),
		quiet:        c.Bool("quiet"),
		inputFormat:  c.String("input-format"),
		format:       c.String("format"),
		stderr:       stderr,
		stdout:       stdout,
		force:        c.Bool("force"),
		dataDirs:     c.StringSlice("data-dir"),
		passThrough:  c.Bool("pass-through"),
		valuesOnly:   c.Bool("values-only"),
		threshold:    c.String("threshold"),
		sortedGroups: c.Bool("sorted-groups"),
		limits:       limits,
		text:         text,
	}, nil
}

// evalDescription is the text of `riskbatch eval --help` after the usage
// line: what eval writes, where flags may stand, the format of a prior
// table, and the exit status.
const evalDescription = `Evaluates every row of every INPUT (.csv, .tsv, .xlsx or .parquet; an XLSX input is read
sheet by sheet) and writes the rows, in order, with the columns status, message and the risk
bounds appended, to --output (default: INPUT-risk.EXT beside the first input). Every column is
described by "riskbatch columns". Flags may stand before or after the command and the file names.
INPUT - is standard input (its format from --input-format, else from its first bytes); an INPUT
ending .gz, .zst or .bz2 is decompressed as it is read, its format from the extension before.

PRIOR TABLES (--priors FILE, repeatable): a CSV, TSV, XLSX or Parquet table with the columns
  prior     a key, named in the prior column of your release rows
  p         the prior success probability of one target: a number in [0, 1] or a percentage (30%)
  targets   optional: the row stands for this many targets with that p (default 1)
Column names match ignoring case, with space, - and _ alike; other columns are ignored. A key's
rows may be anywhere in its table (single-target bounds use its largest p, the one-run tail bound
all its targets); a key defined in two tables is an error. "riskbatch priors DATA" writes such a
table, with a frequency table beside it (FILE-frequencies.EXT) that is loaded with it.
A release row's prior cell is matched to a key as written (spaces around it ignored), else to the
one key that equals it ignoring case; an unknown key is an error for that row, naming the closest
keys. A prior cell may instead hold an inline prior: uniform(M), zipf(s, N), zipf(s, N, rank), or
list(p1, p2, …), one target per item (p x n: n targets of prior p).

EXIT STATUS: 0 every row evaluated (ok or partial); 1 some rows had errors (the output is still
written, with every row); 2 usage error or unreadable input (nothing written); 130 interrupted.`
