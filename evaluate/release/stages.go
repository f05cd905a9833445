package release

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/number"
)

// The extra_stages cell: further releases composed with the row's own,
// written as stages separated by ";". A stage is either a mechanism with
// its parameters and a count,
//
//	laplace(5)x10; gaussian(2)x3; rr(1, 100)x2; approx(0.5, 1e-6)
//
// (the count after x, × or *, default 1), or, as DP-SGD rows have always
// written it, three numbers "σ, q, steps" (a Poisson-subsampled Gaussian).

// MaxExtraStages bounds the extra_stages of one row: each stage is one
// more convolution of the composed PLD.
const MaxExtraStages = 64

// MaxStageSteps bounds the steps of one stage (the PLD's self-composition
// is one FFT exponentiation, whose cost grows with the width of the
// composed loss, not with the steps; the bound keeps steps an exact int
// and the loss's range representable).
const MaxStageSteps = 1 << 40

// stageForms lists the mechanisms a stage may name, with their
// parameters, for messages.
const stageForms = "gaussian(σ) or gaussian(σ, sensitivity), gdp(μ), laplace(b) or laplace(b, sensitivity), rr(ε, k), pure(ε), approx(ε, δ), dpsgd(σ, q), each optionally followed by x and a count, or \"σ, q, steps\""

// ParseStages reads an extra_stages cell (see above); names are looked up
// among the mechanisms' names and aliases (specs, index as for the
// mechanism column). An error names the stage, by number and text.
func ParseStages(s string, specs []MechanismSpec, index map[string]int) ([]pld.Stage, error) {
	var stages []pld.Stage
	for i, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		var st pld.Stage
		var err error
		if strings.ContainsRune(part, '(') {
			st, err = parseNamedStage(part, specs, index)
		} else {
			st, err = parseDPSGDStage(part)
		}
		if err != nil {
			return nil, fmt.Errorf("stage %d (%s): %w", i+1, QuoteClipped(part), err)
		}
		stages = append(stages, st)
		if len(stages) > MaxExtraStages {
			return nil, fmt.Errorf("more than %d stages", MaxExtraStages)
		}
	}
	if len(stages) == 0 {
		return nil, errors.New("no stage; write stages such as \"laplace(5)x10; gaussian(2)x3\" or \"σ, q, steps\", separated by \";\"")
	}
	return stages, nil
}

// parseDPSGDStage reads "σ, q, steps" (commas or spaces).
func parseDPSGDStage(part string) (pld.Stage, error) {
	fields := strings.FieldsFunc(part, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) != 3 {
		return pld.Stage{}, fmt.Errorf("has %d values; write a DP-SGD stage as \"noise_multiplier, sample_rate, steps\", or a mechanism such as laplace(5)x10", len(fields))
	}
	v, err := stageNumbers(fields)
	if err != nil {
		return pld.Stage{}, err
	}
	steps, err := stageCount(v[2], "steps")
	if err != nil {
		return pld.Stage{}, err
	}
	return subsampledStage(v[0], v[1], steps)
}

// subsampledStage checks σ and q of a (subsampled) Gaussian stage.
func subsampledStage(sigma, q float64, steps int) (pld.Stage, error) {
	switch {
	case !(sigma > 0) || math.IsInf(sigma, 1):
		return pld.Stage{}, fmt.Errorf("noise multiplier %s is out of range; expected a number > 0", FormatNumber(sigma))
	case !(q > 0 && q <= 1):
		return pld.Stage{}, fmt.Errorf("sample rate %s is out of range; expected (0, 1]", FormatNumber(q))
	}
	return pld.Stage{NoiseMultiplier: sigma, SampleRate: q, Steps: steps}, nil
}

// stageNumbers reads the numbers of a stage.
func stageNumbers(fields []string) ([]float64, error) {
	v := make([]float64, len(fields))
	for j, f := range fields {
		x, err := number.Parse(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		v[j] = x
	}
	return v, nil
}

// stageCount checks a count (steps, or the count after x).
func stageCount(x float64, what string) (int, error) {
	if !(x >= 1 && x <= MaxStageSteps) || x != math.Trunc(x) {
		return 0, fmt.Errorf("%s %s is out of range; expected a whole number from 1 to 2^40", what, FormatNumber(x))
	}
	return int(x), nil
}

// parseNamedStage reads "name(parameters)" with an optional count: "x N",
// "×N" or "*N".
func parseNamedStage(part string, specs []MechanismSpec, index map[string]int) (pld.Stage, error) {
	open, closing := strings.IndexRune(part, '('), strings.LastIndexByte(part, ')')
	if closing < open {
		return pld.Stage{}, fmt.Errorf("has no closing parenthesis; expected %s", stageForms)
	}
	name := strings.TrimSpace(part[:open])
	count := 1
	if rest := strings.TrimSpace(part[closing+1:]); rest != "" {
		tail, ok := cutCount(rest)
		if !ok {
			return pld.Stage{}, fmt.Errorf("%s after the parenthesis is not a count; write the count as x10", QuoteClipped(rest))
		}
		x, err := number.Parse(tail)
		if err != nil {
			return pld.Stage{}, fmt.Errorf("count: %w", err)
		}
		if count, err = stageCount(x, "count"); err != nil {
			return pld.Stage{}, err
		}
	}
	args := strings.TrimSpace(part[open+1 : closing])
	var v []float64
	if args != "" {
		var err error
		if v, err = stageNumbers(strings.Split(args, ",")); err != nil {
			return pld.Stage{}, err
		}
	}
	spec, err := LookupMechanism(specs, index, name)
	if err != nil {
		return pld.Stage{}, err
	}
	return namedStage(spec.Name, v, count)
}

// cutCount returns what follows the x, × or * of a count.
func cutCount(rest string) (string, bool) {
	for _, p := range []string{"x", "X", "×", "*"} {
		if after, ok := strings.CutPrefix(rest, p); ok {
			return strings.TrimSpace(after), true
		}
	}
	return "", false
}

// namedStage builds the stage of a mechanism from its parameters.
func namedStage(m Mechanism, v []float64, count int) (pld.Stage, error) {
	arity := func(lo, hi int, form string) error {
		if len(v) < lo || len(v) > hi {
			return fmt.Errorf("%s has %s; expected %s", m, countOf(len(v), "parameter", "parameters"), form)
		}
		return nil
	}
	epsilon := func(x float64) error {
		if !(x >= 0) || math.IsInf(x, 1) {
			return fmt.Errorf("epsilon %s is out of range; expected a finite number ≥ 0", FormatNumber(x))
		}
		return nil
	}
	// sensitivity checks a stage of the form noise(scale) or noise(scale,
	// sensitivity) and returns its sensitivity (1 when it has none).
	sensitivity := func(form string) (float64, error) {
		if err := arity(1, 2, form); err != nil {
			return 0, err
		}
		if len(v) < 2 {
			return 1, nil
		}
		if s := v[1]; !(s > 0) || math.IsInf(s, 1) {
			return 0, fmt.Errorf("sensitivity %s is out of range; expected a number > 0", FormatNumber(s))
		}
		return v[1], nil
	}
	switch m {
	case MechanismGaussian:
		sens, err := sensitivity("gaussian(σ) or gaussian(σ, sensitivity)")
		if err != nil {
			return pld.Stage{}, err
		}
		return subsampledStage(v[0]/sens, 1, count)
	case MechanismGDP:
		if err := arity(1, 1, "gdp(μ)"); err != nil {
			return pld.Stage{}, err
		}
		if !(v[0] > 0) || math.IsInf(v[0], 1) {
			return pld.Stage{}, fmt.Errorf("mu %s is out of range; expected a number > 0", FormatNumber(v[0]))
		}
		return subsampledStage(1/v[0], 1, count)
	case MechanismDPSGD:
		if err := arity(2, 2, "dpsgd(σ, q)"); err != nil {
			return pld.Stage{}, err
		}
		return subsampledStage(v[0], v[1], count)
	case MechanismLaplace:
		sens, err := sensitivity("laplace(b) or laplace(b, sensitivity)")
		if err != nil {
			return pld.Stage{}, err
		}
		if !(v[0] > 0) || math.IsInf(v[0], 1) {
			return pld.Stage{}, fmt.Errorf("scale %s is out of range; expected a number > 0", FormatNumber(v[0]))
		}
		return pld.Stage{Mechanism: pld.Laplace, Epsilon: sens / v[0], Steps: count}, nil
	case MechanismRR:
		if err := arity(2, 2, "rr(ε, k)"); err != nil {
			return pld.Stage{}, err
		}
		if err := epsilon(v[0]); err != nil {
			return pld.Stage{}, err
		}
		if !(v[1] >= 2) || v[1] != math.Trunc(v[1]) {
			return pld.Stage{}, fmt.Errorf("categories %s is out of range; expected a whole number ≥ 2", FormatNumber(v[1]))
		}
		if v[1] > MaxStageCategories {
			return pld.Stage{}, errors.New("categories " + TooManyCategories(v[1]))
		}
		return RRStage(v[0], v[1], count), nil
	case MechanismPure, MechanismExponential, MechanismApprox:
		form := string(m) + "(ε)"
		lo, hi := 1, 1
		if m == MechanismApprox {
			form, lo, hi = "approx(ε, δ)", 1, 2
		}
		if err := arity(lo, hi, form); err != nil {
			return pld.Stage{}, err
		}
		if err := epsilon(v[0]); err != nil {
			return pld.Stage{}, err
		}
		st := pld.Stage{Mechanism: pld.EpsilonDelta, Epsilon: v[0], Steps: count}
		if len(v) == 2 {
			if !(v[1] >= 0 && v[1] < 1) {
				return pld.Stage{}, fmt.Errorf("delta %s is out of range; expected [0, 1)", FormatNumber(v[1]))
			}
			st.Delta = v[1]
		}
		return st, nil
	}
	return pld.Stage{}, fmt.Errorf("mechanism %s has no privacy-loss distribution to compose; expected %s", m, stageForms)
}

// StagesKey is a map key for a list of stages (exact, by the bits of the
// parameters).
func StagesKey(stages []pld.Stage) string {
	var b strings.Builder
	bits := func(x float64) {
		b.WriteString(strconv.FormatUint(math.Float64bits(x), 36))
		b.WriteByte(',')
	}
	for _, s := range stages {
		b.WriteString(strconv.Itoa(int(s.Mechanism)))
		b.WriteByte(':')
		bits(s.NoiseMultiplier)
		bits(s.SampleRate)
		bits(s.Epsilon)
		bits(s.Delta)
		b.WriteString(strconv.Itoa(s.Categories))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(s.Steps))
		b.WriteByte(';')
	}
	return b.String()
}

// MaxStageCategories is the most categories of randomized response
// riskbatch evaluates (rr_categories and rr(ε, k) stages), so that k is an
// exact int on every platform: int(k) of a larger float64 is undefined,
// and on amd64 it is negative, which the curve reads as one category (no
// risk at all). Beyond it η = (e^ε − 1)/(e^ε + k − 1) is below 2^-53·e^ε.
const MaxStageCategories = 1 << 53

// TooManyCategories is the problem of a k above MaxStageCategories.
func TooManyCategories(k float64) string {
	return FormatNumber(k) + " is more than 2^53, the most categories riskbatch evaluates; expected a whole number from 2 to 2^53"
}

// RRStage is the stage of n releases of k-ary randomized response (k at
// most MaxStageCategories, which the inputs ensure; a larger k is capped,
// which only errs towards more risk: the k-ary curve rises with k).
func RRStage(eps, k float64, n int) pld.Stage {
	return pld.Stage{Mechanism: pld.RandomizedResponse, Epsilon: eps, Categories: int(math.Min(k, MaxStageCategories)), Steps: n}
}

// FormatNumber writes a number for a message: 10 significant digits.
func FormatNumber(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// countOf writes a count of things: "1 stage", "3 stages".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
