package build

// Defaults of Options.
const (
	// DefaultMaxCategories is the most distinct values a column may have
	// to be an attribute by default (Options.MaxCategories = 0).
	DefaultMaxCategories = 50
	// DefaultMinCellCount is the number of records below which a cell of
	// known values is flagged (Options.MinCellCount = 0).
	DefaultMinCellCount = 5
)

// Options choose the attributes, the known columns and the small-count
// handling of Priors. Column names are matched exactly, else ignoring case.
type Options struct {
	// Name prefixes every key ("penguins" in "penguins:Sex"). Empty: the
	// first table's file name without directory and extension, or "data".
	Name string
	// Columns are the attributes reconstructed by exact match, each on its
	// own. Empty: every column (but CountColumn) with at most MaxCategories
	// distinct non-empty values; a column is dropped, its counts freed, as
	// soon as it passes that number.
	Columns []string
	// Joint lists attributes of several columns reconstructed together:
	// the guess is right only when every column is (max-product over the
	// joint distribution, Swanberg et al. 2025).
	Joint [][]string
	// MaxCategories bounds the default attributes (0: DefaultMaxCategories;
	// negative: no bound). Named columns are never bounded.
	MaxCategories int
	// Given are the columns the attacker knows; with them every attribute
	// not among them also gets a conditional prior, one p_i per record.
	Given []string
	// Ordinal are numeric columns reconstructed approximately: a guess z
	// succeeds when |x − z| ≤ Tolerance (BestWindow). Their cells must be
	// numbers, or text that reads as one.
	Ordinal []string
	// Tolerance is E, the L1 tolerance of the Ordinal columns (≥ 0).
	Tolerance float64
	// CountColumn names a column of counts for pre-aggregated input: each
	// row stands for that many records (a whole number ≥ 0; rows of 0 are
	// skipped). Empty: every row is one record.
	CountColumn string
	// MinCellCount flags cells of known values with fewer records
	// (0: DefaultMinCellCount; negative: no flag).
	MinCellCount int
	// Smoothing is the additive (Laplace) smoothing α of exact-match
	// attributes: P(u | k) = (count(k, u) + α)/(n_k + α·m) over the m
	// observed values of the attribute (0: none). It lowers the largest
	// probability, so smoothed p_i are not safe upper bounds (Swanberg et al. 2025:
	// the bounds increase in p_i and hold for any p_i at least the true prior
	// success, §3.3, §7.1); the output says so. Windows are never smoothed.
	Smoothing float64
	// MissingAsValue makes an empty cell of an exact-match attribute a
	// value of its own instead of leaving the record out of that attribute.
	// (A window attribute always leaves out records without a number.)
	MissingAsValue bool
	// ZipfDomain states the domain size N of the Zipf fit of an
	// exact-match attribute (keyed by its name: the column, or the joint's
	// columns separated by ","): a whole number ≥ its observed values, or
	// +Inf. Attributes not listed use the observed number of values.
	ZipfDomain map[string]float64
}
