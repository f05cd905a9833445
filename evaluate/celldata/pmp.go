package celldata

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/internal/memo"
	"github.com/riskbatch/riskbatch/evaluate/number"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// Data-dependent practical membership privacy (Lowy et al. 2024):
// a release row names, in its pmp_data column, a table of the attacker's
// parent set X (2n records, one row each), and the pmp_data_* columns give
// the PMP parameter of the row's mechanism with respect to that X:
//
//   - gaussian rows: Prop. 12 in sum form (PMPGaussian), the table's
//     numeric columns being each record's query vector f(x) and σ the
//     row's noise standard deviation, at the row's δ;
//   - exponential rows: Prop. 9 exactly (PMPExponential), the table's
//     columns being the candidate outputs w and a cell record i's
//     contribution loss(w, x_i) to the loss of w, with β = ε/(2Δ).
//
// Tables are read once per run and kept (a bounded cache); results are
// kept per (table, parameters), so that rows sweeping a baseline or a
// target over the same data pay the computation once.

// Limits of a pmp_data table: Prop. 12 costs O(N²·d) for N records of
// dimension d, and the exponential mechanism's enumeration is limited by
// MaxPMPSubsets (2n ≤ 22 records).
const (
	maxPMPDataRecords = 8192
	maxPMPDataCells   = 1 << 22
	pmpCacheSize      = 64
)

// pmpLabelColumns are the headers of label columns, which are not data.
var pmpLabelColumns = [...]string{"id", "record", "name"}

// PMPTable is a pmp_data table: one vector per record.
type PMPTable struct {
	Records [][]float64
	Columns []string // the data columns' headers
}

// Source is where a row's pmp_data reference is resolved: the file of
// the row's table, and the loader that opens files named in cells.
type Source struct {
	File   string
	Loader Loader
}

// Ref identifies a pmp_data table: the cell's text and the file of the
// table the cell is in (a relative reference depends on it).
type Ref struct {
	File, Ref string
}

// Key identifies a PMP computation.
type Key struct {
	Table     Ref
	Mechanism release.Mechanism
	A, B      float64 // gaussian: σ, δ; exponential: ε, Δ
}

// Result is a computed PMP parameter, or why there is none.
type Result struct {
	Eps float64
	Why string
	// MaxDistance is Δ_X = max ‖f(x) − f(x')‖₂ over the parent set
	// (gaussian rows), NaN otherwise.
	MaxDistance float64
}

// Cache keeps pmp_data tables and results for one run, bounded.
type Cache struct {
	tables  *memo.Cache[Ref, load]
	results *memo.Cache[Key, Result]
}

// load is a table read, or why it cannot be.
type load struct {
	t   *PMPTable
	err error
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{
		tables:  memo.New[Ref, load](pmpCacheSize, nil),
		results: memo.New[Key, Result](1<<12, nil),
	}
}

// Table returns the table that ref names, written in the cell or opened
// by src's loader on first use.
func (c *Cache) Table(ref Ref, src Source) (*PMPTable, error) {
	l := c.tables.Get(ref, func() load {
		if t, ok := parsePMPInline(ref.Ref); ok {
			return load{t: t}
		}
		if src.Loader == nil {
			return load{err: &RefError{fmt.Errorf("%s is not a parent set written in the cell (records separated by \";\"), and this evaluation reads no files named in cells", ref.Ref)}}
		}
		dt, err := src.Loader.OpenData(ref.File, ref.Ref)
		if err != nil {
			return load{err: &RefError{err}}
		}
		defer dt.Close()
		t, err := readPMPTable(ref.Ref, dt)
		return load{t, err}
	})
	return l.t, l.err
}

// RefError is the error of a pmp_data cell whose file cannot be used:
// the loader refused or could not open it, or there is no loader. It makes
// the row an error.
type RefError struct{ Err error }

func (e *RefError) Error() string { return "pmp_data: " + e.Err.Error() }
func (e *RefError) Unwrap() error { return e.Err }

// parsePMPInline reads a small parent set written in the cell itself:
// records separated by ";", a record's values by "," or spaces
// ("0.1, 0.2; 0.4, 0.1"). ok is false for anything else (a path), and for
// ragged rows, which then fail as a path that does not exist.
func parsePMPInline(s string) (t *PMPTable, ok bool) {
	if !strings.Contains(s, ";") {
		return nil, false
	}
	t = &PMPTable{}
	for _, rec := range strings.Split(s, ";") {
		fields := strings.FieldsFunc(rec, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(fields) == 0 {
			if strings.TrimSpace(rec) == "" {
				continue // a trailing ";"
			}
			return nil, false
		}
		v := make([]float64, len(fields))
		for i, f := range fields {
			x, err := number.Parse(f)
			if err != nil {
				return nil, false
			}
			v[i] = x
		}
		if len(t.Records) > 0 && len(v) != len(t.Records[0]) {
			return nil, false
		}
		t.Records = append(t.Records, v)
	}
	if len(t.Records) == 0 || len(t.Records) > maxPMPDataRecords {
		return nil, false
	}
	for j := range t.Records[0] {
		t.Columns = append(t.Columns, fmt.Sprintf("column %d", j+1))
	}
	return t, true
}

// Result returns the remembered result of key, computing it on first use.
func (c *Cache) Result(key Key, compute func() Result) Result {
	return c.results.Get(key, compute)
}

// readPMPTable reads a pmp_data table that the cell ref names: its rows
// are records, every non-label cell a number. Its messages give positions
// and never quote the file: the user did not name it on the command line,
// and a workbook received from someone else must not copy lines of a local
// file into its messages.
func readPMPTable(ref string, t Table) (*PMPTable, error) {
	name := "pmp_data file " + ref
	var data []int
	pt := &PMPTable{}
	for i, c := range t.Columns() {
		label := false
		for _, l := range pmpLabelColumns {
			label = label || release.CanonicalName(c.Name) == l
		}
		if !label {
			data = append(data, i)
			pt.Columns = append(pt.Columns, c.Name)
		}
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: no data columns (columns named %s are labels)", name, strings.Join(pmpLabelColumns[:], ", "))
	}
	for n := 2; ; n++ { // the header is row 1
		row, err := t.Next()
		if err == io.EOF {
			break
		}
		at := n
		if row.Pos.Row > 0 {
			at = row.Pos.Row
		}
		if err != nil {
			var te *table.Error
			if errors.As(err, &te) && te.Pos.Row > 0 {
				at = te.Pos.Row
			}
			return nil, fmt.Errorf("%s, row %d: cannot be read", name, at)
		}
		if len(pt.Records) == maxPMPDataRecords || (len(pt.Records)+1)*len(data) > maxPMPDataCells {
			return nil, fmt.Errorf("%s: more than %d records or %d cells: too large for the exact PMP computations", name, maxPMPDataRecords, maxPMPDataCells)
		}
		v := make([]float64, len(data))
		for j, i := range data {
			var c table.Cell
			if i < len(row.Cells) {
				c = row.Cells[i]
			}
			x, err := pmpNumber(c)
			if err != nil {
				return nil, fmt.Errorf("%s, row %d, column %d: %w", name, at, i+1, err)
			}
			v[j] = x
		}
		pt.Records = append(pt.Records, v)
	}
	if len(pt.Records) == 0 {
		return nil, fmt.Errorf("%s: no records", name)
	}
	return pt, nil
}

// pmpNumber reads a data cell: a finite number. Its errors do not quote
// the cell.
func pmpNumber(c table.Cell) (float64, error) {
	switch c.Kind {
	case table.Number:
		if math.IsNaN(c.Num) || math.IsInf(c.Num, 0) {
			return 0, errors.New("not a finite number")
		}
		return c.Num, nil
	case table.Integer:
		return float64(c.Int), nil
	}
	if c.IsEmpty() {
		return 0, errors.New("empty: every record needs a value in every data column")
	}
	if c.Kind == table.Text || c.Kind == table.Decimal {
		if x, err := number.Parse(c.Str); err == nil {
			return x, nil
		}
	}
	return 0, errors.New("not a number")
}
