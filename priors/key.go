package priors

import (
	"strconv"
	"strings"
)

// KeySpec describes one prior of a prior table: the attribute an attacker
// reconstructs (Target, several columns for a joint attribute), the
// columns the attacker knows (Given, none for the marginal) and, for an
// approximate reconstruction of an ordinal column, the tolerance E.
type KeySpec struct {
	Name      string   // the data set's name, e.g. "penguins"
	Target    []string // the attribute column(s)
	Given     []string // the known columns; empty for the marginal
	Window    bool     // approximate reconstruction |x − z| ≤ Tolerance
	Tolerance float64  // E, when Window
}

// String formats the key as NAME ":" TARGET ["~" E] ["|" GIVEN] (see the
// package documentation): "penguins:Sex|Species,Island".
func (k KeySpec) String() string {
	var b strings.Builder
	b.WriteString(escapeKeyPart(k.Name, `\:`))
	b.WriteByte(':')
	writeColumnList(&b, k.Target)
	if k.Window {
		b.WriteByte('~')
		b.WriteString(strconv.FormatFloat(k.Tolerance, 'g', -1, 64))
	}
	if len(k.Given) > 0 {
		b.WriteByte('|')
		writeColumnList(&b, k.Given)
	}
	return b.String()
}

// writeColumnList writes column names separated by commas, escaping the
// key's separators inside each name.
func writeColumnList(b *strings.Builder, cols []string) {
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(escapeKeyPart(c, `\,|~:`))
	}
}

// escapeKeyPart puts a backslash before every character of s found in
// special.
func escapeKeyPart(s, special string) string {
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ColumnList is the name of a (possibly joint) attribute, or of a list of
// known columns: its columns separated by commas, escaped as in a key.
func ColumnList(cols []string) string {
	var b strings.Builder
	writeColumnList(&b, cols)
	return b.String()
}
