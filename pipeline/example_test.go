package pipeline_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/pipeline"
	"github.com/riskbatch/riskbatch/readers"
)

// Three releases, one of them invalid, evaluated into a CSV file: every
// row comes out, in order, with its status and bounds.
func Example() {
	const releases = `id,mechanism,epsilon,delta,sigma,sensitivity,baseline
survey,pure,1,,,,0.5
count,gaussian,,1e-06,10,1,0.01
typo,gaussian,,1e-06,-10,1,0.01
`
	ev := evaluate.New()
	tables, err := readers.OpenReader("releases.csv", strings.NewReader(releases), int64(len(releases)),
		readers.Options{Accept: ev.Vocabulary().Recognizes})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "riskbatch-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "releases-risk.csv")

	res, err := pipeline.Run(context.Background(), ev, tables, pipeline.Output{Path: out}, pipeline.Options{Workers: 2})
	for _, t := range tables {
		t.Close()
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d rows: %d ok, %d error\n", res.Counts.Rows(), res.Counts[evaluate.StatusOK], res.Counts[evaluate.StatusError])

	f, err := os.Open(out)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		log.Fatal(err)
	}
	status, message := slices.Index(rows[0], "status"), slices.Index(rows[0], "message")
	worst := slices.Index(rows[0], "fdp_worst_advantage")
	for _, r := range rows[1:] {
		fmt.Println(strings.TrimSpace(strings.Join([]string{r[0], r[status], r[worst], r[message]}, " ")))
	}
	// Output:
	// 3 rows: 2 ok, 1 error
	// survey ok 0.4621171572600102
	// count ok 0.03987761167674498
	// typo error  sigma: -10 is out of range; expected a number > 0
}
