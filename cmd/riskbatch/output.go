package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/writers"
)

// stdoutName is how messages call standard output.
const stdoutName = "standard output"

// output is where a command writes: a file, or standard output.
type output struct {
	path string // as given with -o ("-" for standard output)
	// stdout is set when the output is this process's standard output:
	// -o -, or a path naming it (/dev/stdout, /dev/fd/1).
	stdout bool
}

// name is how messages call the output.
func (o output) name() string {
	if o.stdout {
		return stdoutName
	}
	return o.path
}

// outputOf reads -o: "-" or a path that names this process's standard
// output (stdout, when it is a file) is standard output; any other path a
// file (a path naming a pipe or a device is streamed by the writers).
func outputOf(path string, stdout io.Writer) output {
	if path == "-" {
		return output{path: path, stdout: true}
	}
	if f, ok := stdout.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			if fi, err := os.Stat(path); err == nil && os.SameFile(fi, st) {
				return output{path: path, stdout: true}
			}
		}
	}
	return output{path: path}
}

// stdoutFile returns standard output as the file the writers stream to.
// When stdout is not a file (a test's buffer), the rows go through a pipe
// into it; done closes the pipe and waits for the copy.
func stdoutFile(stdout io.Writer) (f *os.File, done func() error, err error) {
	if f, ok := stdout.(*os.File); ok {
		return f, func() error { return nil }, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(stdout, r)
		_ = r.Close()
		copied <- err
	}()
	return w, func() error {
		err := w.Close()
		if cerr := <-copied; err == nil {
			err = cerr
		}
		return err
	}, nil
}

// readFile is a file a run reads, and what it is to the run ("the input
// file", "the prior table", …).
type readFile struct {
	path, role string
}

// refuseOverwrite returns an error when an output is a file the run reads,
// however either is spelt: through links, hard links, "./" or "a/../", or
// in another case where the file system ignores case (os.SameFile on the
// files themselves). outputs[0] is the output named with -o; further
// outputs are files written beside it (their messages say so). A stream
// output is compared when standard output is a file.
func refuseOverwrite(outputs []output, reads []readFile, stdout io.Writer) error {
	for i, o := range outputs {
		var out os.FileInfo
		if o.stdout {
			f, ok := stdout.(*os.File)
			if !ok {
				continue
			}
			st, err := f.Stat()
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
			out = st
		} else {
			st, err := os.Stat(o.path)
			if err != nil {
				continue // does not exist yet, so it is not read
			}
			out = st
		}
		for _, r := range reads {
			st, err := os.Stat(r.path)
			if err != nil || !os.SameFile(st, out) {
				continue
			}
			what := o.name()
			if i > 0 {
				what += " (written beside " + outputs[0].name() + ")"
			}
			return fmt.Errorf("%s: the output is %s %s; riskbatch never overwrites a file it reads, choose another -o", what, r.role, r.path)
		}
	}
	return nil
}

// refuseForeign returns an error unless every output file may be
// replaced: it does not exist, or riskbatch wrote it (writers.Replaceable
// with ownHeader), or force is set (--force).
func refuseForeign(paths []string, force bool) error {
	if force {
		return nil
	}
	for _, p := range paths {
		if err := writers.Replaceable(p, ownHeader); err != nil {
			return fmt.Errorf("%v; pass --force to replace it, or choose another -o", err)
		}
	}
	return nil
}

// ownHeader recognises the header of a CSV or TSV file riskbatch wrote:
// an evaluated table (see evalHeader) or a table of `riskbatch priors`.
func ownHeader(names []string) bool {
	return evalHeader(names) || build.WrittenHeader(names)
}

// evalHeader reports whether names is the header of a table `riskbatch
// eval` wrote: the input columns, then status, message, headline and
// headline_says (which earlier versions did not write), and one or more
// known output columns in riskbatch's order and nothing after them. An
// output column per confidence level (onerun_successes_ub_95, with
// several --confidence levels) is known too.
func evalHeader(names []string) bool {
	const levelPrefix = "onerun_successes_ub_"
	status := -1
	for i, n := range names {
		if strings.TrimSpace(n) == "status" {
			status = i
		}
	}
	if status < 0 || status+2 >= len(names) || strings.TrimSpace(names[status+1]) != "message" {
		return false
	}
	rank := map[string]int{}
	for i, o := range evaluate.New().Outputs() {
		rank[o.Name] = i
	}
	outputs := names[status+2:]
	// The headline's two columns, which earlier versions did not write.
	if len(outputs) > 2 && strings.TrimSpace(outputs[0]) == evaluate.HeadlineColumn && strings.TrimSpace(outputs[1]) == evaluate.HeadlineSaysColumn {
		outputs = outputs[2:]
	}
	last := -1
	for _, n := range outputs {
		n = strings.TrimSpace(n)
		r, ok := rank[n]
		if level, found := strings.CutPrefix(n, levelPrefix); !ok && found && level != "" && strings.Trim(level, "0123456789_") == "" {
			r, ok = len(rank), true // the levels' columns come last
		}
		if !ok || r < last {
			return false
		}
		last = r
	}
	return true
}
