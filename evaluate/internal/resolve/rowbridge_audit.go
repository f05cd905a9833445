package resolve

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/riskbatch/riskbatch/evaluate/audit"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/editdist"
)

// MechanismAudit marks an audit row: a row whose audit column names a
// method describes an attack on one training run (or release), not a
// release, and has no mechanism. Only the audit columns (columns_audit.go)
// apply to it; the release columns stay empty without a message.
const MechanismAudit release.Mechanism = "audit"

// AuditRow is the audit of an audit row: the method with its inputs, the
// claimed ε (epsilon), and the lower bounds, computed once for the columns
// that share them.
type AuditRow struct {
	audit.Audit
	Claim    float64
	HasClaim bool
	eps, mu  lowerBound
}

// lowerBound is a lower bound once computed, or why there is none.
type lowerBound struct {
	done bool
	lb   audit.LowerBound
	s    Skip
}

// FDP reports whether the method is the f-DP recursion (no p-value, a μ
// bound).
func (a *AuditRow) FDP() bool {
	return a.Method == audit.MembershipFDP || a.Method == audit.Reconstruction
}

// Epsilon returns the ε lower bound (audit_eps_lb), computed once.
func (a *AuditRow) Epsilon() (audit.LowerBound, Skip) {
	return a.eps.get(a.EpsilonLowerBound)
}

// MuBound returns the μ lower bound (audit_mu_lb), computed once.
func (a *AuditRow) MuBound() (audit.LowerBound, Skip) {
	return a.mu.get(a.MuLowerBound)
}

func (l *lowerBound) get(f func() (audit.LowerBound, error)) (audit.LowerBound, Skip) {
	if !l.done {
		lb, err := f()
		l.lb, l.s, l.done = lb, AuditSkip(err), true
	}
	return l.lb, l.s
}

// AuditSkip turns an error of the audit package into the reason a column
// is empty: resolve checks the inputs, so that it is a defect or a limit
// of the search, reported as a fault of the row.
func AuditSkip(err error) Skip {
	if err == nil {
		return Skip{}
	}
	return Skip{Why: err.Error(), Fault: true}
}

// WarningsNote is the message note of a lower bound's warnings: too few
// canaries, or targets for audit prior (which implies that nothing is
// certified), nothing certified, a large δ term.
func (a *AuditRow) WarningsNote(ws []audit.Warning) string {
	var notes []string
	few := false
	for _, w := range ws {
		few = few || w.Kind == audit.TooFewCanaries
	}
	for _, w := range ws {
		switch {
		case few && w.Kind == audit.NothingCertified:
			continue
		case w.Kind == audit.TooFewCanaries && a.Method == audit.Prior:
			notes = append(notes, "too few targets: even all of them right would not certify a bound above 0")
		default:
			notes = append(notes, w.Message)
		}
	}
	return strings.Join(notes, "; ")
}

// DeltaTerm returns the constant of the δ term the method's test adds to
// its p-value: 2·m·δ for membership (Steinke et al., times α ≤ 1), n·δ for
// prior with Cor 3.4 (times α ≤ 1 with Thm 3.5), 0 with Thm 3.2.
func (a *AuditRow) DeltaTerm() float64 {
	switch {
	case a.Method == audit.Membership:
		return 2 * float64(a.Counts.Canaries) * a.Delta
	case a.Bound == audit.Thm32:
		return 0
	}
	return float64(len(a.Priors)) * a.Delta
}

// auditOnly returns the inputs only audit rows use: a release row that
// fills one is an error, since its value would otherwise be ignored.
func auditOnly() []release.Field {
	return []release.Field{release.FieldCanaries, release.FieldGuesses, release.FieldCorrect, release.FieldOptions, release.FieldNumTests, release.FieldAuditBound}
}

// checkAuditOnly reports, as one problem, the audit inputs a release row
// (one without audit) fills.
func (b *Header) checkAuditOnly(in *Inputs, problems *RowError) bool {
	var names []string
	for _, f := range auditOnly() {
		if in.Has(f) {
			names = append(names, b.Name(f))
		}
	}
	if len(names) == 0 {
		return true
	}
	them := "it"
	if len(names) > 1 {
		them = "them"
	}
	problems.Add(strings.Join(names, ", "), "", "filled, but only audit rows use %s; fill %s (membership, membership_fdp, reconstruction or prior) or clear %s",
		them, b.Name(release.FieldAudit), them)
	return false
}

// auditInputs are the inputs an audit row of a method uses; every other
// filled input is an error of the row (see checkAuditColumns).
func auditInputs(m audit.Method) []release.Field {
	common := []release.Field{release.FieldID, release.FieldAudit, release.FieldEpsilon, release.FieldDelta, release.FieldConfidence, release.FieldSignificance, release.FieldNumTests}
	switch m {
	case audit.Prior:
		return append(common, release.FieldBaseline, release.FieldCandidates, release.FieldPrior, release.FieldTargets, release.FieldSuccesses, release.FieldAuditBound)
	default:
		return append(common, release.FieldCanaries, release.FieldGuesses, release.FieldCorrect, release.FieldOptions)
	}
}

// auditRequires are the inputs an audit row of a method cannot do
// without (prior also needs the targets' priors: see resolveAuditPriors).
func auditRequires(m audit.Method) []release.Field {
	switch m {
	case audit.Prior:
		return []release.Field{release.FieldSuccesses}
	case audit.Reconstruction:
		return []release.Field{release.FieldCanaries, release.FieldGuesses, release.FieldCorrect, release.FieldOptions}
	}
	return []release.Field{release.FieldCanaries, release.FieldGuesses, release.FieldCorrect}
}

// resolveAudit turns the inputs of an audit row (audit filled) into a
// Release of mechanism MechanismAudit, or explains why it cannot: the
// method, the inputs it uses and needs, the significance of its test, and
// its counts or priors. r must be zero (see ResolveInto).
func (b *Header) resolveAudit(r *Release, in *Inputs, problems *RowError) *Release {
	method, err := parseAuditMethod(in.Text[release.FieldAudit])
	if err != nil {
		problems.AddErr(b.Name(release.FieldAudit), in.Text[release.FieldAudit], err)
		return nil
	}
	if !b.checkAuditColumns(method, in, problems) {
		return nil
	}
	conf, ok := b.rowConfidence(in, problems)
	if !ok {
		return nil
	}
	sig := 1 - conf
	if in.Has(release.FieldSignificance) {
		sig = in.Num[release.FieldSignificance] // as written: 1 − (1 − s) may not be s
	}
	beta, err := audit.PerTest(sig, int(in.NumOr(release.FieldNumTests, 1)))
	if err != nil {
		problems.AddErr(b.Name(release.FieldNumTests), in.Value(release.FieldNumTests), err)
		return nil
	}
	r.Mechanism, r.Compositions = MechanismAudit, 1
	r.Confidence = conf
	r.HasDelta, r.Delta = in.Has(release.FieldDelta), in.Num[release.FieldDelta]
	a := &AuditRow{Audit: audit.Audit{Method: method, Delta: r.Delta, Significance: beta},
		Claim: in.Num[release.FieldEpsilon], HasClaim: in.Has(release.FieldEpsilon)}
	if method == audit.Prior {
		if !b.resolveAuditPriors(r, a, in, problems) {
			return nil
		}
	} else if !b.resolveAuditCounts(a, in, problems) {
		return nil
	}
	r.Audit = a
	return r
}

// checkAuditColumns checks that an audit row fills only inputs its method
// uses (one problem naming them all) and every input it needs.
func (b *Header) checkAuditColumns(m audit.Method, in *Inputs, problems *RowError) bool {
	uses := auditInputs(m)
	anyAudit := append(auditInputs(audit.Prior), auditInputs(audit.Membership)...)
	var extra []string
	releaseRow := false // a filled input no audit uses: the row may be a release
	for f := release.Field(0); f < release.NumFields; f++ {
		if in.Has(f) && !slices.Contains(uses, f) {
			extra = append(extra, b.Name(f))
			releaseRow = releaseRow || !slices.Contains(anyAudit, f)
		}
	}
	if len(extra) > 0 {
		them := "it"
		if len(extra) > 1 {
			them = "them"
		}
		fix := fmt.Sprintf("clear %s or correct %s", them, b.Name(release.FieldAudit))
		if releaseRow {
			fix = fmt.Sprintf("clear %s, or clear %s if the row is a release", them, b.Name(release.FieldAudit))
		}
		problems.Add(strings.Join(extra, ", "), "", "filled, but audit %s does not use %s; %s", m, them, fix)
		return false
	}
	for _, f := range auditRequires(m) {
		if !in.Has(f) {
			problems.Add(b.Name(f), "", "empty, but audit %s needs it; expected %s", m, b.vocab.Column(f).Domain)
		}
	}
	if in.Has(release.FieldOptions) && m != audit.Reconstruction && in.Num[release.FieldOptions] != 2 {
		problems.Add(b.Name(release.FieldOptions), in.Value(release.FieldOptions), "%s, but audit %s has 2 options (in or out); expected 2, or audit reconstruction for k options",
			in.Value(release.FieldOptions), m)
	}
	return len(*problems) == 0
}

// resolveAuditCounts reads the counts of a membership, membership_fdp or
// reconstruction audit: 0 ≤ correct ≤ guesses ≤ canaries.
func (b *Header) resolveAuditCounts(a *AuditRow, in *Inputs, problems *RowError) bool {
	c := audit.Counts{Canaries: int(in.Num[release.FieldCanaries]), Guesses: int(in.Num[release.FieldGuesses]), Correct: int(in.Num[release.FieldCorrect])}
	if c.Guesses > c.Canaries {
		problems.Add(b.Name(release.FieldGuesses), in.Value(release.FieldGuesses), "%d is more than %s = %d; expected 0 ≤ %s ≤ %s",
			c.Guesses, b.Name(release.FieldCanaries), c.Canaries, b.Name(release.FieldGuesses), b.Name(release.FieldCanaries))
	}
	if c.Correct > c.Guesses {
		problems.Add(b.Name(release.FieldCorrect), in.Value(release.FieldCorrect), "%d is more than %s = %d; expected 0 ≤ %s ≤ %s",
			c.Correct, b.Name(release.FieldGuesses), c.Guesses, b.Name(release.FieldCorrect), b.Name(release.FieldGuesses))
	}
	a.Counts, a.Options = c, int(in.NumOr(release.FieldOptions, 2))
	return len(*problems) == 0
}

// resolveAuditPriors reads the targets of a prior audit as a one-run tail
// row reads them (resolveBaseline: a prior key or inline prior, or targets
// with baseline or candidates, which must agree), its successes and its
// tail bound (audit_bound, by default Thm 3.2 at δ = 0 and Thm 3.5
// otherwise).
func (b *Header) resolveAuditPriors(r *Release, a *AuditRow, in *Inputs, problems *RowError) bool {
	if !b.resolveBaseline(r, in, problems) {
		return false
	}
	switch {
	case r.HasPrior:
		r.Targets = r.Prior.Targets()
	case in.Has(release.FieldTargets) && r.HasBaseline:
		r.Targets = int(in.Num[release.FieldTargets])
	case in.Has(release.FieldTargets):
		problems.Add(b.Name(release.FieldBaseline), "", "empty, but audit prior needs the targets' prior success; fill %s (or %s), or %s instead of %s",
			b.Name(release.FieldBaseline), b.Name(release.FieldCandidates), b.Name(release.FieldPrior), b.Name(release.FieldTargets))
		return false
	default:
		problems.Add(b.Name(release.FieldPrior), "", "empty, but audit prior needs the targets and their prior success; fill %s, or %s with %s (or %s)",
			b.Name(release.FieldPrior), b.Name(release.FieldTargets), b.Name(release.FieldBaseline), b.Name(release.FieldCandidates))
		return false
	}
	if r.Targets > maxTailTargets {
		problems.Add(b.Name(release.FieldPrior), in.Value(release.FieldPrior), "%d targets are more than the %d an audit evaluates", r.Targets, maxTailTargets)
		return false
	}
	if !b.resolveSuccesses(r, in, problems) {
		return false
	}
	which, err := parseAuditBound(in.Text[release.FieldAuditBound], r.Delta)
	if err != nil {
		problems.AddErr(b.Name(release.FieldAuditBound), in.Text[release.FieldAuditBound], err)
		return false
	}
	if which == audit.Thm32 && r.Delta > 0 {
		problems.Add(b.Name(release.FieldAuditBound), in.Text[release.FieldAuditBound], "thm32 is for pure ε-DP, but %s = %s; expected cor34 or thm35, or %s 0",
			b.Name(release.FieldDelta), FormatNumber(r.Delta), b.Name(release.FieldDelta))
		return false
	}
	if r.HasPrior {
		a.Priors = r.Prior.Ps()
	} else {
		a.Priors = make([]float64, r.Targets)
		for i := range a.Priors {
			a.Priors[i] = r.Baseline
		}
	}
	a.Successes, a.Bound = r.Successes, which
	return true
}

// rowConfidence returns the confidence of the row: confidence, or 1 −
// significance, or the evaluator's; a row with both must agree.
func (b *Header) rowConfidence(in *Inputs, problems *RowError) (float64, bool) {
	if !in.Has(release.FieldSignificance) {
		return in.NumOr(release.FieldConfidence, b.Confidence()), true
	}
	sig := in.Num[release.FieldSignificance]
	if in.Has(release.FieldConfidence) {
		conf := in.Num[release.FieldConfidence]
		if math.Abs(1-conf-sig) > 1e-12 {
			problems.Add(b.Name(release.FieldSignificance), in.Value(release.FieldSignificance), "%s disagrees with %s = %s (1 − %s = %s); fill one or the other",
				FormatNumber(sig), b.Name(release.FieldConfidence), FormatNumber(conf), b.Name(release.FieldConfidence), FormatNumber(1-conf))
			return 0, false
		}
		return conf, true
	}
	return 1 - sig, true
}

// AuditMethods returns the methods of the audit column, for drop-downs
// and messages.
func AuditMethods() []string {
	return []string{audit.Membership.String(), audit.MembershipFDP.String(), audit.Reconstruction.String(), audit.Prior.String()}
}

// AuditBounds returns the tail bounds of the audit_bound column.
func AuditBounds() []string { return []string{"thm32", "cor34", "thm35"} }

// parseAuditMethod reads the audit column, spelled as headers may be
// ("Membership FDP" is membership_fdp), suggesting the nearest method for
// a typo.
func parseAuditMethod(s string) (audit.Method, error) {
	name := release.CanonicalName(s)
	if m, err := audit.ParseMethod(name); err == nil {
		return m, nil
	}
	names := AuditMethods()
	best, bestD := "", 3
	for _, n := range names {
		if d := editdist.Distance(name, n, 2); d < bestD {
			best, bestD = n, d
		}
	}
	if best != "" {
		return 0, fmt.Errorf("%s is not an audit method; did you mean %s?", release.QuoteClipped(s), best)
	}
	return 0, fmt.Errorf("%s is not an audit method; expected %s or %s", release.QuoteClipped(s), strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// errBound is the error of an audit_bound cell that names no bound.
var errBound = errors.New("expected thm32, cor34 or thm35 (Swanberg et al. 2025, Thm 3.2, Cor 3.4, Thm 3.5)")

// parseAuditBound reads the audit_bound column: thm32, cor34 or thm35,
// also written "Thm 3.2", "theorem 3.5" or "Cor. 3.4"; empty gives the
// default for δ (audit.DefaultBound).
func parseAuditBound(s string, delta float64) (audit.Bound, error) {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	key := strings.NewReplacer("theorem", "thm", "corollary", "cor").Replace(b.String())
	if s != "" && key == "" {
		return 0, fmt.Errorf("%s: %w", release.QuoteClipped(s), errBound)
	}
	which, err := audit.ParseBound(key, delta)
	if err != nil {
		return 0, fmt.Errorf("%s is not a bound; %w", release.QuoteClipped(s), errBound)
	}
	return which, nil
}
