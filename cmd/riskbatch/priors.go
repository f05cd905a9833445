package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/internal/compression"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// priorsFlags are the flags of `riskbatch priors`.
func priorsFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "prior table to write (.xlsx, .csv, .tsv, .parquet); the frequency table and summary go beside it (default: DATA-priors.xlsx)"},
		&cli.StringFlag{Name: "name", Usage: "key prefix (default: the data file's name without extension)"},
		&cli.StringFlag{Name: "columns", Usage: "attributes to build priors for, comma-separated (default: every column with at most --max-categories values)"},
		&cli.StringSliceFlag{Name: "joint", Usage: "columns reconstructed together, comma-separated (repeatable)"},
		&cli.StringFlag{Name: "given", Usage: "columns the attacker knows, comma-separated: conditional priors, one p per record"},
		&cli.StringFlag{Name: "ordinal", Usage: "numeric columns reconstructed within --tolerance, comma-separated"},
		&cli.Float64Flag{Name: "tolerance", Usage: "L1 error E allowed for the --ordinal columns"},
		&cli.IntFlag{Name: "max-categories", Value: build.DefaultMaxCategories, Usage: "largest number of distinct values of a default attribute"},
		&cli.StringFlag{Name: "count-column", Usage: "column of counts, for pre-aggregated (value, count) input"},
		&cli.IntFlag{Name: "min-cell-count", Value: build.DefaultMinCellCount, Usage: "flag conditional cells with fewer records"},
		&cli.Float64Flag{Name: "smoothing", Usage: "additive smoothing α (lowers p: the output warns that smoothed priors are not upper bounds)"},
		&cli.BoolFlag{Name: "missing-as-value", Usage: "count an empty cell as a value of its own"},
		&cli.StringSliceFlag{Name: "zipf-domain", Usage: "domain size N of an attribute's Zipf fit, as COLUMN=N (N may be inf; repeatable)"},
		&cli.StringFlag{Name: "sheet", Usage: "XLSX sheet of the data (default: every sheet)"},
		&cli.StringFlag{Name: "input-format", Usage: "data format: csv, tsv, xlsx or parquet (default: from the extension)"},
		&cli.StringFlag{Name: "format", Usage: "output format (default: from the extension)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no summary on stderr"},
		&cli.BoolFlag{Name: "force", Usage: "replace existing output files that riskbatch did not write"},
	}, limitFlags()...)
}

// runPriors builds prior tables from raw data: `riskbatch priors DATA`.
func runPriors(c *cli.Context, stdin io.Reader, stderr io.Writer) error {
	if c.NArg() != 1 {
		return cli.Exit("priors: name one data file: riskbatch priors DATA [-o OUT]", exitUsage)
	}
	data := c.Args().First()
	if err := checkStdinInputs("priors", stdin, []string{data}, nil, c.String("output")); err != nil {
		return err
	}
	opts := build.Options{
		Name:           c.String("name"),
		Columns:        splitList(c.String("columns")),
		Given:          splitList(c.String("given")),
		Ordinal:        splitList(c.String("ordinal")),
		Tolerance:      c.Float64("tolerance"),
		MaxCategories:  c.Int("max-categories"),
		CountColumn:    c.String("count-column"),
		MinCellCount:   c.Int("min-cell-count"),
		Smoothing:      c.Float64("smoothing"),
		MissingAsValue: c.Bool("missing-as-value"),
	}
	for _, j := range c.StringSlice("joint") {
		opts.Joint = append(opts.Joint, splitList(j))
	}
	for _, z := range c.StringSlice("zipf-domain") {
		col, n, ok := strings.Cut(z, "=")
		if !ok {
			return cli.Exit(fmt.Sprintf("--zipf-domain %q: expected COLUMN=N", z), exitUsage)
		}
		v, err := parseDomain(n)
		if err != nil {
			return cli.Exit(fmt.Sprintf("--zipf-domain %q: %v", z, err), exitUsage)
		}
		if opts.ZipfDomain == nil {
			opts.ZipfDomain = map[string]float64{}
		}
		opts.ZipfDomain[strings.TrimSpace(col)] = v
	}
	out := c.String("output")
	if out == "" {
		_, inner, _ := compression.ByName(data) // data.csv.gz: data-priors.xlsx
		out = strings.TrimSuffix(inner, filepath.Ext(inner)) + "-priors.xlsx"
	}
	if data == readers.StdinPath && opts.Name == "" {
		opts.Name = "data" // the key prefix, which a file's name gives
	}
	if out == "-" {
		return cli.Exit("priors: -o -: the prior table cannot go to standard output, as its frequency table and summary are written beside it; name a file", exitUsage)
	}
	// Every file written must not be the data file: the frequency table
	// and summary beside the output too.
	pp, fp, sp, err := priorfiles.OutputPaths(out, c.String("format"))
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	written := []string{pp, fp, sp}
	outs := []output{{path: pp}, {path: fp}, {path: sp}}
	var reads []readFile
	if data != readers.StdinPath {
		reads = []readFile{{path: data, role: "the data file"}}
	}
	if err := refuseOverwrite(outs, reads, nil); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if err := refuseForeign(written, c.Bool("force")); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	limits, err := limitsFrom(c)
	if err != nil {
		return err
	}
	res, err := priorfiles.BuildFile(data, readers.Options{Format: c.String("input-format"), Sheet: c.String("sheet"), Limits: limits, Stdin: stdin}, opts)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if !anyTargets(res) {
		for _, n := range res.Notes {
			if res.Records == 0 {
				break
			}
			fmt.Fprintln(stderr, "riskbatch: note: "+n)
		}
		return cli.Exit(noPriorsMessage(data, res, opts), exitRowErrors)
	}
	if err := priorfiles.WriteResult(out, res, c.String("format")); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(stderr, "riskbatch: %d records, %d priors → %s (frequencies: %s, summary: %s)\n", res.Records, len(res.Entries), out, fp, sp)
		for _, n := range res.Notes {
			fmt.Fprintln(stderr, "riskbatch: note: "+n)
		}
	}
	return nil
}

// anyTargets reports whether a build gave at least one prior with a
// target: a prior table with a row.
func anyTargets(res *build.Result) bool {
	for _, e := range res.Entries {
		if e.Records > 0 {
			return true
		}
	}
	return false
}

// noPriorsMessage says why `riskbatch priors` built no prior and what to
// pass instead.
func noPriorsMessage(data string, res *build.Result, opts build.Options) string {
	if res.Records == 0 {
		return fmt.Sprintf("priors: %s has no records: no prior built, nothing written", inputName(data))
	}
	msg := fmt.Sprintf("priors: no prior built from the %d records of %s, nothing written: ", res.Records, inputName(data))
	if len(res.Entries) == 0 && len(opts.Columns) == 0 && len(opts.Joint) == 0 && len(opts.Ordinal) == 0 {
		limit := opts.MaxCategories
		if limit == 0 {
			limit = build.DefaultMaxCategories
		}
		return msg + fmt.Sprintf("no column has at most %d distinct values (--max-categories); "+
			"name the attributes to reconstruct with --columns A,B (any number of values), "+
			"numeric ones with --ordinal A --tolerance E, or raise --max-categories", limit)
	}
	return msg + "every cell of the attributes is empty; pass --missing-as-value to count an empty cell as a value of its own"
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// parseDomain reads a Zipf domain size: a whole number, or inf.
func parseDomain(s string) (float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "inf", "infinity", "∞":
		return math.Inf(1), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 1 || v != math.Trunc(v) {
		return 0, fmt.Errorf("%q is not a whole number ≥ 1 or inf", s)
	}
	return v, nil
}
