// Command gen writes the sample release table of package samples as
// releases.xlsx, releases.csv and releases.parquet in the samples folder:
//
//	go run ./samples/gen
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/samples"
	"github.com/riskbatch/riskbatch/writers"
)

func main() {
	dir := flag.String("dir", "samples", "folder to write the sample files to")
	flag.Parse()
	if err := write(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	cols, rows := samples.Releases()
	for _, name := range []string{"releases.xlsx", "releases.csv", "releases.parquet"} {
		w, err := writers.Create(filepath.Join(dir, name), writers.Options{SheetName: "Releases", Docs: evaluate.New().Docs()})
		if err != nil {
			return err
		}
		if err := w.WriteHeader(cols); err != nil {
			w.Abort()
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, r := range rows {
			if err := w.Write(r); err != nil {
				w.Abort()
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
