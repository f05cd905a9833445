// Package build turns data into the attacker priors of package priors:
// it counts the values of attribute columns, row by row, into marginal and
// conditional frequency tables, applies smoothing, finds the best windows
// of ordinal columns, fits Zipf laws, and returns the prior table, the
// frequency table and the summary to write ([Result.Outputs]). It knows no
// file format: it reads rows already opened (priors.Rows), or batches of
// the columns it uses ([Batches]); package priorfiles opens the data files
// and writes the results. The priors, the keys and the tables it writes
// are described in package priors.
//
// # Building priors
//
// [Priors] reads data tables once, in order, and returns a [Result]: a
// frequency table, a summary and a prior table per attribute
// ([Result.Outputs]), which priorfiles.WriteResult writes. A table that
// implements [Batches] (priorfiles reads CSV, TSV and Parquet so) is read
// a batch of rows at a time, only the columns used: the reader numbers
// each column's values ([Values]) without making a cell of each, and
// marginals without known, count or ordinal columns are counted column by
// column; other tables are read row by row. Both ways give the same
// result, to the byte. Memory holds one batch and the
// frequency tables and, when known columns are given, 4 bytes per data row
// (the row's cell of known values; 8 more with a count column) plus one
// bit per row and attribute (whether its value is missing), so that the
// per-record p_i can be written in data order afterwards; it never holds
// the rows themselves. A default attribute is dropped, its counts freed,
// as soon as it has more than MaxCategories values.
//
// # Missing values
//
// An empty cell (a null, an empty or all-space text) in an attribute
// column means the record's value is unknown: by default the record is not
// a target of that attribute and is left out of its distribution (counted
// as "missing" in the summary). With [Options.MissingAsValue] an empty
// cell is a value of its own, shown as an empty value. An empty cell in a
// known (given) column is always a value of its own: the attacker knows
// that the value is missing.
//
// # Values
//
// Cells are compared by their text as package table formats them
// ([table.Cell.String]), with leading and trailing spaces of text removed:
// the Parquet integer 3, the XLSX number 3 and the CSV text "3" are the same
// value. Ordinal (window) columns are compared as numbers.
package build
