package formula

// MaxExp is the largest exponent a formula passes to EXP: e^700 ≈
// 1e304 still fits a double, e^710 does not.
const MaxExp = 700

// Gaussian baselines outside [MinQuantile, 1 − MaxQuantileGap]
// are beyond what NORMSINV accepts or resolves.
const (
	MinQuantile    = 1e-300
	MaxQuantileGap = 1e-15
)

// MinGap bounds 1 − x from below where a formula divides by 1 − x
// (1 − baseline, 1 − target_advantage): the cancellation in 1 − x then
// costs at most ~1e-10 absolute. (LibreOffice even rounds a difference of
// nearly equal numbers to 0: 1 − (1 − 1e-15) is 0 there.)
const MinGap = 1e-6

// MaxRecords bounds records in pso_baseline's (1 − w)^(records − 1),
// whose relative error grows as records × 1e-16.
const MaxRecords = 1e6

// Form says how an output column is written in a workbook besides its
// value.
type Form struct {
	// Advantage marks a bound on an attack's advantage (success beyond the
	// baseline), the quantity target_advantage and riskbatch's --threshold
	// are stated in; the workbook shades these cells against them.
	Advantage bool
	// Rows names the rows whose cell is a live formula, for the column's
	// note; empty for a column that is always written as a value because
	// it needs numerical work (root finding, optimisation, convolution).
	Rows string
	// Formula returns the column's spreadsheet formula for one row,
	// without the leading "=", in terms of the row's quantities (see
	// Row), which refer to the row's cells by column name; a failed
	// requirement of x makes it void.
	Formula func(x *Row) string
}

// The rows a formula covers, for the notes. A test checks them against the
// rows that get formulas.
const (
	RowsCurve  = "pure, exponential, approx, laplace and rr rows of one composition, and gaussian, gdp and marginals rows"
	RowsBinary = "pure, exponential, approx and laplace rows of one composition, and gaussian, gdp and marginals rows"
	RowsEps    = "pure, exponential, laplace and rr rows with delta empty, and approx rows of one composition"
	RowsPure   = "pure, exponential, laplace and rr rows with delta empty"
	RowsRho    = "zcdp, gaussian, gdp and marginals rows"
	RowsRDP    = "rdp, zcdp, gaussian, gdp and marginals rows"
	RowsDelta  = "pure, exponential, laplace and rr rows, approx rows of one composition, and gaussian, gdp, marginals, zcdp, rdp and dpsgd rows with a delta"
	RowsAll    = "every row"
)

// Describe says how the column's cells are written in a workbook, for its
// header note and the Columns sheet.
func (s Form) Describe() string {
	if s.Formula == nil {
		return "In the workbook: value (numerical)."
	}
	return "In the workbook: a live formula on " + s.Rows +
		" (with the inputs it needs typed in the row); elsewhere the value."
}
