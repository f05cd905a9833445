// Package testfiles makes the input files that the tests of several
// packages share: zip-bomb workbooks for the limits on hostile input, and
// Parquet files written from Arrow records; and reads back, independently
// of package readers, the CSV files and tables that a test checks.
package testfiles
