package writers

import (
	"os"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// TestTerminal: a workbook or a Parquet file is refused on a terminal,
// through CreateStream or a path naming the terminal; CSV is written.
func TestTerminal(t *testing.T) {
	tty := testenv.Terminal(t)
	if !isTerminal(tty.Fd()) {
		t.Fatal("the pseudo-terminal is not a terminal")
	}
	if r, w, _ := os.Pipe(); isTerminal(w.Fd()) {
		t.Error("a pipe is a terminal")
	} else {
		r.Close()
		w.Close()
	}
	for format, want := range map[string]string{
		FormatXLSX:    "cannot write an XLSX workbook to standard output: it is a terminal; redirect the output to a file or a pipe, or name a file with -o",
		FormatParquet: "cannot write a Parquet file to standard output: it is a terminal; redirect the output to a file or a pipe, or name a file with -o",
	} {
		if _, err := CreateStream(tty, "standard output", Options{Format: format}); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", format, err, want)
		}
		if err := WriteTemplateStream(tty, "standard output", "Releases", []TemplateColumn{{Name: "epsilon"}}, nil, nil); format == FormatXLSX && (err == nil || err.Error() != want) {
			t.Errorf("template: %v, want %q", err, want)
		}
		if _, err := Create(tty.Name(), Options{Format: format}); err == nil || err.Error() != "cannot write "+want[len("cannot write "):len(want)-len(" to standard output: it is a terminal; redirect the output to a file or a pipe, or name a file with -o")]+" to "+tty.Name()+": it is a terminal; redirect the output to a file or a pipe, or name a file with -o" {
			t.Errorf("%s by path: %v", format, err)
		}
	}
	w, err := CreateStream(tty, "standard output", Options{})
	if err != nil {
		t.Fatal(err)
	}
	fill(t, w, smallCols(), smallRows())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
