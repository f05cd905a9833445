package resolve

// Need is a set of inputs an output column requires.
type Need uint8

// The inputs an output column may need.
const (
	// NeedBaseline: a baseline, from baseline, candidates (1/M) or prior
	// (its largest p).
	NeedBaseline Need = 1 << iota
	// NeedDelta: a δ > 0 at which to convert a mechanism without a native
	// ε (gaussian, gdp, marginals, zcdp, rdp, dpsgd) to (ε, δ)-DP.
	NeedDelta
)

// Skip says why a column is empty for a row, in one of the ways Applies
// describes: silent (the column does not apply, or the row did not ask for
// it), need (the row lacks an input it requires: partial), fault (an input
// the row has cannot be used: partial), or why alone (the bound is not
// defined for the row's values: the status is unchanged).
type Skip struct {
	Why    string
	Silent bool
	Need   Need
	Fault  bool
	// Unused marks a why about an input the row filled that the column
	// cannot use for this row (pmp_data with compositions): the status is
	// unchanged, and the message gives it early.
	Unused bool
	// Bare marks a why or note that names the input it is about
	// ("pmp_data: …"): the message gives it without the column names.
	Bare bool
	// Note is a warning about a value that is written: the row keeps its
	// status and the message says it, once for the columns that share it.
	Note string
}

func (s Skip) OK() bool { return s.Why == "" && !s.Silent && s.Need == 0 }
