package benchinput

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/release"
)

// The tables are the bytes the three generators this package replaced
// wrote (cmd/riskbatch-bench's writeClosedForm, writeWide and writeHeavy,
// the command's writeBenchCSV and the Beam benchmark's writeBenchFiles),
// pinned by their SHA-256, so that the benchmarks' figures stay comparable
// with those measured before. (The wide table's first header became
// baseline, see Wide: the same values.)
func TestTablesUnchanged(t *testing.T) {
	dir := t.TempDir()
	shards := make([]string, 4)
	for f := range shards {
		shards[f] = filepath.Join(dir, fmt.Sprintf("part-%d.csv", f))
	}
	for _, c := range []struct {
		name  string
		write func() error
		files []string
		sums  []string
	}{
		{"closed form", func() error { return WriteCSV(filepath.Join(dir, "c.csv"), ClosedForm(), 1000) },
			[]string{"c.csv"}, []string{"b0ef61a88c66a00ab4b82c82d605cca571628c87a8966248467e5507e802285d"}},
		{"wide", func() error { return WriteCSV(filepath.Join(dir, "w.csv"), Wide(30), 100) },
			[]string{"w.csv"}, []string{"cfe81d05b9af4a97a0fcde4844cc4e5ab3e467b7678a896fe3d96fa7243ac815"}},
		{"heavy", func() error { return WriteCSV(filepath.Join(dir, "h.csv"), Heavy(), 1000) },
			[]string{"h.csv"}, []string{"b5fe98928508e6ddb389cb8ab93b354ed173b329f8b9dbb18b6788aa558ccea1"}},
		{"shards", func() error { return WriteShards(shards, ClosedForm(), 1000) },
			[]string{"part-0.csv", "part-1.csv", "part-2.csv", "part-3.csv"}, []string{
				"f9c10fda9dbb7ac61d906f2d27cdff15582530d0e2390afa8f9e9fd97bd57e98",
				"d4a4c42d16cc37c69e505197c6bc357712d9577610dcc4148a90f0c67f81487d",
				"fabb0cd097c16251b64f96de938e289878a3c22415556e6feba221ce853aab32",
				"5c996204e24a07b582463c13e856e24c258ae5926ca6a584b3c95244b6f6d2a4"}},
	} {
		if err := c.write(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, name := range c.files {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			if got := hex.EncodeToString(sum[:]); got != c.sums[i] {
				t.Errorf("%s: %s has sha256 %s, want %s", c.name, name, got, c.sums[i])
			}
		}
	}
}

// Every table's header names an input column, or riskbatch would refuse
// it (even to pass it through) and the benchmark command would stop.
func TestHeadersNameAnInput(t *testing.T) {
	vocab := release.NewVocabulary()
	for name, k := range map[string]Kind{"closed form": ClosedForm(), "heavy": Heavy(), "DP-SGD": DPSGD(), "tail": Tail(), "wide": Wide(30), "sweep": Sweep(), "calibration": Calibration()} {
		if header := strings.Split(k.Header, ","); !vocab.Recognizes(header) {
			t.Errorf("%s: the header %q names no input column", name, header)
		}
	}
}

// A closed-form table holds the header and n rows, the families in turn.
func TestClosedFormRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.csv")
	if err := WriteCSV(path, ClosedForm(), 5); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 6 || lines[0] != "id,mechanism,epsilon,delta,sigma,mu,baseline" {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	for i, m := range []string{"pure", "approx", "gaussian", "gdp", "pure"} {
		if f := strings.Split(lines[i+1], ","); len(f) != 7 || f[0] != fmt.Sprintf("r%d", i) || f[1] != m {
			t.Errorf("row %d: %q, want id r%d and mechanism %s", i, lines[i+1], i, m)
		}
	}
}

func TestRows(t *testing.T) {
	const env = "RISKBATCH_BENCHINPUT_TEST_ROWS"
	for v, want := range map[string]int{"": 7, "12": 12, "0": 7, "-3": 7, "x": 7} {
		t.Setenv(env, v)
		if got := Rows(env, 7); got != want {
			t.Errorf("%s=%q: %d rows, want %d", env, v, got, want)
		}
	}
}

// The sweep's first 60 rows are 60 distinct configurations, which then
// repeat; the calibration rows' targets all differ.
func TestSweepConfigurations(t *testing.T) {
	dir := t.TempDir()
	if err := WriteCSV(filepath.Join(dir, "s.csv"), Sweep(), 61); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(filepath.Join(dir, "k.csv"), Calibration(), 30); err != nil {
		t.Fatal(err)
	}
	rows := func(name string) [][]string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[1:] {
			out = append(out, strings.Split(line, ","))
		}
		return out
	}
	seen := map[string]bool{}
	sweep := rows("s.csv")
	for _, f := range sweep[:60] {
		seen[strings.Join(f[2:5], ",")] = true
	}
	if len(seen) != 60 || strings.Join(sweep[60][2:], ",") != strings.Join(sweep[0][2:], ",") {
		t.Errorf("%d distinct configurations in 60 rows; row 60 %q, row 0 %q", len(seen), sweep[60], sweep[0])
	}
	targets := map[string]bool{}
	for _, f := range rows("k.csv") {
		targets[f[6]] = true
	}
	if len(targets) != 30 {
		t.Errorf("%d distinct targets in 30 calibration rows", len(targets))
	}
}
