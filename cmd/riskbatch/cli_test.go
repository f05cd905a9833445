package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/urfave/cli/v2"
)

// cliRun runs the command line in-process in dir and returns the exit
// status and what it printed.
func cliRun(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errOut bytes.Buffer
	code = run(append([]string{"riskbatch"}, args...), nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// The command-line table: every case runs in a directory of its own
// holding t.csv (the sample release table, 34 rows of which 7 are invalid
// on purpose, so that eval exits 1) and checks the exit status, the exact
// stderr (or the lines it must contain) and the files written.
func TestCommandLine(t *testing.T) {
	version := buildVersion()
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string   // exact, when not "-"
		stdout []string // must contain each
		files  []string // written; a name with a leading ! must not be
	}{
		// Flags before the command, between and after the file names.
		{"flags before the command", []string{"-q", "eval", "t.csv", "-o", "t1.csv"}, exitRowErrors, "", nil, []string{"t1.csv", "!t-risk.csv"}},
		{"value flag before the command", []string{"--confidence", "0.05,0.5", "eval", "t.csv", "-o", "t2.csv", "-q"}, exitRowErrors, "", nil, []string{"t2.csv", "!t-risk.csv"}},
		{"flags after the file", []string{"eval", "t.csv", "-o", "x.csv", "--quiet"}, exitRowErrors, "", nil, []string{"x.csv", "!t-risk.csv"}},
		{"flags between the files", []string{"eval", "t.csv", "-q", "--output=y.csv", "t.csv"}, exitRowErrors, "", nil, []string{"y.csv"}},
		{"flags with no command: the sample", []string{"-o", "s.xlsx", "-q"}, exitOK, "", nil, []string{"s.xlsx", "!riskbatch-sample.xlsx"}},
		{"sample command", []string{"sample", "-q", "-o", "s2.xlsx"}, exitOK, "", nil, []string{"s2.xlsx"}},
		{"-- ends the flags", []string{"eval", "-q", "-o", "z.csv", "--", "t.csv"}, exitRowErrors, "", nil, []string{"z.csv"}},

		// eval needs an input; the sample takes none.
		{"eval without input", []string{"eval", "-q"}, exitUsage,
			"riskbatch: eval needs at least one input file; `riskbatch` alone evaluates the built-in sample\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!riskbatch-sample.xlsx"}},
		{"sample with an input", []string{"sample", "t.csv"}, exitUsage,
			"riskbatch: sample evaluates the built-in sample and takes no input file; to evaluate t.csv: riskbatch eval t.csv\nRun \"riskbatch sample --help\" for usage.\n", nil, []string{"!riskbatch-sample.xlsx"}},
		{"template with an argument", []string{"template", "mine.xlsx"}, exitUsage,
			"riskbatch: template takes no argument; to name the workbook: riskbatch template -o mine.xlsx\nRun \"riskbatch template --help\" for usage.\n", nil, []string{"!releases.xlsx", "!mine.xlsx"}},

		// Help anywhere.
		{"help eval", []string{"help", "eval"}, exitOK, "", []string{"riskbatch eval - evaluate every row", "PRIOR TABLES", "prior     a key", "30%", "Flags may stand before or after"}, nil},
		{"help", []string{"help"}, exitOK, "", []string{"COMMANDS:", "eval", "sample", "columns", "--version"}, nil},
		{"--help", []string{"--help"}, exitOK, "", []string{"COMMANDS:"}, nil},
		{"--help after a file", []string{"eval", "x.csv", "--help"}, exitOK, "", []string{"riskbatch eval - evaluate every row"}, []string{"!x-risk.csv"}},
		{"-h before the command", []string{"-h", "eval", "x.csv"}, exitOK, "", []string{"riskbatch eval - evaluate every row"}, nil},
		{"help columns", []string{"columns", "--help"}, exitOK, "", []string{"seed003 (Kulynych)", "fdp_*"}, nil},

		// Unknown commands and flags, with the closest names.
		{"unknown command", []string{"evaluate", "x.csv"}, exitUsage,
			"riskbatch: unknown command \"evaluate\"; did you mean \"eval\"?\nRun \"riskbatch --help\" for usage.\n", nil, []string{"!x-risk.csv"}},
		{"help of an unknown command", []string{"help", "evaluate"}, exitUsage,
			"riskbatch: unknown command \"evaluate\"; did you mean \"eval\"?\nRun \"riskbatch --help\" for usage.\n", nil, nil},
		{"a file where the command goes", []string{"t.csv", "-q"}, exitUsage,
			"riskbatch: unknown command \"t.csv\"; to evaluate a file: riskbatch eval t.csv\nRun \"riskbatch --help\" for usage.\n", nil, []string{"!t-risk.csv"}},
		{"unknown flag after the command", []string{"eval", "t.csv", "--outptu", "o.csv"}, exitUsage,
			"riskbatch: eval: unknown flag --outptu; did you mean --output?\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!o.csv", "!t-risk.csv"}},
		{"unknown flag before the command", []string{"--outptu", "o.csv", "eval", "t.csv"}, exitUsage,
			"riskbatch: unknown flag --outptu; did you mean --output?\nRun \"riskbatch --help\" for usage.\n", nil, []string{"!o.csv", "!t-risk.csv"}},
		{"unknown flag, nothing close", []string{"eval", "t.csv", "--bogus"}, exitUsage,
			"riskbatch: eval: unknown flag --bogus\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!t-risk.csv"}},
		{"another command's flag", []string{"eval", "t.csv", "--markdown"}, exitUsage,
			"riskbatch: eval: --markdown is not a flag of eval; it belongs to columns\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!t-risk.csv"}},
		{"another command's flag before it", []string{"-q", "columns"}, exitUsage,
			"riskbatch: columns: -q is not a flag of columns; it belongs to " + andList(commandsWithFlag(newApp(nil, nil, nil), "q")) + "\nRun \"riskbatch columns --help\" for usage.\n", nil, nil},

		// Flags without their value, or with a value of the wrong kind.
		{"--output without a value", []string{"eval", "t.csv", "--output"}, exitUsage,
			"riskbatch: eval: --output needs a value: output file; its extension picks the format (.xlsx, .csv, .tsv, .parquet; .csv.gz, .tsv.zst … compressed); - for standard output (CSV unless --format)\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!t-risk.csv"}},
		{"-o followed by a flag", []string{"eval", "t.csv", "-o", "--quiet"}, exitUsage,
			"riskbatch: eval: --output needs a value: output file; its extension picks the format (.xlsx, .csv, .tsv, .parquet; .csv.gz, .tsv.zst … compressed); - for standard output (CSV unless --format)\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!t-risk.csv", "!--quiet"}},
		{"--workers not a number", []string{"eval", "t.csv", "--workers", "two"}, exitUsage,
			"riskbatch: eval: --workers: \"two\" is not a whole number\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!t-risk.csv"}},
		{"--quiet=maybe", []string{"eval", "t.csv", "--quiet=maybe"}, exitUsage,
			"riskbatch: eval: --quiet: \"maybe\" is not true or false\nRun \"riskbatch eval --help\" for usage.\n", nil, []string{"!t-risk.csv"}},
		{"--tolerance not a number", []string{"priors", "t.csv", "--tolerance=abc"}, exitUsage,
			"riskbatch: priors: --tolerance: \"abc\" is not a number\nRun \"riskbatch priors --help\" for usage.\n", nil, nil},

		// The version, from the build information, wherever --version is.
		{"--version", []string{"--version"}, exitOK, "", []string{version + "\n"}, nil},
		{"--version after a command", []string{"eval", "t.csv", "--version"}, exitOK, "", []string{version}, []string{"!t-risk.csv"}},

		// Unreadable input.
		{"missing input", []string{"eval", "missing.csv", "-q"}, exitUsage,
			"riskbatch: missing.csv: cannot open the file: no such file or directory\n", nil, []string{"!missing-risk.csv"}},

		// columns filters.
		{"columns by name", []string{"columns", "epsilon"}, exitOK, "", []string{"INPUT COLUMNS", "epsilon (also eps)"}, nil},
		{"columns nothing matches", []string{"columns", "epsln"}, exitUsage,
			"riskbatch: columns: no column, group or paper matches \"epsln\"; did you mean epsilon?\nRun \"riskbatch columns --help\" for usage.\n", nil, nil},
		{"columns nothing close", []string{"columns", "zzzzzz"}, exitUsage,
			"riskbatch: columns: no column, group or paper matches \"zzzzzz\" (give a column name, a pattern such as fdp_*, a group such as onerun, or a paper such as seed003)\nRun \"riskbatch columns --help\" for usage.\n", nil, nil},
		{"columns, one of two matches nothing", []string{"columns", "epsilon", "dlta"}, exitUsage,
			"riskbatch: columns: no column, group or paper matches \"dlta\"; did you mean delta?\nRun \"riskbatch columns --help\" for usage.\n", nil, nil},
	}
	// The built-in sample's DP-SGD rows take most of a second to account.
	sample := map[string]bool{"flags with no command: the sample": true, "sample command": true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if sample[c.name] {
				testenv.SkipUnlessLong(t, "evaluates the built-in sample")
			}
			dir := t.TempDir()
			sampleCSV(t, dir)
			code, stdout, stderr := cliRun(t, dir, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if c.stderr != "-" && stderr != c.stderr {
				t.Errorf("stderr:\n%q\nwant\n%q", stderr, c.stderr)
			}
			for _, want := range c.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			for _, f := range c.files {
				if name, absent := strings.CutPrefix(f, "!"); absent {
					if exists(dir, name) {
						t.Errorf("%s was written", name)
					}
				} else if !exists(dir, f) {
					t.Errorf("%s was not written", f)
				}
			}
		})
	}
}

// A flag before the command takes effect: --confidence 0.05,0.5 before
// eval gives one onerun_successes_ub column per level.
func TestFlagBeforeCommandTakesEffect(t *testing.T) {
	dir := t.TempDir()
	sampleCSV(t, dir)
	if code, _, stderr := cliRun(t, dir, "--confidence", "0.05,0.5", "-q", "eval", "t.csv", "-o", "c.csv"); code != exitRowErrors {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, _ := readAll(t, filepath.Join(dir, "c.csv"))
	for _, want := range []string{"onerun_successes_ub_5", "onerun_successes_ub_50"} {
		if column(header, want) < 0 {
			t.Errorf("no column %s: %v", want, header)
		}
	}
	// Without the flag, there is no column per level.
	if code, _, stderr := cliRun(t, dir, "-q", "eval", "t.csv", "-o", "d.csv"); code != exitRowErrors {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if header, _ := readAll(t, filepath.Join(dir, "d.csv")); column(header, "onerun_successes_ub_5") >= 0 {
		t.Errorf("a column for the level 0.05 without --confidence: %v", header)
	}
}

// run returns 0, 1, 2 or 130 and nothing else: any other status an error
// carries (urfave/cli's 3, say) is a usage error.
func TestExitStatuses(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{cli.Exit("", exitRowErrors), exitRowErrors},
		{cli.Exit("bad", exitUsage), exitUsage},
		{cli.Exit("interrupted", exitInterrupted), exitInterrupted},
		{cli.Exit("No help topic for 'x'", 3), exitUsage},
		{cli.Exit("odd", 0), exitUsage},
		{errors.New("plain"), exitUsage},
		{usagef("eval", "x"), exitUsage},
	} {
		var stderr bytes.Buffer
		if got := exitStatus(c.err, &stderr); got != c.want {
			t.Errorf("%v (%T): exit %d, want %d", c.err, c.err, got, c.want)
		}
	}
}

// --version prints the version and revision a release build stamped, else
// the module version and the revision from the build information, and says
// so when there is none (a -buildvcs=false build).
func TestVersionText(t *testing.T) {
	withVCS := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-05-01T12:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, c := range []struct {
		stamp stamp
		info  *debug.BuildInfo
		ok    bool
		want  string
	}{
		{stamp{}, withVCS, true, "riskbatch v1.2.3, revision 0123456789ab of 2026-05-01T12:00:00Z with uncommitted changes, go1.26.8"},
		// A release binary prints what it was stamped with.
		{stamp{"v0.4.0-3-gabcdef0", "abcdef0123456789abcdef0123456789abcdef01"}, withVCS, true, "riskbatch v0.4.0-3-gabcdef0, revision abcdef0123456789abcdef0123456789abcdef01, go1.26.8"},
		{stamp{"v0.4.0", ""}, nil, false, "riskbatch v0.4.0"},
		{stamp{}, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true,
			"riskbatch (devel), no revision recorded (built with -buildvcs=false or outside a git repository), go1.26.8"},
		{stamp{}, &debug.BuildInfo{}, true, "riskbatch (devel), no revision recorded (built with -buildvcs=false or outside a git repository)"},
		{stamp{}, nil, false, "riskbatch (no build information recorded in this binary)"},
	} {
		if got := versionText(c.stamp, c.info, c.ok); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// arrange puts every flag after the command and every argument after "--",
// reading from the flag definitions which flags take a value.
func TestArrange(t *testing.T) {
	app := newApp(nil, nil, nil)
	for _, c := range []struct{ in, want []string }{
		{[]string{"-q", "eval", "t.csv", "-o", "t1.csv"}, []string{"eval", "-q", "-o", "t1.csv", "--", "t.csv"}},
		{[]string{"--priors", "eval", "eval", "a.csv"}, []string{"eval", "--priors", "eval", "--", "a.csv"}}, // a value that looks like a command
		{[]string{"eval", "a.csv", "-o", "-"}, []string{"eval", "-o", "-", "--", "a.csv"}},                   // - is standard output
		{[]string{"-o", "s.xlsx"}, []string{"sample", "-o", "s.xlsx"}},
		{nil, []string{"sample"}},
		{[]string{"eval", "a.csv", "--", "-b.csv", "--quiet"}, []string{"eval", "--", "a.csv", "-b.csv", "--quiet"}},
		{[]string{"help", "priors"}, []string{"priors", "--help"}},
		{[]string{"columns", "fdp_*", "--markdown", "onerun"}, []string{"columns", "--markdown", "--", "fdp_*", "onerun"}},
	} {
		line, err := arrange(app, append([]string{"riskbatch"}, c.in...))
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := line.args[1:]; !slices.Equal(got, c.want) {
			t.Errorf("%q → %q, want %q", c.in, got, c.want)
		}
	}
}

// A flag name means the same on every command: arrange reads whether a
// flag before the command takes a value from any command that has it.
func TestFlagsTakeValuesAlike(t *testing.T) {
	app := newApp(nil, nil, nil)
	seen := map[string]string{} // name → the command that has it
	for _, c := range app.Commands {
		for n, s := range flagSpecs(c.Flags) {
			if other, ok := seen[n]; ok && flagSpecs(app.Command(other).Flags)[n].takesValue != s.takesValue {
				t.Errorf("%s takes a value on %s but not on the other", dashed(n), orList([]string{other, c.Name}))
			}
			seen[n] = c.Name
			if n == "h" || n == "help" || n == "version" {
				t.Errorf("%s: %s is riskbatch's own flag", c.Name, dashed(n))
			}
		}
	}
}

// columns filters by name or alias, pattern, family, paper (seed number
// or author), and prints only what matches.
func TestColumnsFilters(t *testing.T) {
	names := func(args ...string) []string {
		t.Helper()
		code, stdout, stderr := cliRun(t, "", append([]string{"columns", "--markdown"}, args...)...)
		if code != exitOK {
			t.Fatalf("columns %q: exit %d: %s", args, code, stderr)
		}
		var out []string
		for _, l := range strings.Split(stdout, "\n")[2:] {
			if f := strings.Split(l, " | "); len(f) > 1 {
				out = append(out, strings.TrimPrefix(f[0], "| "))
			}
		}
		return out
	}
	if got := names("eps"); !slices.Equal(got, []string{"epsilon (also eps)"}) {
		t.Errorf("eps: %q", got)
	}
	if got := names("ε", "Delta"); !slices.Equal(got, []string{"epsilon (also eps)", "delta"}) {
		t.Errorf("ε Delta: %q", got)
	}
	all := names()
	for _, c := range []struct {
		sel   string
		match func(name string) bool
	}{
		{"fdp_*", func(n string) bool { return strings.HasPrefix(n, "fdp_") }},
		{"onerun", func(n string) bool { return strings.HasPrefix(n, "onerun_") }},
		{"gb", func(n string) bool { return strings.HasPrefix(n, "gb_") }},
		// seed 002 is Swanberg et al., the one-run bounds, and the audit
		// columns its bounds compute for audit prior (not audit_mu_lb).
		{"seed002", onerunOrPriorAudit},
		{"swanberg", onerunOrPriorAudit},
		// seed 000 is Guerra-Balboa et al.
		{"seed 0", func(n string) bool { return strings.HasPrefix(n, "gb_") }},
		// seed 004 is Guo et al.: the Fano bounds.
		{"guo", func(n string) bool { return strings.HasPrefix(n, "fano_") }},
	} {
		got := names(c.sel)
		var want []string
		for _, n := range all {
			if c.match(n) {
				want = append(want, n)
			}
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", c.sel, got, want)
		}
	}
	// seed 003 (Kulynych et al.) covers the f-DP columns and those it
	// restates (rero_*, App. B; adp_advantage), and no Guerra-Balboa,
	// Lowy, Swanberg or Guo column.
	seed3 := names("seed003")
	if !slices.Equal(seed3, names("kulynych")) {
		t.Errorf("seed003 and kulynych differ")
	}
	for _, want := range []string{"fdp_success", "fdp_worst_advantage", "rero_eps", "rero_zcdp", "adp_advantage"} {
		if !slices.Contains(seed3, want) {
			t.Errorf("seed003 lacks %s: %q", want, seed3)
		}
	}
	for _, n := range seed3 {
		for _, p := range []string{"gb_", "pmp_", "onerun_", "fano_"} {
			if strings.HasPrefix(n, p) {
				t.Errorf("seed003 has %s", n)
			}
		}
	}
	if got := names("input"); len(got) == 0 || !slices.Contains(got, "baseline (also kappa)") || slices.Contains(got, "status") {
		t.Errorf("input: %q", got)
	}
}

// An input whose headers are misspelt beside a known id: the unknown
// columns are named once on stderr, with the closest known names (even
// with -q), and the workbook notes them on their headers.
func TestUnknownColumnsNamed(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "releases.csv")
	if err := os.WriteFile(in, []byte("id,epsln,dlta,baselin,note,mechanism\nr1,1,1e-5,0.1,free text,approx\nr2,2,1e-5,0.1,,approx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.xlsx")
	code, _, stderr := cliRun(t, "", "eval", in, "-o", out, "-q")
	// The rows name no privacy parameter, so they are error rows: exit 1.
	// (A file whose only known columns are id and note is refused: see
	// TestNoKnownColumn.)
	if code != exitRowErrors {
		t.Errorf("exit %d, want %d: %s", code, exitRowErrors, stderr)
	}
	want := "riskbatch: " + in + ": 3 columns are not known and pass through unchanged: epsln (did you mean epsilon?), dlta (delta?), baselin (baseline?)\n"
	if stderr != want {
		t.Errorf("stderr:\n%q\nwant\n%q", stderr, want)
	}
	f := testfiles.OpenXLSX(t, out)
	comments, err := f.GetComments(f.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	notes := map[string]string{}
	for _, c := range comments {
		var text strings.Builder
		for _, r := range c.Paragraph {
			text.WriteString(r.Text)
		}
		notes[c.Cell] = text.String()
	}
	for cell, want := range map[string]string{
		"B1": "epsln\nriskbatch does not know this column: it passes through unchanged and no bound reads it. Did you mean epsilon?",
		"C1": "dlta\nriskbatch does not know this column: it passes through unchanged and no bound reads it. Did you mean delta?",
		"D1": "baselin\nriskbatch does not know this column: it passes through unchanged and no bound reads it. Did you mean baseline?",
	} {
		if notes[cell] != want {
			t.Errorf("note on %s: %q, want %q", cell, notes[cell], want)
		}
	}
	for _, cell := range []string{"A1", "E1", "F1"} { // id and mechanism are known; note is the template's own
		if n, ok := notes[cell]; ok {
			t.Errorf("note on %s: %q", cell, n)
		}
	}

	// Once per table: two inputs, two lines; a one-column warning is singular.
	other := filepath.Join(dir, "other.csv")
	if err := os.WriteFile(other, []byte("epsilon,mechanizm\n1,pure\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, stderr = cliRun(t, "", "eval", in, other, "-o", filepath.Join(dir, "both.csv"), "-q")
	want += "riskbatch: " + other + ": 1 column is not known and passes through unchanged: mechanizm (did you mean mechanism?)\n"
	if stderr != want {
		t.Errorf("two inputs: stderr:\n%q\nwant\n%q", stderr, want)
	}
}

// `riskbatch priors` that builds no prior exits 1, writes nothing, and
// says what to pass; a prior table's p may be a percentage.
func TestPriorsNothingBuilt(t *testing.T) {
	dir := t.TempDir()
	var data strings.Builder
	data.WriteString("age,income\n")
	for i := range 60 { // 60 distinct values each: above the default 50
		data.WriteString(itoa(20+i) + "," + itoa(1000*i) + "\n")
	}
	in := filepath.Join(dir, "people.csv")
	if err := os.WriteFile(in, []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "p.csv")
	code, _, stderr := cliRun(t, "", "priors", in, "-o", out, "-q")
	if code != exitRowErrors {
		t.Errorf("exit %d, want %d", code, exitRowErrors)
	}
	last := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
	want := "riskbatch: priors: no prior built from the 60 records of " + in + ", nothing written: no column has at most 50 distinct values (--max-categories); " +
		"name the attributes to reconstruct with --columns A,B (any number of values), numeric ones with --ordinal A --tolerance E, or raise --max-categories\n"
	if last != want {
		t.Errorf("stderr ends with\n%q\nwant\n%q\n(all: %s)", last, want, stderr)
	}
	if !strings.Contains(stderr, `column "age" has more than 50 distinct values`) {
		t.Errorf("the notes do not name the columns left out: %s", stderr)
	}
	if exists(dir, "p.csv") || exists(dir, "p-frequencies.csv") || exists(dir, "p-summary.csv") {
		t.Error("files written")
	}
	// Named, the columns give priors.
	if code, _, stderr := cliRun(t, "", "priors", in, "-o", out, "-q", "--columns", "age"); code != exitOK {
		t.Errorf("--columns age: exit %d: %s", code, stderr)
	}
}

// A prior table's p of 30% joins as the baseline 0.3: the row with that
// prior gets the bounds of the same row with baseline 0.3 typed in.
func TestPriorTablePercentage(t *testing.T) {
	dir := t.TempDir()
	pt := filepath.Join(dir, "pt.csv")
	rel := filepath.Join(dir, "rel.csv")
	os.WriteFile(pt, []byte("prior,p\nk,30%\n"), 0o644)
	os.WriteFile(rel, []byte("id,epsilon,baseline,prior\ntyped,1,0.3,\njoined,1,,k\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	if code, _, stderr := cliRun(t, "", "eval", rel, "--priors", pt, "-o", out, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, rows := readAll(t, out)
	s := column(header, "fdp_success")
	if s < 0 || rows[0][s] == "" || rows[0][s] != rows[1][s] {
		t.Errorf("fdp_success typed %q, joined %q", rows[0][s], rows[1][s])
	}
}

// onerunOrPriorAudit reports whether an output column cites Swanberg et
// al.: the one-run bounds, and the audit columns of audit prior (not the
// input audit_bound, whose row cites the contract).
func onerunOrPriorAudit(n string) bool {
	return strings.HasPrefix(n, "onerun_") || strings.HasPrefix(n, "audit_") && n != "audit_mu_lb" && n != "audit_bound"
}
