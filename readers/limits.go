package readers

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits bound what one input file may make the readers unpack, parse or
// hold in memory, so that a damaged or hostile file (a zip bomb, a forged
// Parquet footer, a line that never ends) is refused with one clear error
// instead of exhausting memory or time. The defaults (DefaultLimits) are
// far above what real release tables and data sets need: a full Excel
// sheet of 1,048,576 rows and 30 columns passes them.
//
// Each limit has a name, which is also the flag of the riskbatch command
// that sets it (max-cell-bytes: --max-cell-bytes); a *LimitError names it.
// A zero field takes its default; math.MaxInt64 removes the limit.
type Limits struct {
	// CellBytes (max-cell-bytes) is the longest cell: a CSV or TSV field, or
	// the text of an XLSX cell (a number, an inline or shared string).
	// Longer cells are an error for their row only; the row is kept.
	CellBytes int64
	// RowBytes (max-row-bytes) is the longest row: a CSV or TSV record (a
	// line, or several when a quoted field holds line breaks), or the XML
	// of an XLSX row. A longer row ends the table's stream.
	RowBytes int64
	// Columns (max-columns) is the most columns a CSV or TSV header or a
	// Parquet schema may have (an XLSX sheet has at most 16,384).
	Columns int64
	// XLSXSheetBytes (max-xlsx-sheet-bytes) is the most bytes the XML of
	// one worksheet may unpack to. The XML is streamed, never held.
	XLSXSheetBytes int64
	// XLSXPartBytes (max-xlsx-part-bytes) is the most bytes each of the
	// other parts that are read may unpack to: the workbook index, the
	// relationships and the shared strings table, which are held in memory.
	XLSXPartBytes int64
	// XLSXTotalBytes (max-xlsx-total-bytes) is the most bytes the parts
	// read from one workbook may unpack to together, each sheet counted
	// each time the workbook lists it (a sheet not selected is still read
	// up to its header row).
	XLSXTotalBytes int64
	// XLSXRatio (max-xlsx-ratio) is the largest ratio of unpacked to packed
	// size of a part of more than 1 MiB. Spreadsheet applications write
	// ratios of 10 to 30; a zip bomb reaches 1,000.
	XLSXRatio int64
	// XLSXParts (max-xlsx-parts) is the most files the workbook's zip
	// archive may hold, and the most sheets its index may list.
	XLSXParts int64
	// ParquetMetadataBytes (max-parquet-metadata-bytes) is the largest
	// Parquet footer (the file metadata: schema, row groups, column
	// chunks), which is read into memory before any row.
	ParquetMetadataBytes int64
	// ParquetPageBytes (max-parquet-page-bytes) is the most bytes one
	// Parquet page (data or dictionary) may unpack to; a page is unpacked
	// into memory as a whole.
	ParquetPageBytes int64
	// SpoolBytes (max-spool-bytes) is the most bytes of an XLSX or Parquet
	// table that comes as a stream (standard input, a pipe, or
	// decompressed from a .gz, .zst or .bz2 file) may take in the
	// temporary file it is copied to, since both formats are read out of
	// order. A longer stream is refused rather than left to fill the disk.
	SpoolBytes int64
}

// The default limits.
const (
	DefaultCellBytes            = 1 << 20   // 1 MiB; Excel holds at most 32,767 characters in a cell
	DefaultRowBytes             = 2 << 20   // 2 MiB: a CSV record may take 50 times its size in encoding/csv
	DefaultColumns              = 16384     // Excel's widest sheet, column XFD
	DefaultXLSXSheetBytes       = 4 << 30   // 4 GiB: a full sheet of 30 numeric columns is 1–2 GiB of XML
	DefaultXLSXPartBytes        = 256 << 20 // 256 MiB
	DefaultXLSXTotalBytes       = 16 << 30  // 16 GiB
	DefaultXLSXRatio            = 200
	DefaultXLSXParts            = 10000
	DefaultParquetMetadataBytes = 16 << 20  // 16 MiB
	DefaultParquetPageBytes     = 256 << 20 // 256 MiB
	DefaultSpoolBytes           = 16 << 30  // 16 GiB, as DefaultXLSXTotalBytes
)

// ratioGrace is the unpacked size up to which a part's compression ratio
// is not checked: small parts of repetitive XML compress well and are
// harmless.
const ratioGrace = 1 << 20

// DefaultLimits returns the default limits.
func DefaultLimits() Limits {
	return Limits{
		CellBytes:            DefaultCellBytes,
		RowBytes:             DefaultRowBytes,
		Columns:              DefaultColumns,
		XLSXSheetBytes:       DefaultXLSXSheetBytes,
		XLSXPartBytes:        DefaultXLSXPartBytes,
		XLSXTotalBytes:       DefaultXLSXTotalBytes,
		XLSXRatio:            DefaultXLSXRatio,
		XLSXParts:            DefaultXLSXParts,
		ParquetMetadataBytes: DefaultParquetMetadataBytes,
		ParquetPageBytes:     DefaultParquetPageBytes,
		SpoolBytes:           DefaultSpoolBytes,
	}
}

// orDefaults replaces every zero or negative field by its default.
func (l Limits) orDefaults() Limits {
	d := DefaultLimits()
	set := func(v *int64, def int64) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.CellBytes, d.CellBytes)
	set(&l.RowBytes, d.RowBytes)
	set(&l.Columns, d.Columns)
	set(&l.XLSXSheetBytes, d.XLSXSheetBytes)
	set(&l.XLSXPartBytes, d.XLSXPartBytes)
	set(&l.XLSXTotalBytes, d.XLSXTotalBytes)
	set(&l.XLSXRatio, d.XLSXRatio)
	set(&l.XLSXParts, d.XLSXParts)
	set(&l.ParquetMetadataBytes, d.ParquetMetadataBytes)
	set(&l.ParquetPageBytes, d.ParquetPageBytes)
	set(&l.SpoolBytes, d.SpoolBytes)
	return l
}

// The names of the limits (the flags of the riskbatch command).
const (
	limitCellBytes            = "max-cell-bytes"
	limitRowBytes             = "max-row-bytes"
	limitColumns              = "max-columns"
	limitXLSXSheetBytes       = "max-xlsx-sheet-bytes"
	limitXLSXPartBytes        = "max-xlsx-part-bytes"
	limitXLSXTotalBytes       = "max-xlsx-total-bytes"
	limitXLSXRatio            = "max-xlsx-ratio"
	limitXLSXParts            = "max-xlsx-parts"
	limitParquetMetadataBytes = "max-parquet-metadata-bytes"
	limitParquetPageBytes     = "max-parquet-page-bytes"
	limitSpoolBytes           = "max-spool-bytes"
)

// A LimitError reports input that exceeds one of the Limits. Its message
// says what exceeded which limit, and names the flag that raises it.
type LimitError struct {
	// Name is the limit's name, which is also the riskbatch flag that
	// raises it: "max-cell-bytes" for --max-cell-bytes.
	Name string
	// Limit is the limit's value.
	Limit int64
	// What describes the input that exceeds it, e.g. "this cell holds
	// 2,000,000 bytes of text".
	What string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: the limit is %s; if the file is genuine, raise it with --%s", e.What, limitText(e.Name, e.Limit), e.Name)
}

// limitText formats a limit's value in its unit.
func limitText(name string, v int64) string {
	switch {
	case strings.HasSuffix(name, "-bytes"):
		return byteSize(v)
	case name == limitXLSXRatio:
		return groupDigits(v) + " to 1"
	case name == limitColumns:
		return groupDigits(v) + " columns"
	case name == limitXLSXParts:
		return groupDigits(v) + " parts"
	}
	return groupDigits(v)
}

// byteSize formats a number of bytes: in the largest binary unit that
// divides it ("16 MiB"), else in bytes with grouped digits.
func byteSize(n int64) string {
	if n == math.MaxInt64 {
		return "no limit"
	}
	for _, u := range []struct {
		shift uint
		name  string
	}{{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return groupDigits(n>>u.shift) + " " + u.name
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return groupDigits(n) + " bytes"
}

// groupDigits formats an integer with commas between groups of three
// digits: 1048576 → "1,048,576".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// limitError builds a *LimitError.
func limitError(name string, limit int64, format string, args ...any) *LimitError {
	return &LimitError{Name: name, Limit: limit, What: fmt.Sprintf(format, args...)}
}
