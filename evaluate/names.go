package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/celldata"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	num "github.com/riskbatch/riskbatch/evaluate/number"
)

// Names of the row machinery (packages number, celldata and resolve) that a program evaluating rows
// uses: numbers as tables write them, the tables cells name, and the
// audit methods.

// ParseNumber parses a number as people write it (num.Parse).
func ParseNumber(s string) (float64, error) { return num.Parse(s) }

// DecimalMark is the decimal mark of numbers written as text
// (num.DecimalMark).
type DecimalMark = num.DecimalMark

// The decimal marks (see num.DecimalMark).
const (
	DecimalUnknown = num.DecimalUnknown
	DecimalPoint   = num.DecimalPoint
	DecimalComma   = num.DecimalComma
)

// NumberFormat is how numbers written as text are read (num.Format).
type NumberFormat = num.Format

// DataTable is a table a cell names, opened by a DataLoader
// (celldata.Table).
type DataTable = celldata.Table

// DataLoader opens the tables that cells name (celldata.Loader).
type DataLoader = celldata.Loader

// DefaultConfidence is the confidence of the one-run success upper bound
// when none is given.
const DefaultConfidence = resolve.DefaultConfidence

// AuditMethods lists the audit methods an audit row may name.
func AuditMethods() []string { return resolve.AuditMethods() }

// AuditBounds lists the bounds an audit row may ask for (audit_bound).
func AuditBounds() []string { return resolve.AuditBounds() }
