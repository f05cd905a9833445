package release

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
	// The inputs of an audit row (columns_audit.go): the method, the
	// attack's counts and the test's significance.
	FieldAudit
	FieldCanaries
	FieldGuesses
	FieldCorrect
	FieldOptions
	FieldNumTests
	FieldSignificance
	FieldAuditBound
	FieldCalibration
	FieldBatchSize
	FieldDatasetSize
	FieldEpochs
	FieldDataset
	FieldReportDelta
	// The goal seek of a dataset (docs/datasets.md): a target on its
	// total, and the one parameter of a member row to solve for.
	FieldDatasetTargetAdvantage
	FieldDatasetTargetSuccess
	FieldDatasetTargetEpsilon
	FieldSolve
	// NumFields is the number of input fields: not a field, the bound of
	// the enumeration (a Field f is one when 0 <= f < NumFields).
	NumFields
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
	// Brief is the column's summary in the table of input columns of
	// docs/inputs.md (InputColumnsMarkdown): columns one after another with the
	// same Brief share a row; a column without one gets its Meaning.
	Brief  string
	Text   bool   // a text column (not parsed as a number)
	Domain Domain // valid values of a numeric column
	// Percent marks the columns that hold a probability, which may be
	// written as a percentage ("5%" is 0.05). In any other column a
	// percentage is an error: 5% of an ε, a σ or a count means nothing.
	Percent bool
	// Defines marks the columns that define a mechanism's privacy
	// parameters; filling them selects (or contradicts) a mechanism.
	Defines bool
	// Choices are the values a text column accepts (a drop-down in the
	// template), when it accepts only a few; nil for free text.
	Choices []string
}

// InputColumns lists the contract's input columns. It is a function, not a
// package variable, so that callers cannot change the vocabulary.
func InputColumns() []InputColumn {
	nonNegative := Domain{Min: 0, Max: math.Inf(1)}
	positive := Domain{Min: 0, Max: math.Inf(1), MinOpen: true}
	probability := Domain{Min: 0, Max: 1}
	wholeFrom := func(n float64) Domain { return Domain{Min: n, Max: math.Inf(1), Integer: true} }
	return []InputColumn{
		{Field: FieldID, Name: "id", Brief: "optional label, passed through", Text: true, Meaning: "optional row label, passed through"},
		{Field: FieldMechanism, Name: "mechanism", Brief: "`pure`, `approx`, `gaussian`, `gdp`, `laplace`, `zcdp`, `rdp`, `rr`, `dpsgd`, `marginals`, `exponential` (the ε-DP exponential mechanism, named only). If empty, riskbatch infers the mechanism from the filled columns. An ambiguous or contradictory row is an error for that row only.", Text: true, Meaning: "pure, approx, gaussian, gdp, laplace, zcdp, rdp, rr, dpsgd, marginals or exponential; inferred from the filled columns when empty (exponential only when named)"},
		{Field: FieldEpsilon, Name: "epsilon", Brief: inputEpsilonBrief, Aliases: []string{"eps"}, Domain: nonNegative, Defines: true, Meaning: "ε of an (ε, δ)-DP guarantee; on laplace rows it gives the scale b = sensitivity/ε, on gaussian rows (with delta) the σ calibrated to (ε, δ)"},
		{Field: FieldDelta, Name: "delta", Brief: inputEpsilonBrief, Domain: Domain{Min: 0, Max: 1, MaxOpen: true}, Percent: true, Meaning: deltaMeaning},
		{Field: FieldSigma, Name: "sigma", Brief: inputSigmaBrief, Aliases: []string{"noise_std", "noise_stddev"}, Domain: positive, Defines: true, Meaning: "standard deviation of Gaussian noise"},
		{Field: FieldSensitivity, Name: "sensitivity", Brief: inputSigmaBrief, Domain: positive, Meaning: "L2 sensitivity of the query for sigma, L1 for laplace_scale (default 1)"},
		{Field: FieldMu, Name: "mu", Brief: "μ-Gaussian DP", Domain: nonNegative, Defines: true, Meaning: "μ of μ-Gaussian DP"},
		{Field: FieldLaplaceScale, Name: "laplace_scale", Brief: "Laplace noise scale b (with `sensitivity`): ε = sensitivity/b, exact Laplace curve", Aliases: []string{"laplace_b"}, Domain: positive, Defines: true, Meaning: "scale b of Laplace noise"},
		{Field: FieldRho, Name: "rho", Brief: "ρ-zCDP: the optimal conversion of Rényi DP to a trade-off curve, over all orders", Domain: nonNegative, Defines: true, Meaning: "ρ of ρ-zCDP"},
		{Field: FieldRDPOrder, Name: "rdp_order", Brief: inputRdpOrderBrief, Aliases: []string{"rdp_alpha"}, Domain: Domain{Min: 1, Max: math.Inf(1), MinOpen: true}, Defines: true, Meaning: "order α of a Rényi-DP guarantee"},
		{Field: FieldRDPEpsilon, Name: "rdp_epsilon", Brief: inputRdpOrderBrief, Aliases: []string{"rdp_eps"}, Domain: nonNegative, Defines: true, Meaning: "ε_α of a Rényi-DP guarantee"},
		{Field: FieldNoiseMultiplier, Name: "noise_multiplier", Brief: inputNoiseMultiplierBrief, Domain: positive, Defines: true, Meaning: "DP-SGD noise multiplier (noise std / clipping norm)"},
		{Field: FieldSampleRate, Name: "sample_rate", Brief: inputNoiseMultiplierBrief, Aliases: []string{"sampling_rate"}, Domain: Domain{Min: 0, Max: 1, MinOpen: true}, Defines: true, Percent: true, Meaning: "DP-SGD Poisson sampling probability"},
		{Field: FieldSteps, Name: "steps", Brief: inputNoiseMultiplierBrief, Aliases: []string{"num_steps"}, Domain: wholeFrom(1), Defines: true, Meaning: "DP-SGD number of steps"},
		{Field: FieldExtraStages, Name: "extra_stages", Brief: "further releases composed with the row's own, stages separated by `;`: a mechanism and a count, `laplace(5)x10; gaussian(2)x3` (also `gaussian(σ, Δ)`, `gdp(μ)`, `laplace(b, Δ)`, `rr(ε, k)`, `pure(ε)`, `approx(ε, δ)`, `dpsgd(σ, q)`), or a DP-SGD stage `σ, q, steps` (`8, 1, 2` is two releases of the plain Gaussian mechanism with σ = 8). Composed exactly (PLD accountant; error in `fdp_composition_error`). `fdp_noise_for_target` calibrates a dpsgd row's own stage with these fixed", Aliases: []string{"more_stages"}, Text: true, Meaning: "further releases composed with the row's own (its mechanism, compositions times; for dpsgd its noise_multiplier, sample_rate, steps): stages separated by \";\", each a mechanism with its parameters and an optional count (\"laplace(5)x10; gaussian(2)x3\"; gaussian(σ) or gaussian(σ, sensitivity), gdp(μ), laplace(b) or laplace(b, sensitivity), rr(ε, k), pure(ε), approx(ε, δ), dpsgd(σ, q)) or three numbers \"σ, q, steps\" of a DP-SGD stage (\"8, 1, 2\" is two releases of the plain Gaussian mechanism with σ = 8); the composition is computed by the PLD accountant (Gaussian stages alone in closed form); such a row (other than dpsgd) gets the columns of its composed curve and its (ε, δ) view, not those of one family of mechanisms; fdp_noise_for_target calibrates a dpsgd row's own stage with these fixed"},
		{Field: FieldRRCategories, Name: "rr_categories", Brief: "k for k-ary randomized response at `epsilon`: its exact curve", Domain: wholeFrom(2), Defines: true, Meaning: "k for k-ary randomized response (with epsilon)"},
		{Field: FieldMarginalK, Name: "marginal_k", Brief: inputMarginalKBrief, Domain: wholeFrom(1), Defines: true, Meaning: "k of noisy k-way marginals"},
		{Field: FieldColumnsTotal, Name: "columns_total", Brief: inputMarginalKBrief, Domain: wholeFrom(1), Defines: true, Meaning: "d, number of attributes of the marginals release"},
		{Field: FieldColumnsUnknown, Name: "columns_unknown", Brief: inputMarginalKBrief, Domain: wholeFrom(0), Defines: true, Meaning: "d′, number of attributes unknown to the attacker"},
		{Field: FieldCompositions, Name: "compositions", Brief: "how many times the mechanism is composed (default 1): μ√c for Gaussian curves, cρ for zCDP, c·ε_α for RDP, the optimal composition theorem (Kairouz, Oh & Viswanath 2015) for `pure`, `approx` and binary `rr`, and the exact composition of the privacy-loss distribution for `laplace` and `rr` with k > 2", Domain: wholeFrom(1), Meaning: "number of times the mechanism is composed (default 1)"},
		{Field: FieldBaseline, Name: "baseline", Brief: "the prior success probability of the best attack that does not see the release", Aliases: []string{"kappa"}, Domain: probability, Percent: true, Meaning: "prior success probability of the best a-priori attack"},
		{Field: FieldCandidates, Name: "candidates", Brief: "size M of a uniform candidate set: baseline = 1/M", Domain: wholeFrom(2), Meaning: "size M of a uniform candidate set (baseline = 1/M)"},
		{Field: FieldPrior, Name: "prior", Brief: "a key of a table loaded with `--priors`, or an inline prior: `uniform(M)`, `zipf(s, N)`, `zipf(s, N, rank)`, or per-target priors `list(p1, p2, …)` (an item `p x n` is n targets of prior p; e.g. `list(0.7 x 600, 0.3 x 400)`)", Text: true, Meaning: "key into a prior table, or uniform(M), zipf(s, N), zipf(s, N, rank), list(p1, p2, …)"},
		{Field: FieldTargets, Name: "targets", Brief: inputTargetsBrief, Domain: wholeFrom(1), Meaning: "n, number of target records for the one-run tail bound"},
		{Field: FieldSuccesses, Name: "successes", Brief: inputTargetsBrief, Domain: wholeFrom(0), Meaning: "v, for the probability of at least v successes"},
		{Field: FieldConfidence, Name: "confidence", Brief: "per-row confidence of `onerun_successes_ub` and of an audit's test (default `--confidence`)", Domain: Domain{Min: 0, Max: 1, MinOpen: true, MaxOpen: true}, Percent: true, Meaning: "per-row override of --confidence"},
		{Field: FieldTolerance, Name: "tolerance", Domain: nonNegative, Meaning: "L1 error E allowed for approximate reconstruction"},
		{Field: FieldTargetAdvantage, Name: "target_advantage", Brief: "the risk target for the inverse columns (`onerun_eps_protect`, `fdp_eps_for_target`, `fdp_mu_for_target`, `fdp_sigma_for_target`, `fdp_noise_for_target`)", Domain: probability, Percent: true, Meaning: "risk target for the inverse columns"},
		{Field: FieldRecords, Name: "records", Brief: inputRecordsBrief, Domain: wholeFrom(2), Meaning: "n, dataset size for predicate singling out (PSO)"},
		{Field: FieldPredicateWeight, Name: "w", Brief: inputRecordsBrief, Aliases: []string{"predicate_weight"}, Domain: probability, Percent: true, Meaning: "weight w of the attacker's predicate (singling out: w ≤ 1/records)"},
		{Field: FieldPMPData, Name: "pmp_data", Brief: "the attacker's parent set of 2n records for the data-dependent practical membership privacy (`pmp_data_*`): a CSV, TSV, XLSX or Parquet file named relative to the input file's folder (see [Files named in cells](#files-named-in-cells)), one row per record, or a small set written in the cell (`0.1, 0.2; 0.4, 0.1`, records separated by `;`). For `gaussian` rows each record is its query vector f(x) (a sum query); for `exponential` rows it is the record's loss for each candidate output, one column per output. Columns named `id`, `record` or `name` are labels.", Aliases: []string{"parent_set"}, Text: true, Meaning: "a table (CSV, TSV, XLSX or Parquet file, named relative to the folder of the input file, which it may not leave unless --data-dir allows another folder) of the attacker's parent set X of 2n records, one row per record: for gaussian rows the record's query vector f(x), for exponential rows its loss for each candidate output (one column per output); columns named id, record or name are labels; a small parent set may be written in the cell, records separated by \";\" and values by \",\" (\"0.1, 0.2; 0.4, 0.1\")"},
		{Field: FieldAudit, Name: "audit", Brief: "makes the row an audit of one training run (or release) instead of a release: `membership` (Steinke et al. 2023), `membership_fdp` or `reconstruction` (Mahloujifar et al. 2025), `prior` (Swanberg et al. 2025 inverted); see [Auditing a training run](auditing.md)", Text: true, Meaning: "membership, membership_fdp, reconstruction or prior: the row is an audit, and its audit_* columns are certified lower bounds on ε (and μ) from the attack's observed guesses; epsilon is then the claimed ε"},
		{Field: FieldCanaries, Name: "canaries", Brief: inputCanariesBrief, Domain: Domain{Min: 1, Max: maxCanaries, Integer: true}, Meaning: "m, the canaries whose secret was randomized, including those the attacker abstained on"},
		{Field: FieldGuesses, Name: "guesses", Brief: inputCanariesBrief, Domain: Domain{Min: 0, Max: maxCanaries, Integer: true}, Meaning: "r, the canaries the attacker made a guess for (at most canaries)"},
		{Field: FieldCorrect, Name: "correct", Brief: inputCanariesBrief, Domain: Domain{Min: 0, Max: maxCanaries, Integer: true}, Meaning: "v, the guesses that were right (at most guesses)"},
		{Field: FieldOptions, Name: "options", Brief: "k, the values each canary's secret is drawn from uniformly (audit `reconstruction`; membership is k = 2)", Domain: Domain{Min: 2, Max: maxCanaries, Integer: true}, Meaning: "k, the number of values each canary's secret is drawn from uniformly (audit reconstruction)"},
		{Field: FieldNumTests, Name: "num_tests", Brief: "how many thresholds or guess counts the attacker tried before reporting the best: the significance is divided among them (Bonferroni; default 1)", Domain: Domain{Min: 1, Max: math.Inf(1), Integer: true}, Meaning: "the number of tests tried (thresholds, guess counts): the significance is divided among them (default 1)"},
		{Field: FieldSignificance, Name: "significance", Brief: "1 − `confidence`, for those who state the test's level (a row with both must agree)", Domain: Domain{Min: 0, Max: 1, MinOpen: true, MaxOpen: true}, Percent: true, Meaning: "1 − confidence (a row with both must agree)"},
		{Field: FieldAuditBound, Name: "audit_bound", Brief: "the tail bound of audit `prior`: `thm32` (pure ε-DP), `cor34` or `thm35` (Swanberg et al. 2025); default `thm32` when delta is 0, else `thm35`", Text: true, Meaning: "thm32, cor34 or thm35: the tail bound of Swanberg et al. 2025 audit prior inverts (default thm32 when delta is empty or 0, else thm35)"},
		{Field: FieldCalibration, Name: "calibration", Brief: "how σ of a `gaussian` row stated by `epsilon` and `delta` (and `sensitivity`) was calibrated: `analytic` (the default: the smallest σ whose exact privacy profile meets (ε, δ), Balle & Wang 2018, Thm 8) or `classic` (σ = sensitivity·√(2 ln(1.25/δ))/ε, Dwork & Roth 2014, Thm A.1, which guarantees (ε, δ)-DP only for ε < 1; a row with ε ≥ 1 is evaluated at that σ with a warning). The σ is shown in `derived_sigma`", Text: true, Choices: GaussianCalibrations(), Meaning: "analytic (default) or classic: how sigma of a gaussian row stated by epsilon and delta was calibrated; analytic is the smallest σ whose exact privacy profile meets (ε, δ) (Balle & Wang 2018, Thm 8), classic is σ = sensitivity·√(2 ln(1.25/δ))/ε (Dwork & Roth 2014, Thm A.1), valid only for ε < 1"},
		{Field: FieldBatchSize, Name: "batch_size", Brief: inputBatchSizeBrief, Domain: wholeFrom(1), Defines: true, Meaning: "DP-SGD batch size B, as TensorFlow Privacy and Opacus state it: sample_rate q = batch_size/dataset_size"},
		{Field: FieldDatasetSize, Name: "dataset_size", Brief: inputBatchSizeBrief, Aliases: []string{"num_examples"}, Domain: wholeFrom(1), Defines: true, Meaning: "DP-SGD training-set size n: sample_rate q = batch_size/dataset_size (a column named n is not read: it is a common header for counts, and passes through)"},
		{Field: FieldEpochs, Name: "epochs", Brief: inputBatchSizeBrief, Aliases: []string{"num_epochs"}, Domain: positive, Defines: true, Meaning: "DP-SGD number of epochs: steps = ⌈epochs·dataset_size/batch_size⌉ (TensorFlow Privacy's compute_dp_sgd_privacy)"},
		{Field: FieldDataset, Name: "dataset", Brief: "rows that touch the same people: every group of rows with one `dataset` value is composed into a `total` row appended after the input's rows (see [Several releases of one dataset](datasets.md)); empty: the row is in no group", Aliases: []string{"composes_with"}, Text: true, Meaning: "the dataset the release is about: rows with the same dataset are composed, and riskbatch appends one total row per dataset (status total, bounds of the composition of its rows) and fills dataset_worst_advantage on every row of the group; empty: the row is in no group"},
		{Field: FieldReportDelta, Name: "report_delta", Brief: "the δ at which the whole release's ε is reported (`eps_at_delta` and every ε-based column), for every mechanism alike, in place of the default of `delta` (see [What δ means](#what-δ-means)); it must leave a valid (ε, δ) guarantee: below the δ that a row's own (ε, δ) steps leave unbounded, 1 − (1 − δ)^compositions, no ε is certified and the row says so", Aliases: []string{"target_delta"}, Domain: Domain{Min: 0, Max: 1, MaxOpen: true}, Percent: true,
			Meaning: "the δ at which the whole release (all its compositions and extra_stages) reports its ε, for every mechanism alike, in place of the default that delta gives; on approx rows it must be at least 1 − (1 − δ)^compositions, the δ their own (ε, δ) steps leave unbounded, else no ε is certified"},
		{Field: FieldDatasetTargetAdvantage, Name: "dataset_target_advantage", Brief: inputDatasetTargetBrief, Domain: Domain{Min: 0, Max: 1, MinOpen: true, MaxOpen: true}, Percent: true,
			Meaning: "the worst-case advantage η (fdp_worst_advantage) the row's dataset total may reach at most: riskbatch solves the dataset's solve row against it, or gives every row dataset_noise_scale; every row of the dataset that fills a target must fill the same one"},
		{Field: FieldDatasetTargetSuccess, Name: "dataset_target_success", Brief: inputDatasetTargetBrief, Domain: Domain{Min: 0, Max: 1, MinOpen: true, MaxOpen: true}, Percent: true,
			Meaning: "the success (fdp_success) at the dataset's shared baseline that the row's dataset total may reach at most; as dataset_target_advantage"},
		{Field: FieldDatasetTargetEpsilon, Name: "dataset_target_epsilon", Brief: inputDatasetTargetBrief, Domain: Domain{Min: 0, Max: math.Inf(1), MinOpen: true, MaxOpen: true},
			Meaning: "the ε (eps_at_delta) at the dataset's reporting δ (its shared report_delta, else delta) that the row's dataset total may reach at most, the accountant's error counted against δ; as dataset_target_advantage"},
		{Field: FieldSolve, Name: "solve", Brief: "the one parameter of a dataset's row to solve for against the dataset's target, left empty: `sigma`, `mu`, `laplace_scale`, `epsilon`, `noise_multiplier`, `steps`, `epochs` or `compositions`; riskbatch writes the value that meets the target with the least noise (the most ε, steps, epochs, compositions) in `solved_value` and evaluates the row and the total with it (see [Goal seek](datasets.md#goal-seek-how-much-noise-may-each-release-have))", Text: true, Choices: SolveChoices(),
			Meaning: "the name of the row's one empty parameter to solve for against its dataset's target (sigma, mu, laplace_scale, epsilon, noise_multiplier, steps, epochs or compositions): the row is evaluated, and its dataset composed, with the solved value (solved_value)"},
	}
}

// maxCanaries is the most canaries (and guesses, correct guesses and
// options) an audit row may have: its tests cost O(m) per claim tried.
const maxCanaries = 10_000_000

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
	cols := InputColumns()
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

// The summaries of the input-column table of docs/inputs.md that several columns
// share: columns one after another with the same Brief share a row.
const (
	// epsilon and delta
	inputEpsilonBrief = "(ε, δ)-DP. An empty or 0 δ means pure ε-DP. `delta` is the δ of the (ε, δ) statement the row makes: per step where the row states a guarantee (`approx`, and a `gaussian` row stated by (ε, δ)), so that c compositions report their ε at δ_total = c·δ; where the row states noise or a pure guarantee (`gaussian` with `sigma`, `gdp`, `laplace`, `rr`, `zcdp`, `rdp`, `dpsgd`, `marginals`), the δ at which the whole release reports its ε; `report_delta` overrides where it is reported (see [What δ means](#what-δ-means)). A `laplace` row may state its ε in place of `laplace_scale` (b = sensitivity/ε), and a `gaussian` row its (ε, δ) in place of `sigma` (see `calibration`)."
	// deltaMeaning is the delta column's meaning: the one rule of δ.
	deltaMeaning = "δ of the (ε, δ)-DP statement the row makes (empty or 0: pure ε-DP). Where the row states a guarantee whose δ is part of it (approx, and a gaussian row stated by epsilon and delta, whose σ is calibrated to it), that guarantee is per step, like every parameter typed in a row, and c compositions report their ε at δ_total = c·δ. Where the row states noise or a pure guarantee (sigma, mu, rho, rdp, laplace, rr, dpsgd, marginals, pure), it is the δ at which the whole release (all its compositions) reports its ε. report_delta sets that δ for every mechanism alike"
	// sigma and sensitivity
	inputSigmaBrief = "Gaussian noise standard deviation and L2 sensitivity (default 1): μ = sensitivity/σ"
	// rdp_order and rdp_epsilon
	inputRdpOrderBrief = "one Rényi-DP guarantee (α, ε_α)"
	// noise_multiplier, sample_rate and steps
	inputNoiseMultiplierBrief = "DP-SGD (Poisson-subsampled Gaussian, add/remove neighbours), accounted exactly by a privacy-loss-distribution (PLD) accountant; see [DP-SGD](outputs.md#dp-sgd-tight-accounting)"
	// marginal_k, columns_total and columns_unknown
	inputMarginalKBrief = "noisy k-way marginals with noise `sigma` per cell: C(d, k) − C(d − d′, k) Gaussian marginals of L2 sensitivity √2"
	// targets and successes
	inputTargetsBrief = "n target records (with one `baseline` for all), and v for the probability of at least v successes"
	// records and w
	inputRecordsBrief = "dataset size and predicate weight for singling out"
	// canaries, guesses and correct
	inputCanariesBrief = "the outcome of a one-run audit (Steinke et al. 2023, Algorithm 1): m canaries randomized (abstentions included), r guesses made, v of them right"
	// dataset_target_advantage, dataset_target_success and dataset_target_epsilon
	inputDatasetTargetBrief = "a target for the row's dataset total, one per dataset: its worst-case advantage η, its success at the dataset's shared `baseline`, or its ε at the dataset's reporting δ; with a `solve` row riskbatch solves that row's parameter, without one every row gets `dataset_noise_scale` and its `planned_*` parameter (see [Goal seek](datasets.md#goal-seek-how-much-noise-may-each-release-have))"
	// batch_size, dataset_size and epochs
	inputBatchSizeBrief = "DP-SGD stated as TensorFlow Privacy and Opacus state it, in place of `sample_rate` and `steps`: q = batch_size/dataset_size and steps = ⌈epochs·dataset_size/batch_size⌉ (TensorFlow Privacy's `compute_dp_sgd_privacy`), shown in `derived_sample_rate` and `derived_steps`; a row that also fills `sample_rate` or `steps` must agree"
)

// GaussianCalibrations returns the values of the calibration column:
// analytic (the default) and classic.
func GaussianCalibrations() []string { return []string{"analytic", "classic"} }

// SolveChoices returns the values of the solve column: the parameters a
// dataset's goal seek solves for.
func SolveChoices() []string {
	return []string{"sigma", "mu", "laplace_scale", "epsilon", "noise_multiplier", "steps", "epochs", "compositions"}
}
