package release

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

// MechanismSpec says which input columns define a mechanism and which
// others it accepts.
type MechanismSpec struct {
	Name      Mechanism
	Aliases   []string
	Signature []Field // filling any of these suggests the mechanism
	Required  []Field
	Defines   []Field // defining columns it uses (signature plus shared ones)
	Modifiers []Field // non-defining parameter columns it accepts
}

// MechanismSpecs lists the contract's mechanisms, in the order messages
// name them.
func MechanismSpecs() []MechanismSpec {
	return []MechanismSpec{
		{Name: MechanismPure, Aliases: []string{"epsilon", "eps", "pure_dp", "epsilon_dp"},
			Signature: []Field{FieldEpsilon}, Required: []Field{FieldEpsilon}, Defines: []Field{FieldEpsilon},
			Modifiers: []Field{FieldDelta, FieldCompositions}},
		{Name: MechanismApprox, Aliases: []string{"approximate", "epsilon_delta", "eps_delta", "adp", "approx_dp"},
			Signature: []Field{FieldEpsilon}, Required: []Field{FieldEpsilon}, Defines: []Field{FieldEpsilon},
			Modifiers: []Field{FieldDelta, FieldCompositions}},
		// sigma, or epsilon and delta to calibrate it (resolve checks).
		{Name: MechanismGaussian, Aliases: []string{"gauss", "gaussian_mechanism"},
			Signature: []Field{FieldSigma, FieldCalibration}, Defines: []Field{FieldSigma, FieldMu, FieldEpsilon},
			Modifiers: []Field{FieldSensitivity, FieldDelta, FieldCompositions, FieldCalibration}},
		{Name: MechanismGDP, Aliases: []string{"mu_gdp", "gaussian_dp", "f_dp_gaussian"},
			Signature: []Field{FieldMu}, Required: []Field{FieldMu}, Defines: []Field{FieldMu},
			Modifiers: []Field{FieldDelta, FieldCompositions}},
		// laplace_scale, or epsilon with b = sensitivity/ε (resolve checks).
		{Name: MechanismLaplace, Signature: []Field{FieldLaplaceScale},
			Defines: []Field{FieldLaplaceScale, FieldEpsilon}, Modifiers: []Field{FieldSensitivity, FieldDelta, FieldCompositions}},
		{Name: MechanismZCDP, Aliases: []string{"zcdp_rho", "rho_zcdp"}, Signature: []Field{FieldRho}, Required: []Field{FieldRho},
			Defines: []Field{FieldRho}, Modifiers: []Field{FieldDelta, FieldCompositions}},
		{Name: MechanismRDP, Aliases: []string{"renyi", "renyi_dp"}, Signature: []Field{FieldRDPOrder, FieldRDPEpsilon},
			Required: []Field{FieldRDPOrder, FieldRDPEpsilon}, Defines: []Field{FieldRDPOrder, FieldRDPEpsilon},
			Modifiers: []Field{FieldDelta, FieldCompositions}},
		{Name: MechanismRR, Aliases: []string{"randomized_response", "randomised_response"}, Signature: []Field{FieldRRCategories},
			Required: []Field{FieldEpsilon, FieldRRCategories}, Defines: []Field{FieldEpsilon, FieldRRCategories},
			Modifiers: []Field{FieldDelta, FieldCompositions}},
		// sample_rate or batch_size and dataset_size, steps or epochs
		// (resolve checks).
		{Name: MechanismDPSGD, Aliases: []string{"dp_sgd"},
			Signature: []Field{FieldNoiseMultiplier, FieldSampleRate, FieldSteps, FieldBatchSize, FieldDatasetSize, FieldEpochs},
			Required:  []Field{FieldNoiseMultiplier},
			Defines:   []Field{FieldNoiseMultiplier, FieldSampleRate, FieldSteps, FieldBatchSize, FieldDatasetSize, FieldEpochs}, Modifiers: []Field{FieldDelta}},
		{Name: MechanismMarginals, Aliases: []string{"marginal", "k_way_marginals"},
			Signature: []Field{FieldMarginalK, FieldColumnsTotal, FieldColumnsUnknown},
			Required:  []Field{FieldMarginalK, FieldColumnsTotal, FieldColumnsUnknown, FieldSigma},
			Defines:   []Field{FieldMarginalK, FieldColumnsTotal, FieldColumnsUnknown, FieldSigma}, Modifiers: []Field{FieldDelta}},
		// Named only (its ε looks like a pure row's): never inferred.
		{Name: MechanismExponential, Aliases: []string{"exponential_mechanism", "em"},
			Required: []Field{FieldEpsilon}, Defines: []Field{FieldEpsilon}, Modifiers: []Field{FieldSensitivity, FieldDelta, FieldCompositions}},
	}
}

// mechanismNames lists the contract's mechanism names for messages.
func mechanismNames(specs []MechanismSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.Name)
	}
	return strings.Join(names, ", ")
}

// PureMechanisms are the mechanisms that state their own ε: a pure ε-DP
// guarantee (pure, exponential, laplace, rr), or (ε, δ) (approx). Their
// ε-based bounds need no delta to convert them, and their compositions
// compose by the optimal composition theorem (Kairouz, Oh & Viswanath
// 2015).
func PureMechanisms() []Mechanism {
	return []Mechanism{MechanismPure, MechanismApprox, MechanismLaplace, MechanismRR, MechanismExponential}
}

// NativeEpsilon reports whether a mechanism states its own ε (one of
// PureMechanisms).
func NativeEpsilon(m Mechanism) bool {
	switch m {
	case MechanismPure, MechanismApprox, MechanismLaplace, MechanismRR, MechanismExponential:
		return true
	}
	return false
}

// MechanismNames returns the contract's mechanism names, in contract order.
func MechanismNames() []string {
	specs := MechanismSpecs()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.Name)
	}
	return names
}

// MechanismIndex maps every canonical mechanism name and alias to its
// spec's index: rows name their mechanism, and canonicalising every name
// and alias for every row would cost more than many bounds.
func MechanismIndex(specs []MechanismSpec) map[string]int {
	index := map[string]int{}
	for i, s := range specs {
		index[CanonicalName(string(s.Name))] = i
		for _, a := range s.Aliases {
			index[CanonicalName(a)] = i
		}
	}
	return index
}

// LookupMechanism finds a spec by name or alias (canonicalised as headers
// are); index is MechanismIndex(specs).
func LookupMechanism(specs []MechanismSpec, index map[string]int, name string) (*MechanismSpec, error) {
	// The common spellings ("pure", "gaussian") are canonical already.
	if i, ok := index[name]; ok {
		return &specs[i], nil
	}
	if i, ok := index[CanonicalName(name)]; ok {
		return &specs[i], nil
	}
	if near := closestMechanism(specs, name); near != "" {
		return nil, fmt.Errorf("%s is not a mechanism; did you mean %s?", QuoteClipped(name), near)
	}
	return nil, fmt.Errorf("%s is not a mechanism; expected one of %s", QuoteClipped(name), mechanismNames(specs))
}

// closestMechanism returns the mechanism whose name or alias is nearest to
// name (at most two edits, or one for short names), or "".
func closestMechanism(specs []MechanismSpec, name string) string {
	c := CanonicalName(name)
	limit := 2
	if utf8.RuneCountInString(c) <= 4 {
		limit = 1
	}
	best, bestD := "", limit+1
	for _, s := range specs {
		for _, n := range append([]string{string(s.Name)}, s.Aliases...) {
			if d := editdist.Distance(c, CanonicalName(n), limit); d < bestD {
				best, bestD = string(s.Name), d
			}
		}
	}
	return best
}
