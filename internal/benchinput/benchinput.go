// Package benchinput writes the generated release tables that riskbatch's
// benchmarks read: the command's end-to-end benchmark, the Beam pipeline's
// benchmark, the riskbatch-bench program and the sweep a printing test
// uses. One generator, so that their figures are measured on the same rows.
//
// Each kind of table is a header and a function writing row i from a
// random source seeded with 1: the same n gives the same bytes every time.
package benchinput

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

// Kind is one kind of generated table: its CSV header and how row i is
// written (with its line end) from rng.
type Kind struct {
	Header string
	Row    func(w *bufio.Writer, i int, rng *rand.Rand)
}

// ClosedForm is release rows of the closed-form families (pure, approx,
// gaussian, gdp), in turn, with baselines, as a sweep would give.
func ClosedForm() Kind {
	return Kind{
		Header: "id,mechanism,epsilon,delta,sigma,mu,baseline",
		Row: func(w *bufio.Writer, i int, rng *rand.Rand) {
			b := strconv.FormatFloat(rng.Float64()*0.5, 'g', 6, 64)
			switch i % 4 {
			case 0:
				fmt.Fprintf(w, "r%d,pure,%.4g,,,,%s\n", i, rng.Float64()*10, b)
			case 1:
				fmt.Fprintf(w, "r%d,approx,%.4g,1e-5,,,%s\n", i, rng.Float64()*10, b)
			case 2:
				fmt.Fprintf(w, "r%d,gaussian,,1e-5,%.4g,,%s\n", i, 0.5+rng.Float64()*10, b)
			default:
				fmt.Fprintf(w, "r%d,gdp,,1e-5,,%.4g,%s\n", i, rng.Float64()*3, b)
			}
		},
	}
}

// Heavy is zCDP rows with distinct ρ: each needs the numerical conversion
// to a trade-off curve, so evaluation, not input and output, bounds a run.
func Heavy() Kind {
	return Kind{
		Header: "id,mechanism,rho,delta,baseline",
		Row: func(w *bufio.Writer, i int, rng *rand.Rand) {
			fmt.Fprintf(w, "z%d,zcdp,%.6g,1e-5,%.4g\n", i, 0.01+rng.Float64()*2, 0.01+rng.Float64()*0.4)
		},
	}
}

// DPSGD is DP-SGD rows over 16 configurations (noise multiplier × sample
// rate) in turn, with baselines: after the first row of each, the run's
// accountant cache holds its PLD, and each row converts it to the f-DP and
// ε columns, so evaluation bounds a run.
func DPSGD() Kind {
	return Kind{
		Header: "id,mechanism,noise_multiplier,sample_rate,steps,delta,baseline",
		Row: func(w *bufio.Writer, i int, rng *rand.Rand) {
			c := i % 16
			fmt.Fprintf(w, "s%d,dpsgd,%g,%g,1000,1e-5,%.4g\n", i, 0.8+0.2*float64(c%4), 0.001*float64(1+c/4), 0.01+rng.Float64()*0.4)
		},
	}
}

// Tail is one-run rows of 100 targets with distinct baselines: each
// computes the distribution of the number of successes, so evaluation
// bounds a run.
func Tail() Kind {
	return Kind{
		Header: "id,mechanism,epsilon,delta,baseline,targets,successes",
		Row: func(w *bufio.Writer, i int, rng *rand.Rand) {
			fmt.Fprintf(w, "t%d,approx,%.4g,1e-5,%.4g,100,%d\n", i, 0.1+rng.Float64()*2, 0.05+rng.Float64()*0.5, 10+rng.Intn(80))
		},
	}
}

// Wide is rows of cols numeric columns, baseline, c1, c2, …: passed
// through, they measure the writer. The first is named baseline, an input
// column, because riskbatch refuses a table whose header names none (a
// file read with the wrong delimiter, say), in a pass-through run too.
func Wide(cols int) Kind {
	h := make([]string, cols)
	for j := range h {
		h[j] = "c" + strconv.Itoa(j)
	}
	h[0] = "baseline"
	return Kind{
		Header: strings.Join(h, ","),
		Row: func(w *bufio.Writer, i int, rng *rand.Rand) {
			for j := range cols {
				if j > 0 {
					w.WriteByte(',')
				}
				w.WriteString(strconv.FormatFloat(rng.Float64(), 'g', 8, 64))
			}
			w.WriteByte('\n')
		},
	}
}

// WriteCSV writes n rows of kind k, header first, to the file path.
func WriteCSV(path string, k Kind, n int) error {
	return WriteShards([]string{path}, k, n)
}

// WriteShards writes n rows of kind k over the files paths, as a sharded
// export would: row i goes to paths[i % len(paths)], each file with its
// header. The rows are drawn file after file from one random source.
func WriteShards(paths []string, k Kind, n int) error {
	rng := rand.New(rand.NewSource(1))
	for f, path := range paths {
		if err := writeFile(path, func(w *bufio.Writer) {
			fmt.Fprintln(w, k.Header)
			for i := f; i < n; i += len(paths) {
				k.Row(w, i, rng)
			}
		}); err != nil {
			return err
		}
	}
	return nil
}

// writeFile creates path and writes it through a buffer.
func writeFile(path string, write func(*bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	write(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// Rows is the number of rows a benchmark reads: the environment variable
// env when it holds a positive whole number, def otherwise.
func Rows(env string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(env)); err == nil && n > 0 {
		return n
	}
	return def
}
