// Package formula writes the output columns of a row as spreadsheet
// formulas: live workbooks. An output column whose bound has a closed form that a
// spreadsheet computes with its own functions (EXP, LN, NORMSDIST, …) is
// written as a formula over the row's input cells, with riskbatch's value
// as the formula's cached result: the workbook opens showing riskbatch's
// numbers and recomputes them when an analyst edits ε, δ, σ or the
// baseline. The formula of a column lives on its registry entry
// (OutputColumn.Sheet); SheetBinding writes it for one row at a time, in
// terms of the row's columns by name, as Excel's structured references to
// a table row do ([@epsilon], see xlformula.ThisRow). Where the columns and
// the row land on a sheet is the workbook writer's business: it binds
// each name to its cell.
//
// A formula is written for a row only when all of these hold:
//
//   - the row's status is ok or partial and the cell has a value;
//   - every input the value depends on is a cell of the row that the
//     formula references (a baseline typed as baseline or as candidates,
//     not derived from a prior; a Gaussian μ from sigma and sensitivity or
//     from mu, not both; no compositions where the formula has none), and
//     each referenced cell holds a number (or text that is a plain decimal
//     number, which the workbook writes as a number: see NumberColumns);
//   - the inputs lie where spreadsheet arithmetic is safe: ε ≤ 700 (e^ε
//     overflows near 709.8), baselines of Gaussian curves in
//     [1e-300, 1 − 1e-15] (the domain of NORMSINV), and the ranges named
//     on each formula where a spreadsheet would lose precision.
//
// Everywhere else the cell holds the value alone. The formulas reproduce
// riskbatch's values to 1e-9 absolute (riskbatch rounds its upper bounds
// up by a few ulps and computes tails without cancellation; a spreadsheet
// that recalculates may differ in the last digits).
//
// The formulas use only functions of Excel 2007's file format, which every
// spreadsheet reads by their plain names: the normal distribution is
// NORMSDIST(x) and NORMSINV(p), not NORM.S.DIST(x,TRUE) and NORM.S.INV(p).
// Those two are Excel 2010 functions, which a file must name
// _xlfn.NORM.S.DIST and _xlfn.NORM.S.INV; and Gnumeric (1.12) has no
// NORM.S.DIST under either name (#NAME? once it recalculates). They are
// the same functions: Excel 2010 gave NORMSDIST and NORMSINV the improved
// algorithms of their new names (Microsoft, "What's new: changes made to
// Excel functions"), and LibreOffice computes both pairs with the same
// code.
package formula
