package evaluate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/internal/editdist"
)

// Mechanism names the privacy accounting a release row describes.
type Mechanism string

// The mechanisms of the contract.
const (
	MechanismPure      Mechanism = "pure"      // ε-DP
	MechanismApprox    Mechanism = "approx"    // (ε, δ)-DP
	MechanismGaussian  Mechanism = "gaussian"  // Gaussian noise σ on a query of L2 sensitivity Δ
	MechanismGDP       Mechanism = "gdp"       // μ-Gaussian DP
	MechanismLaplace   Mechanism = "laplace"   // Laplace noise of scale b
	MechanismZCDP      Mechanism = "zcdp"      // ρ-zCDP
	MechanismRDP       Mechanism = "rdp"       // one Rényi-DP guarantee (α, ε_α)
	MechanismRR        Mechanism = "rr"        // k-ary randomized response
	MechanismDPSGD     Mechanism = "dpsgd"     // Poisson-subsampled Gaussian, composed over steps
	MechanismMarginals Mechanism = "marginals" // noisy k-way marginals
	// MechanismExponential is the ε-DP exponential mechanism (McSherry &
	// Talwar 2007) with a loss of sensitivity Δ: as a curve it is pure
	// ε-DP; with pmp_data its exact practical membership privacy is
	// computed (Lowy et al. 2024, Prop. 9).
	MechanismExponential Mechanism = "exponential"
)

// mechanismSpec says which input columns define a mechanism and which
// others it accepts.
type mechanismSpec struct {
	name      Mechanism
	aliases   []string
	signature []Field // filling any of these suggests the mechanism
	required  []Field
	defines   []Field // defining columns it uses (signature plus shared ones)
	modifiers []Field // non-defining parameter columns it accepts
}

func mechanismSpecs() []mechanismSpec {
	return []mechanismSpec{
		{name: MechanismPure, aliases: []string{"epsilon", "eps", "pure_dp", "epsilon_dp"},
			signature: []Field{FieldEpsilon}, required: []Field{FieldEpsilon}, defines: []Field{FieldEpsilon},
			modifiers: []Field{FieldDelta, FieldCompositions}},
		{name: MechanismApprox, aliases: []string{"approximate", "epsilon_delta", "eps_delta", "adp", "approx_dp"},
			signature: []Field{FieldEpsilon}, required: []Field{FieldEpsilon}, defines: []Field{FieldEpsilon},
			modifiers: []Field{FieldDelta, FieldCompositions}},
		// sigma, or epsilon and delta to calibrate it (resolve checks).
		{name: MechanismGaussian, aliases: []string{"gauss", "gaussian_mechanism"},
			signature: []Field{FieldSigma, FieldCalibration}, defines: []Field{FieldSigma, FieldMu, FieldEpsilon},
			modifiers: []Field{FieldSensitivity, FieldDelta, FieldCompositions, FieldCalibration}},
		{name: MechanismGDP, aliases: []string{"mu_gdp", "gaussian_dp", "f_dp_gaussian"},
			signature: []Field{FieldMu}, required: []Field{FieldMu}, defines: []Field{FieldMu},
			modifiers: []Field{FieldDelta, FieldCompositions}},
		// laplace_scale, or epsilon with b = sensitivity/ε (resolve checks).
		{name: MechanismLaplace, signature: []Field{FieldLaplaceScale},
			defines: []Field{FieldLaplaceScale, FieldEpsilon}, modifiers: []Field{FieldSensitivity, FieldDelta, FieldCompositions}},
		{name: MechanismZCDP, aliases: []string{"zcdp_rho", "rho_zcdp"}, signature: []Field{FieldRho}, required: []Field{FieldRho},
			defines: []Field{FieldRho}, modifiers: []Field{FieldDelta, FieldCompositions}},
		{name: MechanismRDP, aliases: []string{"renyi", "renyi_dp"}, signature: []Field{FieldRDPOrder, FieldRDPEpsilon},
			required: []Field{FieldRDPOrder, FieldRDPEpsilon}, defines: []Field{FieldRDPOrder, FieldRDPEpsilon},
			modifiers: []Field{FieldDelta, FieldCompositions}},
		{name: MechanismRR, aliases: []string{"randomized_response", "randomised_response"}, signature: []Field{FieldRRCategories},
			required: []Field{FieldEpsilon, FieldRRCategories}, defines: []Field{FieldEpsilon, FieldRRCategories},
			modifiers: []Field{FieldDelta, FieldCompositions}},
		// sample_rate or batch_size and dataset_size, steps or epochs
		// (resolve checks).
		{name: MechanismDPSGD, aliases: []string{"dp_sgd"},
			signature: []Field{FieldNoiseMultiplier, FieldSampleRate, FieldSteps, FieldBatchSize, FieldDatasetSize, FieldEpochs},
			required:  []Field{FieldNoiseMultiplier},
			defines:   []Field{FieldNoiseMultiplier, FieldSampleRate, FieldSteps, FieldBatchSize, FieldDatasetSize, FieldEpochs}, modifiers: []Field{FieldDelta}},
		{name: MechanismMarginals, aliases: []string{"marginal", "k_way_marginals"},
			signature: []Field{FieldMarginalK, FieldColumnsTotal, FieldColumnsUnknown},
			required:  []Field{FieldMarginalK, FieldColumnsTotal, FieldColumnsUnknown, FieldSigma},
			defines:   []Field{FieldMarginalK, FieldColumnsTotal, FieldColumnsUnknown, FieldSigma}, modifiers: []Field{FieldDelta}},
		// Named only (its ε looks like a pure row's): never inferred.
		{name: MechanismExponential, aliases: []string{"exponential_mechanism", "em"},
			required: []Field{FieldEpsilon}, defines: []Field{FieldEpsilon}, modifiers: []Field{FieldSensitivity, FieldDelta, FieldCompositions}},
	}
}

// mechanismNames lists the contract's mechanism names for messages.
func mechanismNames(specs []mechanismSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.name)
	}
	return strings.Join(names, ", ")
}

// MechanismNames returns the contract's mechanism names, in contract order.
func MechanismNames() []string {
	specs := mechanismSpecs()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.name)
	}
	return names
}

// mechanismIndex maps every canonical mechanism name and alias to its
// spec's index: rows name their mechanism, and canonicalising every name
// and alias for every row would cost more than many bounds.
func mechanismIndex(specs []mechanismSpec) map[string]int {
	index := map[string]int{}
	for i, s := range specs {
		index[CanonicalName(string(s.name))] = i
		for _, a := range s.aliases {
			index[CanonicalName(a)] = i
		}
	}
	return index
}

// lookupMechanism finds a spec by name or alias (canonicalised as headers
// are); index is mechanismIndex(specs).
func lookupMechanism(specs []mechanismSpec, index map[string]int, name string) (*mechanismSpec, error) {
	// The common spellings ("pure", "gaussian") are canonical already.
	if i, ok := index[name]; ok {
		return &specs[i], nil
	}
	if i, ok := index[CanonicalName(name)]; ok {
		return &specs[i], nil
	}
	if near := closestMechanism(specs, name); near != "" {
		return nil, fmt.Errorf("%s is not a mechanism; did you mean %s?", quoteClipped(name), near)
	}
	return nil, fmt.Errorf("%s is not a mechanism; expected one of %s", quoteClipped(name), mechanismNames(specs))
}

// closestMechanism returns the mechanism whose name or alias is nearest to
// name (at most two edits, or one for short names), or "".
func closestMechanism(specs []mechanismSpec, name string) string {
	c := CanonicalName(name)
	limit := 2
	if utf8.RuneCountInString(c) <= 4 {
		limit = 1
	}
	best, bestD := "", limit+1
	for _, s := range specs {
		for _, n := range append([]string{string(s.name)}, s.aliases...) {
			if d := editdist.Distance(c, CanonicalName(n), limit); d < bestD {
				best, bestD = string(s.name), d
			}
		}
	}
	return best
}

func hasField(fs []Field, f Field) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}
