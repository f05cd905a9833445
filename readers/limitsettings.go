package readers

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LimitSetting describes one field of Limits as a command-line setting:
// Name is the name the readers' LimitErrors give (and the flag's name),
// Size says whether it is a size in bytes (else a count), and Field
// selects it in a Limits.
type LimitSetting struct {
	Name  string
	Size  bool
	Usage string
	Field func(*Limits) *int64
}

// LimitSettings lists every field of Limits as a setting, so that each
// command offers the same flags.
func LimitSettings() []LimitSetting {
	return []LimitSetting{
		{"max-cell-bytes", true, "longest cell: a CSV/TSV field or the text of an XLSX cell (longer: an error for its row)", func(l *Limits) *int64 { return &l.CellBytes }},
		{"max-row-bytes", true, "longest row: a CSV/TSV record, or the XML of an XLSX row", func(l *Limits) *int64 { return &l.RowBytes }},
		{"max-columns", false, "most columns of a CSV/TSV header or a Parquet schema", func(l *Limits) *int64 { return &l.Columns }},
		{"max-xlsx-sheet-bytes", true, "most bytes the XML of one XLSX worksheet may unpack to (it is streamed)", func(l *Limits) *int64 { return &l.XLSXSheetBytes }},
		{"max-xlsx-part-bytes", true, "most bytes another XLSX part may unpack to (shared strings, workbook index: held in memory)", func(l *Limits) *int64 { return &l.XLSXPartBytes }},
		{"max-xlsx-total-bytes", true, "most bytes the parts read from one XLSX workbook may unpack to together", func(l *Limits) *int64 { return &l.XLSXTotalBytes }},
		{"max-xlsx-ratio", false, "largest unpacked-to-packed size ratio of an XLSX part over 1 MiB (spreadsheets: 10 to 30; zip bombs: 1000)", func(l *Limits) *int64 { return &l.XLSXRatio }},
		{"max-xlsx-parts", false, "most files in an XLSX archive, and sheets in its workbook", func(l *Limits) *int64 { return &l.XLSXParts }},
		{"max-parquet-metadata-bytes", true, "largest Parquet footer (the file metadata)", func(l *Limits) *int64 { return &l.ParquetMetadataBytes }},
		{"max-parquet-page-bytes", true, "most bytes one Parquet page may unpack to", func(l *Limits) *int64 { return &l.ParquetPageBytes }},
		{"max-spool-bytes", true, "most bytes of an XLSX or Parquet table read from standard input, a pipe or a compressed file, which is held in a temporary file", func(l *Limits) *int64 { return &l.SpoolBytes }},
	}
}

// byteUnit is the number of bytes of a unit of size: decimal (kB, MB, GB,
// TB) or binary (KiB, MiB, GiB, TiB), in lower case.
func byteUnit(u string) (int64, bool) {
	switch u {
	case "", "b":
		return 1, true
	case "kb":
		return 1e3, true
	case "mb":
		return 1e6, true
	case "gb":
		return 1e9, true
	case "tb":
		return 1e12, true
	case "kib":
		return 1 << 10, true
	case "mib":
		return 1 << 20, true
	case "gib":
		return 1 << 30, true
	case "tib":
		return 1 << 40, true
	}
	return 0, false
}

// ParseLimit reads a limit: a whole number ≥ 1, for sizes with an
// optional unit ("16MiB", "1.5 GB", "1048576"), or none (no limit).
func ParseLimit(s string, size bool) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "none" || t == "unlimited" {
		return math.MaxInt64, nil
	}
	want := "a whole number ≥ 1, or none"
	if size {
		want = "a size such as 1048576, 512KiB, 16MiB or 2GB, or none"
	}
	num := strings.TrimRight(t, "abcdefghijklmnopqrstuvwxyz ")
	unit := strings.TrimSpace(t[len(num):])
	mult, ok := byteUnit(unit)
	if (!size && unit != "") || !ok || num == "" {
		return 0, fmt.Errorf("%q is not %s", s, want)
	}
	if n, err := strconv.ParseInt(strings.ReplaceAll(num, "_", ""), 10, 64); err == nil {
		if n < 1 {
			return 0, fmt.Errorf("%q is not %s", s, want)
		}
		if n > math.MaxInt64/mult {
			return math.MaxInt64, nil
		}
		return n * mult, nil
	}
	if !size {
		return 0, fmt.Errorf("%q is not %s", s, want)
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || !(x*float64(mult) >= 1) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not %s", s, want)
	}
	if v := x * float64(mult); v < math.MaxInt64 {
		return int64(v), nil
	}
	return math.MaxInt64, nil
}

// FormatSize writes a size in the largest binary unit that divides it.
func FormatSize(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
