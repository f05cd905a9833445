package evaluate

import "github.com/riskbatch/riskbatch/evaluate/internal/resolve"

// Names of the row machinery (package row) that a program evaluating rows
// uses: numbers as tables write them, the tables cells name, and the
// audit methods.

// ParseNumber parses a number as people write it (number.Parse).
func ParseNumber(s string) (float64, error) { return resolve.ParseNumber(s) }

// DecimalMark is the decimal mark of numbers written as text
// (number.DecimalMark).
type DecimalMark = resolve.DecimalMark

// The decimal marks (see number.DecimalMark).
const (
	DecimalUnknown = resolve.DecimalUnknown
	DecimalPoint   = resolve.DecimalPoint
	DecimalComma   = resolve.DecimalComma
)

// NumberFormat is how numbers written as text are read (number.Format).
type NumberFormat = resolve.NumberFormat

// DataTable is a table a cell names, opened by a DataLoader
// (celldata.Table).
type DataTable = resolve.DataTable

// DataLoader opens the tables that cells name (celldata.Loader).
type DataLoader = resolve.DataLoader

// DefaultConfidence is the confidence of the one-run success upper bound
// when none is given.
const DefaultConfidence = resolve.DefaultConfidence

// AuditMethods lists the audit methods an audit row may name.
func AuditMethods() []string { return resolve.AuditMethods() }

// AuditBounds lists the bounds an audit row may ask for (audit_bound).
func AuditBounds() []string { return resolve.AuditBounds() }
