package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/internal/editdist"
	"github.com/urfave/cli/v2"
)

// usageError is a mistake in the command line: exit status 2, a one-line
// message, and the help command that explains the right usage.
type usageError struct {
	msg  string
	help string // "riskbatch eval --help"
}

func (e *usageError) Error() string { return e.msg }

// ExitCode makes a usageError a cli.ExitCoder.
func (e *usageError) ExitCode() int { return exitUsage }

// usagef is a usageError of the command cmd ("" for riskbatch itself).
func usagef(cmd, format string, args ...any) *usageError {
	help := "riskbatch --help"
	if cmd != "" {
		help = "riskbatch " + cmd + " --help"
	}
	return &usageError{msg: fmt.Sprintf(format, args...), help: help}
}

// implicitCommand is the command of a command line that names none:
// `riskbatch` alone evaluates the built-in sample.
const implicitCommand = "sample"

// commandLine is a command line arranged the way urfave/cli v2 reads it.
type commandLine struct {
	args    []string // for cli.App.Run: program, command, flags, "--", arguments
	version bool     // --version was given: print the version and nothing else
}

// flagSpec is what arrange needs to know of a flag.
type flagSpec struct {
	name       string // the flag's first name, as its messages spell it
	takesValue bool
	whole      bool // the value is an integer (cli's int flags)
	number     bool // the value is a floating-point number
	usage      string
}

// flagSpecs indexes flags by every one of their names.
func flagSpecs(flags []cli.Flag) map[string]flagSpec {
	specs := map[string]flagSpec{}
	for _, f := range flags {
		names := f.Names()
		s := flagSpec{name: names[0]}
		if d, ok := f.(cli.DocGenerationFlag); ok {
			s.takesValue = d.TakesValue()
			s.usage = d.GetUsage()
		}
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
			s.whole = true
		case *cli.Float64Flag:
			s.number = true
		}
		for _, n := range names {
			specs[n] = s
		}
	}
	return specs
}

// dashed writes a flag name as users type it: --output, -o.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// isFlag reports whether a command-line word is a flag (rather than an
// argument such as a file name, or "-" for standard input or output).
func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

// flagName splits a flag word into its name and, for --name=value, its
// value.
func flagName(a string) (name, value string, hasValue bool) {
	name = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	name, value, hasValue = strings.Cut(name, "=")
	return name, value, hasValue
}

// arrange puts a command line in the order urfave/cli v2 reads it, so that
// flags may stand anywhere: before the command, between the file names or
// after them. urfave/cli v2 reads a command's flags only between the
// command's name and its first argument, and the top level's flags only
// before the command; arrange moves every flag after the command's name and
// every argument after a "--". A "--" given on the command line ends the
// flags as usual.
//
// Every flag belongs to the command, wherever it stands (there are no
// global flags besides --help and --version). Which flags take a value is
// read from the commands' flag definitions, so a flag added to a command
// needs nothing here. Mistakes are *usageError: an unknown command or flag
// (with the closest names), a flag of another command, a flag without its
// value, a number flag whose value is not a number.
//
// -h, --help anywhere and `riskbatch help [CMD]` become CMD --help; a
// command line without a command runs implicitCommand.
func arrange(app *cli.App, args []string) (commandLine, error) {
	prog, rest := "riskbatch", args
	if len(args) > 0 {
		prog, rest = args[0], args[1:]
	}
	all := map[string]flagSpec{}
	for _, c := range app.Commands {
		for n, s := range flagSpecs(c.Flags) {
			all[n] = s
		}
	}
	found, err := findCommand(app, all, rest)
	if err != nil {
		return commandLine{}, err
	}
	if found.version {
		return commandLine{version: true}, nil
	}
	name := implicitCommand
	if found.at >= 0 {
		name = rest[found.at]
	}
	if name == "help" {
		return helpCommand(app, prog, rest[found.at+1:])
	}
	cmd := app.Command(name)
	if cmd == nil {
		return commandLine{}, unknownCommand(app, name)
	}
	if found.help {
		if found.at < 0 {
			return commandLine{args: []string{prog, "--help"}}, nil
		}
		return commandLine{args: []string{prog, cmd.Name, "--help"}}, nil
	}
	return arrangeCommand(app, cmd, all, prog, rest, found.at)
}

// foundCommand is what the first pass of arrange learns of a command line.
type foundCommand struct {
	at      int  // index of the command's name in the words, -1 for none
	help    bool // -h or --help stands before any "--"
	version bool // --version stands before any "--"
}

// findCommand is arrange's first pass: it finds the command, the first
// word that is not a flag's value, and whether help or the version was
// asked for anywhere before a "--". A flag before the command must be
// some command's flag (all), or its value could not be told from the
// command.
func findCommand(app *cli.App, all map[string]flagSpec, rest []string) (foundCommand, error) {
	found := foundCommand{at: -1}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			if found.at < 0 && i+1 < len(rest) {
				found.at = i + 1
			}
			break
		}
		if !isFlag(a) {
			if found.at < 0 {
				found.at = i
			}
			continue
		}
		name, _, inline := flagName(a)
		switch name {
		case "h", "help":
			found.help = true
			continue
		case "version":
			found.version = true
			continue
		}
		s, ok := all[name]
		if !ok {
			if found.at < 0 {
				return foundCommand{}, unknownFlag("", dashed(name), allFlagNames(app))
			}
			continue // the second pass says it is unknown to the command
		}
		if s.takesValue && !inline {
			i++ // its value, which may look like a command or a flag
		}
	}
	return found, nil
}

// helpCommand arranges `riskbatch help [CMD]`: the help of CMD, the first
// of after that is not a flag, or of riskbatch.
func helpCommand(app *cli.App, prog string, after []string) (commandLine, error) {
	var target string
	for _, a := range after {
		if !isFlag(a) {
			target = a
			break
		}
	}
	if target == "" || target == "help" {
		return commandLine{args: []string{prog, "--help"}}, nil
	}
	if app.Command(target) == nil {
		return commandLine{}, unknownCommand(app, target)
	}
	return commandLine{args: []string{prog, target, "--help"}}, nil
}

// arrangeCommand is arrange's second pass: the flags of cmd (whose name
// stands at cmdAt, -1 for the implicit command), wherever they stand,
// then "--" and its arguments in order. all holds every command's flags,
// to tell a flag of another command from an unknown one.
func arrangeCommand(app *cli.App, cmd *cli.Command, all map[string]flagSpec, prog string, rest []string, cmdAt int) (commandLine, error) {
	specs := flagSpecs(cmd.Flags)
	var flags, positional []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if i == cmdAt {
			continue
		}
		if a == "--" {
			for j := i + 1; j < len(rest); j++ {
				if j != cmdAt {
					positional = append(positional, rest[j])
				}
			}
			break
		}
		if !isFlag(a) {
			positional = append(positional, a)
			continue
		}
		fname, value, inline := flagName(a)
		s, ok := specs[fname]
		if !ok {
			if _, elsewhere := all[fname]; elsewhere {
				return commandLine{}, usagef(cmd.Name, "%s: %s is not a flag of %s; it belongs to %s",
					cmd.Name, dashed(fname), cmd.Name, andList(commandsWithFlag(app, fname)))
			}
			return commandLine{}, unknownFlag(cmd.Name, dashed(fname), flagNames(cmd.Flags))
		}
		flags = append(flags, a)
		if !s.takesValue {
			if _, err := strconv.ParseBool(value); inline && err != nil {
				return commandLine{}, usagef(cmd.Name, "%s: %s: %q is not true or false", cmd.Name, dashed(s.name), value)
			}
			continue
		}
		if !inline {
			if i+1 >= len(rest) || rest[i+1] == "--" || (isFlag(rest[i+1]) && isKnownFlag(rest[i+1], specs)) {
				return commandLine{}, usagef(cmd.Name, "%s: %s needs a value: %s", cmd.Name, dashed(s.name), s.usage)
			}
			i++
			value = rest[i]
			flags = append(flags, value)
		}
		if err := checkNumber(cmd.Name, s, value); err != nil {
			return commandLine{}, err
		}
	}
	out := append([]string{prog, cmd.Name}, flags...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return commandLine{args: out}, nil
}

// isKnownFlag reports whether a word is one of the flags of specs (or
// help): then it cannot be the value of the flag before it.
func isKnownFlag(a string, specs map[string]flagSpec) bool {
	name, _, _ := flagName(a)
	_, ok := specs[name]
	return ok || name == "h" || name == "help"
}

// checkNumber refuses the value of a number flag that is not a number, in
// words, before cli's parser says "parse error".
func checkNumber(cmd string, s flagSpec, value string) error {
	switch {
	case s.whole:
		if _, err := strconv.ParseInt(strings.TrimSpace(value), 0, 64); err != nil {
			return usagef(cmd, "%s: %s: %q is not a whole number", cmd, dashed(s.name), value)
		}
	case s.number:
		if _, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err != nil {
			return usagef(cmd, "%s: %s: %q is not a number", cmd, dashed(s.name), value)
		}
	}
	return nil
}

// unknownCommand is the error of a command riskbatch does not have: the
// closest commands, or for a word that looks like a file, how to evaluate it.
func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	names = append(names, "help")
	msg := fmt.Sprintf("unknown command %q", name)
	if s := editdist.Closest(name, names, 2); len(s) > 0 {
		msg += didYouMean(s, strconv.Quote)
	} else if strings.ContainsAny(name, "./\\") {
		msg += fmt.Sprintf("; to evaluate a file: riskbatch eval %s", name)
	}
	return usagef("", "%s", msg)
}

// unknownFlag is the error of a flag no command has (cmd "") or that cmd
// does not have, with the closest of names.
func unknownFlag(cmd, flag string, names []string) error {
	prefix := ""
	if cmd != "" {
		prefix = cmd + ": "
	}
	return usagef(cmd, "%sunknown flag %s%s", prefix, flag, didYouMean(editdist.Closest(flag, names, 2), dashed))
}

// flagNames lists the names of the visible flags, with help and version:
// the names a suggestion may offer.
func flagNames(flags []cli.Flag) []string {
	var names []string
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		names = append(names, f.Names()...)
	}
	return append(names, "help", "version")
}

// allFlagNames lists the flags of every command, each once.
func allFlagNames(app *cli.App) []string {
	var names []string
	for _, c := range app.Commands {
		for _, n := range flagNames(c.Flags) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// commandsWithFlag lists the commands that have a flag.
func commandsWithFlag(app *cli.App, name string) []string {
	var out []string
	for _, c := range app.Commands {
		if _, ok := flagSpecs(c.Flags)[name]; ok && !c.Hidden {
			out = append(out, c.Name)
		}
	}
	return out
}
