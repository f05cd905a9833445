package build

import "slices"

// WrittenHeader reports whether names is the header of a table of
// Result.Outputs (as priorfiles.WriteResult writes them): a prior table, a
// frequency table or a summary, with any columns of known values or
// sources they insert. A program
// recognises its own CSV and TSV prior tables by it (they have no room
// for another mark), to replace them without asking.
func WrittenHeader(names []string) bool {
	for _, o := range (&Result{}).Outputs() {
		fixed := make([]string, len(o.Columns))
		for i, c := range o.Columns {
			fixed[i] = c.Name
		}
		if fixedAround(names, fixed) {
			return true
		}
	}
	return false
}

// fixedAround reports whether names is fixed with columns (none or more)
// inserted at one place.
func fixedAround(names, fixed []string) bool {
	if len(names) < len(fixed) {
		return false
	}
	for k := 0; k <= len(fixed); k++ {
		if slices.Equal(names[:k], fixed[:k]) && slices.Equal(names[len(names)-(len(fixed)-k):], fixed[k:]) {
			return true
		}
	}
	return false
}
