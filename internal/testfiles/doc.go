// Package testfiles makes the input files that the tests of several
// packages share: zip-bomb workbooks for the limits on hostile input,
// workbooks rewritten part by part, and Parquet files written from Arrow
// records; and reads back, independently of package readers, the CSV
// files, workbooks (with excelize, or converted by LibreOffice) and tables
// that a test checks.
package testfiles
