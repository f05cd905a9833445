package readers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/riskbatch/riskbatch/internal/xlformula"
)

// Before the engine computes a formula, the reader follows what it refers
// to, so that a formula the engine would get wrong or loop on is refused
// with the reason.

// Bounds of the work the reader does for one uncached formula.
const (
	// maxCalcRangeCells is the largest range a formula to compute may
	// refer to (the engine builds every cell of a range in memory).
	maxCalcRangeCells = 2_000_000
	// maxCalcDepth is the longest chain of formulas one may depend on.
	maxCalcDepth = 10_000
)

// dynamicFunction reports whether the function fn makes references the
// reader cannot follow.
func dynamicFunction(fn string) bool { return fn == "INDIRECT" || fn == "OFFSET" }

// check follows what the formula at n depends on (depth: the length of
// the chain that led to it) and returns why it cannot be computed, if so.
func (e *calcEngine) check(n calcNode, depth int) error {
	if err, done := e.checked[n]; done {
		return err
	}
	if at, on := e.onPath[n]; on {
		cycle := make([]string, 0, len(e.path)-at+1)
		for _, m := range e.path[at:] {
			cycle = append(cycle, e.cellName(m, n.sheet))
		}
		cycle = append(cycle, e.cellName(n, n.sheet))
		return &calcError{why: "it is part of a circular reference (" + strings.Join(cycle, " → ") + ")"}
	}
	cs := e.sheet(n.sheet)
	if cs == nil {
		return nil
	}
	if cs.err != nil {
		return cs.err
	}
	formula, ok := cs.formulas[[2]int{n.col, n.row}]
	if !ok {
		return nil // a value
	}
	if depth > maxCalcDepth {
		return &calcError{why: fmt.Sprintf("it depends on a chain of more than %s formulas", groupDigits(maxCalcDepth)), advise: true}
	}
	e.onPath[n] = len(e.path)
	e.path = append(e.path, n)
	err := e.checkFormula(n.sheet, formula, depth, 0)
	e.path = e.path[:len(e.path)-1]
	delete(e.onPath, n)
	if err != nil && depth > 0 {
		if ce, ok := err.(*calcError); ok && !strings.Contains(ce.why, "circular") && !strings.HasPrefix(ce.why, "it depends on ") {
			err = &calcError{why: "it depends on " + e.cellName(n, "") + ", whose formula =" + clip(formula) + " cannot be computed: " + ce.why, advise: ce.advise, err: ce.err}
		}
	}
	e.checked[n] = err
	return err
}

// checkFormula follows the references of a formula on sheet (or of a
// defined name's formula, nested names deep).
func (e *calcEngine) checkFormula(sheet, formula string, depth, names int) error {
	f := xlformula.Parse(formula)
	if len(f.Unsupported) > 0 {
		return &calcError{why: "it holds " + f.Unsupported[0] + ", which riskbatch does not follow", advise: true}
	}
	for _, fn := range f.Funcs {
		if dynamicFunction(fn) {
			return &calcError{why: "it uses " + fn + ", whose references riskbatch cannot follow", advise: true}
		}
	}
	for _, name := range f.Names {
		def, ok := e.names[sheet+"\x00"+name]
		if !ok {
			def, ok = e.names[name]
		}
		if !ok {
			continue // the engine reports an unknown name (#NAME?)
		}
		if names > 8 {
			return &calcError{why: "its defined names refer to each other too deeply", advise: true}
		}
		if err := e.checkFormula(sheet, def, depth, names+1); err != nil {
			return err
		}
	}
	for _, r := range f.Refs {
		target := sheet
		if r.HasSheet {
			target = r.Sheet
		}
		cs := e.sheet(target)
		if cs == nil {
			continue // no such sheet: the engine reports #REF!
		}
		if cs.err != nil {
			return cs.err
		}
		c1, c2, r1, r2 := r.Col1, r.Col2, r.Row1, r.Row2
		switch r.Kind {
		case xlformula.ColRef:
			r1, r2 = 1, max(cs.maxRow, 1)
		case xlformula.RowRef:
			c1, c2 = 1, max(cs.maxCol, 1)
		}
		c1, c2 = min(c1, c2), max(c1, c2)
		r1, r2 = min(r1, r2), max(r1, r2)
		if cells := int64(c2-c1+1) * int64(r2-r1+1); cells > maxCalcRangeCells {
			return &calcError{why: fmt.Sprintf("it refers to a range of %s cells, more than the %s riskbatch computes", groupDigits(cells), groupDigits(maxCalcRangeCells)), advise: true}
		}
		from := sort.SearchInts(cs.cols, c1)
		for _, col := range cs.cols[from:] {
			if col > c2 {
				break
			}
			rows := cs.rows[col]
			for _, row := range rows[sort.SearchInts(rows, r1):] {
				if row > r2 {
					break
				}
				if err := e.check(calcNode{target, col, row}, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// cellName names a cell, with its sheet when it is not on sheet.
func (e *calcEngine) cellName(n calcNode, sheet string) string {
	if n.sheet == sheet {
		return n.String()
	}
	return quoteSheet(n.sheet) + "!" + n.String()
}

// quoteSheet quotes a sheet name for a formula.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}
