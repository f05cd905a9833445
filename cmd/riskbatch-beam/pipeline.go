package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
)

func init() {
	register.DoFn5x1[context.Context, fileTask, func(*priorFile) bool, func(outputRow), func(fileDone), error](&evaluateFileFn{})
	register.DoFn3x1[context.Context, outputRow, func(shardFile), error](&writeShardFn{})
	register.DoFn4x1[context.Context, []byte, func(*shardFile) bool, func(*fileDone) bool, error](&finalizeFn{})
	register.DoFn3x1[context.Context, string, func(priorFile), error](&readPriorFileFn{})
	register.Emitter1[outputRow]()
	register.Emitter1[priorFile]()
	register.Emitter1[fileDone]()
	register.Emitter1[shardFile]()
	register.Iter1[priorFile]()
	register.Iter1[fileDone]()
	register.Iter1[shardFile]()
	beam.RegisterType(reflect.TypeOf((*fileTask)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*fileDone)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*shardFile)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*priorFile)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*tableHeader)(nil)).Elem())
	beam.RegisterCoder(reflect.TypeOf((*outputRow)(nil)).Elem(), encodeRow, decodeRow)
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
}

// fileTask is one input file to read, and the number of its first table
// among all the input tables (a workbook has one table per sheet read).
type fileTask struct {
	Path       string
	FirstTable int
	Tables     int
}

// tableHeader is what construction learnt of one input table; the workers
// rebuild the same layout from it. It satisfies layout.Source.
type tableHeader struct {
	Path    string // the file's path as matched
	SheetOf string // the sheet, "" for formats without sheets
	Header  []column
}

func (h tableHeader) File() string            { return h.Path }
func (h tableHeader) Sheet() string           { return h.SheetOf }
func (h tableHeader) Columns() []table.Column { return tableColumns(h.Header) }

// fileDone records that an input file was read whole, and how many output
// rows it gave.
type fileDone struct {
	Path string
	Rows int64
}

// shardFile is a file written by one bundle, and how many rows it holds.
type shardFile struct {
	Name string
	Rows int64
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
	for _, f := range files {
		ts, done, err := openTables(ctx, f, opts)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, fileTask{Path: f, FirstTable: len(headers), Tables: len(ts)})
		for _, t := range ts {
			cols, err := toColumns(t.Columns())
			if err != nil {
				done()
				return nil, fmt.Errorf("%s: %w", layout.SourceName(t), err)
			}
			if err := refuseDatasets(ev, t.Columns()); err != nil {
				done()
				return nil, fmt.Errorf("%s: %w", layout.SourceName(t), err)
			}
			headers = append(headers, tableHeader{Path: t.File(), SheetOf: t.Sheet(), Header: cols})
		}
		done()
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
	work := beam.Reshuffle(s, beam.CreateList(s, tasks))
	rows, done := beam.ParDo2(s, &evaluateFileFn{
		Tables:      headers,
		Confidence:  cfg.Confidence,
		Priors:      cfg.Priors,
		InputFormat: cfg.InputFormat,
		Sheet:       cfg.Sheet,
		Limits:      cfg.Limits,
		DataDirs:    cfg.DataDirs,
	}, work, beam.SideInput{Input: priorData})
	temp := tempDir(cfg.Output)
	header, err := toColumns(lay.Header())
	if err != nil {
		return nil, err
	}
	written := beam.ParDo(s, &writeShardFn{TempDir: temp, Format: format, Header: header}, rows)
	beam.ParDo0(s, &finalizeFn{Output: cfg.Output, TempDir: temp, Format: format, Header: header, Files: len(tasks)},
		beam.Impulse(s), beam.SideInput{Input: written}, beam.SideInput{Input: done})
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
	loader, err := cellfiles.New(cellfiles.Options{Allowed: dataDirs, Limits: limits, Flag: "--data-dir"})
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

// evaluateFileFn reads every row of one input file with the repository's
// readers and evaluates it through the shared layout. The evaluator, with
// the prior tables of the side input, and the layout are built once per
// instance, at its first file; a worker keeps its instances across
// bundles.
type evaluateFileFn struct {
	Tables      []tableHeader
	Confidence  []float64
	Priors      []string // the --priors paths, in order
	InputFormat string
	Sheet       string
	Limits      readers.Limits
	DataDirs    []string // --data-dir

	ev                  *evaluate.Evaluator
	lay                 *layout.Layout
	ok, partial, failed beam.Counter
}

// Setup makes the counters of rows by status.
func (fn *evaluateFileFn) Setup() {
	fn.ok = beam.NewCounter("riskbatch", "rows_ok")
	fn.partial = beam.NewCounter("riskbatch", "rows_partial")
	fn.failed = beam.NewCounter("riskbatch", "rows_error")
}

// ProcessElement emits the output row of every row of the file, in file
// order, then a record that the file was read whole. A row the reader
// could not decode is kept as an error row, and a row that does not
// evaluate gets status error, as in eval; an error that makes the rest of
// the file unreadable fails the pipeline, as it fails eval.
func (fn *evaluateFileFn) ProcessElement(ctx context.Context, task fileTask, priorData func(*priorFile) bool, emit func(outputRow), emitDone func(fileDone)) error {
	if fn.lay == nil {
		contents := map[string][]byte{}
		var pf priorFile
		for priorData(&pf) {
			contents[pf.Path] = pf.Data
		}
		ev, err := newEvaluator(fn.Confidence, fn.Priors, contents, fn.DataDirs, fn.Limits)
		if err != nil {
			return err
		}
		lay, err := layout.New(ev, sources(fn.Tables))
		if err != nil {
			return err
		}
		fn.ev, fn.lay = ev, lay
	}
	opts := readers.Options{Format: fn.InputFormat, Sheet: fn.Sheet, Accept: fn.ev.Vocabulary().Recognizes, Limits: fn.Limits}
	tables, done, err := openTables(ctx, task.Path, opts)
	if err != nil {
		return err
	}
	defer done()
	if len(tables) != task.Tables {
		return fmt.Errorf("%s: changed since the pipeline was built: %d tables, then %d", task.Path, task.Tables, len(tables))
	}
	width := fn.lay.Width()
	var counts [3]int64
	for i, t := range tables {
		tableNo := task.FirstTable + i
		if !sameHeader(t.Columns(), fn.Tables[tableNo].Columns()) {
			return fmt.Errorf("%s: changed since the pipeline was built: its header differs", layout.SourceName(t))
		}
		source := layout.SourceName(t)
		for {
			row, err := t.Next()
			if err == io.EOF {
				break
			}
			if err != nil && readers.IsFatal(err) {
				return err
			}
			out := make([]table.Cell, width)
			switch fn.lay.Row(tableNo, source, row.Cells, err, out) {
			case evaluate.StatusOK:
				counts[0]++
			case evaluate.StatusPartial:
				counts[1]++
			default:
				counts[2]++
			}
			emit(outputRow{Cells: out})
		}
	}
	// Counted once the file is read whole: a file that fails is retried
	// or fails the pipeline, and its rows must not count twice.
	fn.ok.Inc(ctx, counts[0])
	fn.partial.Inc(ctx, counts[1])
	fn.failed.Inc(ctx, counts[2])
	emitDone(fileDone{Path: task.Path, Rows: counts[0] + counts[1] + counts[2]})
	return nil
}

// sameHeader reports whether two headers have the same names and kinds.
func sameHeader(a, b []table.Column) bool {
	return slices.EqualFunc(a, b, func(x, y table.Column) bool { return x.Name == y.Name && x.Kind == y.Kind })
}

// writeShardFn writes the rows of each bundle to one file in the temporary
// directory, with the repository's writers, and emits its name when the
// bundle is done. A bundle that fails leaves at most a file that no one
// names, removed with the directory at the end.
type writeShardFn struct {
	TempDir string
	Format  string
	Header  []column

	w    *fileWriter
	name string
	rows int64
}

// ProcessElement writes one row. The files are emitted by FinishBundle (a
// DoFn's bundle emitters are those of ProcessElement).
func (fn *writeShardFn) ProcessElement(ctx context.Context, row outputRow, _ func(shardFile)) error {
	if fn.w == nil {
		fn.name = fn.TempDir + "/" + randomID() + "." + fn.Format
		w, err := createFile(ctx, fn.name, fn.Format)
		if err != nil {
			return err
		}
		if err := w.WriteHeader(tableColumns(fn.Header)); err != nil {
			w.Abort()
			return err
		}
		fn.w, fn.rows = w, 0
	}
	if err := fn.w.Write(row.Cells); err != nil {
		fn.w.Abort()
		fn.w = nil
		return err
	}
	fn.rows++
	return nil
}

// FinishBundle closes the bundle's file and emits its name and row count.
func (fn *writeShardFn) FinishBundle(ctx context.Context, emit func(shardFile)) error {
	if fn.w == nil {
		return nil
	}
	w := fn.w
	fn.w = nil
	if err := w.Close(); err != nil {
		return err
	}
	emit(shardFile{Name: fn.name, Rows: fn.rows})
	return nil
}

// Teardown drops a file left open by a failed bundle.
func (fn *writeShardFn) Teardown() {
	if fn.w != nil {
		fn.w.Abort()
		fn.w = nil
	}
}

// finalizeFn renames the written files to PREFIX-i-of-n.EXT once every
// bundle is done (they arrive as a side input, complete only then), removes
// the shards of an earlier run with the same prefix and the temporary
// directory. With no row at all it writes one shard with the header only,
// as eval writes an empty table.
//
// It publishes nothing unless every input file was read whole and every
// row it gave was written: a runner may drop a failed bundle's outputs and
// still run later steps before the job fails (the local runner, prism,
// does), and a partial output must never pass for a complete one.
type finalizeFn struct {
	Output  string
	TempDir string
	Format  string
	Header  []column
	Files   int // the number of input files to read
}

func (fn *finalizeFn) ProcessElement(ctx context.Context, _ []byte, written func(*shardFile) bool, done func(*fileDone) bool) error {
	var files, rowsRead, rowsWritten int64
	var d fileDone
	for done(&d) {
		files++
		rowsRead += d.Rows
	}
	var temps []string
	var sh shardFile
	for written(&sh) {
		temps = append(temps, sh.Name)
		rowsWritten += sh.Rows
	}
	if files != int64(fn.Files) || rowsWritten != rowsRead {
		return fmt.Errorf("the output is incomplete (%d of %d input files read whole, %d of their %d rows written): nothing published", files, fn.Files, rowsWritten, rowsRead)
	}
	slices.Sort(temps)
	if len(temps) == 0 {
		empty := fn.TempDir + "/empty." + fn.Format
		w, err := createFile(ctx, empty, fn.Format)
		if err != nil {
			return err
		}
		if err := w.WriteHeader(tableColumns(fn.Header)); err != nil {
			w.Abort()
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		temps = []string{empty}
	}
	final := map[string]bool{}
	for i, t := range temps {
		dst := shardName(fn.Output, i, len(temps), fn.Format)
		final[dst] = true
		if err := rename(ctx, t, dst); err != nil {
			// A retried finalisation finds the shards already in place.
			if exists(ctx, dst) && !exists(ctx, t) {
				continue
			}
			return fmt.Errorf("renaming %s to %s: %w", t, dst, err)
		}
	}
	old, err := list(ctx, fn.Output+"-*-of-*."+fn.Format)
	if err != nil {
		return err
	}
	pat := shardPattern(fn.Output, fn.Format)
	for _, o := range old {
		if pat.MatchString(o) && !final[o] {
			if err := remove(ctx, o); err != nil {
				return fmt.Errorf("removing %s, a shard of an earlier run: %w", o, err)
			}
		}
	}
	return removeTempDir(ctx, fn.TempDir)
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
		if f, ok := ev.Vocabulary().Lookup(c.Name); ok && f == evaluate.FieldDataset {
			return fmt.Errorf("column %s groups rows into datasets whose releases compose into total rows, which the Beam pipeline does not compute: run riskbatch eval on this file, or remove the column", c.Name)
		}
	}
	return nil
}
