// Command riskbatch-beam evaluates release tables too large for one machine
// on Apache Beam: the same readers, header matching, evaluator and output
// columns as `riskbatch eval`, run by any Beam runner (the local prism
// runner by default; Dataflow, Flink or Spark through Beam's standard
// flags), writing sharded CSV, TSV or Parquet.
//
//	riskbatch-beam --output out/risk --format parquet 'releases/part-*.csv'
//
// Large files are cut into shards that workers read side by side: a
// Parquet file by runs of row groups (--shard-rows), a CSV or TSV file by
// runs of whole records (--shard-bytes). Each shard of the input makes one
// shard of the output, so the output shards, in name order, hold the rows
// in the order `riskbatch eval` writes them.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/confidence"
	"github.com/riskbatch/riskbatch/readers"
)

// Exit statuses, as riskbatch's.
const (
	exitOK        = 0
	exitRowErrors = 1 // the output is written; some rows have status error
	exitUsage     = 2 // bad flags, unreadable input, or the pipeline failed
)

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	var inputs, priorPaths, dataDirs stringList
	flag.Var(&inputs, "input", "input file pattern: a path or a glob, local or in a Beam file system such as gs:// (repeatable; patterns may also follow the flags)")
	output := flag.String("output", "", "prefix of the output shards: PREFIX-00000-of-00004.csv …; an extension (.csv, .tsv, .parquet) sets --format")
	format := flag.String("format", "", "output format: csv (default), tsv or parquet")
	inputFormat := flag.String("input-format", "", "input format: csv, tsv, xlsx or parquet (default: from each file's extension)")
	sheet := flag.String("sheet", "", "XLSX input sheet (default: every sheet whose first row has known column names)")
	flag.Var(&priorPaths, "priors", "prior table joined on the prior column (repeatable); read by the workers as a side input")
	confidenceFlag := flag.String("confidence", "0.95", "confidence level(s) of the one-run success upper bound, e.g. 0.95 or 0.05,0.5,0.95")
	quiet := flag.Bool("quiet", false, "no summary on stderr")
	flag.Var(&dataDirs, "data-dir", "a folder whose files cells (pmp_data) may name, besides the input file's own folder (repeatable)")
	shardBytes := flag.String("shard-bytes", readers.FormatSize(DefaultShardBytes), "the size of the shards a CSV or TSV file is cut into, each read by one worker: a size such as 512KiB, 16MiB, 2GB, or none (one shard per file)")
	shardRows := flag.String("shard-rows", strconv.Itoa(DefaultShardRows), "the rows of the shards a Parquet file is cut into, by whole row groups, each read by one worker, or none (one shard per file)")
	var limits readers.Limits
	def := readers.DefaultLimits()
	for _, l := range readers.LimitSettings() {
		usage, value := l.Usage, strconv.FormatInt(*l.Field(&def), 10)
		if l.Size {
			usage, value = usage+"; a size such as 512KiB, 16MiB, 2GB", readers.FormatSize(*l.Field(&def))
		}
		flag.Func(l.Name, usage+", or none (default "+value+")", func(s string) error {
			v, err := readers.ParseLimit(s, l.Size)
			*l.Field(&limits) = v
			return err
		})
	}
	flag.Parse()
	beam.Init() // a worker started by a runner does its work here and exits

	levels, err := confidence.Parse(*confidenceFlag)
	if err != nil {
		fmt.Fprintln(os.Stderr, "riskbatch-beam: --confidence: "+err.Error())
		os.Exit(exitUsage)
	}
	var sizes [2]int64
	for i, f := range []struct {
		name, value string
		size        bool
	}{{"--shard-bytes", *shardBytes, true}, {"--shard-rows", *shardRows, false}} {
		v, err := readers.ParseLimit(f.value, f.size)
		if err != nil {
			fmt.Fprintln(os.Stderr, "riskbatch-beam: "+f.name+": "+err.Error())
			os.Exit(exitUsage)
		}
		sizes[i] = v
	}
	cfg := Config{
		Inputs:      append(inputs, flag.Args()...),
		InputFormat: *inputFormat,
		Sheet:       *sheet,
		Priors:      priorPaths,
		Confidence:  levels,
		Output:      *output,
		Format:      *format,
		Limits:      limits,
		DataDirs:    dataDirs,
		ShardBytes:  sizes[0],
		ShardRows:   sizes[1],
	}
	cfg.Output, cfg.Format = splitOutput(cfg.Output, cfg.Format)
	os.Exit(run(context.Background(), cfg, os.Stderr, *quiet))
}

// splitOutput takes a known extension off the output prefix: with
// --output out/risk.parquet the shards are out/risk-00000-of-00001.parquet.
// The extension sets the format unless --format does.
func splitOutput(output, format string) (prefix, f string) {
	ext := strings.ToLower(filepath.Ext(output))
	switch ext {
	case ".csv", ".tsv", ".parquet":
		if format == "" || strings.EqualFold(strings.TrimPrefix(format, "."), ext[1:]) {
			return strings.TrimSuffix(output, filepath.Ext(output)), ext[1:]
		}
	}
	return output, format
}

// run builds and runs the pipeline, and reports the rows by status.
func run(ctx context.Context, cfg Config, stderr io.Writer, quiet bool) int {
	p, s := beam.NewPipelineWithRoot()
	plan, err := Build(ctx, s, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "riskbatch-beam: "+err.Error())
		return exitUsage
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		// Nothing is renamed into place before every bundle is done; drop
		// what the bundles wrote (where this process can reach it).
		_ = removeTempDir(ctx, plan.TempDir)
		fmt.Fprintln(stderr, "riskbatch-beam: the pipeline failed: "+err.Error())
		return exitUsage
	}
	counts, known := rowCounts(res)
	if !known {
		if !quiet {
			fmt.Fprintf(stderr, "riskbatch-beam: %d files → %s (the runner reported no row counts)\n", len(plan.Files), plan.Shards)
		}
		return exitOK
	}
	if !quiet {
		fmt.Fprintf(stderr, "riskbatch-beam: %d rows: %d ok, %d partial, %d error → %s\n",
			counts.total(), counts[evaluate.StatusOK], counts[evaluate.StatusPartial], counts[evaluate.StatusError], plan.Shards)
	}
	if counts[evaluate.StatusError] > 0 {
		return exitRowErrors
	}
	return exitOK
}

// statusCounts counts rows per status.
type statusCounts map[evaluate.Status]int64

func (c statusCounts) total() int64 {
	return c[evaluate.StatusOK] + c[evaluate.StatusPartial] + c[evaluate.StatusError]
}

// rowCounts reads the pipeline's row counters; known is false when the
// runner reports none (an asynchronous job, for example).
func rowCounts(res beam.PipelineResult) (counts statusCounts, known bool) {
	counts = statusCounts{}
	if res == nil {
		return counts, false
	}
	for _, c := range res.Metrics().Query(func(r metrics.SingleResult) bool { return r.Namespace() == "riskbatch" }).Counters() {
		switch c.Name() {
		case "rows_ok":
			counts[evaluate.StatusOK] += c.Result()
		case "rows_partial":
			counts[evaluate.StatusPartial] += c.Result()
		case "rows_error":
			counts[evaluate.StatusError] += c.Result()
		default:
			continue
		}
		known = true
	}
	return counts, known
}
