package registry

import (
	"math/bits"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
)

// A row's output columns are those of its mechanism that it asks for
// (Applies.Mechanisms, Asks and Only). A row of the closed-form families
// has about 35 of the 60 registered columns by its mechanism, and asks for
// fewer than half of those: the evaluator goes through each mechanism's
// list of columns, made once with the evaluator, and reads what the row
// asks for from the list before it computes a column (OutputColumn.ValueAsked).

// PlanColumn is an output column of a mechanism's list: its index in the
// evaluator's outputs and what asks for it.
type PlanColumn struct {
	Index int
	Asks  Ask
	Only  Condition
}

// Plans are the lists of output columns, in output order: one per
// mechanism (by the index of its MechanismBit), and that of a row
// composed with extra_stages of other mechanisms (Release.Mixed), whose
// columns are those of every mechanism.
type Plans struct {
	byMechanism [32][]PlanColumn
	mixed       []PlanColumn
}

// NewPlans makes the lists of the output columns outputs.
func NewPlans(outputs []OutputColumn) *Plans {
	p := new(Plans)
	for k := range outputs {
		o := &outputs[k]
		if o.ByDataset {
			continue
		}
		c := PlanColumn{Index: k, Asks: o.Applies.Asks, Only: o.Applies.Only}
		for set := o.MechanismBits; set != 0; set &= set - 1 {
			i := bits.TrailingZeros32(set)
			p.byMechanism[i] = append(p.byMechanism[i], c)
		}
		if o.MechanismBits == MechanismSet(nil) {
			p.mixed = append(p.mixed, c)
		}
	}
	return p
}

// Of returns the list of output columns of the row r.
func (p *Plans) Of(r *resolve.Release) []PlanColumn {
	if r.Mixed() {
		return p.mixed
	}
	bit := MechanismBit(r.Mechanism)
	if bit == 0 {
		return nil
	}
	return p.byMechanism[bits.TrailingZeros32(bit)]
}

// AskSet remembers, for one row, which inputs that ask for columns (Ask)
// it has: a row's columns share a few of them, each read once.
type AskSet struct{ known, has uint32 }

// Every Ask has its bit in an AskSet's uint32 (a shift past it would give
// 0, and asked would say false, dropping the columns it asks for): this
// constant overflows, and the package does not compile, when there are
// more than 32.
const _ uint32 = 1 << (numAsks - 1)

// Asked reports whether the row r has the input a (Ask.asked).
func (s *AskSet) Asked(a Ask, r *resolve.Release) bool {
	if a == AskedAlways {
		return true
	}
	bit := uint32(1) << a
	if s.known&bit == 0 {
		s.known |= bit
		if a.asked(r) {
			s.has |= bit
		}
	}
	return s.has&bit != 0
}
