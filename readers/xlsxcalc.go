package readers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/xlformula"
	"github.com/riskbatch/riskbatch/table"
)

// A workbook written by a script (openpyxl, pandas, a template filled in
// by code) holds formulas without the value a spreadsheet application
// would have computed and cached beside them. The reader computes them
// with excelize's calculation engine, which needs the whole workbook in
// memory: it is opened when the first such formula is met, once per
// workbook, if the workbook unpacks to at most Limits.XLSXPartBytes (the
// limit of the parts the reader holds in memory). Before a formula is
// computed, what it depends on is followed through the formulas of the
// workbook, so that a circular reference, a reference to another workbook
// or a reference the engine cannot follow (INDIRECT, OFFSET, a table or
// 3-D reference) is refused instead of computed wrongly: the engine itself
// reads a circular reference as if the cell were empty.
//
// The engine gives a number to 15 significant digits: the reader asks it
// for TEXT(cell, "0.0000000000000000E+00") as well, whose 17 digits give
// back the double exactly, and for TYPE(cell), which tells a number, a
// text and a boolean apart (the engine's own result is text for all
// three).

// calcEngine computes the uncached formulas of one workbook.
type calcEngine struct {
	mu      sync.Mutex
	wb      *workbook
	f       *excelize.File
	err     error // why the workbook could not be opened
	tried   bool
	scratch string                // the sheet added for TYPE and TEXT
	sheets  map[string]*calcSheet // by name, as prescanned
	names   map[string]string     // defined names (upper case; "sheet\x00NAME" for sheet-level ones) → their formula
	checked map[calcNode]error    // nodes whose dependencies were followed, with the verdict
	onPath  map[calcNode]int      // nodes on the current path: their index in path
	path    []calcNode
	results map[calcNode]calcResult // the computed uncached formulas
}

// calcNode is one cell of the workbook; col and row are 1-based.
type calcNode struct {
	sheet    string
	col, row int
}

func (n calcNode) String() string {
	ref, _ := excelize.CoordinatesToCellName(n.col, n.row)
	return ref
}

type calcResult struct {
	cell table.Cell
	err  error
}

// calcSheet is what a prescan of a sheet found: every formula cell, for
// following dependencies, and the cells without a cached value.
type calcSheet struct {
	formulas       map[[2]int]string // (col, row) → formula
	cols           []int             // columns holding formulas, sorted
	rows           map[int][]int     // column → rows of formula cells, sorted
	maxRow, maxCol int
	uncached       []calcNode
	err            error
}

// calcError is why a formula cannot be computed. advise says whether a
// spreadsheet application would compute it (then the message says to open
// and save the workbook there).
type calcError struct {
	why    string
	advise bool
	err    error // a *LimitError, if that is why
}

func (e *calcError) Error() string { return e.why }
func (e *calcError) Unwrap() error { return e.err }

// compute returns the value of the formula without a cached value at
// (col, row) (1-based) of the named sheet.
func (e *calcEngine) compute(sheet string, col, row int) (cell table.Cell, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			cell, err = table.Cell{}, &calcError{why: fmt.Sprintf("the calculation engine failed on this workbook (%v)", p), advise: true}
		}
	}()
	if err := e.open(); err != nil {
		return table.Cell{}, err
	}
	n := calcNode{sheet, col, row}
	if r, ok := e.results[n]; ok {
		return r.cell, r.err
	}
	cs := e.sheet(sheet)
	if cs.err != nil {
		return table.Cell{}, cs.err
	}
	todo := cs.uncached
	if !slices.Contains(todo, n) {
		todo = append(todo[:len(todo):len(todo)], n)
	}
	e.computeAll(todo)
	r := e.results[n]
	return r.cell, r.err
}

// open opens the workbook with excelize, once.
func (e *calcEngine) open() error {
	if e.tried {
		return e.err
	}
	e.tried = true
	lim := e.wb.lim
	var total int64
	for _, f := range e.wb.zr.File {
		total = addClamped(total, clampInt64(f.UncompressedSize64))
	}
	if total > lim.XLSXPartBytes || e.wb.size > lim.XLSXPartBytes {
		le := limitError(limitXLSXPartBytes, lim.XLSXPartBytes, "computing formulas needs the whole workbook in memory, and it unpacks to %s", byteSize(total))
		e.err = &calcError{why: le.Error(), advise: true, err: le}
		return e.err
	}
	f, err := excelize.OpenReader(io.NewSectionReader(e.wb.r, 0, e.wb.size), excelize.Options{
		UnzipSizeLimit:    lim.XLSXTotalBytes,
		UnzipXMLSizeLimit: min(lim.XLSXPartBytes, lim.XLSXTotalBytes),
	})
	if err != nil {
		e.err = &calcError{why: fmt.Sprintf("the calculation engine cannot open the workbook (%v)", err), advise: true}
		return e.err
	}
	e.f = f
	e.names = map[string]string{}
	for _, d := range f.GetDefinedName() {
		key := strings.ToUpper(d.Name)
		if d.Scope != "" && d.Scope != "Workbook" {
			key = d.Scope + "\x00" + key
		}
		e.names[key] = strings.TrimPrefix(d.RefersTo, "=")
	}
	e.scratch = "riskbatch calc"
	for i := 2; e.wb.hasSheet(e.scratch); i++ {
		e.scratch = "riskbatch calc " + strconv.Itoa(i)
	}
	if _, err := f.NewSheet(e.scratch); err != nil {
		e.err = &calcError{why: fmt.Sprintf("the calculation engine cannot open the workbook (%v)", err), advise: true}
		return e.err
	}
	e.sheets = map[string]*calcSheet{}
	e.checked = map[calcNode]error{}
	e.onPath = map[calcNode]int{}
	e.results = map[calcNode]calcResult{}
	return nil
}

// close releases the engine's workbook.
func (e *calcEngine) close() {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.f != nil {
		_ = e.f.Close()
		e.f = nil
	}
	e.err, e.tried = errors.New("the workbook is closed"), true
}

// sheet prescans a sheet of the workbook, once: nil for a name that is no
// sheet of the workbook.
func (e *calcEngine) sheet(name string) *calcSheet {
	if cs, ok := e.sheets[name]; ok {
		return cs
	}
	var ref *sheetRef
	for i := range e.wb.refs {
		if e.wb.refs[i].name == name {
			ref = &e.wb.refs[i]
			break
		}
	}
	if ref == nil {
		e.sheets[name] = nil
		return nil
	}
	cs := &calcSheet{formulas: map[[2]int]string{}, rows: map[int][]int{}}
	e.sheets[name] = cs
	cs.err = e.prescan(*ref, cs)
	for c := range cs.rows {
		cs.cols = append(cs.cols, c)
		sort.Ints(cs.rows[c])
	}
	sort.Ints(cs.cols)
	return cs
}

// prescan reads a sheet's XML once for its formula cells.
func (e *calcEngine) prescan(ref sheetRef, cs *calcSheet) error {
	lim := e.wb.lim
	if ref.part == nil {
		return &calcError{why: "the workbook is damaged: the sheet's part is missing"}
	}
	if size := clampInt64(ref.part.UncompressedSize64); size > lim.XLSXPartBytes {
		le := limitError(limitXLSXPartBytes, lim.XLSXPartBytes, "computing formulas needs the sheet %s in memory, and it unpacks to %s", ref.name, byteSize(size))
		return &calcError{why: le.Error(), advise: true, err: le}
	}
	s, err := openSheetStream(ref.part, e.wb)
	if err != nil {
		return &calcError{why: fmt.Sprintf("cannot read the sheet %s: %v", ref.name, err)}
	}
	defer s.close()
	s.calc = func(int, int, string) (table.Cell, error) { return table.Cell{}, nil }
	s.onFormula = func(col, row int, formula string, cached bool) {
		k := [2]int{col + 1, row}
		if _, dup := cs.formulas[k]; !dup {
			cs.rows[col+1] = append(cs.rows[col+1], row)
		}
		cs.formulas[k] = formula
		if !cached {
			cs.uncached = append(cs.uncached, calcNode{ref.name, col + 1, row})
		}
	}
	for {
		row, err := s.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &calcError{why: fmt.Sprintf("the sheet %s is damaged (%v)", ref.name, err)}
		}
		cs.maxRow = max(cs.maxRow, row.num)
		cs.maxCol = max(cs.maxCol, len(row.cells))
	}
}

// computeAll computes the uncached formulas todo (of one sheet): each is
// first checked, then the engine computes those that pass, with the
// scratch cells that give their type and exact value.
func (e *calcEngine) computeAll(todo []calcNode) {
	var ok []calcNode
	for _, n := range todo {
		if _, done := e.results[n]; done {
			continue
		}
		if err := e.check(n, 0); err != nil {
			e.results[n] = calcResult{err: err}
			continue
		}
		ok = append(ok, n)
	}
	// The scratch formulas are set first: setting a formula clears the
	// engine's caches, which the computations then share.
	for i, n := range ok {
		ref := quoteSheet(n.sheet) + "!" + n.String()
		row := strconv.Itoa(i + 1)
		if err := e.f.SetCellFormula(e.scratch, "A"+row, "TYPE("+ref+")"); err != nil {
			e.results[n] = calcResult{err: &calcError{why: err.Error(), advise: true}}
		}
		if err := e.f.SetCellFormula(e.scratch, "B"+row, `TEXT(`+ref+`,"0.0000000000000000E+00")`); err != nil {
			e.results[n] = calcResult{err: &calcError{why: err.Error(), advise: true}}
		}
	}
	raw := excelize.Options{RawCellValue: true}
	for i, n := range ok {
		if _, done := e.results[n]; done {
			continue
		}
		row := strconv.Itoa(i + 1)
		v, err := e.f.CalcCellValue(n.sheet, n.String(), raw)
		if err != nil {
			if dep := e.failedDependency(n); dep != nil {
				err = dep
			} else {
				err = engineError(err)
			}
			e.results[n] = calcResult{err: err}
			continue
		}
		typ, err := e.f.CalcCellValue(e.scratch, "A"+row, raw)
		if err != nil {
			e.results[n] = calcResult{err: engineError(err)}
			continue
		}
		var cell table.Cell
		switch typ {
		case "1":
			exact, _ := e.f.CalcCellValue(e.scratch, "B"+row, raw)
			x, perr := strconv.ParseFloat(exact, 64)
			if perr != nil {
				x, perr = strconv.ParseFloat(v, 64)
			}
			if perr != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				e.results[n] = calcResult{err: &calcError{why: "it gives the error value #NUM! (the result is not a finite number)"}}
				continue
			}
			cell = table.NumberCell(x)
		case "2":
			cell = textCell(v)
		case "4":
			cell = table.BoolCell(strings.EqualFold(v, "TRUE"))
		case "16":
			e.results[n] = calcResult{err: &calcError{why: "it gives the error value " + v}}
			continue
		default:
			e.results[n] = calcResult{err: &calcError{why: "it gives an array of values, not one value"}}
			continue
		}
		e.results[n] = calcResult{cell: cell}
	}
}

// failedDependency returns, for a formula the engine could not compute,
// the error of a formula it refers to directly whose own computation
// failed: the cause, rather than the engine's account of it.
func (e *calcEngine) failedDependency(n calcNode) error {
	cs := e.sheet(n.sheet)
	if cs == nil || cs.err != nil {
		return nil
	}
	f := xlformula.Parse(cs.formulas[[2]int{n.col, n.row}])
	for _, r := range f.Refs {
		target := n.sheet
		if r.HasSheet {
			target = r.Sheet
		}
		ts := e.sheet(target)
		if ts == nil || ts.err != nil || r.Kind != xlformula.CellRef {
			continue
		}
		for col := min(r.Col1, r.Col2); col <= max(r.Col1, r.Col2); col++ {
			for _, row := range ts.rows[col] {
				if row < min(r.Row1, r.Row2) || row > max(r.Row1, r.Row2) {
					continue
				}
				dep := calcNode{target, col, row}
				if res, ok := e.results[dep]; ok && res.err != nil {
					var ce *calcError
					advise := errors.As(res.err, &ce) && ce.advise
					return &calcError{why: "it depends on " + e.cellName(dep, n.sheet) + ", whose formula =" + clip(ts.formulas[[2]int{col, row}]) + " cannot be computed: " + res.err.Error(), advise: advise}
				}
			}
		}
	}
	return nil
}

// engineError explains an error of the calculation engine.
func engineError(err error) error {
	msg := err.Error()
	if fn, ok := strings.CutPrefix(msg, "not support "); ok {
		fn = strings.TrimSuffix(fn, " function")
		return &calcError{why: "riskbatch's calculation engine has no function " + fn, advise: true}
	}
	if strings.HasPrefix(msg, "#") {
		return &calcError{why: "it gives the error value " + msg}
	}
	return &calcError{why: "the calculation engine could not compute it", advise: true}
}
