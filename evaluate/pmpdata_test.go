package evaluate

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/internal/memtable"
)

// writeTable writes CSV text to a file in a temporary directory.
func writeTable(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPMPDataGaussianTwoRecords: with a parent set of 2 records (n = 1),
// (ε, δ)-PMP is (ε, δ)-DP over the pair (Lowy et al. 2024, Cor. 4
// with the two-sided erratum), so pmp_data_eps must equal the
// Gaussian mechanism's ε(δ) at μ = ‖f(x₁) − f(x₂)‖₂/σ, computed by the
// independent gdp path of the evaluator (tested against mpmath in
// TestReferenceCore).
func TestPMPDataGaussianTwoRecords(t *testing.T) {
	ev := New(WithDataLoader(fileLoader{}))
	for _, tc := range []struct {
		a, b         [2]float64
		sigma, delta string
	}{
		{[2]float64{0, 0}, [2]float64{3, 4}, "5", "1e-5"},     // distance 5, μ = 1
		{[2]float64{1, 1}, [2]float64{1, 1.5}, "0.1", "1e-9"}, // μ = 5
		{[2]float64{0, 0}, [2]float64{0.3, 0}, "2", "0.01"},   // μ = 0.15
	} {
		path := writeTable(t, "x.csv", fmt.Sprintf("id,f1,f2\na,%v,%v\nb,%v,%v\n", tc.a[0], tc.a[1], tc.b[0], tc.b[1]))
		st, got := evalWith(t, ev, map[string]string{"sigma": tc.sigma, "delta": tc.delta, "pmp_data": path})
		if st == StatusError {
			t.Fatal(got["message"].Str)
		}
		dist := math.Hypot(tc.b[0]-tc.a[0], tc.b[1]-tc.a[1])
		mu := dist / parseFloat(t, tc.sigma)
		_, dp := evalWith(t, ev, map[string]string{"mu": fmt.Sprint(mu), "delta": tc.delta})
		want := dp["epsilon_at_delta"].Num
		if dp["epsilon_at_delta"].IsEmpty() {
			want = curve.Gaussian{Mu: mu}.EpsilonAt(parseFloat(t, tc.delta))
		}
		g := got["pmp_data_eps"]
		if math.Abs(g.Num-want) > 1e-9*math.Max(1, want) || g.Num < want*(1-1e-12) {
			t.Errorf("%v: pmp_data_eps = %v, want the DP ε %v (message %q)", tc, g, want, got["message"].Str)
		}
		if s := got["pmp_data_success"].Num; s != bound.PMPSuccessDelta(g.Num, parseFloat(t, tc.delta)) {
			t.Errorf("%v: pmp_data_success = %v", tc, s)
		}
	}
}

// TestPMPDataGaussianMany: a parent set of 6 records: the column equals
// PMPGaussian on the same vectors, lies at or below the DP ε when the
// records are within the sensitivity, and grows as σ shrinks.
func TestPMPDataGaussianMany(t *testing.T) {
	rows := [][]float64{{0.1, 0.2}, {0.4, 0.1}, {0.9, 0.9}, {0.0, 0.5}, {0.3, 0.3}, {0.2, 0.8}}
	var b strings.Builder
	b.WriteString("x,y\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%v,%v\n", r[0], r[1])
	}
	path := writeTable(t, "six.csv", b.String())
	ev := New(WithDataLoader(fileLoader{}))
	prev := 0.0
	for _, sigma := range []float64{4, 2, 1, 0.5, 0.25} {
		st, got := evalWith(t, ev, map[string]string{"sigma": fmt.Sprint(sigma), "sensitivity": "1.2", "delta": "1e-5", "pmp_data": path})
		if st == StatusError {
			t.Fatal(got["message"].Str)
		}
		want, err := bound.PMPGaussian(rows, sigma, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		if g := got["pmp_data_eps"].Num; g != want.Epsilon {
			t.Errorf("σ %v: pmp_data_eps %v, PMPGaussian %v", sigma, g, want.Epsilon)
		}
		// Every pairwise distance is below √2·0.9 < 1.2: ε̃ ≤ ε(δ) of the DP guarantee.
		if dp := (curve.Gaussian{Mu: 1.2 / sigma}).EpsilonAt(1e-5); got["pmp_data_eps"].Num > dp {
			t.Errorf("σ %v: pmp_data_eps %v above the DP ε %v", sigma, got["pmp_data_eps"].Num, dp)
		}
		if got["pmp_data_eps"].Num < prev {
			t.Errorf("σ %v: pmp_data_eps %v decreased as σ shrank (before %v)", sigma, got["pmp_data_eps"].Num, prev)
		}
		prev = got["pmp_data_eps"].Num
	}
}

// TestPMPDataExponential: with 2 records (n = 1) the training set is one
// record, so ε̃ = max_w |ln P(w|{x₁}) − ln P(w|{x₂})| with
// P(w|{x}) = exp(−β·loss(w, x))/Σ_w' exp(−β·loss(w', x)), β = ε/(2Δ):
// computed here directly. With 4 records the column equals PMPExponential
// on the transposed table and lies at or below the DP ε.
func TestPMPDataExponential(t *testing.T) {
	ev := New(WithDataLoader(fileLoader{}))
	loss := [2][3]float64{{0, 1, 2}, {2, 0.5, 0}}
	path := writeTable(t, "loss.csv", fmt.Sprintf("record,w1,w2,w3\nx1,%v,%v,%v\nx2,%v,%v,%v\n",
		loss[0][0], loss[0][1], loss[0][2], loss[1][0], loss[1][1], loss[1][2]))
	for _, eps := range []float64{0.1, 1, 4} {
		st, got := evalWith(t, ev, map[string]string{"mechanism": "exponential", "epsilon": fmt.Sprint(eps), "sensitivity": "2", "pmp_data": path})
		if st == StatusError {
			t.Fatal(got["message"].Str)
		}
		beta := eps / (2 * 2)
		logP := func(x int, w int) float64 {
			z := 0.0
			for _, l := range loss[x] {
				z += math.Exp(-beta * l)
			}
			return -beta*loss[x][w] - math.Log(z)
		}
		want := 0.0
		for w := range 3 {
			want = math.Max(want, math.Abs(logP(0, w)-logP(1, w)))
		}
		g := got["pmp_data_eps"].Num
		if math.Abs(g-want) > 1e-12*math.Max(1, want) || g < want {
			t.Errorf("ε %v: pmp_data_eps %v, want %v (rounded up)", eps, g, want)
		}
		if g > eps {
			t.Errorf("ε %v: pmp_data_eps %v above the DP ε", eps, g)
		}
		if s := got["pmp_data_success"].Num; s != bound.PMPSuccess(g) {
			t.Errorf("ε %v: pmp_data_success %v, want %v", eps, s, bound.PMPSuccess(g))
		}
	}

	four := [][]float64{{0, 1}, {1, 0}, {0.5, 0.5}, {0.2, 0.9}}
	path = writeTable(t, "four.csv", "a,b\n0,1\n1,0\n0.5,0.5\n0.2,0.9\n")
	_, got := evalWith(t, ev, map[string]string{"mechanism": "em", "epsilon": "2", "pmp_data": path})
	lossT := [][]float64{{0, 1, 0.5, 0.2}, {1, 0, 0.5, 0.9}}
	want, err := bound.PMPExponential(lossT, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g := got["pmp_data_eps"].Num; g != want.Epsilon || g > 2 {
		t.Errorf("four records: pmp_data_eps %v, PMPExponential %v (%v)", g, want.Epsilon, four)
	}
}

// TestPMPDataProblems: a bad pmp_data leaves the pmp_data columns empty
// with a message naming pmp_data, first, since the user gave it; the other
// columns are computed. pmp_data on a row of another mechanism is named
// as unused; a gaussian row without delta lacks an input.
func TestPMPDataProblems(t *testing.T) {
	ev := New(WithDataLoader(fileLoader{}))
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("x,y\n1,2\n3,oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "odd.csv")
	if err := os.WriteFile(odd, []byte("x\n1\n2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.csv")
	var b strings.Builder
	b.WriteString("x\n")
	for i := range 24 {
		fmt.Fprintf(&b, "%d\n", i)
	}
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		row  map[string]string
		want []string
	}{
		{map[string]string{"sigma": "1", "delta": "1e-5", "pmp_data": bad}, []string{"pmp_data file " + bad + ", row 3, column 2: not a number"}},
		{map[string]string{"sigma": "1", "delta": "1e-5", "pmp_data": odd}, []string{"pmp_data", "odd.csv"}},
		{map[string]string{"sigma": "1", "pmp_data": odd}, []string{"add baseline (or candidates, or prior) and delta (e.g. 1e-5) to get", "and 13 more"}},
		{map[string]string{"mu": "1", "delta": "1e-5", "pmp_data": odd}, []string{"pmp_data: filled, but only gaussian and exponential rows use it; clear it or correct mechanism"}},
		{map[string]string{"epsilon": "1", "pmp_data": odd}, []string{"pmp_data: filled, but only gaussian and exponential rows use it; clear it or correct mechanism"}},
		{map[string]string{"mechanism": "exponential", "epsilon": "1", "pmp_data": big}, []string{"pmp_data", "big.csv"}},
		{map[string]string{"mechanism": "exponential", "epsilon": "1", "compositions": "2", "pmp_data": odd}, []string{"pmp_data", "compositions must be 1"}},
	} {
		st, got := evalWith(t, ev, tc.row)
		msg := got["message"].Str
		if st == StatusError || !got["pmp_data_eps"].IsEmpty() {
			t.Errorf("%v: status %s, pmp_data_eps %v, message %q", tc.row, st, got["pmp_data_eps"], msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: message %q lacks %q", tc.row, msg, w)
			}
		}
	}
}

// TestPMPDataUnusableFile: a cell naming a file the loader cannot open is
// an error of the row, naming the column as the table writes it.
func TestPMPDataUnusableFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.csv")
	for _, header := range []string{"pmp_data", "parent_set"} {
		st, got := evalWith(t, New(WithDataLoader(fileLoader{})), map[string]string{"sigma": "1", "delta": "1e-5", "baseline": "0.5", header: missing})
		want := header + ": " + missing + ": cannot open the file: no such file or directory"
		if st != StatusError || got["message"].Str != want || !got["fdp_success"].IsEmpty() {
			t.Errorf("%s: status %s, message %q, want error %q", header, st, got["message"].Str, want)
		}
	}
}

// TestPMPDataInline: a parent set written in the cell gives the same
// result as the same records in a file.
func TestPMPDataInline(t *testing.T) {
	ev := New(WithDataLoader(fileLoader{}))
	path := writeTable(t, "f.csv", "a,b\n0,1\n1,0\n0.5,0.5\n0.2,0.9\n")
	for _, row := range []map[string]string{
		{"sigma": "0.7", "delta": "1e-6"},
		{"mechanism": "exponential", "epsilon": "3"},
	} {
		withFile, inline := map[string]string{"pmp_data": path}, map[string]string{"pmp_data": "0, 1; 1 0;0.5,0.5; 0.2, 0.9;"}
		for k, v := range row {
			withFile[k], inline[k] = v, v
		}
		_, a := evalWith(t, ev, withFile)
		_, b := evalWith(t, ev, inline)
		if a["pmp_data_eps"].IsEmpty() || a["pmp_data_eps"] != b["pmp_data_eps"] {
			t.Errorf("%v: file %v, inline %v (%q)", row, a["pmp_data_eps"], b["pmp_data_eps"], b["message"].Str)
		}
	}
	_, got := evalWith(t, ev, map[string]string{"sigma": "1", "delta": "1e-5", "pmp_data": "0, 1; 1"})
	if !got["pmp_data_eps"].IsEmpty() || !strings.Contains(got["message"].Str, "pmp_data") {
		t.Errorf("ragged inline data: %v %q", got["pmp_data_eps"], got["message"].Str)
	}
}

// TestPMPDataBeyondSensitivity: records further apart than the row's
// sensitivity contradict its DP claim; the value is still written and the
// message says so, without making the row partial.
func TestPMPDataBeyondSensitivity(t *testing.T) {
	st, got := evalWith(t, New(), map[string]string{"sigma": "1", "sensitivity": "1", "delta": "1e-5", "baseline": "0.5", "pmp_data": "0, 0; 3, 4"})
	if st != StatusPartial && st != StatusOK || got["pmp_data_eps"].IsEmpty() {
		t.Fatalf("status %s, pmp_data_eps %v", st, got["pmp_data_eps"])
	}
	msg := got["message"].Str
	if !strings.HasPrefix(msg, "pmp_data: two records are 5 apart, more than sensitivity = 1") {
		t.Errorf("message %q", msg)
	}
	_, within := evalWith(t, New(), map[string]string{"sigma": "1", "sensitivity": "5", "delta": "1e-5", "baseline": "0.5", "pmp_data": "0, 0; 3, 4"})
	if strings.Contains(within["message"].Str, "apart") {
		t.Errorf("within the sensitivity: message %q", within["message"].Str)
	}
}

// TestPMPDataWithoutLoader: an evaluator without a DataLoader opens no
// file a cell names (the row is an error); a parent set written in the
// cell still works.
func TestPMPDataWithoutLoader(t *testing.T) {
	path := writeTable(t, "x.csv", "f\n0\n1\n")
	st, got := evalWith(t, New(), map[string]string{"sigma": "1", "delta": "1e-5", "pmp_data": path})
	want := clip("pmp_data: "+path+" is not a parent set written in the cell (records separated by \";\"), and this evaluation reads no files named in cells", MaxMessage)
	if st != StatusError || got["message"].Str != want {
		t.Errorf("%v %q, want the message to hold %q", got["pmp_data_eps"], got["message"].Str, want)
	}
	_, inline := evalWith(t, New(), map[string]string{"sigma": "1", "delta": "1e-5", "pmp_data": "0; 1"})
	if inline["pmp_data_eps"].IsEmpty() {
		t.Errorf("inline parent set without a loader: %q", inline["message"].Str)
	}
}

// TestPMPDataQuotesNoContent: whatever is wrong in a pmp_data file, the
// message gives a position and never a cell or a header of the file.
func TestPMPDataQuotesNoContent(t *testing.T) {
	const secret = "SECRET-7f3a"
	ev := New(WithDataLoader(fileLoader{}))
	for _, tc := range []struct{ text, want string }{
		{"x,y\n1,2\n3," + secret + "\n", ", row 3, column 2: not a number"},
		{"id," + secret + "\n" + secret + ",1\n" + secret + ",\n", ", row 3, column 2: empty: every record needs a value in every data column"},
		{"x\n" + secret + "\n", ", row 2, column 1: not a number"},
		{"id\n" + secret + "\n", ": no data columns (columns named id, record, name are labels)"},
	} {
		path := writeTable(t, "leak.csv", tc.text)
		_, got := evalWith(t, ev, map[string]string{"sigma": "1", "delta": "1e-5", "pmp_data": path})
		msg := got["message"].Str
		if want := "pmp_data file " + path + tc.want; !strings.Contains(msg, want) {
			t.Errorf("%q: message %q, want it to hold %q", tc.text, msg, want)
		}
		if strings.Contains(msg, secret) {
			t.Errorf("%q: message quotes the file: %q", tc.text, msg)
		}
	}
}

// fileLoader opens the CSV file a cell names as it is, without the rules
// of package cellfiles (tested there): the tests here are about the
// computation and the messages. It reads the file into memory, as package
// readers would read it (text cells, rows numbered from 2), so that this
// package's tests link no file readers.
type fileLoader struct{}

func (fileLoader) OpenData(_, ref string) (DataTable, error) {
	data, err := os.ReadFile(ref)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot open the file: %w", ref, err)
	}
	return memtable.CSV(ref, string(data))
}
