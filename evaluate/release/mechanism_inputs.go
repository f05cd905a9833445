package release

// MechanismInputs returns the input columns (the contract's names) a row of
// the named mechanism may fill with its parameters: the columns that define
// it, then the modifiers it accepts (delta, sensitivity, compositions …), in
// the registry's order, each once. It returns nil for an unknown name. The
// page of riskbatch serve builds its one-release form from it.
func MechanismInputs(name string) []string {
	specs := MechanismSpecs()
	idx := MechanismIndex(specs)
	i, ok := idx[CanonicalName(name)]
	if !ok {
		return nil
	}
	vocab := NewVocabulary()
	seen := map[Field]bool{}
	var names []string
	for _, fs := range [][]Field{specs[i].Required, specs[i].Defines, specs[i].Modifiers} {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				names = append(names, vocab.Column(f).Name)
			}
		}
	}
	return names
}
