package main

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// visibleCommands are the names of the commands --help lists.
func visibleCommands(app *cli.App) []string {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
}

// TestComplete: the completions are the real command and flag names,
// wherever the flags stand, and the values of the flags that take one of
// a list; nothing where a file name is expected (the shell completes it).
func TestComplete(t *testing.T) {
	app := newApp(nil, nil, nil)
	eval := dashedNames(flagNames(app.Command("eval").Flags))
	if !slices.Contains(eval, "--output") || !slices.Contains(eval, "-o") || !slices.Contains(eval, "--max-spool-bytes") || slices.Contains(eval, "--pass-through") {
		t.Fatalf("eval's flags: %q", eval)
	}
	for _, c := range []struct {
		words []string
		cur   string
		want  []string
	}{
		{nil, "", append(visibleCommands(app), "help")},
		{nil, "ev", []string{"eval"}},
		{[]string{"-q"}, "", append(visibleCommands(app), "help")},
		{[]string{"--sheet", "eval"}, "", append(visibleCommands(app), "help")}, // eval is --sheet's value
		{[]string{"eval"}, "-", eval},
		{[]string{"eval", "in.csv", "-o", "out.csv"}, "--", slices.DeleteFunc(slices.Clone(eval), func(s string) bool { return !strings.HasPrefix(s, "--") })},
		{[]string{"eval"}, "--sor", []string{"--sorted-groups"}},
		{[]string{"--quiet"}, "--sor", []string{"--sorted-groups"}},
		{[]string{"eval", "--format"}, "", []string{"csv", "tsv", "xlsx", "parquet"}},
		{[]string{"eval", "--input-format"}, "p", []string{"parquet"}},
		{[]string{"eval", "-o"}, "", nil},
		{[]string{"eval"}, "", nil},
		{[]string{"eval", "--"}, "-", nil},
		{[]string{"completion"}, "", []string{"bash", "zsh", "fish"}},
		{[]string{"help"}, "pr", []string{"priors"}},
		{[]string{"priors"}, "--max-c", []string{"--max-categories", "--max-cell-bytes", "--max-columns"}},
	} {
		got := complete(app, c.words, c.cur)
		if !slices.Equal(got, c.want) {
			t.Errorf("riskbatch %s %q: %q, want %q", strings.Join(c.words, " "), c.cur, got, c.want)
		}
	}
	// The hidden command is the scripts' way in: it prints one a line.
	var out bytes.Buffer
	if code := run([]string{"riskbatch", completeCommand, "eval", "--sor"}, nil, &out, new(bytes.Buffer)); code != exitOK || out.String() != "--sorted-groups\n" {
		t.Errorf("riskbatch %s eval --sor: exit %d, %q", completeCommand, code, out.String())
	}
}

// completionOf returns `riskbatch completion SHELL`.
func completionOf(t *testing.T, shell string) string {
	t.Helper()
	var out bytes.Buffer
	if code := run([]string{"riskbatch", "completion", shell}, nil, &out, new(bytes.Buffer)); code != exitOK {
		t.Fatalf("completion %s: exit %d", shell, code)
	}
	return out.String()
}

// TestCompletionScripts: each script parses in its shell (where the shell
// is installed), and the bash and fish scripts, run as the shells run them
// on Tab, offer the real names: riskbatch is this test binary as a child
// (TestHelperProcess).
func TestCompletionScripts(t *testing.T) {
	if code, stderr := riskbatch(t, "completion", "tcsh"); code != exitUsage || !strings.Contains(stderr, "bash, zsh, fish") {
		t.Errorf("completion tcsh: exit %d, %q", code, stderr)
	}
	for _, shell := range completionShells {
		script := completionOf(t, shell)
		path, err := exec.LookPath(shell)
		if err != nil {
			if testenv.CI() {
				t.Errorf("%s is not installed (CI=true: it must be)", shell)
			} else {
				t.Logf("%s is not installed: its script is not checked", shell)
			}
			continue
		}
		cmd := exec.Command(path, "-n")
		cmd.Stdin = strings.NewReader(script)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v: %s", shell, err, out)
		}
		if shell == "zsh" {
			continue // zsh completes only in an interactive shell
		}
		for _, c := range []struct {
			line string
			want []string
		}{
			{"riskbatch ev", []string{"eval"}},
			{"riskbatch -q eval in.csv --sor", []string{"--sorted-groups"}},
			{"riskbatch eval --format x", []string{"xlsx"}},
			{"riskbatch completion ", []string{"bash", "zsh", "fish"}},
		} {
			words := strings.Fields(c.line)
			if strings.HasSuffix(c.line, " ") {
				words = append(words, "")
			}
			prog := `riskbatch() { RISKBATCH_HELPER_PROCESS=1 "$RISKBATCH_TEST_BINARY" -test.run='^TestHelperProcess$' -- "$@"; }
` + script + `
COMP_WORDS=(` + quoteWords(words) + `); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_riskbatch
printf '%s\n' "${COMPREPLY[@]}"`
			args := []string{"--norc", "--noprofile", "-c", prog}
			if shell == "fish" {
				prog = `function riskbatch; env RISKBATCH_HELPER_PROCESS=1 $RISKBATCH_TEST_BINARY -test.run='^TestHelperProcess$' -- $argv; end
` + script + `
complete -C` + quoteWords([]string{c.line})
				args = []string{"--no-config", "-c", prog}
			}
			cmd := exec.Command(path, args...)
			cmd.Env = append(os.Environ(), "RISKBATCH_TEST_BINARY="+os.Args[0])
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s completing %q: %v", shell, c.line, err)
			}
			got := strings.Fields(string(out))
			slices.Sort(got) // fish sorts them
			if want := slices.Sorted(slices.Values(c.want)); !slices.Equal(got, want) {
				t.Errorf("%s completing %q: %q, want %q", shell, c.line, got, want)
			}
		}
	}
}

// quoteWords quotes words for a bash array.
func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// TestMan: the manual page is roff made from the command line's own
// definitions, with every command and every flag of eval; where groff is
// installed it formats without a warning.
func TestMan(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"riskbatch", "man"}, nil, &out, new(bytes.Buffer)); code != exitOK {
		t.Fatalf("man: exit %d", code)
	}
	page := out.String()
	if !strings.HasPrefix(page, ".nh\n.TH riskbatch 1") {
		t.Errorf("not a roff page of section 1: %.40q", page)
	}
	app := newApp(nil, nil, nil)
	for _, name := range visibleCommands(app) {
		if !strings.Contains(page, "\n.SH "+name+"\n") {
			t.Errorf("the manual page has no section for the command %s", name)
		}
	}
	for _, f := range app.Command("eval").Flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			if strings.Contains(page, "--"+f.Names()[0]) {
				t.Errorf("the manual page names the hidden flag --%s", f.Names()[0])
			}
			continue
		}
		if !strings.Contains(page, `\fB--`+f.Names()[0]) {
			t.Errorf("the manual page does not name eval's flag --%s", f.Names()[0])
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Log("groff is not installed: the page is not formatted")
		return
	}
	cmd := exec.Command(groff, "-k", "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	if msg, err := cmd.CombinedOutput(); err != nil || len(msg) > 0 {
		t.Errorf("groff: %v: %s", err, msg)
	}
}
