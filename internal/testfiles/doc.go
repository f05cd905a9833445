// Package testfiles makes the input files that the tests of several
// packages share: zip-bomb workbooks for the limits on hostile input,
// workbooks rewritten part by part, and Parquet files written from Arrow
// records; and reads back, independently of package readers, workbooks
// (with excelize, or converted by LibreOffice) that a test checks. CSV
// files and tables are read back by package readback below it, which links
// no file format.
//
// The package links Arrow and excelize, so its helpers are tested where
// they are used (readers' tests read its files back): a test of its own
// would be one more binary linking them.
package testfiles
