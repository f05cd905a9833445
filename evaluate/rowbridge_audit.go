package evaluate

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/riskbatch/riskbatch/evaluate/audit"
	"github.com/riskbatch/riskbatch/internal/editdist"
)

// MechanismAudit marks an audit row: a row whose audit column names a
// method describes an attack on one training run (or release), not a
// release, and has no mechanism. Only the audit columns (columns_audit.go)
// apply to it; the release columns stay empty without a message.
const MechanismAudit Mechanism = "audit"

// auditRow is the audit of an audit row: the method with its inputs, the
// claimed ε (epsilon), and the lower bounds, computed once for the columns
// that share them.
type auditRow struct {
	audit.Audit
	claim    float64
	hasClaim bool
	eps, mu  lowerBound
}

// lowerBound is a lower bound once computed, or why there is none.
type lowerBound struct {
	done bool
	lb   audit.LowerBound
	s    skip
}

// fdp reports whether the method is the f-DP recursion (no p-value, a μ
// bound).
func (a *auditRow) fdp() bool {
	return a.Method == audit.MembershipFDP || a.Method == audit.Reconstruction
}

// epsilon returns the ε lower bound (audit_eps_lb), computed once.
func (a *auditRow) epsilon() (audit.LowerBound, skip) {
	return a.eps.get(a.EpsilonLowerBound)
}

// muBound returns the μ lower bound (audit_mu_lb), computed once.
func (a *auditRow) muBound() (audit.LowerBound, skip) {
	return a.mu.get(a.MuLowerBound)
}

func (l *lowerBound) get(f func() (audit.LowerBound, error)) (audit.LowerBound, skip) {
	if !l.done {
		lb, err := f()
		l.lb, l.s, l.done = lb, auditSkip(err), true
	}
	return l.lb, l.s
}

// auditSkip turns an error of the audit package into the reason a column
// is empty: resolve checks the inputs, so that it is a defect or a limit
// of the search, reported as a fault of the row.
func auditSkip(err error) skip {
	if err == nil {
		return skip{}
	}
	return skip{why: err.Error(), fault: true}
}

// warningsNote is the message note of a lower bound's warnings: too few
// canaries, or targets for audit prior (which implies that nothing is
// certified), nothing certified, a large δ term.
func (a *auditRow) warningsNote(ws []audit.Warning) string {
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

// deltaTerm returns the constant of the δ term the method's test adds to
// its p-value: 2·m·δ for membership (Steinke et al., times α ≤ 1), n·δ for
// prior with Cor 3.4 (times α ≤ 1 with Thm 3.5), 0 with Thm 3.2.
func (a *auditRow) deltaTerm() float64 {
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
func auditOnly() []Field {
	return []Field{FieldCanaries, FieldGuesses, FieldCorrect, FieldOptions, FieldNumTests, FieldAuditBound}
}

// checkAuditOnly reports, as one problem, the audit inputs a release row
// (one without audit) fills.
func (b *Binding) checkAuditOnly(in *inputs, problems *rowError) bool {
	var names []string
	for _, f := range auditOnly() {
		if in.has(f) {
			names = append(names, b.name(f))
		}
	}
	if len(names) == 0 {
		return true
	}
	them := "it"
	if len(names) > 1 {
		them = "them"
	}
	problems.add(strings.Join(names, ", "), "", "filled, but only audit rows use %s; fill %s (membership, membership_fdp, reconstruction or prior) or clear %s",
		them, b.name(FieldAudit), them)
	return false
}

// auditInputs are the inputs an audit row of a method uses; every other
// filled input is an error of the row (see checkAuditColumns).
func auditInputs(m audit.Method) []Field {
	common := []Field{FieldID, FieldAudit, FieldEpsilon, FieldDelta, FieldConfidence, FieldSignificance, FieldNumTests}
	switch m {
	case audit.Prior:
		return append(common, FieldBaseline, FieldCandidates, FieldPrior, FieldTargets, FieldSuccesses, FieldAuditBound)
	default:
		return append(common, FieldCanaries, FieldGuesses, FieldCorrect, FieldOptions)
	}
}

// auditRequires are the inputs an audit row of a method cannot do
// without (prior also needs the targets' priors: see resolveAuditPriors).
func auditRequires(m audit.Method) []Field {
	switch m {
	case audit.Prior:
		return []Field{FieldSuccesses}
	case audit.Reconstruction:
		return []Field{FieldCanaries, FieldGuesses, FieldCorrect, FieldOptions}
	}
	return []Field{FieldCanaries, FieldGuesses, FieldCorrect}
}

// resolveAudit turns the inputs of an audit row (audit filled) into a
// Release of mechanism MechanismAudit, or explains why it cannot: the
// method, the inputs it uses and needs, the significance of its test, and
// its counts or priors. r must be zero (see resolveInto).
func (b *Binding) resolveAudit(r *Release, in *inputs, problems *rowError) *Release {
	method, err := parseAuditMethod(in.text[FieldAudit])
	if err != nil {
		problems.addErr(b.name(FieldAudit), in.text[FieldAudit], err)
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
	if in.has(FieldSignificance) {
		sig = in.num[FieldSignificance] // as written: 1 − (1 − s) may not be s
	}
	beta, err := audit.PerTest(sig, int(in.numOr(FieldNumTests, 1)))
	if err != nil {
		problems.addErr(b.name(FieldNumTests), in.value(FieldNumTests), err)
		return nil
	}
	r.Mechanism, r.compositions = MechanismAudit, 1
	r.Confidence = conf
	r.hasDelta, r.delta = in.has(FieldDelta), in.num[FieldDelta]
	a := &auditRow{Audit: audit.Audit{Method: method, Delta: r.delta, Significance: beta},
		claim: in.num[FieldEpsilon], hasClaim: in.has(FieldEpsilon)}
	if method == audit.Prior {
		if !b.resolveAuditPriors(r, a, in, problems) {
			return nil
		}
	} else if !b.resolveAuditCounts(a, in, problems) {
		return nil
	}
	r.audit = a
	return r
}

// checkAuditColumns checks that an audit row fills only inputs its method
// uses (one problem naming them all) and every input it needs.
func (b *Binding) checkAuditColumns(m audit.Method, in *inputs, problems *rowError) bool {
	uses := auditInputs(m)
	anyAudit := append(auditInputs(audit.Prior), auditInputs(audit.Membership)...)
	var extra []string
	release := false // a filled input no audit uses: the row may be a release
	for f := Field(0); f < numFields; f++ {
		if in.has(f) && !hasField(uses, f) {
			extra = append(extra, b.name(f))
			release = release || !hasField(anyAudit, f)
		}
	}
	if len(extra) > 0 {
		them := "it"
		if len(extra) > 1 {
			them = "them"
		}
		fix := fmt.Sprintf("clear %s or correct %s", them, b.name(FieldAudit))
		if release {
			fix = fmt.Sprintf("clear %s, or clear %s if the row is a release", them, b.name(FieldAudit))
		}
		problems.add(strings.Join(extra, ", "), "", "filled, but audit %s does not use %s; %s", m, them, fix)
		return false
	}
	for _, f := range auditRequires(m) {
		if !in.has(f) {
			problems.add(b.name(f), "", "empty, but audit %s needs it; expected %s", m, b.vocab.Column(f).Domain)
		}
	}
	if in.has(FieldOptions) && m != audit.Reconstruction && in.num[FieldOptions] != 2 {
		problems.add(b.name(FieldOptions), in.value(FieldOptions), "%s, but audit %s has 2 options (in or out); expected 2, or audit reconstruction for k options",
			in.value(FieldOptions), m)
	}
	return len(*problems) == 0
}

// resolveAuditCounts reads the counts of a membership, membership_fdp or
// reconstruction audit: 0 ≤ correct ≤ guesses ≤ canaries.
func (b *Binding) resolveAuditCounts(a *auditRow, in *inputs, problems *rowError) bool {
	c := audit.Counts{Canaries: int(in.num[FieldCanaries]), Guesses: int(in.num[FieldGuesses]), Correct: int(in.num[FieldCorrect])}
	if c.Guesses > c.Canaries {
		problems.add(b.name(FieldGuesses), in.value(FieldGuesses), "%d is more than %s = %d; expected 0 ≤ %s ≤ %s",
			c.Guesses, b.name(FieldCanaries), c.Canaries, b.name(FieldGuesses), b.name(FieldCanaries))
	}
	if c.Correct > c.Guesses {
		problems.add(b.name(FieldCorrect), in.value(FieldCorrect), "%d is more than %s = %d; expected 0 ≤ %s ≤ %s",
			c.Correct, b.name(FieldGuesses), c.Guesses, b.name(FieldCorrect), b.name(FieldGuesses))
	}
	a.Counts, a.Options = c, int(in.numOr(FieldOptions, 2))
	return len(*problems) == 0
}

// resolveAuditPriors reads the targets of a prior audit as a one-run tail
// row reads them (resolveBaseline: a prior key or inline prior, or targets
// with baseline or candidates, which must agree), its successes and its
// tail bound (audit_bound, by default Thm 3.2 at δ = 0 and Thm 3.5
// otherwise).
func (b *Binding) resolveAuditPriors(r *Release, a *auditRow, in *inputs, problems *rowError) bool {
	if !b.resolveBaseline(r, in, problems) {
		return false
	}
	switch {
	case r.HasPrior:
		r.Targets = r.Prior.Targets()
	case in.has(FieldTargets) && r.HasBaseline:
		r.Targets = int(in.num[FieldTargets])
	case in.has(FieldTargets):
		problems.add(b.name(FieldBaseline), "", "empty, but audit prior needs the targets' prior success; fill %s (or %s), or %s instead of %s",
			b.name(FieldBaseline), b.name(FieldCandidates), b.name(FieldPrior), b.name(FieldTargets))
		return false
	default:
		problems.add(b.name(FieldPrior), "", "empty, but audit prior needs the targets and their prior success; fill %s, or %s with %s (or %s)",
			b.name(FieldPrior), b.name(FieldTargets), b.name(FieldBaseline), b.name(FieldCandidates))
		return false
	}
	if r.Targets > maxTailTargets {
		problems.add(b.name(FieldPrior), in.value(FieldPrior), "%d targets are more than the %d an audit evaluates", r.Targets, maxTailTargets)
		return false
	}
	if !b.resolveSuccesses(r, in, problems) {
		return false
	}
	which, err := parseAuditBound(in.text[FieldAuditBound], r.delta)
	if err != nil {
		problems.addErr(b.name(FieldAuditBound), in.text[FieldAuditBound], err)
		return false
	}
	if which == audit.Thm32 && r.delta > 0 {
		problems.add(b.name(FieldAuditBound), in.text[FieldAuditBound], "thm32 is for pure ε-DP, but %s = %s; expected cor34 or thm35, or %s 0",
			b.name(FieldDelta), formatNumber(r.delta), b.name(FieldDelta))
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
func (b *Binding) rowConfidence(in *inputs, problems *rowError) (float64, bool) {
	if !in.has(FieldSignificance) {
		return in.numOr(FieldConfidence, b.confidence()), true
	}
	sig := in.num[FieldSignificance]
	if in.has(FieldConfidence) {
		conf := in.num[FieldConfidence]
		if math.Abs(1-conf-sig) > 1e-12 {
			problems.add(b.name(FieldSignificance), in.value(FieldSignificance), "%s disagrees with %s = %s (1 − %s = %s); fill one or the other",
				formatNumber(sig), b.name(FieldConfidence), formatNumber(conf), b.name(FieldConfidence), formatNumber(1-conf))
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
	name := CanonicalName(s)
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
		return 0, fmt.Errorf("%s is not an audit method; did you mean %s?", quoteClipped(s), best)
	}
	return 0, fmt.Errorf("%s is not an audit method; expected %s or %s", quoteClipped(s), strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
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
		return 0, fmt.Errorf("%s: %w", quoteClipped(s), errBound)
	}
	which, err := audit.ParseBound(key, delta)
	if err != nil {
		return 0, fmt.Errorf("%s is not a bound; %w", quoteClipped(s), errBound)
	}
	return which, nil
}
