package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/cellfiles/cellreaders"
	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
)

func init() {
	register.DoFn3x1[context.Context, fileTask, func(shardTask), error](&splitFileFn{})
	register.DoFn4x1[context.Context, shardTask, func(*priorFile) bool, func(shardFile), error](&evaluateShardFn{})
	register.DoFn3x1[context.Context, []byte, func(*shardFile) bool, error](&finalizeFn{})
	register.DoFn3x1[context.Context, string, func(priorFile), error](&readPriorFileFn{})
	register.Emitter1[shardTask]()
	register.Emitter1[priorFile]()
	register.Emitter1[shardFile]()
	register.Iter1[priorFile]()
	register.Iter1[shardFile]()
	beam.RegisterType(reflect.TypeOf((*fileTask)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*shardTask)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*shardFile)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*priorFile)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*tableHeader)(nil)).Elem())
}

// Config is one run of the pipeline.
type Config struct {
	// Inputs are file patterns (a path, or a glob such as data/part-*.csv
	// or gs://bucket/releases/*.parquet), expanded in order.
	Inputs []string
	// InputFormat is csv, tsv, xlsx or parquet; empty: from each file's
	// extension.
	InputFormat string
	// Sheet selects one XLSX sheet, as eval's --sheet does.
	Sheet string
	// Priors are prior tables, as eval's --priors (loaded with
	// priorfiles.Load's rules, the frequency table beside each included).
	Priors []string
	// Confidence are the levels of the one-run success upper bound
	// (evaluate.WithConfidence); empty: the evaluator's default.
	Confidence []float64
	// Output is the prefix of the output shards:
	// PREFIX-00000-of-00003.csv and so on.
	Output string
	// Format is the output format: csv, tsv or parquet.
	Format string
	// Limits bound what an input may make the readers unpack or hold, as
	// eval's --max-* flags; zero fields are readers.DefaultLimits.
	Limits readers.Limits
	// DataDirs are folders whose files cells (pmp_data) may name besides
	// the input file's own folder, as eval's --data-dir (package
	// cellfiles). Files named in cells are read only beside local inputs.
	DataDirs []string
	// ShardBytes and ShardRows are the sizes of the shards a CSV or TSV
	// file (in bytes) and a Parquet file (in rows, by whole row groups) are
	// cut into, each read, evaluated and written by one worker; zero:
	// DefaultShardBytes and DefaultShardRows.
	ShardBytes, ShardRows int64
}

// fileTask is one input file to read: its index among the input files,
// and the number of its first table among all the input tables (a workbook
// has one table per sheet read).
type fileTask struct {
	Path       string
	Index      int
	FirstTable int
	Tables     int
}

// tableHeader is what construction learnt of one input table; the workers
// rebuild the same layout from it. It satisfies layout.Source.
type tableHeader struct {
	Path    string // the file's path as matched
	SheetOf string // the sheet, "" for formats without sheets
	Header  []column
	Comma   bool // the table's form suggests decimal commas (readers.DialectTable)
}

func (h tableHeader) File() string            { return h.Path }
func (h tableHeader) DecimalComma() bool      { return h.Comma }
func (h tableHeader) Sheet() string           { return h.SheetOf }
func (h tableHeader) Columns() []table.Column { return tableColumns(h.Header) }

// shardFile is the output file of one shard of an input file, and how
// many rows it holds; Name is "" for a shard without rows, which writes no
// file.
type shardFile struct {
	Name                string
	File, Shard, Shards int // as in shardTask: the input file's index, the shard's, and the file's shards
	Rows                int64
	OK, Partial, Failed int64 // the rows by status
}

// priorFile is the content of one prior table file, keyed by its path as
// given to --priors.
type priorFile struct {
	Path string
	Data []byte
}

// Plan is what construction learnt of the inputs.
type Plan struct {
	Files  []string       // the matched input files, in order
	Header []table.Column // the output columns, as eval writes them
	Shards string         // glob pattern of the output shards
	// TempDir holds the shards until every bundle is done; the pipeline
	// removes it, or the caller when the pipeline fails.
	TempDir string
}

// Build adds the pipeline of cfg to s: read every matched file, evaluate
// each row with the evaluate package through the shared layout (exactly as
// `riskbatch eval` does for the same files), and write shards. It reads
// the inputs' headers (and the prior tables) now, so that a pipeline with
// an unreadable input, a header naming one input twice or a bad prior
// table fails before it starts, as eval does.
func Build(ctx context.Context, s beam.Scope, cfg Config) (*Plan, error) {
	format, err := outputFormat(cfg.Format)
	if err != nil {
		return nil, err
	}
	if cfg.Output == "" {
		return nil, errors.New("no output prefix given (--output)")
	}
	if len(cfg.Inputs) == 0 {
		return nil, errors.New("no input given")
	}
	files, err := matchInputs(ctx, cfg.Inputs)
	if err != nil {
		return nil, err
	}
	shard := shardPattern(cfg.Output, format)
	for _, f := range files {
		if shard.MatchString(f) {
			return nil, fmt.Errorf("%s: the input is an output shard of prefix %s; choose another --output", f, cfg.Output)
		}
	}

	// The prior tables, read here to fail early and by the workers for
	// their side input. The frequency table beside a prior table is
	// shipped too when it exists, as priorfiles.Load reads it.
	var priorPaths []string
	contents := map[string][]byte{}
	for _, p := range cfg.Priors {
		for _, q := range []string{p, frequencySibling(p)} {
			if _, seen := contents[q]; q == "" || seen || (q != p && !exists(ctx, q)) {
				continue
			}
			data, err := readAll(ctx, q)
			if err != nil {
				return nil, fmt.Errorf("--priors: %s: %w", q, err)
			}
			contents[q] = data
			priorPaths = append(priorPaths, q)
		}
	}
	ev, err := newEvaluator(cfg.Confidence, cfg.Priors, contents, cfg.DataDirs, cfg.Limits)
	if err != nil {
		return nil, err
	}

	opts := readers.Options{Format: cfg.InputFormat, Sheet: cfg.Sheet, Accept: ev.Vocabulary().Recognizes, Limits: cfg.Limits}
	var headers []tableHeader
	var tasks []fileTask
	for i, f := range files {
		in, err := openInput(ctx, f, opts)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, fileTask{Path: f, Index: i, FirstTable: len(headers), Tables: len(in.tables)})
		for _, t := range in.tables {
			h, err := headerOf(ev, t)
			if err != nil {
				in.close()
				return nil, err
			}
			headers = append(headers, h)
		}
		in.close()
	}
	lay, err := layout.New(ev, sources(headers))
	if err != nil {
		return nil, err
	}

	s = s.Scope("riskbatch")
	var priorData beam.PCollection
	if len(priorPaths) > 0 {
		priorData = beam.ParDo(s, &readPriorFileFn{}, beam.CreateList(s, priorPaths))
	} else {
		priorData = beam.CreateList(s, []priorFile{})
	}
	// The files are cut into shards by workers (a CSV file is read once
	// to find its records' ends), and the shards spread over the workers,
	// each read, evaluated and written by one of them into a file of its
	// own; the files are renamed into the output in shard order.
	shardBytes, shardRows := cfg.ShardBytes, cfg.ShardRows
	if shardBytes <= 0 {
		shardBytes = DefaultShardBytes
	}
	if shardRows <= 0 {
		shardRows = DefaultShardRows
	}
	shards := beam.ParDo(s, &splitFileFn{InputFormat: cfg.InputFormat, Limits: cfg.Limits, ShardBytes: shardBytes, ShardRows: shardRows},
		beam.Reshuffle(s, beam.CreateList(s, tasks)))
	temp := tempDir(cfg.Output)
	header, err := toColumns(lay.Header())
	if err != nil {
		return nil, err
	}
	written := beam.ParDo(s, &evaluateShardFn{
		Tables:      headers,
		Confidence:  cfg.Confidence,
		Priors:      cfg.Priors,
		InputFormat: cfg.InputFormat,
		Sheet:       cfg.Sheet,
		Limits:      cfg.Limits,
		DataDirs:    cfg.DataDirs,
		TempDir:     temp,
		Format:      format,
		Header:      header,
	}, beam.Reshuffle(s, shards), beam.SideInput{Input: priorData})
	beam.ParDo0(s, &finalizeFn{Output: cfg.Output, TempDir: temp, Format: format, Header: header, Files: len(tasks)},
		beam.Impulse(s), beam.SideInput{Input: written})
	return &Plan{Files: files, Header: lay.Header(), Shards: cfg.Output + "-*-of-*." + format, TempDir: temp}, nil
}

// outputFormat checks the output format: csv (the default), tsv or parquet.
// An XLSX workbook cannot be written in shards.
func outputFormat(f string) (string, error) {
	f = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(f), "."))
	switch f {
	case "":
		return writers.FormatCSV, nil
	case writers.FormatCSV, writers.FormatTSV, writers.FormatParquet:
		return f, nil
	}
	return "", fmt.Errorf("--format %q: the pipeline writes csv, tsv or parquet shards", f)
}

// frequencySibling is the frequency table `riskbatch priors` writes beside
// the prior table at path (priorfiles.OutputPaths), or "".
func frequencySibling(path string) string {
	_, freq, _, err := priorfiles.OutputPaths(path, "")
	if err != nil || freq == path {
		return ""
	}
	return freq
}

// newEvaluator builds the evaluator of a run, as eval does: the confidence
// levels, the prior tables when there are any, and the loader of files
// named in cells, confined as eval confines them.
func newEvaluator(levels []float64, priorPaths []string, contents map[string][]byte, dataDirs []string, limits readers.Limits) (*evaluate.Evaluator, error) {
	loader, err := cellfiles.New(cellfiles.Options{Allowed: dataDirs, Read: cellreaders.Read(limits), Flag: "--data-dir"})
	if err != nil {
		return nil, err
	}
	opts := []evaluate.Option{evaluate.WithDataLoader(loader)}
	if len(levels) > 0 {
		opts = append(opts, evaluate.WithConfidence(levels...))
	}
	if len(priorPaths) > 0 {
		tables, err := priorfiles.LoadMemory(priorPaths, contents)
		if err != nil {
			return nil, fmt.Errorf("--priors: %w", err)
		}
		opts = append(opts, evaluate.WithPriors(tables))
	}
	return evaluate.New(opts...), nil
}

func sources(hs []tableHeader) []layout.Source {
	out := make([]layout.Source, len(hs))
	for i, h := range hs {
		out[i] = h
	}
	return out
}

// shardName is the name of shard i of n.
func shardName(prefix string, i, n int, format string) string {
	return fmt.Sprintf("%s-%05d-of-%05d.%s", prefix, i, n, format)
}

// shardPattern matches the names of the shards of any run with prefix.
func shardPattern(prefix, format string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(prefix) + `-[0-9]{5,}-of-[0-9]{5,}\.` + regexp.QuoteMeta(format) + `$`)
}

// tempDir is where the shards are written before they are renamed: a
// directory beside the output, unique to this run.
func tempDir(output string) string {
	dir, base := ".", output
	if i := strings.LastIndex(output, "/"); i >= 0 {
		dir, base = output[:i], output[i+1:]
		if dir == "" {
			dir = "/"
		}
	}
	return strings.TrimSuffix(dir, "/") + "/.riskbatch-beam-" + base + "-" + randomID()
}

// randomID returns 16 random hexadecimal digits.
func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	return hex.EncodeToString(b[:])
}

// readPriorFileFn reads one prior table file for the side input.
type readPriorFileFn struct{}

func (fn *readPriorFileFn) ProcessElement(ctx context.Context, path string, emit func(priorFile)) error {
	data, err := readAll(ctx, path)
	if err != nil {
		return fmt.Errorf("--priors: %s: %w", path, err)
	}
	emit(priorFile{Path: path, Data: data})
	return nil
}

// removeTempDir removes what failed bundles left in the temporary
// directory, and the directory.
func removeTempDir(ctx context.Context, dir string) error {
	left, err := list(ctx, dir+"/*")
	if err != nil {
		return err
	}
	for _, f := range left {
		if err := remove(ctx, f); err != nil {
			return err
		}
	}
	if isLocal(dir) {
		return remove(ctx, filepath.FromSlash(dir))
	}
	return nil
}

// refuseDatasets refuses a table with a dataset column: its rows compose
// into total rows, each needing every row of its group, which riskbatch
// eval computes (two passes over the input) and the pipeline, whose
// workers each see part of the rows, does not. Without the refusal the
// totals and the dataset_worst_advantage marks would be missing silently.
func refuseDatasets(ev *evaluate.Evaluator, cols []table.Column) error {
	for _, c := range cols {
		if f, ok := ev.Vocabulary().Lookup(c.Name); ok && f == release.FieldDataset {
			return fmt.Errorf("column %s groups rows into datasets whose releases compose into total rows, which the Beam pipeline does not compute: run riskbatch eval on this file, or remove the column", c.Name)
		}
	}
	return nil
}
