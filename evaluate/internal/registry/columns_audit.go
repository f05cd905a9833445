package registry

import (
	"github.com/riskbatch/riskbatch/evaluate/audit"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// The papers of the audit columns.
const (
	steinke     = "Steinke, Nasr & Jagielski 2023, \"Privacy Auditing with One (1) Training Run\" (NeurIPS)"
	mahloujifar = "Mahloujifar, Melis & Chaudhuri 2025, \"Auditing f-Differential Privacy in One Run\" (ICML; arXiv 2410.22235)"
	// auditMethods says which paper each method of the audit column
	// follows: one citation per paper, each starting with its authors.
	auditMethods = steinke + ", Thm 3 (Thm 5.2 with Prop 5.7 of arXiv 2305.08846), for membership; " +
		mahloujifar + ", the numerical audit of the (ε, δ) trade-off (their reference code's rh_with_cap recursion), for membership_fdp and reconstruction; " +
		swanberg + ", Thm 3.2, Cor 3.4 or Thm 3.5 inverted, for prior"
	// auditAssumes are the assumptions every audit column shares.
	auditAssumes = "one run; the canaries' secrets drawn independently (membership: inclusion probability ½; reconstruction: uniform over k options; prior: independent priors p_i), " +
		"neighbours that add or remove one canary (membership), change one canary's secret (membership_fdp, reconstruction) or replace one target (prior); the significance 1 − confidence divided among num_tests tests (Bonferroni)"
	auditNeeds = "audit; canaries, guesses and correct (reconstruction: options; prior: prior or targets with baseline, and successes); delta (default 0); confidence or significance (default --confidence); num_tests (default 1)"
	// auditSource is the short citation of the column table of docs/outputs.md.
	auditSource = "Steinke et al. 2023, Thm 3; Mahloujifar et al. 2025; Swanberg et al. 2025, Thm 3.2 / Cor 3.4 / Thm 3.5"
)

// auditColumns are the results of an audit row (audit filled): certified
// lower bounds on ε and μ from the attack's observed guesses, the p-value
// of a claimed ε and whether the audit refutes it, and the δ term used.
// They apply to audit rows only; the release columns do not apply to them.
func auditColumns() []OutputColumn {
	audits := []release.Mechanism{resolve.MechanismAudit}
	return inFamily("audit", []OutputColumn{
		{
			Name: "audit_eps_lb", Format: table.Real, Round: resolve.RoundDown,
			Brief: "certified lower bound on ε: every (ε′, δ)-DP claim with ε′ below it is refuted at the significance", Source: auditSource,
			Applies:  Applies{Mechanisms: audits},
			Meaning:  "the largest ε the observed guesses refute at the significance (1 − confidence)/num_tests: a lower bound, with that confidence, on the ε of any (ε, δ)-DP guarantee the audited run can have at the row's delta; 0 when nothing above 0 is refuted (the message says so)",
			Formula:  "sup{ε : p(ε) < β}, β = (1 − confidence)/num_tests, bracketed and bisected to 1e-9 and rounded down; p(ε) = Pr[Bin(r, e^ε/(1 + e^ε)) ≥ v] + 2·m·δ·max_i (Pr[≥ v − i] − Pr[≥ v])/i (membership); the f-DP recursion under f_{ε,δ} (membership_fdp: k = 2; reconstruction: k = options); the tail bound of audit_bound over the priors p_i (prior); closed form for δ = 0 and v = r: logit(β^{1/r})",
			Citation: auditMethods,
			Needs:    auditNeeds,
			Assumes:  auditAssumes + "; a lower bound, so rounded down",
			Compute:  fromLowerBound((*resolve.AuditRow).Epsilon),
		},
		{
			Name: "audit_mu_lb", Format: table.Real, Round: resolve.RoundDown,
			Brief: "certified lower bound on μ of μ-GDP (membership_fdp, reconstruction); an ε derived from it is not a lower bound on (ε, δ)-DP, so none is printed", Source: "Mahloujifar et al. 2025",
			Applies:  Applies{Mechanisms: audits, Only: OnlyAuditFDP},
			Meaning:  "the largest μ the observed guesses refute at the significance: a lower bound on the μ of any μ-GDP guarantee of the run. An ε derived from this μ (as some reference code reports) is not a lower bound on general (ε, δ)-DP, only on mechanisms whose whole trade-off curve is Gaussian, so riskbatch does not print one: audit_eps_lb is the (ε, δ) lower bound",
			Formula:  "sup{μ : the f-DP recursion refutes G_μ at β}, G_μ(x) = Φ(Φ⁻¹(1 − x) − μ), bracketed and bisected to 1e-9 and rounded down",
			Citation: mahloujifar + ", the numerical audit of a Gaussian trade-off (rh_with_cap)",
			Needs:    auditNeeds,
			Assumes:  auditAssumes + "; a lower bound, so rounded down",
			Compute:  fromLowerBound((*resolve.AuditRow).MuBound),
		},
		{
			Name: "audit_p_value", Format: table.Probability, Round: resolve.RoundUp,
			Brief: "p-value of the claim \"(epsilon, delta)-DP\" given the guesses (membership, prior)", Source: "Steinke et al. 2023, Thm 3; Swanberg et al. 2025",
			Applies:  Applies{Mechanisms: audits, Only: OnlyAuditTest, Asks: AskClaim},
			Meaning:  "the p-value of the claim that the run is (epsilon, delta)-DP, given the observed guesses: how likely so many correct guesses are under the claim, at most (rounded up). The f-DP recursion of membership_fdp and reconstruction is a decision without a p-value: see audit_claim_refuted",
			Formula:  "p(ε) of audit_eps_lb at the claimed ε, capped at 1",
			Citation: steinke + ", Thm 3; " + swanberg + ", Thm 3.2, Cor 3.4 or Thm 3.5",
			Needs:    auditNeeds + "; epsilon (the claim)",
			Assumes:  auditAssumes,
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				p, err := r.Audit.PValue(r.Audit.Claim)
				return p, resolve.AuditSkip(err)
			},
		},
		{
			Name: "audit_claim_refuted", Format: table.Count,
			Brief: "1 when the audit refutes the claimed epsilon at the significance (p-value below it), else 0", Source: auditSource,
			Applies:  Applies{Mechanisms: audits, Asks: AskClaim},
			Meaning:  "1 when the observed guesses refute the claim \"(epsilon, delta)-DP\" at the significance (1 − confidence)/num_tests, 0 when they do not (which does not confirm the claim)",
			Formula:  "p(ε) < β for membership and prior; the f-DP recursion's decision under f_{ε,δ} for membership_fdp and reconstruction",
			Citation: auditMethods,
			Needs:    auditNeeds + "; epsilon (the claim)",
			Assumes:  auditAssumes,
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				refuted, err := r.Audit.Refutes(r.Audit.Claim)
				if err != nil {
					return 0, resolve.AuditSkip(err)
				}
				if refuted {
					return 1, resolve.Skip{}
				}
				return 0, resolve.Skip{}
			},
		},
		{
			Name: "audit_delta_term", Format: table.Real,
			Brief: "what delta adds to the test's p-value, at most: 2·m·δ (membership), n·δ (prior with cor34 or thm35), 0 (thm32); compare it with the significance", Source: "Steinke et al. 2023, Thm 3; Swanberg et al. 2025, Cor 3.4, Thm 3.5",
			Applies:  Applies{Mechanisms: audits, Only: OnlyAuditTest},
			Meaning:  "the δ term of the test, the most that delta adds to its p-value: 2·m·δ for membership (m canaries, abstentions included), n·δ for prior with cor34 (n targets) and thm35 (times α ≤ 1), 0 for thm32 (the default audit_bound at delta 0; thm35 otherwise). When it is not small against the significance, δ alone uses up the evidence, and the message says so",
			Formula:  "2·m·δ (membership); n·δ (prior, cor34 and thm35); 0 (prior, thm32)",
			Citation: steinke + ", Thm 3; " + swanberg + ", Cor 3.4 and Thm 3.5",
			Needs:    auditNeeds,
			Assumes:  auditAssumes,
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return r.Audit.DeltaTerm() }),
		},
	})
}

// fromLowerBound computes a lower-bound column from the row's audit: the
// bound's value, with its warnings as the message's note.
func fromLowerBound(f func(*resolve.AuditRow) (audit.LowerBound, resolve.Skip)) func(*resolve.Release) (float64, resolve.Skip) {
	return func(r *resolve.Release) (float64, resolve.Skip) {
		lb, s := f(r.Audit)
		if !s.OK() {
			return 0, s
		}
		return lb.Value, resolve.Skip{Note: r.Audit.WarningsNote(lb.Warnings)}
	}
}
