package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/readers"
)

// limitsCategory groups the limit flags in the help.
const limitsCategory = "Limits on input files (raise one when a genuine file is refused)"

// inputLimit is one of readers.Limits as a flag: its name is the limit's
// name, which the readers' errors give.
type inputLimit struct {
	name  string
	bytes bool // a size in bytes, else a count
	usage string
	field func(*readers.Limits) *int64
}

// inputLimits lists the flags of readers.Limits.
func inputLimits() []inputLimit {
	return []inputLimit{
		{"max-cell-bytes", true, "longest cell: a CSV/TSV field or the text of an XLSX cell (longer: an error for its row)", func(l *readers.Limits) *int64 { return &l.CellBytes }},
		{"max-row-bytes", true, "longest row: a CSV/TSV record, or the XML of an XLSX row", func(l *readers.Limits) *int64 { return &l.RowBytes }},
		{"max-columns", false, "most columns of a CSV/TSV header or a Parquet schema", func(l *readers.Limits) *int64 { return &l.Columns }},
		{"max-xlsx-sheet-bytes", true, "most bytes the XML of one XLSX worksheet may unpack to (it is streamed)", func(l *readers.Limits) *int64 { return &l.XLSXSheetBytes }},
		{"max-xlsx-part-bytes", true, "most bytes another XLSX part may unpack to (shared strings, workbook index: held in memory)", func(l *readers.Limits) *int64 { return &l.XLSXPartBytes }},
		{"max-xlsx-total-bytes", true, "most bytes the parts read from one XLSX workbook may unpack to together", func(l *readers.Limits) *int64 { return &l.XLSXTotalBytes }},
		{"max-xlsx-ratio", false, "largest unpacked-to-packed size ratio of an XLSX part over 1 MiB (spreadsheets: 10 to 30; zip bombs: 1000)", func(l *readers.Limits) *int64 { return &l.XLSXRatio }},
		{"max-xlsx-parts", false, "most files in an XLSX archive, and sheets in its workbook", func(l *readers.Limits) *int64 { return &l.XLSXParts }},
		{"max-parquet-metadata-bytes", true, "largest Parquet footer (the file metadata)", func(l *readers.Limits) *int64 { return &l.ParquetMetadataBytes }},
		{"max-parquet-page-bytes", true, "most bytes one Parquet page may unpack to", func(l *readers.Limits) *int64 { return &l.ParquetPageBytes }},
	}
}

// limitFlags are the flags that set readers.Limits, shared by eval and
// priors; their defaults are readers.DefaultLimits.
func limitFlags() []cli.Flag {
	def := readers.DefaultLimits()
	var flags []cli.Flag
	for _, l := range inputLimits() {
		v := *l.field(&def)
		value := strconv.FormatInt(v, 10)
		usage := l.usage
		if l.bytes {
			value = sizeText(v)
			usage += "; a size such as 512KiB, 16MiB, 2GB"
		}
		flags = append(flags, &cli.StringFlag{Name: l.name, Value: value, Usage: usage + ", or none", Category: limitsCategory})
	}
	return flags
}

// limitsFrom reads the limit flags. An error names the flag.
func limitsFrom(c *cli.Context) (readers.Limits, error) {
	var lim readers.Limits
	for _, l := range inputLimits() {
		if !c.IsSet(l.name) {
			continue // the default
		}
		s := c.String(l.name)
		v, err := parseLimit(s, l.bytes)
		if err != nil {
			return readers.Limits{}, cli.Exit(fmt.Sprintf("--%s: %v", l.name, err), exitUsage)
		}
		*l.field(&lim) = v
	}
	return lim, nil
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

// parseLimit reads a limit: a whole number ≥ 1, for sizes with an
// optional unit ("16MiB", "1.5 GB", "1048576"), or none (no limit).
func parseLimit(s string, size bool) (int64, error) {
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

// sizeText writes a size in the largest binary unit that divides it.
func sizeText(n int64) string {
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
