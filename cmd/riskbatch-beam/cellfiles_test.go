package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// TestCellFilesConfined: the workers' evaluator reads files named in cells
// as eval does: relative to the input's folder, refusing a reference that
// leaves it unless --data-dir allows the folder, never quoting the file.
func TestCellFilesConfined(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, outside := filepath.Join(root, "data"), filepath.Join(root, "outside")
	os.MkdirAll(data, 0o755)
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(data, "vals.csv"), []byte("x,y\n0,0.5\n0.5,0\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.csv"), []byte("x\nSECRET-beam\n"), 0o644)
	in := filepath.Join(data, "in.csv")
	cols := []table.Column{{Name: "sigma"}, {Name: "delta"}, {Name: "baseline"}, {Name: "pmp_data"}}
	row := func(ref string) []table.Cell {
		return []table.Cell{table.TextCell("1"), table.TextCell("1e-5"), table.TextCell("0.5"), table.TextCell(ref)}
	}
	for _, tc := range []struct {
		dirs        []string
		ref         string
		status, msg string
	}{
		{nil, "vals.csv", "ok", ""},
		{nil, "../outside/secret.csv", "error", "pmp_data: ../outside/secret.csv is outside the input's folder " + data + "; pass --data-dir " + outside + " to allow it"},
		{[]string{outside}, "../outside/secret.csv", "partial", "pmp_data file ../outside/secret.csv, row 2, column 1: not a number"},
	} {
		ev, err := newEvaluator(nil, nil, nil, tc.dirs, readers.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := ev.BindSource(in, cols, evaluate.DecimalUnknown)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]table.Cell, ev.Width())
		st := b.Evaluate(row(tc.ref), dst)
		msg := dst[1].String()
		if string(st) != tc.status || (tc.msg == "" && strings.Contains(msg, "pmp_data")) || !holdsClipped(msg, tc.msg) || strings.Contains(msg, "SECRET") {
			t.Errorf("%v %s: %s %q, want %s %q", tc.dirs, tc.ref, st, msg, tc.status, tc.msg)
		}
	}
}

// holdsClipped reports whether a row's message holds want, or begins with
// the part of it that fits when the message was clipped at its limit
// ("…" at the end): long temporary paths make some messages that long.
func holdsClipped(msg, want string) bool {
	if strings.Contains(msg, want) {
		return true
	}
	head, clipped := strings.CutSuffix(msg, "…")
	return clipped && len(head) > len(want)/2 && strings.HasPrefix(want, head)
}
