package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/riskbatch/riskbatch/readers"
)

// Default shard sizes: a shard is what one worker reads, evaluates and
// writes in one go. At about 100,000 closed-form rows per second per core,
// a shard of these sizes takes a few seconds, and a file of 10⁷ rows makes
// some twenty shards.
const (
	DefaultShardBytes = 32 << 20 // of a CSV or TSV file
	DefaultShardRows  = 500_000  // of a Parquet file, in whole row groups
)

// The kinds of shard.
const (
	shardWhole     = iota // every table of the file (a workbook; a file that cannot be split)
	shardRowGroups        // row groups From to To-1 of a Parquet file
	shardBytes            // the records of bytes From to To-1 of a CSV or TSV file
)

// shardTask is one part of an input file that one worker reads, evaluates
// and writes: a run of row groups of a Parquet file, a run of records of a
// CSV or TSV file (a readers.CSVPart), or the whole file.
type shardTask struct {
	File          fileTask
	Shard, Shards int   // the shard's index among the file's shards, and their number
	Size          int64 // the file's size when it was split
	Kind          int   // shardWhole, shardRowGroups or shardBytes
	From, To      int64 // the row groups or bytes of the shard, To excluded
	// The counts of readers.CSVPart: where the shard's rows are in the
	// file, so that they are numbered as in the whole file.
	LastRow, Rows, Lines int
}

// csvPart is the readers.CSVPart of a shard of kind shardBytes.
func (t shardTask) csvPart() readers.CSVPart {
	return readers.CSVPart{From: t.From, To: t.To, LastRow: t.LastRow, Rows: t.Rows, Lines: t.Lines}
}

// splitFileFn cuts each input file into shards: a Parquet file into runs
// of whole row groups of about ShardRows rows, a CSV or TSV file into runs
// of whole records of about ShardBytes bytes (readers.SplitCSV: one pass
// over the file that finds the records' ends, quotes included), any other
// file into one shard. The shards of a file are numbered in file order, so
// that their outputs, in that order, hold the rows in the file's order.
type splitFileFn struct {
	InputFormat string
	Limits      readers.Limits
	ShardBytes  int64
	ShardRows   int64
}

func (fn *splitFileFn) ProcessElement(ctx context.Context, task fileTask, emit func(shardTask)) error {
	shards := []shardTask{{Kind: shardWhole}}
	if splittable(task.Path, fn.InputFormat) {
		var err error
		if shards, err = fn.split(ctx, task.Path); err != nil {
			return err
		}
	}
	for i, sh := range shards {
		sh.File, sh.Shard, sh.Shards = task, i, len(shards)
		emit(sh)
	}
	return nil
}

// splittable reports whether a file may be split: CSV, TSV and Parquet
// files, by --input-format or the extension (a workbook is one shard).
func splittable(path, format string) bool {
	if format == "" {
		format = filepath.Ext(path)
	}
	switch strings.ToLower(strings.TrimPrefix(format, ".")) {
	case "csv", "tsv", "parquet":
		return true
	}
	return false
}

// split opens the file at path and cuts it into shards.
func (fn *splitFileFn) split(ctx context.Context, path string) ([]shardTask, error) {
	in, err := openInput(ctx, path, readers.Options{Format: fn.InputFormat, Limits: fn.Limits})
	if err != nil {
		return nil, err
	}
	defer in.close()
	whole := []shardTask{{Kind: shardWhole, Size: in.size}}
	if len(in.tables) != 1 || in.r == nil {
		return whole, nil
	}
	t := in.tables[0]
	if groups, ok := readers.RowGroups(t); ok {
		var out []shardTask
		for _, r := range groupRuns(groups, max(fn.ShardRows, 1)) {
			out = append(out, shardTask{Kind: shardRowGroups, Size: in.size, From: int64(r[0]), To: int64(r[1])})
		}
		return out, nil
	}
	if _, ok := t.(readers.DialectTable); !ok {
		return whole, nil
	}
	parts, err := readers.SplitCSV(t, in.r, in.size, max(fn.ShardBytes, 1))
	if err != nil {
		return nil, err
	}
	if parts == nil { // an encoding whose bytes cannot be split safely
		return whole, nil
	}
	out := make([]shardTask, len(parts))
	for i, p := range parts {
		out[i] = shardTask{Kind: shardBytes, Size: in.size, From: p.From, To: p.To, LastRow: p.LastRow, Rows: p.Rows, Lines: p.Lines}
	}
	return out, nil
}

// groupRuns cuts row groups of the given sizes into runs of consecutive
// groups of at least target rows each (the last one may hold fewer), as
// [first, end) pairs; a file without row groups is one empty run.
func groupRuns(groups []int64, target int64) [][2]int {
	var runs [][2]int
	from, rows := 0, int64(0)
	for g, n := range groups {
		if rows += n; rows >= target {
			runs = append(runs, [2]int{from, g + 1})
			from, rows = g+1, 0
		}
	}
	if from < len(groups) || len(runs) == 0 {
		runs = append(runs, [2]int{from, len(groups)})
	}
	return runs
}

// openShard returns the tables of the shard's rows among the tables of
// its file, in.
func openShard(in *input, task shardTask) ([]readers.Table, error) {
	if task.Kind == shardWhole {
		return in.tables, nil
	}
	if in.size != task.Size || len(in.tables) != 1 {
		return nil, fmt.Errorf("%s: changed since the pipeline was built: %d bytes, then %d", task.File.Path, task.Size, in.size)
	}
	t := in.tables[0]
	switch task.Kind {
	case shardRowGroups:
		if err := readers.LimitRowGroups(t, int(task.From), int(task.To)); err != nil {
			return nil, err
		}
		return in.tables, nil
	case shardBytes:
		part, err := readers.OpenCSVPart(t, in.r, in.size, task.csvPart())
		if err != nil {
			return nil, err
		}
		in.also(part)
		return []readers.Table{part}, nil
	}
	return nil, fmt.Errorf("%s: shard %d of unknown kind %d", task.File.Path, task.Shard, task.Kind)
}
