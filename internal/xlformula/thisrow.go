package xlformula

import (
	"strings"
	"unicode"
)

// This-row references. A formula that refers to the cells of its own row
// by column name, as Excel's structured references to a table do
// ([@epsilon] is the epsilon cell of the formula's row), says what it
// computes without knowing where the columns and the row land on a sheet;
// ResolveThisRow then binds the names to cells. Excel's rules for the
// names (Microsoft, "Using structured references with Excel tables"):
// a name of letters, digits and underscores stands alone, [@epsilon]; any
// other is enclosed in a second pair of brackets, [@[my column]], where the
// characters [ ] # and ' are escaped by a leading '.

// ThisRow returns the reference to the column called name on the
// formula's own row: [@name], or [@[name]] with its special characters
// escaped where name is not a plain word.
func ThisRow(name string) string {
	if plainName(name) {
		return "[@" + name + "]"
	}
	var b strings.Builder
	b.Grow(len(name) + 6)
	b.WriteString("[@[")
	for _, r := range name {
		switch r {
		case '[', ']', '#', '\'':
			b.WriteByte('\'')
		}
		b.WriteRune(r)
	}
	b.WriteString("]]")
	return b.String()
}

// plainName reports whether a column name can stand in a reference without
// its own brackets: letters, digits and underscores only.
func plainName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// ResolveThisRow replaces each this-row reference of formula (see ThisRow)
// by cell(name), the cell the name stands for on the row (A1 notation:
// "C7"). It returns false, and no formula, when cell has none for a name or
// a reference is malformed. String literals are left alone; a formula
// without references comes back as it is.
func ResolveThisRow(formula string, cell func(name string) (string, bool)) (string, bool) {
	if !strings.Contains(formula, "[@") {
		return formula, true
	}
	var b strings.Builder
	b.Grow(len(formula))
	for i := 0; i < len(formula); {
		switch c := formula[i]; {
		case c == '"':
			j := stringEnd(formula, i)
			b.WriteString(formula[i:j])
			i = j
		case strings.HasPrefix(formula[i:], "[@"):
			name, end, ok := thisRowName(formula, i+2)
			if !ok {
				return "", false
			}
			ref, ok := cell(name)
			if !ok {
				return "", false
			}
			b.WriteString(ref)
			i = end
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}

// stringEnd is the index just past the string literal that starts at i
// ("a ""quoted"" word"), or len(s) when it is not closed.
func stringEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] != '"' {
			continue
		}
		if j+1 < len(s) && s[j+1] == '"' {
			j++
			continue
		}
		return j + 1
	}
	return len(s)
}

// thisRowName reads the name of a this-row reference whose text after
// "[@" starts at i: name] or [escaped name]]. It returns the unescaped
// name and the index just past the reference.
func thisRowName(s string, i int) (string, int, bool) {
	bracketed := i < len(s) && s[i] == '['
	if bracketed {
		i++
	}
	var b strings.Builder
	for ; i < len(s); i++ {
		switch s[i] {
		case '\'':
			if i+1 == len(s) {
				return "", 0, false
			}
			i++
		case '[':
			return "", 0, false // unescaped
		case ']':
			if bracketed {
				if i+1 == len(s) || s[i+1] != ']' {
					return "", 0, false
				}
				i++
			}
			if b.Len() == 0 {
				return "", 0, false
			}
			return b.String(), i + 1, true
		}
		b.WriteByte(s[i])
	}
	return "", 0, false
}
