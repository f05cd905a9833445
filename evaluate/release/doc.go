// Package release is the floor on which a row of a release table becomes a
// typed release: the input vocabulary (Field, the contract's input columns
// with their names, aliases, domains and meanings, Vocabulary), and the
// mechanisms with the columns that define each (Mechanism, MechanismSpec),
// and the extra_stages cell read into the stages of a composed release
// (ParseStages).
// It knows nothing of output columns, bounds or files; evaluate/internal/resolve
// reads rows with it.
package release
