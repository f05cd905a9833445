// Command riskbatch turns differential-privacy release parameters into
// attack-risk bounds, in bulk: it reads a table of releases (CSV, TSV, XLSX
// or Parquet), evaluates every row with the bounds of the registry in
// package evaluate, and writes the rows back with the risk columns appended.
//
//	riskbatch                                 evaluate the embedded sample, write riskbatch-sample.xlsx
//	riskbatch eval releases.xlsx -o out.xlsx  evaluate a workbook
//	riskbatch columns [NAME|GROUP|PAPER ...]  print input and output columns with their formulas
//	riskbatch serve [--port N] [--open]       a local web page and HTTP API over the same evaluator
//	riskbatch help [COMMAND]                  the help of riskbatch or of a command
//	riskbatch completion bash|zsh|fish        a shell completion script
//	riskbatch man                             the manual page (roff)
//
// Flags may stand before or after the command and the file names.
//
// Exit status: 0 every row evaluated; 1 some rows had errors (the output is
// still written, with every row); 2 usage error or unreadable input (nothing
// written); 130 interrupted by Ctrl-C or SIGTERM (nothing written).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/evaluate"
)

// Exit statuses. These are the only ones riskbatch returns: run maps any
// other status (urfave/cli's 3, say) to exitUsage.
const (
	exitOK        = 0
	exitRowErrors = 1
	exitUsage     = 2
	// exitInterrupted is the shell's status for a run stopped by Ctrl-C
	// or SIGTERM (128 + SIGINT): nothing was written.
	exitInterrupted = 130
)

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status: exitOK,
// exitRowErrors, exitUsage or exitInterrupted, nothing else. Errors are
// printed on stderr, one line each; a usage error adds a line naming the
// help to read. stdin is the input named "-" (nil: an empty one).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runWith(args, stdin, stdout, stderr)
}

// runWith is run with evOpts added to the options of the evaluator an
// eval run builds: the tests share one evaluator's caches among the runs
// that evaluate the same sample rows (evaluate.WithCachesOf).
func runWith(args []string, stdin io.Reader, stdout, stderr io.Writer, evOpts ...evaluate.Option) int {
	app := newApp(stdin, stdout, stderr, evOpts...)
	if len(args) > 1 && args[1] == completeCommand {
		printCompletions(app, args[2:], stdout)
		return exitOK
	}
	line, err := arrange(app, args)
	if err == nil && line.version {
		fmt.Fprintln(stdout, buildVersion())
		return exitOK
	}
	if err == nil {
		err = app.Run(line.args)
	}
	return exitStatus(err, stderr)
}

// exitStatus prints err on stderr, one line and for a usage error a second
// naming the help to read, and returns its exit status: exitOK for no
// error, else exitRowErrors, exitUsage or exitInterrupted; any other status
// is exitUsage.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitUsage
	var exit cli.ExitCoder
	if errors.As(err, &exit) {
		switch c := exit.ExitCode(); c {
		case exitRowErrors, exitUsage, exitInterrupted:
			code = c
		}
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "riskbatch: "+msg)
	}
	var usage *usageError
	if errors.As(err, &usage) && usage.help != "" {
		fmt.Fprintf(stderr, "Run %q for usage.\n", usage.help)
	}
	return code
}

// newApp is the command line: its commands and their flags. Flags may
// stand anywhere (see arrange); every flag belongs to a command. stdin is
// what eval and priors read for the input "-" (nil: nothing). evOpts are
// added to the options of the evaluator of an eval run (runWith).
func newApp(stdin io.Reader, stdout, stderr io.Writer, evOpts ...evaluate.Option) *cli.App {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	evalAction := func(c *cli.Context) error {
		if c.NArg() == 0 {
			return usagef("eval", "eval needs at least one input file; `riskbatch` alone evaluates the built-in sample")
		}
		cfg, err := evalConfigFrom(c, stdout, stderr)
		if err != nil {
			return err
		}
		cfg.stdin = stdin
		cfg.evalOptions = evOpts
		cfg.setMemoryLimit = debug.SetMemoryLimit // one evaluation in this process
		return runEval(cfg)
	}
	sampleAction := func(c *cli.Context) error {
		if c.NArg() > 0 {
			return usagef("sample", "sample evaluates the built-in sample and takes no input file; to evaluate %s: riskbatch eval %s", c.Args().First(), strings.Join(c.Args().Slice(), " "))
		}
		cfg, err := evalConfigFrom(c, stdout, stderr)
		if err != nil {
			return err
		}
		cfg.evalOptions = evOpts
		cfg.setMemoryLimit = debug.SetMemoryLimit
		return runEval(cfg)
	}
	// usage turns the errors urfave/cli finds itself (arrange finds most
	// before it runs) into a usageError: one line and a hint, not the help.
	usage := func(c *cli.Context, err error, _ bool) error {
		cmd := ""
		if c.Command != nil && c.Command.Name != "" {
			cmd = c.Command.Name
		}
		return usagef(cmd, "%v", err)
	}
	commands := []*cli.Command{
		{
			Name:        "eval",
			Usage:       "evaluate every row of every INPUT and write them back with risk columns",
			UsageText:   "riskbatch eval INPUT ... [-o OUTPUT] [flags]",
			Description: evalDescription,
			Flags:       evalFlags(),
			Action:      evalAction,
		},
		{
			Name:      "sample",
			Usage:     "evaluate the sample built into riskbatch and write riskbatch-sample.xlsx (what riskbatch alone does)",
			UsageText: "riskbatch [sample] [-o OUTPUT] [flags of eval]",
			Description: "Evaluates the sample release table built into riskbatch (samples/releases.xlsx) and writes\n" +
				"riskbatch-sample.xlsx, or --output. Some of its rows are invalid on purpose, to show how errors\n" +
				"are reported; they do not change the exit status. It takes the flags of eval.",
			Flags:  evalFlags(),
			Action: sampleAction,
		},
		{
			Name:  "template",
			Usage: "write an input workbook to fill in: every column with its note and data validation, one example row per mechanism",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "workbook to write (default releases.xlsx; - for standard output)"},
				&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
				&cli.BoolFlag{Name: "force", Usage: "replace an existing file that riskbatch did not write"},
			},
			Action: func(c *cli.Context) error {
				if c.NArg() > 0 {
					return usagef("template", "template takes no argument; to name the workbook: riskbatch template -o %s", c.Args().First())
				}
				return runTemplate(c, stdout, stderr)
			},
		},
		{
			Name:      "columns",
			Usage:     "print input and output columns (all, or those named): meaning, formula, paper and equation",
			UsageText: "riskbatch columns [NAME|GROUP|PAPER ...] [--markdown]",
			Description: "Without arguments, prints every column. Otherwise prints the columns that match any argument:\n" +
				"  a column name or alias (epsilon, eps), or a pattern (fdp_*, *_for_target);\n" +
				"  a group: input, output, or a family of output columns (" + strings.Join(columnFamilies(), ", ") + ");\n" +
				"  a paper: " + paperList() + ".",
			Flags: []cli.Flag{
				&cli.BoolFlag{Name: "markdown", Usage: "print a Markdown table"},
			},
			Action: func(c *cli.Context) error {
				return printColumns(stdout, c.Bool("markdown"), c.Args().Slice())
			},
		},
		{
			Name:      "priors",
			Usage:     "build prior tables from raw tabular data (frequencies, conditional frequencies, Zipf fits)",
			ArgsUsage: "DATA",
			Flags:     priorsFlags(),
			Action:    func(c *cli.Context) error { return runPriors(c, stdin, stderr) },
		},
		serveCommand(stdout, stderr, evOpts...),
		{
			Name:      "completion",
			Usage:     "print the shell completion script of riskbatch for bash, zsh or fish",
			UsageText: "riskbatch completion bash|zsh|fish",
			Description: "Prints a script that completes riskbatch's commands, flags and flag values in the shell; file names\n" +
				"otherwise. Install it:\n" +
				"  bash: riskbatch completion bash > ~/.local/share/bash-completion/completions/riskbatch\n" +
				"  zsh:  riskbatch completion zsh > \"${fpath[1]}/_riskbatch\"   (or source <(riskbatch completion zsh) in ~/.zshrc)\n" +
				"  fish: riskbatch completion fish > ~/.config/fish/completions/riskbatch.fish",
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return usagef("completion", "completion: name one shell: riskbatch completion %s", strings.Join(completionShells, "|"))
				}
				script, err := completionScript(c.Args().First())
				if err != nil {
					return err
				}
				_, err = io.WriteString(stdout, script)
				return err
			},
		},
		{
			Name:        "man",
			Usage:       "print riskbatch's manual page (roff), made from the same definitions as --help",
			UsageText:   "riskbatch man > riskbatch.1; man ./riskbatch.1",
			Description: "Prints the manual page of riskbatch, section 1, in roff: every command and flag, as --help\nshows them. Install it: riskbatch man > ~/.local/share/man/man1/riskbatch.1",
			Action: func(c *cli.Context) error {
				if c.NArg() > 0 {
					return usagef("man", "man takes no argument")
				}
				page, err := c.App.ToManWithSection(1)
				if err != nil {
					return fmt.Errorf("man: %w", err)
				}
				_, err = io.WriteString(stdout, page)
				return err
			},
		},
	}
	for _, c := range commands {
		c.OnUsageError = usage
	}
	return &cli.App{
		Name:      "riskbatch",
		Usage:     "turn differential-privacy release parameters into attack-risk bounds, in bulk",
		UsageText: "riskbatch [COMMAND] [flags] [FILE ...]",
		Description: "With no command, riskbatch evaluates the sample built into it and writes riskbatch-sample.xlsx.\n" +
			"Flags may stand before or after the command and the file names. Help: riskbatch help [COMMAND],\n" +
			"or -h/--help anywhere.\n" +
			"Exit status: 0 every row evaluated; 1 some rows had errors (output still written); 2 usage error\n" +
			"or unreadable input (nothing written); 130 interrupted (nothing written).",
		Writer:    stdout,
		ErrWriter: stderr,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "version", Usage: "print the version and the revision riskbatch was built from"},
		},
		Action:          func(c *cli.Context) error { return cli.ShowAppHelp(c) },
		HideHelpCommand: true,
		HideVersion:     true,
		OnUsageError:    usage,
		// run turns errors into exit statuses; cli must not exit by itself.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       commands,
	}
}
