package evaluate

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// MaxMessage is the most characters a row's message has. A message says
// what the user must act on in one sentence: the most important problem in
// full, then "(+N more: …)" for the others, shortened to fit.
const MaxMessage = 160

// markKind orders the problems of a row in its message, most important
// first.
type markKind uint8

const (
	// markFault: an input the row has cannot be used (an unreadable
	// pmp_data table, say); the row is partial. It comes first: the user
	// gave the input, and it is wrong.
	markFault markKind = iota
	// markUnused: a filled input that no column of the row's mechanism
	// uses.
	markUnused
	// markNeed: an output column lacks an input the row could have had;
	// the row is partial.
	markNeed
	// markWhy: an applicable column is empty because its bound is not
	// defined for the row's values; the status is unchanged.
	markWhy
	// markNote: a warning about a value that is written.
	markNote
)

// mark is one output column of a row that has a problem for its message
// (column < 0: the row as a whole).
type mark struct {
	kind   markKind
	text   string
	need   resolve.Need
	bare   bool // the text names its input: written without the column names
	column int  // index in the evaluator's outputs
}

// message writes a row's message from its marks: one part per distinct
// problem, in the order of markKind and of first appearance, each naming
// its columns ("a, b and 3 more empty: why"); the inputs to add for the
// columns that need them make one part ("add baseline … to get a, b").
func (b *Binding) message(marks []mark, r *resolve.Release) string {
	var parts, labels []string
	for kind := markFault; kind <= markNote; kind++ {
		if kind == markNeed {
			var need resolve.Need
			var cols []string
			for i := range marks {
				if marks[i].kind == markNeed {
					need |= marks[i].need
					cols = append(cols, b.outputs[marks[i].column].Name)
				}
			}
			if need != 0 {
				parts = append(parts, b.needText(need, r)+" to get "+columnList(cols, 3))
				labels = append(labels, b.needText(need, r))
			}
			continue
		}
		for i := range marks {
			m := &marks[i]
			if m.kind != kind || seenBefore(marks, i) {
				continue
			}
			var cols []string
			for j := i; j < len(marks); j++ {
				if marks[j].kind == kind && marks[j].text == m.text && marks[j].column >= 0 {
					cols = append(cols, b.outputs[marks[j].column].Name)
				}
			}
			empty := ""
			if kind == markWhy || kind == markFault {
				empty = " empty"
			}
			label := columnList(cols, 3) + empty
			switch {
			case m.bare || len(cols) == 0:
				parts = append(parts, m.text)
				label, _, _ = strings.Cut(m.text, ":")
			default:
				part := label + ": " + m.text
				if utf8.RuneCountInString(part) > MaxMessage-len(" (+9 more)") {
					// A long reason names fewer columns, to leave room for it.
					part = columnList(cols, 1) + empty + ": " + m.text
				}
				parts = append(parts, part)
			}
			labels = append(labels, label)
		}
	}
	return combine(parts, labels)
}

// seenBefore reports whether a mark before marks[i], of the same kind, has
// the same text.
func seenBefore(marks []mark, i int) bool {
	for j := 0; j < i; j++ {
		if marks[j].kind == marks[i].kind && marks[j].text == marks[i].text {
			return true
		}
	}
	return false
}

// needText says which inputs to add, as the table spells their headers:
// "add baseline (or candidates, or prior) and delta (e.g. 1e-5)".
func (b *Binding) needText(need resolve.Need, r *resolve.Release) string {
	var what []string
	if need&resolve.NeedBaseline != 0 {
		what = append(what, "add "+b.h.Name(release.FieldBaseline)+" (or "+b.h.Name(release.FieldCandidates)+", or "+b.h.Name(release.FieldPrior)+")")
	}
	if need&resolve.NeedDelta != 0 {
		if r != nil && r.Reported {
			what = append(what, "set "+b.h.Name(release.FieldReportDelta)+" above 0 (e.g. 1e-5)")
		} else if r != nil && r.HasDelta {
			what = append(what, "set "+b.h.Name(release.FieldDelta)+" above 0 (e.g. 1e-5)")
		} else {
			what = append(what, "add "+b.h.Name(release.FieldDelta)+" (e.g. 1e-5)")
		}
	}
	if len(what) == 2 && strings.HasPrefix(what[1], "add ") {
		what[1] = strings.TrimPrefix(what[1], "add ")
	}
	return strings.Join(what, " and ")
}

// columnList names columns compactly: up to max by name, else the first
// max − 1 (at least one) and how many more ("fdp_success, fdp_advantage
// and 9 more").
func columnList(names []string, max int) string {
	if len(names) <= max {
		return registry.AndList(names)
	}
	n := 1
	if max > 2 {
		n = max - 1
	}
	return registry.AndList(append(names[:n:n], strconv.Itoa(len(names)-n)+" more"))
}

// combine makes one message of a row's problems, most important first:
// the first in full, the others after it as "(+N more: …)", in full if the
// message stays within MaxMessage characters, else by their labels (the
// columns or input they concern), else clipped.
func combine(parts, labels []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return clip(parts[0], MaxMessage)
	}
	first := parts[0]
	more := " (+" + strconv.Itoa(len(parts)-1) + " more"
	for _, rest := range [][]string{parts[1:], labels[1:]} {
		s := first + more + ": " + strings.Join(rest, "; ") + ")"
		if utf8.RuneCountInString(s) <= MaxMessage {
			return s
		}
	}
	short := more + ")"
	if utf8.RuneCountInString(first+short) > MaxMessage {
		return clip(first, MaxMessage-utf8.RuneCountInString(short)) + short
	}
	// As many labels as fit, whole.
	s := first + more + ": " + labels[1]
	if utf8.RuneCountInString(s)+utf8.RuneCountInString("; …)") > MaxMessage {
		return first + short
	}
	for _, l := range labels[2:] {
		if utf8.RuneCountInString(s+"; "+l)+utf8.RuneCountInString("; …)") > MaxMessage {
			return s + "; …)"
		}
		s += "; " + l
	}
	return s + ")"
}

// clip shortens s to at most n characters, ending it with "…" if it was
// longer.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n < 2 {
		return "…"
	}
	return strings.TrimRight(string(r[:n-1]), " ;,:") + "…"
}

// quoteClipped quotes a value for a message, shortened to 40 characters
// (release.QuoteClipped).

// errorMessage is the message of a rejected row: its first problem, and
// the others as "(+N more: …)", within MaxMessage characters.
func errorMessage(problems []string) string {
	labels := make([]string, len(problems))
	for i, p := range problems {
		label, _, _ := strings.Cut(p, ":")
		labels[i] = clip(label, 40)
	}
	return combine(problems, labels)
}
