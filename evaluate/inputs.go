package evaluate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Field identifies one input column of the contract.
type Field int

// The input columns, in the order the contract lists them.
const (
	FieldID Field = iota
	FieldMechanism
	FieldEpsilon
	FieldDelta
	FieldSigma
	FieldSensitivity
	FieldMu
	FieldLaplaceScale
	FieldRho
	FieldRDPOrder
	FieldRDPEpsilon
	FieldNoiseMultiplier
	FieldSampleRate
	FieldSteps
	FieldExtraStages
	FieldRRCategories
	FieldMarginalK
	FieldColumnsTotal
	FieldColumnsUnknown
	FieldCompositions
	FieldBaseline
	FieldCandidates
	FieldPrior
	FieldTargets
	FieldSuccesses
	FieldConfidence
	FieldTolerance
	FieldTargetAdvantage
	FieldRecords
	FieldPredicateWeight
	FieldPMPData
	numFields
)

// Domain is the set of valid values of a numeric input: an interval whose
// ends may be open, optionally restricted to whole numbers.
type Domain struct {
	Min, Max         float64
	MinOpen, MaxOpen bool
	Integer          bool
}

// Contains reports whether v is a valid value.
func (d Domain) Contains(v float64) bool {
	if v < d.Min || v > d.Max || (d.MinOpen && v == d.Min) || (d.MaxOpen && v == d.Max) {
		return false
	}
	return !d.Integer || v == math.Trunc(v)
}

// String describes the domain for a person: "a number in [0, 1)",
// "a whole number ≥ 2".
func (d Domain) String() string {
	what := "a number"
	if d.Integer {
		what = "a whole number"
	}
	lo, hi := math.IsInf(d.Min, -1), math.IsInf(d.Max, 1)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch {
	case lo && hi:
		return what
	case hi && d.MinOpen:
		return what + " > " + f(d.Min)
	case hi:
		return what + " ≥ " + f(d.Min)
	case lo && d.MaxOpen:
		return what + " < " + f(d.Max)
	case lo:
		return what + " ≤ " + f(d.Max)
	}
	l, r := "[", "]"
	if d.MinOpen {
		l = "("
	}
	if d.MaxOpen {
		r = ")"
	}
	return what + " in " + l + f(d.Min) + ", " + f(d.Max) + r
}

// InputColumn describes one input column of the contract.
type InputColumn struct {
	Field   Field
	Name    string   // the contract's name
	Aliases []string // other accepted headers (after canonicalisation)
	Meaning string
	Text    bool   // a text column (not parsed as a number)
	Domain  Domain // valid values of a numeric column
	// Percent marks the columns that hold a probability, which may be
	// written as a percentage ("5%" is 0.05). In any other column a
	// percentage is an error: 5% of an ε, a σ or a count means nothing.
	Percent bool
	// Defines marks the columns that define a mechanism's privacy
	// parameters; filling them selects (or contradicts) a mechanism.
	Defines bool
}

// inputColumns lists the contract's input columns. It is a function, not a
// package variable, so that callers cannot change the vocabulary.
func inputColumns() []InputColumn {
	nonNegative := Domain{Min: 0, Max: math.Inf(1)}
	positive := Domain{Min: 0, Max: math.Inf(1), MinOpen: true}
	probability := Domain{Min: 0, Max: 1}
	wholeFrom := func(n float64) Domain { return Domain{Min: n, Max: math.Inf(1), Integer: true} }
	return []InputColumn{
		{Field: FieldID, Name: "id", Text: true, Meaning: "optional row label, passed through"},
		{Field: FieldMechanism, Name: "mechanism", Text: true, Meaning: "pure, approx, gaussian, gdp, laplace, zcdp, rdp, rr, dpsgd, marginals or exponential; inferred from the filled columns when empty (exponential only when named)"},
		{Field: FieldEpsilon, Name: "epsilon", Aliases: []string{"eps"}, Domain: nonNegative, Defines: true, Meaning: "ε of an (ε, δ)-DP guarantee"},
		{Field: FieldDelta, Name: "delta", Domain: Domain{Min: 0, Max: 1, MaxOpen: true}, Percent: true, Meaning: "δ of an (ε, δ)-DP guarantee (empty or 0: pure ε-DP); for Gaussian rows, the δ at which ε is reported"},
		{Field: FieldSigma, Name: "sigma", Aliases: []string{"noise_std", "noise_stddev"}, Domain: positive, Defines: true, Meaning: "standard deviation of Gaussian noise"},
		{Field: FieldSensitivity, Name: "sensitivity", Domain: positive, Meaning: "L2 sensitivity of the query for sigma, L1 for laplace_scale (default 1)"},
		{Field: FieldMu, Name: "mu", Domain: nonNegative, Defines: true, Meaning: "μ of μ-Gaussian DP"},
		{Field: FieldLaplaceScale, Name: "laplace_scale", Aliases: []string{"laplace_b"}, Domain: positive, Defines: true, Meaning: "scale b of Laplace noise"},
		{Field: FieldRho, Name: "rho", Domain: nonNegative, Defines: true, Meaning: "ρ of ρ-zCDP"},
		{Field: FieldRDPOrder, Name: "rdp_order", Aliases: []string{"rdp_alpha"}, Domain: Domain{Min: 1, Max: math.Inf(1), MinOpen: true}, Defines: true, Meaning: "order α of a Rényi-DP guarantee"},
		{Field: FieldRDPEpsilon, Name: "rdp_epsilon", Aliases: []string{"rdp_eps"}, Domain: nonNegative, Defines: true, Meaning: "ε_α of a Rényi-DP guarantee"},
		{Field: FieldNoiseMultiplier, Name: "noise_multiplier", Domain: positive, Defines: true, Meaning: "DP-SGD noise multiplier (noise std / clipping norm)"},
		{Field: FieldSampleRate, Name: "sample_rate", Aliases: []string{"sampling_rate"}, Domain: Domain{Min: 0, Max: 1, MinOpen: true}, Defines: true, Percent: true, Meaning: "DP-SGD Poisson sampling probability"},
		{Field: FieldSteps, Name: "steps", Aliases: []string{"num_steps"}, Domain: wholeFrom(1), Defines: true, Meaning: "DP-SGD number of steps"},
		{Field: FieldExtraStages, Name: "extra_stages", Aliases: []string{"more_stages"}, Text: true, Meaning: "further stages of a dpsgd row, composed with its own (noise_multiplier, sample_rate, steps): \"σ, q, steps\" per stage, stages separated by \";\" (\"8, 1, 2\" is two releases of the plain Gaussian mechanism with σ = 8); fdp_noise_for_target calibrates the row's own stage with these fixed"},
		{Field: FieldRRCategories, Name: "rr_categories", Domain: wholeFrom(2), Defines: true, Meaning: "k for k-ary randomized response (with epsilon)"},
		{Field: FieldMarginalK, Name: "marginal_k", Domain: wholeFrom(1), Defines: true, Meaning: "k of noisy k-way marginals"},
		{Field: FieldColumnsTotal, Name: "columns_total", Domain: wholeFrom(1), Defines: true, Meaning: "d, number of attributes of the marginals release"},
		{Field: FieldColumnsUnknown, Name: "columns_unknown", Domain: wholeFrom(0), Defines: true, Meaning: "d′, number of attributes unknown to the attacker"},
		{Field: FieldCompositions, Name: "compositions", Domain: wholeFrom(1), Meaning: "number of times the mechanism is composed (default 1)"},
		{Field: FieldBaseline, Name: "baseline", Aliases: []string{"kappa"}, Domain: probability, Percent: true, Meaning: "prior success probability of the best a-priori attack"},
		{Field: FieldCandidates, Name: "candidates", Domain: wholeFrom(2), Meaning: "size M of a uniform candidate set (baseline = 1/M)"},
		{Field: FieldPrior, Name: "prior", Text: true, Meaning: "key into a prior table, or uniform(M), zipf(s, N), zipf(s, N, rank)"},
		{Field: FieldTargets, Name: "targets", Domain: wholeFrom(1), Meaning: "n, number of target records for the one-run tail bound"},
		{Field: FieldSuccesses, Name: "successes", Domain: wholeFrom(0), Meaning: "v, for the probability of at least v successes"},
		{Field: FieldConfidence, Name: "confidence", Domain: Domain{Min: 0, Max: 1, MinOpen: true, MaxOpen: true}, Percent: true, Meaning: "per-row override of --confidence"},
		{Field: FieldTolerance, Name: "tolerance", Domain: nonNegative, Meaning: "L1 error E allowed for approximate reconstruction"},
		{Field: FieldTargetAdvantage, Name: "target_advantage", Domain: probability, Percent: true, Meaning: "risk target for the inverse columns"},
		{Field: FieldRecords, Name: "records", Domain: wholeFrom(2), Meaning: "n, dataset size for predicate singling out (PSO)"},
		{Field: FieldPredicateWeight, Name: "w", Aliases: []string{"predicate_weight"}, Domain: probability, Percent: true, Meaning: "weight w of the attacker's predicate (singling out: w ≤ 1/records)"},
		{Field: FieldPMPData, Name: "pmp_data", Aliases: []string{"parent_set"}, Text: true, Meaning: "a table (CSV, TSV, XLSX or Parquet file, named relative to the folder of the input file, which it may not leave unless --data-dir allows another folder) of the attacker's parent set X of 2n records, one row per record: for gaussian rows the record's query vector f(x), for exponential rows its loss for each candidate output (one column per output); columns named id, record or name are labels; a small parent set may be written in the cell, records separated by \";\" and values by \",\" (\"0.1, 0.2; 0.4, 0.1\")"},
	}
}

// greekNames maps Greek letters (and the micro sign, which keyboards type for μ)
// to the names the contract uses, so that "ε" and "epsilon" are the same
// header.
var greekNames = strings.NewReplacer(
	"ε", "epsilon", "ϵ", "epsilon", "δ", "delta", "μ", "mu", "µ", "mu",
	"ρ", "rho", "σ", "sigma", "α", "alpha", "κ", "kappa",
)

// CanonicalName folds a header for matching: lower case, Greek letters
// spelled out, runs of spaces, '-' and '_' made one '_', and the ends
// trimmed. "Target Advantage", "target-advantage" and "TARGET_ADVANTAGE"
// all become "target_advantage"; "ε" becomes "epsilon".
func CanonicalName(header string) string {
	s := greekNames.Replace(strings.ToLower(strings.TrimSpace(header)))
	var b strings.Builder
	b.Grow(len(s))
	sep := false
	for _, r := range s {
		// Every kind of space separates words (a CR or NBSP from an
		// export too), so that the result is a fixed point.
		if unicode.IsSpace(r) || r == '-' || r == '_' {
			sep = b.Len() > 0
			continue
		}
		if sep {
			b.WriteByte('_')
			sep = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Vocabulary matches headers to the contract's input columns.
type Vocabulary struct {
	columns []InputColumn
	byName  map[string]Field
}

// NewVocabulary returns the contract's input vocabulary.
func NewVocabulary() *Vocabulary {
	cols := inputColumns()
	v := &Vocabulary{columns: cols, byName: make(map[string]Field, 2*len(cols))}
	for _, c := range cols {
		v.byName[CanonicalName(c.Name)] = c.Field
		for _, a := range c.Aliases {
			v.byName[CanonicalName(a)] = c.Field
		}
	}
	return v
}

// Columns returns the input columns in contract order.
func (v *Vocabulary) Columns() []InputColumn { return v.columns }

// Column returns the description of one field.
func (v *Vocabulary) Column(f Field) InputColumn { return v.columns[f] }

// Lookup returns the field a header names.
func (v *Vocabulary) Lookup(header string) (Field, bool) {
	f, ok := v.byName[CanonicalName(header)]
	return f, ok
}

// Recognizes reports whether a header row names at least one column that
// describes a release (anything but id), which is how riskbatch picks the
// sheets of a workbook to evaluate.
func (v *Vocabulary) Recognizes(header []string) bool {
	for _, h := range header {
		if f, ok := v.Lookup(h); ok && f != FieldID {
			return true
		}
	}
	return false
}

// DuplicateColumnError reports two headers that name the same input.
type DuplicateColumnError struct {
	Field        string
	First, Again int // 0-based column indexes
	FirstName    string
	AgainName    string
}

func (e *DuplicateColumnError) Error() string {
	return fmt.Sprintf("columns %q and %q both name the input %s; keep one", e.FirstName, e.AgainName, e.Field)
}
