package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// completeCommand is the hidden command the completion scripts run:
// `riskbatch __complete WORD ... CURRENT` prints, one a line, the words
// that may complete CURRENT after the words before it; nothing when a
// file name is expected (the shell then completes file names).
//
// The scripts ask riskbatch rather than list the flags themselves so that
// completion follows riskbatch's own command line (see arrange): flags
// before or after the command, flags that take a value, "--". urfave/cli's
// own completion (--generate-bash-completion, ToFishCompletion) knows a
// command's flags only after its name, and arrange would refuse its flag.
const completeCommand = "__complete"

// completionShells are the shells `riskbatch completion` writes for.
var completionShells = []string{"bash", "zsh", "fish"}

// complete returns the completions of cur after the words before it.
func complete(app *cli.App, words []string, cur string) []string {
	all := map[string]flagSpec{}
	for _, c := range app.Commands {
		for n, s := range flagSpecs(c.Flags) {
			all[n] = s
		}
	}
	cmd := ""
	var valueOf *flagSpec // the flag whose value cur is
	onlyArgs := false     // after "--"
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			onlyArgs = true
		case !onlyArgs && isFlag(w):
			name, _, inline := flagName(w)
			if s, ok := all[name]; ok && s.takesValue && !inline {
				if i == len(words)-1 {
					valueOf = &s
				}
				i++
			}
		case cmd == "":
			cmd = w
		}
	}
	var out []string
	switch {
	case valueOf != nil:
		out = flagValues(valueOf.name)
	case !onlyArgs && strings.HasPrefix(cur, "-"):
		if c := app.Command(cmd); c != nil {
			out = dashedNames(flagNames(c.Flags))
		} else if cmd == "" {
			out = dashedNames(allFlagNames(app))
		}
	case cmd == "" || cmd == "help":
		for _, c := range app.Commands {
			if !c.Hidden {
				out = append(out, c.Name)
			}
		}
		if cmd == "" {
			out = append(out, "help")
		}
	case cmd == "completion":
		out = completionShells
	case cmd == "columns":
		out = columnFamilies()
	}
	return slices.DeleteFunc(slices.Clone(out), func(s string) bool { return !strings.HasPrefix(s, cur) })
}

// flagValues are the values a flag takes from a fixed list; nil for a
// file name or a number.
func flagValues(flag string) []string {
	switch flag {
	case "format", "input-format":
		return []string{"csv", "tsv", "xlsx", "parquet"}
	case "columns":
		return columnFamilies()
	}
	return nil
}

// dashedNames writes flag names as they are typed, each once.
func dashedNames(names []string) []string {
	var out []string
	for _, n := range names {
		if d := dashed(n); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// printCompletions is the hidden command: args are the words after
// riskbatch, the last one the word being completed.
func printCompletions(app *cli.App, args []string, stdout io.Writer) {
	cur := ""
	if len(args) > 0 {
		cur, args = args[len(args)-1], args[:len(args)-1]
	}
	for _, c := range complete(app, args, cur) {
		fmt.Fprintln(stdout, c)
	}
}

// completionScript is the script of `riskbatch completion SHELL`.
func completionScript(shell string) (string, error) {
	switch shell {
	case "bash":
		return bashCompletion, nil
	case "zsh":
		return zshCompletion, nil
	case "fish":
		return fishCompletion, nil
	}
	return "", usagef("completion", "completion: %q is not a shell riskbatch completes: give %s", shell, strings.Join(completionShells, ", "))
}

// The scripts run riskbatch (as it was typed) with completeCommand; where
// it prints nothing, the shell completes file names.
const bashCompletion = `# bash completion for riskbatch: riskbatch completion bash > ~/.local/share/bash-completion/completions/riskbatch
# (or: source <(riskbatch completion bash) in ~/.bashrc)
_riskbatch() {
    local cur="${COMP_WORDS[COMP_CWORD]}" IFS=$'\n'
    COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" ` + completeCommand + ` "${COMP_WORDS[@]:1:COMP_CWORD-1}" "$cur" 2>/dev/null)" -- "$cur"))
}
complete -o default -F _riskbatch riskbatch
`

const zshCompletion = `#compdef riskbatch
# zsh completion for riskbatch: riskbatch completion zsh > "${fpath[1]}/_riskbatch"
# (or: source <(riskbatch completion zsh) in ~/.zshrc, after compinit)
_riskbatch() {
    local -a opts
    opts=("${(@f)$(${words[1]} ` + completeCommand + ` "${(@)words[2,CURRENT-1]}" "${words[CURRENT]}" 2>/dev/null)}")
    if [[ -n "${opts[1]}" ]]; then
        compadd -a opts
    else
        _files
    fi
}
if [[ "$funcstack[1]" = "_riskbatch" ]]; then
    _riskbatch "$@"
else
    compdef _riskbatch riskbatch
fi
`

const fishCompletion = `# fish completion for riskbatch: riskbatch completion fish > ~/.config/fish/completions/riskbatch.fish
function __riskbatch_complete
    set -l words (commandline -opc)
    $words[1] ` + completeCommand + ` $words[2..-1] (commandline -ct) 2>/dev/null
end
function __riskbatch_offers
    test (count (__riskbatch_complete)) -gt 0
end
complete -c riskbatch -f -n __riskbatch_offers -a '(__riskbatch_complete)'
`
