// Package resolve reads a row of release parameters into a typed Release:
// the floor between a table's cells and the bounds.
//
// A Resolver holds what reading rows needs beyond the rows: the input
// vocabulary and the mechanisms (package release), the options (prior
// tables, confidence levels, the decimal mark, the loader of the tables
// cells name) and the run's bounded caches of results that are functions
// of their parameters alone (DP-SGD accountants, noise calibrations,
// Gaussian ε(δ), Fano bounds, pmp_data tables). BindHeader binds a table's
// header to the inputs; a Header reads a row's cells (ReadCells, each
// number by the table's number format and within its column's domain) and
// resolves them (Resolve): the mechanism, its trade-off curve, one
// parameter struct per family of mechanisms, what the row says of the
// attack (Attack), or the problems of its cells, each naming its column
// (RowError, CellError).
//
// The rowbridge_*.go files bridge a Release to the bounds the registry's
// columns compute (the one-run tail, the PLD accountant of a DP-SGD row,
// the Fano bounds, PMP from data, the audit bounds); Skip says why a
// column is empty for a row.
package resolve
