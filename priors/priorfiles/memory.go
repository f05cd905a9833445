package priorfiles

import (
	"bytes"
	"errors"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// LoadMemory is Load for prior files whose contents are already in memory,
// for a process that cannot open the paths itself (a worker of a
// distributed pipeline, to which the files were shipped). contents maps
// each path, as it would be given to Load, to the file's bytes; the
// frequency table beside a prior table (see Load) is loaded when contents
// has it. Positions and messages name the paths as given, so that a row's
// message is the same as with Load.
func LoadMemory(paths []string, contents map[string][]byte) (*priors.Tables, error) {
	ts, _, err := load(paths, memoryFiles(contents))
	return ts, err
}

// fileSet is where load finds the files it reads.
type fileSet interface {
	// open returns the tables of the file at path.
	open(path string, opts readers.Options) ([]readers.Table, error)
	// frequencies returns the frequency table written beside the prior
	// table at path, when there is one.
	frequencies(path string) (string, bool)
}

// diskFiles are the files of the file system.
type diskFiles struct{}

func (diskFiles) open(path string, opts readers.Options) ([]readers.Table, error) {
	return readers.Open(path, opts)
}

func (diskFiles) frequencies(path string) (string, bool) { return siblingFrequencies(path) }

// memoryFiles are files held in memory, by path.
type memoryFiles map[string][]byte

func (m memoryFiles) open(path string, opts readers.Options) ([]readers.Table, error) {
	data, ok := m[path]
	if !ok {
		return nil, &table.Error{Pos: table.Position{File: path, Column: -1}, Err: errors.New("cannot open the file: its content was not given")}
	}
	return readers.OpenReader(path, bytes.NewReader(data), int64(len(data)), opts)
}

func (m memoryFiles) frequencies(path string) (string, bool) {
	_, freq, _, err := OutputPaths(path, "")
	if err != nil || freq == path {
		return "", false
	}
	_, ok := m[freq]
	return freq, ok
}
