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

// Sweep is DP-SGD rows over 60 distinct configurations in turn, a
// hyper-parameter sweep: noise multiplier σ ∈ {0.6, 0.8, 1, 1.5, 2},
// sample rate q ∈ {0.001, 0.004, 0.01} and steps ∈ {10³, 3·10³, 10⁴,
// 3·10⁴}, the steps fastest (a sweep over epochs). Row i is configuration
// i mod 60: each new configuration builds a PLD accountant, which bounds
// a run of 60 rows.
func Sweep() Kind {
	sigmas := []float64{0.6, 0.8, 1, 1.5, 2}
	rates := []float64{0.001, 0.004, 0.01}
	steps := []int{1000, 3000, 10000, 30000}
	return Kind{
		Header: "id,mechanism,noise_multiplier,sample_rate,steps,delta",
		Row: func(w *bufio.Writer, i int, _ *rand.Rand) {
			c := i % 60
			fmt.Fprintf(w, "w%d,dpsgd,%g,%g,%d,1e-5\n", i, sigmas[c/12], rates[c/4%3], steps[c%4])
		},
	}
}

// Calibration is DP-SGD rows asking for the noise multiplier that keeps
// the worst-case advantage at most target_advantage (fdp_noise_for_target):
// sample rate q ∈ {0.001, 0.004, 0.01} and steps ∈ {10³, 3·10³, 10⁴} in
// turn, and a target that differs in every row (0.05 to 0.3), so that
// each row is a calibration of its own, a dozen accountants.
func Calibration() Kind {
	rates := []float64{0.001, 0.004, 0.01}
	steps := []int{1000, 3000, 10000}
	return Kind{
		Header: "id,mechanism,noise_multiplier,sample_rate,steps,delta,target_advantage",
		Row: func(w *bufio.Writer, i int, rng *rand.Rand) {
			fmt.Fprintf(w, "k%d,dpsgd,1,%g,%d,1e-5,%.6g\n", i, rates[i%3], steps[i/3%3], 0.05+rng.Float64()*0.25)
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
