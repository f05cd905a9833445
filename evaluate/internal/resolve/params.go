package resolve

import (
	"fmt"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/celldata"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/priors"
)

// Inputs holds one row's parsed input cells.
type Inputs struct {
	Num  [release.NumFields]float64
	Text [release.NumFields]string
	Set  [release.NumFields]bool
}

func (in *Inputs) Has(f release.Field) bool { return in.Set[f] }

// Value is the field's value as a message writes it: the text, or the
// number ("" when the row leaves it empty).
func (in *Inputs) Value(f release.Field) string {
	switch {
	case !in.Set[f]:
		return ""
	case in.Text[f] != "":
		return in.Text[f]
	}
	return FormatNumber(in.Num[f])
}

// NumOr returns the field's number, or def when the row leaves it empty.
func (in *Inputs) NumOr(f release.Field, def float64) float64 {
	if in.Has(f) {
		return in.Num[f]
	}
	return def
}

// The parameters of a row, one struct per family of mechanisms, parsed
// from the row once by resolve and embedded in Release, whose bounds read
// them. A family's struct is zero on rows of other families.

// epsDeltaView is the (ε, δ) view of a mechanism, used by the ε-based
// families. For pure and approx rows it is the row's own; for the others
// it is computed at the row's δ when a column first asks for it
// (Release.EpsilonDelta).
type epsDeltaView struct {
	Epsilon, Delta float64
	EpsState       int8   // 0 not computed, 1 known, -1 unavailable
	epsWhy         string // why it is unavailable
	noDelta        bool   // unavailable for want of a δ > 0
	HasDelta       bool
	// Reported marks a δ set by report_delta (resolveReport), which
	// messages then name.
	Reported bool
	// StepDelta is the δ of each step of an approx row (its delta), 0
	// for the other rows.
	StepDelta float64
	// epsilonAt converts the mechanism to (ε, δ) at the row's δ; nil when
	// the row's own ε (pure, approx, laplace and rr at δ = 0) is used, or
	// when gaussianEps does.
	epsilonAt func(delta float64) float64
	// gaussianEps, without epsilonAt, converts a Gaussian curve G_μ (μ of
	// gaussianParams) through the run's cache of its ε(δ): a field, not a
	// closure over μ, which every gaussian row would allocate.
	gaussianEps *epsCache
}

// pureParams is a pure ε-DP guarantee (pure, exponential, laplace, rr, and
// approx at δ = 0 with one composition), composed over the compositions.
type pureParams struct {
	PureEps float64
	HasPure bool
}

// GaussianParams are the parameters of a Gaussian curve G_μ (gaussian,
// gdp, marginals), composed over the compositions.
type GaussianParams struct {
	Mu          float64
	HasMu       bool
	Sensitivity float64 // sensitivity for σ calibration (gaussian) and of the loss (exponential)
	Sigma       float64 // σ of a gaussian row
}

// renyiParams are the Rényi views for the comparators of Balle et al. and
// the Fano bounds: the zCDP ρ (zcdp, and gaussian/gdp/marginals with
// ρ = μ²/2), or the RDP curve (rdp, dpsgd).
type renyiParams struct {
	Rho    float64
	HasRho bool
	RDP    curve.RDP
	HasRDP bool
}

// dpsgdParams are the parameters of a dpsgd row: its steps, its extra
// stages (also those of a row of another mechanism, composed by
// composeExtra), its PLD accountant (nil when the accountant failed, with the
// reason in pldWhy) and the run's cache of noise calibrations.
type dpsgdParams struct {
	DPSGD       curve.DPSGD
	ExtraStages []pld.Stage
	extraRDP    curve.RDP // the extra stages' composed RDP (empty without them)
	RDPWhy      string    // why the composed release has no RDP curve (an (ε, δ > 0) stage), or ""
	PLD         *pld.PLD
	PLDWhy      string
	noise       *noiseCache
}

// composeParams are the row's releases as stages that curve.Compose
// composes (its own mechanism, compositions times, then its extra_stages;
// nil for a mechanism without a privacy-loss distribution), and the
// composed curve of a row whose releases compose through curve.Compose
// (laplace and rr rows of several compositions, rows with extra_stages);
// nil otherwise.
type composeParams struct {
	// own is the stage of the row's own mechanism, as ownState says;
	// stages are made from it on first use (Release.Stages).
	own        pld.Stage
	ownState   ownState
	stagesMade bool
	stages     []pld.Stage
	comp       *curve.Composition
}

// ownState says what a row's own releases are as a stage (ownStage).
type ownState uint8

const (
	ownAbsent ownState = iota // no privacy-loss distribution (zcdp, rdp)
	ownStaged                 // the stage composeParams.own
	ownNone                   // a release that reveals nothing (μ = 0)
	ownDPSGD                  // a dpsgd row: curve.DPSGDStages
)

// pmpParams are the row's pmp_data table (its path as written), the run's
// cache of such tables and results, and this row's result, computed once.
type pmpParams struct {
	PMPPath  string
	pmp      *celldata.Cache
	pmpFrom  celldata.Source // the table the row comes from, and who opens files
	pmpDone  bool
	pmpEps   float64
	pmpDelta float64
	pmpWhy   string
	PMPNote  string // a warning about the data, shown with the values
}

// Attack is what a row says of the attack its bounds are about: the
// attacker's baseline or prior, the target of a calibration, the predicate
// of singling out, and the targets of one run.
type Attack struct {
	Baseline    float64
	HasBaseline bool
	// Prior is the row's prior from a prior table or an inline prior: the
	// per-target p_i; Baseline is its largest p (single-target bounds).
	Prior     priors.Prior
	HasPrior  bool
	Target    float64 // target_advantage
	HasTarget bool
	Records   int // n for predicate singling out (0 if absent)
	// Candidates is M of a uniform prior (candidates, or uniform(M)); 0
	// when the row's prior is not uniform over a known number of values.
	Candidates int64
	Weight     float64 // predicate weight w
	HasWeight  bool

	// The multi-target one-run request: n targets (from targets with a
	// homogeneous baseline, or from the prior's p_i), v successes, and the
	// confidence of the success upper bound.
	Targets      int
	Successes    int
	HasSuccesses bool
	Confidence   float64
}

// rowResults are the results several columns of a row share, computed
// once: the one-run tail, the advantage at the baseline, the Fano bounds.
type rowResults struct {
	tail     *bound.OneRunTail
	tailWhy  string
	adv      float64 // 1 − f(baseline) − baseline, once computed
	HasAdv   bool
	fanoDone bool
	fanoA1   bound.FanoBound
	fanoBest bound.FanoBound
	fanoWhy  string
	// fanos is the run's cache of Fano bounds (fanoUniform).
	fanos *fanoCache
}

// CellError is a problem with the input cells of a row, which makes the
// row an error: the column it concerns (as the table's header spells it),
// the cell's value, and what is wrong with it. Its Error is the text the
// row's message gives.
type CellError struct {
	// Column is the header of the column the problem concerns; two
	// headers joined by ", " for a problem of their combination; empty for
	// a problem of the row as a whole (no privacy parameters at all).
	Column string
	// Value is the cell's value as the row writes it; empty when the
	// problem is the cell's absence or the columns' combination.
	Value string
	// Reason says what is wrong and what is expected, after the column.
	Reason string
	// Keyed marks a problem of a key (a prior key): the message names the
	// quoted value after the column (`prior "k": no such key …`).
	Keyed bool
	// Err is the error the reason comes from, if any.
	Err error
}

// Error is the problem as a row's message states it: "column: reason".
func (e *CellError) Error() string {
	switch {
	case e.Column == "":
		return e.Reason
	case e.Keyed:
		return e.Column + " " + release.QuoteClipped(e.Value) + ": " + e.Reason
	}
	return e.Column + ": " + e.Reason
}

// Unwrap returns the error the reason comes from.
func (e *CellError) Unwrap() error { return e.Err }

// RowError collects the problems of a row, each naming its column.
type RowError []*CellError

// Add records a problem of a column's cell (value, as written, may be "").
func (e *RowError) Add(column, value, format string, args ...any) {
	*e = append(*e, &CellError{Column: column, Value: value, Reason: fmt.Sprintf(format, args...)})
}

// AddErr records a problem that an error states.
func (e *RowError) AddErr(column, value string, err error) {
	*e = append(*e, &CellError{Column: column, Value: value, Reason: err.Error(), Err: err})
}

// AddProblem records a problem made elsewhere.
func (e *RowError) AddProblem(p *CellError) { *e = append(*e, p) }

// Texts returns the problems' texts, as the message gives them.
func (e RowError) Texts() []string {
	s := make([]string, len(e))
	for i, p := range e {
		s[i] = p.Error()
	}
	return s
}

// Error joins the problems.
func (e RowError) Error() string { return strings.Join(e.Texts(), "; ") }
