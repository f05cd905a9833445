package registry

import (
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/enum"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// Applies says when an output column is filled. Each entry of the registry
// declares it, and the same declaration drives the evaluator, the "applies
// to" text of the Columns sheet and of `riskbatch columns`, so that what
// riskbatch does and what it documents cannot drift apart.
//
// A row leaves a column empty in one of three ways:
//   - the column does not apply to the row (its mechanism is not one of
//     Mechanisms, or the row fails the condition Only) or the row does not
//     ask for it (Asks): the cell is empty without a message, and the
//     status is unchanged, since no input of the row could fill it;
//   - the row lacks an input the column Requires: the status is partial and
//     the message says which input to add;
//   - the column applies and has its inputs, but its bound is not defined
//     for their values (a baseline of 1, a target no ε meets): the message
//     says why, and the status is unchanged.
type Applies struct {
	// Mechanisms are the mechanisms whose rows the column applies to; nil
	// means every mechanism. The evaluator does not compute the column
	// for a row of any other mechanism.
	Mechanisms []release.Mechanism
	// Only is a further condition on the row ("whose delta is empty or
	// 0"): a row that fails it leaves the column empty without a message.
	Only Condition
	// Asks is the input that asks for the column (target_advantage,
	// records and w): a row without it does not want the column, which is
	// empty without a message.
	Asks Ask
	// AskedBy lists the input fields whose only use is to ask for the
	// column. A row that fills one of them while no column it asks for
	// applies gets a message that the input is unused.
	AskedBy []release.Field
	// Requires are the inputs the column cannot do without and that a row
	// may lack; without them the row is partial. The evaluator checks
	// them, after Asks and Only, so that the column's function can count
	// on them.
	Requires resolve.Need
	// BelowOne says that the column is undefined at a baseline of 1: a row
	// whose baseline is 1 gets a message saying so (whyBaselineOne). It is
	// checked after the baseline is required and before the delta is.
	BelowOne bool
}

// lacks returns the inputs of Requires that the row does not have: a
// baseline, or a δ > 0 for a mechanism without a native ε.
func (a Applies) lacks(r *resolve.Release) resolve.Need {
	var n resolve.Need
	if a.Requires&resolve.NeedBaseline != 0 && !r.HasBaseline {
		n |= resolve.NeedBaseline
	}
	if a.Requires&resolve.NeedDelta != 0 && !release.NativeEpsilon(r.Mechanism) && !(r.HasDelta && r.Delta > 0) {
		n |= resolve.NeedDelta
	}
	return n
}

// Ask is the input of a row that asks for an output column (Applies.Asks).
type Ask uint8

// The inputs that ask for output columns.
const (
	AskedAlways     Ask = iota // every row wants the column
	AskTarget                  // target_advantage
	AskWeight                  // w
	AskRecords                 // records and w
	AskSuccesses               // successes
	AskTargets                 // targets, or a prior (its p_i)
	AskCandidates              // candidates (or uniform(M))
	AskDistribution            // candidates, or a prior key with its frequency table
	AskPMPData                 // pmp_data
	AskBinary                  // a baseline of at least 0.5 (a binary attribute)
	AskClaim                   // epsilon on an audit row: the claimed ε
	AskStatedScale             // epsilon in place of laplace_scale
	AskStatedSigma             // epsilon and delta in place of sigma
	AskBatchSize               // batch_size and dataset_size
	AskEpochs                  // epochs

	numAsks // the number of Asks: AskSet holds one bit for each
)

// String names the inputs in words, as Text writes them (in the order of
// the constants).
func (a Ask) String() string {
	return enum.Name("Ask", int(a), int(AskedAlways), "",
		"target_advantage",
		"w",
		"records and w",
		"successes",
		"targets or prior",
		"candidates",
		"candidates or a prior with its frequency table",
		"pmp_data",
		"a baseline of at least 0.5",
		"a claimed epsilon",
		"epsilon in place of laplace_scale",
		"epsilon and delta in place of sigma",
		"batch_size and dataset_size",
		"epochs")
}

// asked reports whether the row has the input that asks for the column.
func (a Ask) asked(r *resolve.Release) bool {
	switch a {
	case AskTarget:
		return r.HasTarget
	case AskWeight:
		return r.HasWeight
	case AskRecords:
		return r.HasWeight && r.Records > 0
	case AskSuccesses:
		return r.HasSuccesses
	case AskTargets:
		return r.Targets > 0
	case AskCandidates:
		return r.Candidates > 0
	case AskDistribution:
		return r.Candidates > 0 || r.PriorDistributions() != nil
	case AskPMPData:
		return r.PMPPath != ""
	case AskBinary:
		return r.HasBaseline && r.Baseline >= 0.5
	case AskClaim:
		return r.Audit != nil && r.Audit.HasClaim
	case AskStatedScale:
		return r.HasDerivedScale
	case AskStatedSigma:
		return r.DerivedSigma > 0
	case AskBatchSize:
		return r.DerivedSampleRate > 0
	case AskEpochs:
		return r.DerivedSteps > 0
	}
	return true
}

// Condition is a condition on a row beyond its mechanism (Applies.Only).
type Condition uint8

// The conditions on rows.
const (
	Anywhere Condition = iota // no condition
	// OnlyPure: a pure ε-DP guarantee (an approx row of one composition at
	// δ = 0 is one).
	OnlyPure
	// OnlyPureRow: a pure ε-DP guarantee stated without a δ.
	OnlyPureRow
	// OnlyOneComposition: an (ε, δ) row of one composition.
	OnlyOneComposition
	// OnlyRenyiView: a Rényi or mutual-information view of the mechanism.
	// The Fano columns' function checks it, since the order of its reasons
	// depends on the prior (see Release.Fano).
	OnlyRenyiView
	// OnlyAuditTest: an audit by a test with a p-value (membership,
	// prior).
	OnlyAuditTest
	// OnlyAuditFDP: an audit by the f-DP recursion (membership_fdp,
	// reconstruction).
	OnlyAuditFDP
)

// String states the condition in words, as Text writes it (in the order
// of the constants).
func (c Condition) String() string {
	return enum.Name("Condition", int(c), int(Anywhere), "",
		"(approx rows only with delta empty or 0 and one composition)",
		"whose delta is empty or 0 (approx rows: also one composition)",
		"of one composition",
		"(approx rows only with delta empty or 0 and one composition, rr rows only with one composition)",
		"of the methods membership and prior",
		"of the methods membership_fdp and reconstruction")
}

// Holds reports whether the row meets the condition (OnlyRenyiView: see
// there).
func (c Condition) Holds(r *resolve.Release) bool {
	switch c {
	case OnlyPure:
		return r.HasPure
	case OnlyPureRow:
		return r.HasPure && r.RowDelta() == 0
	case OnlyOneComposition:
		switch r.Curve.(type) {
		case *curve.ComposedApprox, *curve.Composition:
			return false
		}
		return true
	case OnlyAuditTest:
		return r.Audit != nil && !r.Audit.FDP()
	case OnlyAuditFDP:
		return r.Audit != nil && r.Audit.FDP()
	}
	return true
}

// MechanismBit is a mechanism's bit in a set of mechanisms (MechanismSet).
// It is a switch, not a search of MechanismNames, because every row asks.
func MechanismBit(m release.Mechanism) uint32 {
	switch m {
	case release.MechanismPure:
		return 1 << 0
	case release.MechanismApprox:
		return 1 << 1
	case release.MechanismGaussian:
		return 1 << 2
	case release.MechanismGDP:
		return 1 << 3
	case release.MechanismLaplace:
		return 1 << 4
	case release.MechanismZCDP:
		return 1 << 5
	case release.MechanismRDP:
		return 1 << 6
	case release.MechanismRR:
		return 1 << 7
	case release.MechanismDPSGD:
		return 1 << 8
	case release.MechanismMarginals:
		return 1 << 9
	case release.MechanismExponential:
		return 1 << 10
	case resolve.MechanismAudit:
		return 1 << 11
	}
	return 0
}

// MechanismSet returns the set of mechanisms as bits; nil is every
// mechanism of a release (not audit rows, which describe no release).
func MechanismSet(ms []release.Mechanism) uint32 {
	if ms == nil {
		return ^uint32(0) &^ MechanismBit(resolve.MechanismAudit)
	}
	var set uint32
	for _, m := range ms {
		set |= MechanismBit(m)
	}
	return set
}

// Text describes the declaration for a person, as the Columns sheet and
// `riskbatch columns` show it: "gaussian and gdp rows that have
// target_advantage; on other rows empty, without a message".
func (a Applies) Text() string {
	var b strings.Builder
	if a.Mechanisms == nil {
		b.WriteString("all rows")
	} else {
		names := make([]string, len(a.Mechanisms))
		for i, m := range a.Mechanisms {
			names[i] = string(m)
		}
		b.WriteString(AndList(names) + " rows")
	}
	if a.Only != Anywhere {
		b.WriteString(" " + a.Only.String())
	}
	if a.Asks != AskedAlways {
		b.WriteString(" that have " + a.Asks.String())
	}
	if a.Mechanisms != nil || a.Only != Anywhere || a.Asks != AskedAlways {
		b.WriteString("; on other rows empty, without a message")
	}
	if a.Requires != 0 {
		var needs []string
		if a.Requires&resolve.NeedBaseline != 0 {
			needs = append(needs, "baseline (or candidates, or prior)")
		}
		if a.Requires&resolve.NeedDelta != 0 {
			needs = append(needs, a.deltaText())
		}
		b.WriteString(". Needs " + AndList(needs) + "; a row without it is partial, and its message says what to add")
	}
	return b.String()
}

// deltaText is the delta need of the column's mechanisms: only those
// without a native ε need it.
func (a Applies) deltaText() string {
	var without, all []string
	for _, n := range release.MechanismNames() {
		m := release.Mechanism(n)
		if a.Mechanisms != nil && MechanismSet(a.Mechanisms)&MechanismBit(m) == 0 {
			continue
		}
		all = append(all, n)
		if !release.NativeEpsilon(m) {
			without = append(without, n)
		}
	}
	if len(without) == len(all) {
		return "delta > 0"
	}
	return "delta > 0 on " + AndList(without) + " rows"
}

// AndList joins words as a person writes a list: "a", "a and b",
// "a, b and c".
func AndList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// UnusedInput is an input field whose only use is to ask for some output
// columns (Applies.AskedBy), with the mechanisms those columns apply to.
type UnusedInput struct {
	Field      release.Field
	Mechanisms uint32 // the mechanisms of the columns it asks for
	Users      string // those mechanisms, for a message: "gaussian and exponential"
}

// UnusedInputs lists the fields that ask for columns of some mechanisms
// only, so that a row of another mechanism that fills one is told.
func UnusedInputs(outputs []OutputColumn) []UnusedInput {
	var us []UnusedInput
	for _, o := range outputs {
		for _, f := range o.Applies.AskedBy {
			i := 0
			for i < len(us) && us[i].Field != f {
				i++
			}
			if i == len(us) {
				us = append(us, UnusedInput{Field: f})
			}
			us[i].Mechanisms |= o.MechanismBits
		}
	}
	kept := us[:0]
	for _, u := range us {
		if u.Mechanisms == MechanismSet(nil) {
			continue // every mechanism uses it
		}
		var names []string
		for _, n := range release.MechanismNames() {
			if u.Mechanisms&MechanismBit(release.Mechanism(n)) != 0 {
				names = append(names, n)
			}
		}
		u.Users = AndList(names)
		kept = append(kept, u)
	}
	return kept
}
