// Command riskbatch turns differential-privacy release parameters into
// attack-risk bounds, in bulk: it reads a table of releases (CSV, TSV, XLSX
// or Parquet), evaluates every row with the bounds of the registry in
// package evaluate, and writes the rows back with the risk columns appended.
//
//	riskbatch                                 evaluate the embedded sample, write riskbatch-sample.xlsx
//	riskbatch eval releases.xlsx -o out.xlsx  evaluate a workbook
//	riskbatch columns                         print every input and output column with its formula
//
// Exit status: 0 every row evaluated; 1 some rows had errors (the output is
// still written, with every row); 2 usage error or unreadable input (nothing
// written).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"
)

// Exit statuses.
const (
	exitOK        = 0
	exitRowErrors = 1
	exitUsage     = 2
	// exitInterrupted is the shell's status for a run stopped by Ctrl-C.
	exitInterrupted = 130
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	err := app.Run(flagsFirst(args, app))
	if err == nil {
		return exitOK
	}
	var exit cli.ExitCoder
	if errors.As(err, &exit) {
		if msg := exit.Error(); msg != "" {
			fmt.Fprintln(stderr, "riskbatch: "+msg)
		}
		return exit.ExitCode()
	}
	fmt.Fprintln(stderr, "riskbatch: "+err.Error())
	return exitUsage
}

// flagsFirst moves the flags of the top level and of `eval` ahead of the
// input files, so that `riskbatch eval in.xlsx -o out.xlsx` works as users
// type it: urfave/cli v2 stops reading flags at the first argument. A "--"
// ends the flags as usual.
func flagsFirst(args []string, app *cli.App) []string {
	if len(args) < 2 {
		return args
	}
	takesValue := flagValues(app.Flags)
	out := []string{args[0]}
	rest := args[1:]
	if len(rest) > 0 && (rest[0] == "eval" || rest[0] == "priors") {
		if rest[0] == "priors" {
			takesValue = flagValues(priorsFlags())
		}
		out = append(out, rest[0])
		rest = rest[1:]
	} else if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		if cmd := app.Command(rest[0]); cmd != nil {
			return args // other commands take their arguments as they come
		}
	}
	var flags, positional []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] && i+1 < len(rest) {
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out = append(out, flags...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}

// flagValues tells, for each flag name, whether the flag takes a value.
func flagValues(flags []cli.Flag) map[string]bool {
	takesValue := map[string]bool{}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	return takesValue
}

func newApp(stdout, stderr io.Writer) *cli.App {
	evalFlags := []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output file; its extension picks the format (.xlsx, .csv, .tsv, .parquet)"},
		&cli.StringFlag{Name: "sheet", Usage: "XLSX input sheet (default: every sheet whose first row has known column names)"},
		&cli.StringSliceFlag{Name: "priors", Usage: "prior table joined on the prior column (repeatable)"},
		&cli.StringFlag{Name: "confidence", Value: "0.95", Usage: "confidence level(s) of the one-run success upper bound, e.g. 0.95 or 0.05,0.5,0.95 (one column per level)"},
		&cli.IntFlag{Name: "workers", Value: runtime.NumCPU(), Usage: "rows evaluated in parallel"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar and no summary on stderr"},
		&cli.StringFlag{Name: "input-format", Usage: "input format: csv, tsv, xlsx or parquet (default: from the extension)"},
		&cli.StringFlag{Name: "format", Usage: "output format: csv, tsv, xlsx or parquet (default: from the extension)"},
		&cli.BoolFlag{Name: "pass-through", Hidden: true, Usage: "read and write without evaluating (benchmark baseline)"},
		&cli.BoolFlag{Name: "values-only", Usage: "XLSX: write every bound as a value, without the live formulas that recompute closed-form bounds when an input is edited"},
		&cli.StringFlag{Name: "threshold", Usage: "XLSX: shade the advantage columns red above this probability (e.g. 0.1), amber above half of it, green below; a row's own target_advantage takes precedence"},
	}
	evalFlags = append(evalFlags, textFlags()...)
	evalFlags = append(evalFlags, limitFlags()...)
	evalAction := func(c *cli.Context) error {
		limits, err := limitsFrom(c)
		if err != nil {
			return err
		}
		text, err := textSettingsFrom(c)
		if err != nil {
			return err
		}
		cfg := evalConfig{
			inputs:      c.Args().Slice(),
			output:      c.String("output"),
			sheet:       c.String("sheet"),
			priors:      c.StringSlice("priors"),
			confidence:  c.String("confidence"),
			workers:     c.Int("workers"),
			quiet:       c.Bool("quiet"),
			inputFormat: c.String("input-format"),
			format:      c.String("format"),
			stderr:      stderr,
			passThrough: c.Bool("pass-through"),
			valuesOnly:  c.Bool("values-only"),
			threshold:   c.String("threshold"),
			limits:      limits,
			text:        text,
		}
		return runEval(cfg)
	}
	return &cli.App{
		Name:  "riskbatch",
		Usage: "turn differential-privacy release parameters into attack-risk bounds, in bulk",
		Description: "With no command, riskbatch evaluates the sample workbook built into it and writes riskbatch-sample.xlsx.\n" +
			"Exit status: 0 every row evaluated; 1 some rows had errors (output still written); 2 usage error or unreadable input.",
		Writer:          stdout,
		ErrWriter:       stderr,
		Flags:           evalFlags,
		Action:          evalAction,
		HideHelpCommand: true,
		// run turns errors into exit statuses; cli must not exit by itself.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands: []*cli.Command{
			{
				Name:      "eval",
				Usage:     "evaluate every row of every INPUT and write them back with risk columns",
				ArgsUsage: "[INPUT ...]",
				Flags:     evalFlags,
				Action:    evalAction,
			},
			{
				Name:  "template",
				Usage: "write an empty release workbook to fill in: every column with its note and data validation, one example row per mechanism",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "workbook to write (default releases.xlsx)"},
					&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
				},
				Action: func(c *cli.Context) error { return runTemplate(c, stderr) },
			},
			{
				Name:  "columns",
				Usage: "print every input and output column: meaning, formula, paper and equation",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "markdown", Usage: "print a Markdown table"},
				},
				Action: func(c *cli.Context) error {
					return printColumns(stdout, c.Bool("markdown"))
				},
			},
			{
				Name:      "priors",
				Usage:     "build prior tables from raw tabular data (frequencies, conditional frequencies, Zipf fits)",
				ArgsUsage: "DATA",
				Flags:     priorsFlags(),
				Action:    func(c *cli.Context) error { return runPriors(c, stderr) },
			},
		},
	}
}
