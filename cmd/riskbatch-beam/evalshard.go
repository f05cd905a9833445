package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// headerOf is what the workers need to know of an input table: its file,
// sheet and columns, and whether its form suggests decimal commas, as
// layout.New asks of eval's tables. A table with a dataset column is
// refused (see refuseDatasets).
func headerOf(ev *evaluate.Evaluator, t readers.Table) (tableHeader, error) {
	cols, err := toColumns(t.Columns())
	if err == nil {
		err = refuseDatasets(ev, t.Columns())
	}
	if err != nil {
		return tableHeader{}, fmt.Errorf("%s: %w", layout.SourceName(t), err)
	}
	d, ok := t.(readers.DialectTable)
	return tableHeader{Path: t.File(), SheetOf: t.Sheet(), Header: cols, Comma: ok && d.DecimalComma()}, nil
}

// evaluateShardFn reads every row of one shard of an input file with the
// repository's readers, evaluates it through the shared layout, and writes
// the output rows, in file order, to a file of the shard's own in the
// temporary directory, named by the file's and the shard's indices: a
// shard that is retried writes the same file again. The evaluator, with
// the prior tables of the side input, and the layout are built once per
// instance, at its first shard; a worker keeps its instances across
// bundles.
type evaluateShardFn struct {
	Tables      []tableHeader
	Confidence  []float64
	Priors      []string // the --priors paths, in order
	InputFormat string
	Sheet       string
	Limits      readers.Limits
	DataDirs    []string // --data-dir
	TempDir     string
	Format      string   // of the output
	Header      []column // of the output

	ev  *evaluate.Evaluator
	lay *layout.Layout
}

// ProcessElement writes the output row of every row of the shard, in file
// order, and emits the file written. A row the reader could not decode is
// kept as an error row, and a row that does not evaluate gets status
// error, as in eval; an error that makes the rest of the file unreadable
// fails the pipeline, as it fails eval.
func (fn *evaluateShardFn) ProcessElement(ctx context.Context, task shardTask, priorData func(*priorFile) bool, emit func(shardFile)) error {
	if err := fn.prepare(priorData); err != nil {
		return err
	}
	opts := readers.Options{Format: fn.InputFormat, Sheet: fn.Sheet, Accept: fn.ev.Vocabulary().Recognizes, Limits: fn.Limits}
	in, err := openInput(ctx, task.File.Path, opts)
	if err != nil {
		return err
	}
	defer in.close()
	if len(in.tables) != task.File.Tables {
		return fmt.Errorf("%s: changed since the pipeline was built: %d tables, then %d", task.File.Path, task.File.Tables, len(in.tables))
	}
	for i, t := range in.tables {
		if !sameHeader(t.Columns(), fn.Tables[task.File.FirstTable+i].Columns()) {
			return fmt.Errorf("%s: changed since the pipeline was built: its header differs", layout.SourceName(t))
		}
	}
	tables, err := openShard(in, task)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("%s/%06d-%06d.%s", fn.TempDir, task.File.Index, task.Shard, fn.Format)
	w, err := createWithHeader(ctx, name, fn.Format, fn.Header)
	if err != nil {
		return err
	}
	counts, err := fn.write(tables, task.File.FirstTable, w)
	if err != nil {
		w.Abort()
		return err
	}
	rows := counts[0] + counts[1] + counts[2]
	if rows == 0 {
		name = "" // no file for a shard without rows
		err = w.Abort()
	} else {
		err = w.Close()
	}
	if err != nil {
		return err
	}
	emit(shardFile{Name: name, File: task.File.Index, Shard: task.Shard, Shards: task.Shards, Rows: rows,
		OK: counts[0], Partial: counts[1], Failed: counts[2]})
	return nil
}

// prepare builds the evaluator and the layout at the first shard.
func (fn *evaluateShardFn) prepare(priorData func(*priorFile) bool) error {
	if fn.lay != nil {
		return nil
	}
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
	return nil
}

// write evaluates and writes every row of the tables, the first of which
// is input table firstTable, and counts them by status (ok, partial,
// error).
func (fn *evaluateShardFn) write(tables []readers.Table, firstTable int, w *fileWriter) ([3]int64, error) {
	var counts [3]int64
	out := make([]table.Cell, fn.lay.Width())
	for i, t := range tables {
		tableNo := firstTable + i
		source := layout.SourceName(t)
		for {
			row, err := t.Next()
			if err == io.EOF {
				break
			}
			if err != nil && readers.IsFatal(err) {
				return counts, err
			}
			clear(out)
			switch fn.lay.Row(tableNo, source, row.Cells, err, out) {
			case evaluate.StatusOK:
				counts[0]++
			case evaluate.StatusPartial:
				counts[1]++
			default:
				counts[2]++
			}
			if err := w.Write(out); err != nil {
				return counts, err
			}
		}
	}
	return counts, nil
}

// sameHeader reports whether two headers have the same names and kinds.
func sameHeader(a, b []table.Column) bool {
	return slices.EqualFunc(a, b, func(x, y table.Column) bool { return x.Name == y.Name && x.Kind == y.Kind })
}

// finalizeFn renames the shards' files to PREFIX-i-of-n.EXT, in the order
// of the input files and of the shards within each, once every shard is
// written (they arrive as a side input, complete only then); it removes
// the shards of an earlier run with the same prefix and the temporary
// directory. With no row at all it writes one shard with the header only,
// as eval writes an empty table. Once the output is published, it counts
// the rows by status in the counters riskbatch/rows_ok, rows_partial and
// rows_error: counted there, in one element of one bundle, rather than by
// the shards' bundles, which a runner may split, retry or drop, the counts
// are those of the rows published.
//
// It publishes nothing unless every shard of every input file was
// written: a runner may drop a failed bundle's outputs and still run later
// steps before the job fails (the local runner, prism, does), and a
// partial output must never pass for a complete one.
type finalizeFn struct {
	Output  string
	TempDir string
	Format  string
	Header  []column
	Files   int // the number of input files to read
}

func (fn *finalizeFn) ProcessElement(ctx context.Context, _ []byte, written func(*shardFile) bool) error {
	done, err := fn.complete(written)
	if err != nil {
		return err
	}
	var temps []string
	for _, sh := range done {
		if sh.Name != "" {
			temps = append(temps, sh.Name)
		}
	}
	if len(temps) == 0 {
		empty := fn.TempDir + "/empty." + fn.Format
		w, err := createWithHeader(ctx, empty, fn.Format, fn.Header)
		if err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		temps = []string{empty}
	}
	if err := fn.publish(ctx, temps); err != nil {
		return err
	}
	var ok, partial, failed int64
	for _, sh := range done {
		ok, partial, failed = ok+sh.OK, partial+sh.Partial, failed+sh.Failed
	}
	beam.NewCounter("riskbatch", "rows_ok").Inc(ctx, ok)
	beam.NewCounter("riskbatch", "rows_partial").Inc(ctx, partial)
	beam.NewCounter("riskbatch", "rows_error").Inc(ctx, failed)
	return nil
}

// complete returns the shards written, in output order, or an error when
// a shard of an input file, or a whole file, is missing.
func (fn *finalizeFn) complete(written func(*shardFile) bool) ([]shardFile, error) {
	seen := map[[2]int]shardFile{}
	shards := map[int]int{} // per file
	var sh shardFile
	for written(&sh) {
		seen[[2]int{sh.File, sh.Shard}] = sh
		shards[sh.File] = sh.Shards
	}
	want := 0
	for _, n := range shards {
		want += n
	}
	// Shards are numbered from 0 to Shards-1, so every shard of every
	// file is there when there are as many as the files have.
	if len(shards) != fn.Files || len(seen) != want {
		return nil, fmt.Errorf("the output is incomplete (%d of %d input files split, %d of their %d shards written): nothing published", len(shards), fn.Files, len(seen), want)
	}
	done := make([]shardFile, 0, len(seen))
	for _, sh := range seen {
		done = append(done, sh)
	}
	slices.SortFunc(done, func(a, b shardFile) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Shard, b.Shard)) })
	return done, nil
}

// publish renames the files temps, in order, to the output's shards, and
// removes the shards of an earlier run and the temporary directory.
func (fn *finalizeFn) publish(ctx context.Context, temps []string) error {
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

// createWithHeader returns a writer of format for target, with the header
// written.
func createWithHeader(ctx context.Context, target, format string, header []column) (*fileWriter, error) {
	w, err := createFile(ctx, target, format)
	if err != nil {
		return nil, err
	}
	if err := w.WriteHeader(tableColumns(header)); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}
