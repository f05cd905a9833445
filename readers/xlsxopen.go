package readers

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// Opening a workbook: its archive, and the selection of its sheets
// (Options.Sheet, else every sheet whose header Options.Accept approves).

// workbook is what the sheets of one workbook share.
type workbook struct {
	name     string // file name as given
	lim      Limits
	sst      []string
	sstLong  map[int]int64 // shared strings longer than lim.CellBytes: their lengths
	styles   *styles       // nil when the workbook has no styles part
	date1904 bool          // serial numbers count days from 1904-01-01
	refs     []sheetRef
	zr       *zip.Reader
	r        io.ReaderAt
	size     int64
	calc     *calcEngine
	closer   *sharedCloser
}

// hasSheet reports whether the workbook lists a sheet of that name (under
// case folding, as sheet names compare).
func (wb *workbook) hasSheet(name string) bool {
	_, ok := findSheet(wb.refs, name)
	return ok
}

// wbCloser releases what a workbook holds when its last table is closed:
// the calculation engine and the file.
type wbCloser struct {
	wb *workbook
	c  io.Closer
}

func (c wbCloser) Close() error {
	c.wb.calc.close()
	if c.c == nil {
		return nil
	}
	return c.c.Close()
}

// sheetRef is a sheet listed in the workbook.
type sheetRef struct {
	name string
	part *zip.File // nil when the relationship does not resolve
}

// openXLSX lists the workbook's sheets and opens those selected.
func openXLSX(name string, r io.ReaderAt, size int64, closer io.Closer, opts Options) ([]Table, error) {
	zr, parts, err := openArchive(name, r, size, opts.Limits)
	if err != nil {
		return nil, err
	}
	// The parts read, each sheet counted once (whether selected or only
	// opened for its header), may unpack to Limits.XLSXTotalBytes together:
	// this also bounds a workbook that lists one sheet many times.
	budget := &partBudget{file: name, limit: opts.Limits.XLSXTotalBytes}
	wb, err := readIndex(name, parts, budget, opts.Limits)
	if err != nil {
		return nil, err
	}
	wb.zr, wb.r, wb.size = zr, r, size
	wb.calc = &calcEngine{wb: wb}
	// The calculation engine, if a formula opened it, is released with the
	// last table, or here when no table is returned.
	ok := false
	defer func() {
		if !ok {
			wb.calc.close()
		}
	}()
	var out []*xlsxSheet
	if opts.Sheet != "" {
		out, err = namedSheet(wb, opts, budget)
	} else {
		out, err = acceptedSheets(wb, opts, budget)
	}
	if err != nil {
		return nil, err
	}
	wb.closer = newSharedCloser(wbCloser{wb: wb, c: closer}, len(out))
	ok = true
	tables := make([]Table, len(out))
	for i, t := range out {
		tables[i] = t
	}
	return tables, nil
}

// openArchive opens the workbook's zip archive, refusing an OLE2 file (an
// encrypted or legacy workbook), an archive of more than lim.XLSXParts
// files and a zip container of another kind (a document, a presentation).
func openArchive(name string, r io.ReaderAt, size int64, lim Limits) (*zip.Reader, map[string]*zip.File, error) {
	if isOLE2(r) {
		return nil, nil, fileError(name, errors.New(oleMessage(name)))
	}
	// The number of files is checked before archive/zip reads the central
	// directory, which it holds in memory.
	if n, ok := zipEntries(r, size); ok && n > uint64(lim.XLSXParts) {
		return nil, nil, fileError(name, limitError(limitXLSXParts, lim.XLSXParts, "the workbook's archive holds %s files", groupDigits(clampInt64(n))))
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		return nil, nil, fileError(name, fmt.Errorf("not an XLSX workbook (it is not a zip archive): %w", err))
	}
	if int64(len(zr.File)) > lim.XLSXParts {
		return nil, nil, fileError(name, limitError(limitXLSXParts, lim.XLSXParts, "the workbook's archive holds %s files", groupDigits(int64(len(zr.File)))))
	}
	parts := zipParts(zr)
	if kind := zipKind(zr, parts); kind != zipXLSX && kind != zipOther {
		return nil, nil, fileError(name, errors.New(containerMessage(kind)))
	}
	return zr, parts, nil
}

// damaged is the error of a workbook whose index cannot be read: a
// *LimitError as it is, any other error as damage.
func damaged(name string, err error) error {
	var le *LimitError
	if errors.As(err, &le) {
		return fileError(name, err)
	}
	return fileError(name, fmt.Errorf("not a readable XLSX workbook: %w", err))
}

// namedSheet opens the sheet Options.Sheet names, whatever its header.
func namedSheet(wb *workbook, opts Options, budget *partBudget) ([]*xlsxSheet, error) {
	ref, ok := findSheet(wb.refs, opts.Sheet)
	if !ok {
		names := make([]string, len(wb.refs))
		for i, r := range wb.refs {
			names[i] = strconv.Quote(r.name)
		}
		return nil, &table.Error{
			Pos: table.Position{File: wb.name, Column: -1},
			Err: fmt.Errorf("there is no sheet named %q; the workbook's sheets are %s", opts.Sheet, strings.Join(names, ", ")),
		}
	}
	t, err := openSheet(wb, ref, opts.Known, budget)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, &table.Error{Pos: table.Position{File: wb.name, Sheet: ref.name, Column: -1}, Err: errors.New("the sheet is empty: it has no header row")}
	}
	if opts.ColumnKinds {
		if err := t.findKinds(); err != nil {
			return nil, err
		}
	}
	return []*xlsxSheet{t}, nil
}

// acceptedSheets opens every sheet whose header Options.Accept approves,
// in workbook order; it fails when there is none, listing the sheets.
func acceptedSheets(wb *workbook, opts Options, budget *partBudget) ([]*xlsxSheet, error) {
	var out []*xlsxSheet
	var seen []string
	for _, ref := range wb.refs {
		t, err := openSheet(wb, ref, opts.Known, budget)
		if err != nil {
			return nil, err
		}
		if t == nil {
			seen = append(seen, fmt.Sprintf("%q (empty)", ref.name))
			continue
		}
		header := make([]string, len(t.cols))
		for i, c := range t.cols {
			header[i] = c.Name
		}
		if opts.Accept != nil && !opts.Accept(header) {
			seen = append(seen, fmt.Sprintf("%q (header: %s)", ref.name, clipList(header, 8)))
			continue
		}
		if opts.ColumnKinds {
			if err := t.findKinds(); err != nil {
				return nil, err
			}
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		what := "no sheet has a header row with known columns"
		if len(wb.refs) == 0 {
			what = "the workbook has no sheets"
		}
		if len(seen) > 0 {
			what += "; the sheets are " + strings.Join(seen, ", ")
		}
		return nil, fileError(wb.name, errors.New(what))
	}
	return out, nil
}

// findSheet finds a sheet by exact name, else by name under case folding.
func findSheet(refs []sheetRef, name string) (sheetRef, bool) {
	for _, r := range refs {
		if r.name == name {
			return r, true
		}
	}
	for _, r := range refs {
		if strings.EqualFold(r.name, name) {
			return r, true
		}
	}
	return sheetRef{}, false
}

// clipList formats at most n names.
func clipList(names []string, n int) string {
	q := make([]string, 0, min(len(names), n)+1)
	for i, s := range names {
		if i == n {
			q = append(q, fmt.Sprintf("… (%d more)", len(names)-n))
			break
		}
		q = append(q, strconv.Quote(clip(s)))
	}
	return strings.Join(q, ", ")
}
