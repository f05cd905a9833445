// Package testfiles makes the input files that the tests of several
// packages share: zip-bomb workbooks for the limits on hostile input, and
// Parquet files written from Arrow records.
package testfiles
