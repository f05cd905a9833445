package evaluate

import "strings"

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
	Mechanisms []Mechanism
	// Only is a further condition on the row, in words ("with δ empty or
	// 0"), which the column's function checks.
	Only string
	// Asks names the inputs that ask for the column ("target_advantage",
	// "records and w"): a row without them does not want it.
	Asks string
	// AskedBy lists the input fields whose only use is to ask for the
	// column. A row that fills one of them while no column it asks for
	// applies gets a message that the input is unused.
	AskedBy []Field
	// Requires are the inputs the column cannot do without and that a row
	// may lack; without them the row is partial.
	Requires Need
}

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

// nativeEpsilon reports whether a mechanism states its own ε, so that its
// ε-based columns need no delta.
func nativeEpsilon(m Mechanism) bool {
	switch m {
	case MechanismPure, MechanismApprox, MechanismLaplace, MechanismRR, MechanismExponential:
		return true
	}
	return false
}

// mechanismBit is a mechanism's bit in a set of mechanisms (mechanismSet).
// It is a switch, not a search of MechanismNames, because every row asks.
func mechanismBit(m Mechanism) uint32 {
	switch m {
	case MechanismPure:
		return 1 << 0
	case MechanismApprox:
		return 1 << 1
	case MechanismGaussian:
		return 1 << 2
	case MechanismGDP:
		return 1 << 3
	case MechanismLaplace:
		return 1 << 4
	case MechanismZCDP:
		return 1 << 5
	case MechanismRDP:
		return 1 << 6
	case MechanismRR:
		return 1 << 7
	case MechanismDPSGD:
		return 1 << 8
	case MechanismMarginals:
		return 1 << 9
	case MechanismExponential:
		return 1 << 10
	}
	return 0
}

// mechanismSet returns the set of mechanisms as bits; nil is every one.
func mechanismSet(ms []Mechanism) uint32 {
	if ms == nil {
		return ^uint32(0)
	}
	var set uint32
	for _, m := range ms {
		set |= mechanismBit(m)
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
		b.WriteString(andList(names) + " rows")
	}
	if a.Only != "" {
		b.WriteString(" " + a.Only)
	}
	if a.Asks != "" {
		b.WriteString(" that have " + a.Asks)
	}
	if a.Mechanisms != nil || a.Only != "" || a.Asks != "" {
		b.WriteString("; on other rows empty, without a message")
	}
	if a.Requires != 0 {
		var needs []string
		if a.Requires&NeedBaseline != 0 {
			needs = append(needs, "baseline (or candidates, or prior)")
		}
		if a.Requires&NeedDelta != 0 {
			needs = append(needs, a.deltaText())
		}
		b.WriteString(". Needs " + andList(needs) + "; a row without it is partial, and its message says what to add")
	}
	return b.String()
}

// deltaText is the delta need of the column's mechanisms: only those
// without a native ε need it.
func (a Applies) deltaText() string {
	var without, all []string
	for _, n := range MechanismNames() {
		m := Mechanism(n)
		if a.Mechanisms != nil && mechanismSet(a.Mechanisms)&mechanismBit(m) == 0 {
			continue
		}
		all = append(all, n)
		if !nativeEpsilon(m) {
			without = append(without, n)
		}
	}
	if len(without) == len(all) {
		return "delta > 0"
	}
	return "delta > 0 on " + andList(without) + " rows"
}

// andList joins words as a person writes a list: "a", "a and b",
// "a, b and c".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
