package writers

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/table"
)

// Excel's limits.
const (
	// MaxCellChars is the most characters (UTF-16 code units) an Excel cell
	// holds; longer text is cut and ends with TruncatedMarker.
	MaxCellChars = excelize.TotalCellChars
	// MaxSheetRows is the most rows of an Excel sheet, the header included;
	// further rows continue on "Results (2)", "Results (3)", ... each with
	// the header repeated.
	MaxSheetRows = excelize.TotalRows
	// TruncatedMarker ends a text cut to MaxCellChars.
	TruncatedMarker = " …[truncated]"
)

// ProbabilityNumFmt is the number format of Probability columns (and of
// the Summary's and the Curves' fractions): four significant digits in
// view, the cell keeping the full value. Below 0.01 (tiny ones included)
// in scientific notation (2.203E-05), below 0.1 with five decimals
// (0.03988), else four (0.5205). No non-zero probability is ever shown as
// 0. The conditions follow a recalculated value.
const ProbabilityNumFmt = "[<0.01]0.000E+00;[<0.1]0.00000;0.0000"

// Cell fills (RGB) of the XLSX output.
const (
	inputHeaderFill   = "D9D9D9" // grey: columns passed through
	outputHeaderFill  = "BDD7EE" // light blue: status, message and outputs
	errorFill         = "FFC7CE" // light red: error rows
	errorFont         = "9C0006"
	partialFill       = "FFEB9C" // light amber: partial rows
	partialFont       = "9C5700"
	commentAuthor     = "riskbatch"
	maxExactInteger   = 1 << 53 // integers beyond are written as text
	minColWidth       = 10
	maxColWidth       = 40
	messageColWidth   = 60
	probabilityWidth  = 12
	generalNumWidth   = 11 // the most characters Excel's General format shows
	widthSampleRows   = 200
	docsMaxColWidth   = 80
	docsPagesWide     = 2 // the Columns sheet's printed width, in pages
	commentWidthPx    = 320
	commentCharsPerLn = 48
)

// xlsxWriter writes an XLSX workbook with excelize's stream writer.
//
// The data sheet (Options.SheetName, "Results" by default) is the first
// and active sheet. Its header row is bold and frozen, with an autofilter
// over the table; input columns have a grey header, status, message and
// output columns a blue one. A header whose Column.Note is not empty
// carries the note as a comment. Numbers are written as numbers, in full
// precision, in the column's format: Probability → ProbabilityNumFmt,
// Count → "0", Real outputs 4 significant digits (realNumFmt), others
// (inputs: as typed) General; integers beyond ±2^53, which Excel cannot
// hold exactly, are written as text. Rows whose status is "error" are
// filled light red across, "partial" rows light amber; the status is
// centred. Text beyond MaxCellChars is truncated (with TruncatedMarker);
// rows beyond MaxSheetRows continue on further sheets, each with the same
// set-up. Options.Docs becomes a "Columns" sheet after the data sheets,
// and a header note that refers to it names the row that documents its
// column.
//
// Column widths come from the header and from the first widthSampleRows
// rows, which are held until the widths are known (the stream writer
// fixes widths before the first row). Options.Outline folds columns into
// collapsed outline groups, decided when a sheet is finished (see
// headWriter). Every sheet prints in landscape, the data sheets one page
// wide at the scale their unfolded columns need, with the header row on
// every page (see printSetup and printScale).
//
// Options.Formulas makes cells live: a cell with a formula is written as
// the formula with the cell's value as its cached result, so a spreadsheet
// shows riskbatch's value and recomputes it when the row's inputs change.
// Options.Shading adds green, amber and red conditional formats;
// Options.Summary and Options.Charts make the Summary sheet, whose charts
// read their data from the Curves sheet.
type xlsxWriter struct {
	lifecycle
	sheetName string
	docs      [][]string
	docsRow   map[string]int // sheet row of the Columns sheet documenting a column
	summary   func() [][]string
	charts    func() *Charts
	formulas  FormulaSource
	numbers   []int // Options.NumberColumns
	shading   *Shading
	maxRows   int // rows per sheet, the header included; set before WriteHeader

	f       *excelize.File
	sw      *excelize.StreamWriter // the current sheet's; nil between sheets
	sheet   string                 // the current sheet's name
	sheets  int                    // data sheets started
	row     int                    // the last row written on the current sheet
	lastCol string                 // letter of the last column

	headerStyle []int    // per column
	colFmt      []string // per column: the number format of its data cells
	real        []bool   // per column: a Real output column (format by value)
	numeric     []bool   // per column: plain numbers in text are numbers
	statusCol   int      // -1 when there is none
	styles      map[styleKey]int
	outline     *Outline
	foldedOut   []bool // the columns of outline.Columns (see alignDistributed)
	wrap        []bool // the columns whose text wraps (sentences)
	filled      []int  // per column: the data rows of the current sheet with a value in it
	count       []int

	shades shadeStyles

	sampling bool            // rows are held in pending until the widths are known
	pending  []pendingRow    // the first rows
	widths   []float64       // per column, from the header and the first rows
	fbuf     []string        // the formulas of the current row
	rowCells *rowCells       // binds the formulas' column names to cells
	cells    []excelize.Cell // reused for every row
	vals     []interface{}
	cut      int64 // cells truncated

	tmpDir    string                // excelize's temporary files, beside the output
	dims      map[string]*sheetHead // placeholder dimension of a data sheet → its used range and columns
	asValues  int64                 // input formulas written as their values
	origin    RowOrigin             // of the row being written
	inputCols []bool                // per column: an input column
}

// pendingRow is a row held until the column widths are known.
type pendingRow struct {
	cells  []table.Cell
	origin RowOrigin
}

func newXLSX(path string, opts Options) (*xlsxWriter, error) {
	name := opts.SheetName
	if name == "" {
		name = DefaultSheetName
	}
	if err := checkSheetName(name); err != nil {
		return nil, fmt.Errorf("writers: %s: sheet name %q: %w", path, name, err)
	}
	if opts.Docs != nil && strings.EqualFold(name, DocsSheetName) {
		return nil, fmt.Errorf("writers: %s: sheet name %q is taken by the column documentation", path, name)
	}
	if (opts.Summary != nil || opts.Charts != nil) && strings.EqualFold(name, SummarySheetName) ||
		opts.Charts != nil && strings.EqualFold(name, CurvesSheetName) {
		return nil, fmt.Errorf("writers: %s: sheet name %q is taken by the summary", path, name)
	}
	out, err := openOutput(path, opts, FormatXLSX)
	if err != nil {
		return nil, err
	}
	// excelize spills a large sheet to temporary files: beside the output,
	// not in the system's temporary folder, so that they count against the
	// output's disk and are found next to it if the run is killed (named
	// like every temporary entry, so that a later run removes them: see
	// removeStale). Close and Abort remove the folder.
	tmp, err := os.MkdirTemp(filepath.Dir(out.f.Name()), tempPattern())
	if err != nil {
		_ = out.abort()
		return nil, fmt.Errorf("writers: creating a temporary folder for %s: %w", path, err)
	}
	return &xlsxWriter{
		tmpDir:    tmp,
		lifecycle: lifecycle{out: out},
		sheetName: name,
		docs:      opts.Docs,
		summary:   opts.Summary,
		charts:    opts.Charts,
		formulas:  opts.Formulas,
		numbers:   opts.NumberColumns,
		shading:   opts.Shading,
		outline:   opts.Outline,
		maxRows:   MaxSheetRows,
		statusCol: -1,
	}, nil
}

// checkSheetName applies Excel's rules for sheet names.
func checkSheetName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("blank")
	case utf16Len(name) > excelize.MaxSheetNameLength:
		return fmt.Errorf("longer than %d characters", excelize.MaxSheetNameLength)
	case strings.HasPrefix(name, "'") || strings.HasSuffix(name, "'"):
		return fmt.Errorf("begins or ends with an apostrophe")
	case strings.ContainsAny(name, `:\/?*[]`):
		return fmt.Errorf(`contains one of : \ / ? * [ ]`)
	}
	return nil
}

// continuationName names the n-th data sheet (n ≥ 2): "Results (2)".
func continuationName(base string, n int) string {
	suffix := " (" + strconv.Itoa(n) + ")"
	base, _ = cutUTF16(base, excelize.MaxSheetNameLength-len(suffix))
	return base + suffix
}

// WriteHeader creates the styles; the data sheet starts once the first
// rows have fixed the column widths.
func (w *xlsxWriter) WriteHeader(cols []table.Column) error {
	if err := w.beginHeader(cols); err != nil {
		return err
	}
	if w.maxRows < 2 || w.maxRows > MaxSheetRows {
		w.maxRows = MaxSheetRows
	}
	if w.shading != nil {
		if err := w.shading.check(len(cols)); err != nil {
			return w.fail(fmt.Errorf("writers: %s: %w", w.out.target, err))
		}
	}
	if w.outline != nil {
		if err := w.outline.check(len(cols)); err != nil {
			return w.fail(fmt.Errorf("writers: %s: %w", w.out.target, err))
		}
	}
	w.f = excelize.NewFile(excelize.Options{TmpDir: w.tmpDir})
	if err := w.setup(); err != nil {
		return w.fail(fmt.Errorf("writers: starting the workbook %s: %w", w.out.target, err))
	}
	w.sampling = true
	return nil
}

// startData fixes the column widths from the header and the rows held so
// far, starts the data sheet and writes those rows.
func (w *xlsxWriter) startData() error {
	w.sampling = false
	w.widths = make([]float64, len(w.cols))
	for i, c := range w.cols {
		w.widths[i] = colWidth(c)
		if sentences(c) {
			continue
		}
		for _, row := range w.pending {
			w.widths[i] = max(w.widths[i], min(float64(w.cellWidth(row.cells[i], i)+2), maxColWidth))
		}
	}
	if err := w.startSheet(); err != nil {
		return err
	}
	for _, row := range w.pending {
		w.origin = row.origin
		if err := w.writeRow(row.cells); err != nil {
			return err
		}
	}
	w.pending = nil
	return nil
}

// Close finishes the sheets, adds the Columns sheet and writes the
// workbook into the temporary file, then renames it into place.
func (w *xlsxWriter) Close() error {
	if err := w.beginClose(); err != nil {
		w.closeFile()
		return err
	}
	err := w.finish()
	w.closeFile()
	if err != nil {
		_ = w.out.abort()
		return err
	}
	return w.out.commit()
}

// finish does the work of Close up to the rename.
func (w *xlsxWriter) finish() error {
	if w.sampling {
		if err := w.startData(); err != nil {
			return err
		}
	}
	if err := w.endSheet(); err != nil {
		return err
	}
	var charts *Charts
	if w.charts != nil {
		if charts = w.charts(); charts != nil && len(charts.Plots)+len(charts.Bars) > 0 {
			if err := charts.check(); err != nil {
				return fmt.Errorf("writers: %s: %w", w.out.target, err)
			}
		} else {
			charts = nil
		}
	}
	if w.summary != nil || charts != nil {
		var rows [][]string
		if w.summary != nil {
			rows = w.summary()
		}
		if err := w.writeTextSheet(SummarySheetName, rows, charts); err != nil {
			return err
		}
	}
	if w.docs != nil {
		if err := w.writeTextSheet(DocsSheetName, w.docs, nil); err != nil {
			return err
		}
		if err := printOnlyWhenAsked(w.f, DocsSheetName); err != nil {
			return fmt.Errorf("writers: %s: print range of sheet %q: %w", w.out.target, DocsSheetName, err)
		}
	}
	if charts != nil && len(charts.Plots) > 0 {
		if err := w.writeCurves(charts); err != nil {
			return err
		}
		if err := printOnlyWhenAsked(w.f, CurvesSheetName); err != nil {
			return fmt.Errorf("writers: %s: print range of sheet %q: %w", w.out.target, CurvesSheetName, err)
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	if err := w.f.SetDocProps(&excelize.DocProperties{
		Creator: commentAuthor, LastModifiedBy: commentAuthor, Created: now, Modified: now,
	}); err != nil {
		return fmt.Errorf("writers: %s: document properties: %w", w.out.target, err)
	}
	if err := markWorkbook(w.f); err != nil {
		return fmt.Errorf("writers: %s: document properties: %w", w.out.target, err)
	}
	// excelize assembles the archive in memory unless it is given a
	// ZipWriter: hand it one that writes straight into the temporary file,
	// so that memory does not grow with the size of the workbook.
	// The used ranges are put in above the mark, so that its fingerprint is
	// of the entries as the archive holds them.
	zs := &zipSink{Writer: zip.NewWriter(w.out.f)}
	w.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return &dimensionZip{ZipWriter: markZip(zs), dims: w.dims} })
	if err := w.f.Write(io.Discard); err != nil {
		return fmt.Errorf("writers: writing the workbook %s: %w", w.out.target, err)
	}
	if !zs.closed {
		return fmt.Errorf("writers: writing the workbook %s: archive not finished", w.out.target)
	}
	if len(zs.big) > 0 {
		if err := markZip64(w.out.f, zs.big); err != nil {
			return fmt.Errorf("writers: writing the workbook %s: %w", w.out.target, err)
		}
	}
	return nil
}

// closeFile releases excelize's temporary files and their folder.
func (w *xlsxWriter) closeFile() {
	if w.f != nil {
		_ = w.f.Close()
		w.f = nil
	}
	if w.tmpDir != "" {
		_ = os.RemoveAll(w.tmpDir)
		w.tmpDir = ""
	}
}

// Abort removes the temporary files.
func (w *xlsxWriter) Abort() error {
	if !w.beginAbort() {
		return nil
	}
	w.closeFile()
	return w.out.abort()
}

// TruncatedCells returns how many cells (headers, data and the Columns
// sheet) were cut to MaxCellChars so far.
func (w *xlsxWriter) TruncatedCells() int64 { return w.cut }

// FormulasAsValues returns how many input formulas were written as their
// values alone, so far (see OriginWriter).
func (w *xlsxWriter) FormulasAsValues() int64 { return w.asValues }
