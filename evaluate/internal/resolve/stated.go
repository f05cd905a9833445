package resolve

import (
	"fmt"
	"math"
	"math/big"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// Mechanisms stated the way papers and reports state them: "the Laplace
// mechanism with ε = 1", "the Gaussian mechanism at ε = 1, δ = 1e-5",
// "DP-SGD with batches of 256 of 60,000 for 15 epochs". The row's
// parameters are derived from these statements (b = Δ/ε, the σ of a
// calibration, q = B/n and the steps of the epochs), shown in the
// derived_* columns, and the mechanism's exact curve is evaluated from
// them. A row that states a parameter both ways must agree with itself.

// derivedParams are the parameters derived from how the row states its
// mechanism; zero where the row states them itself.
type derivedParams struct {
	DerivedScale      float64 // b = Δ/ε of a laplace row stated by epsilon (+Inf at ε = 0)
	HasDerivedScale   bool
	DerivedSigma      float64 // σ of a gaussian row stated by epsilon and delta
	DerivedSampleRate float64 // q = batch_size/dataset_size of a dpsgd row
	DerivedSteps      int     // ⌈epochs·dataset_size/batch_size⌉ of a dpsgd row
	DerivedNote       string  // a warning about the derivation (classic calibration at ε ≥ 1)
}

// agreeRel is how closely two statements of one parameter must agree: the
// rounding of a number written out in full, not of one rounded for print.
const agreeRel = 1e-9

// agree reports whether x and y agree to agreeRel.
func agree(x, y float64) bool { return math.Abs(x-y) <= agreeRel*math.Max(math.Abs(x), math.Abs(y)) }

// laplaceEpsilon returns the ε of a laplace row: sensitivity/laplace_scale,
// or the row's epsilon (b = Δ/ε derived), which must agree when it has both.
func (b *Header) laplaceEpsilon(r *Release, in *Inputs, sens float64, problems *RowError) (float64, bool) {
	hasScale, hasEps := in.Has(release.FieldLaplaceScale), in.Has(release.FieldEpsilon)
	switch {
	case hasScale && hasEps:
		fromScale, eps := sens/in.Num[release.FieldLaplaceScale], in.Num[release.FieldEpsilon]
		if !agree(fromScale, eps) {
			problems.Add(b.Name(release.FieldLaplaceScale)+", "+b.Name(release.FieldEpsilon), "", "%s = %s gives ε = %s/%s = %s, but %s = %s; fill one or the other",
				b.Name(release.FieldLaplaceScale), FormatNumber(in.Num[release.FieldLaplaceScale]), b.sensitivityName(in), b.Name(release.FieldLaplaceScale), FormatNumber(fromScale), b.Name(release.FieldEpsilon), FormatNumber(eps))
			return 0, false
		}
		return fromScale, true
	case hasScale:
		return sens / in.Num[release.FieldLaplaceScale], true
	case hasEps:
		eps := in.Num[release.FieldEpsilon]
		r.DerivedScale, r.HasDerivedScale = sens/eps, true
		return eps, true
	}
	problems.Add(b.Name(release.FieldLaplaceScale), "", "empty, but mechanism laplace needs it (or %s, with b = sensitivity/ε); expected %s",
		b.Name(release.FieldEpsilon), b.vocab.Column(release.FieldLaplaceScale).Domain)
	return 0, false
}

// sensitivityName is the sensitivity column's header, or "sensitivity"
// (its default of 1) where the row leaves it empty.
func (b *Header) sensitivityName(in *Inputs) string {
	if in.Has(release.FieldSensitivity) {
		return b.Name(release.FieldSensitivity)
	}
	return "1"
}

// gaussianSigma returns the σ of a gaussian row: its sigma, or the σ
// calibrated from its epsilon and delta (calibration: analytic or
// classic), which must agree when it has both.
func (b *Header) gaussianSigma(r *Release, in *Inputs, sens float64, problems *RowError) (float64, bool) {
	hasSigma, hasEps := in.Has(release.FieldSigma), in.Has(release.FieldEpsilon)
	calName := b.Name(release.FieldCalibration)
	if !hasEps {
		switch {
		case in.Has(release.FieldCalibration):
			problems.Add(calName, in.Text[release.FieldCalibration], "filled, but the row states sigma, not epsilon and delta, so there is nothing to calibrate; clear it, or fill epsilon and delta in place of sigma")
			return 0, false
		case !hasSigma:
			problems.Add(b.Name(release.FieldSigma), "", "empty, but mechanism gaussian needs it (or %s and %s, to calibrate it); expected %s",
				b.Name(release.FieldEpsilon), b.Name(release.FieldDelta), b.vocab.Column(release.FieldSigma).Domain)
			return 0, false
		}
		return in.Num[release.FieldSigma], true
	}
	cal, ok := b.calibration(in, problems)
	if !ok {
		return 0, false
	}
	eps, delta := in.Num[release.FieldEpsilon], in.Num[release.FieldDelta]
	if !(delta > 0) {
		problems.Add(b.Name(release.FieldDelta), in.Value(release.FieldDelta), "%s, but a Gaussian mechanism stated by %s needs δ > 0 (no σ gives δ = 0); expected a number in (0, 1)",
			emptyOr(in.Value(release.FieldDelta)), b.Name(release.FieldEpsilon))
		return 0, false
	}
	if cal == curve.ClassicCalibration && eps == 0 {
		problems.Add(b.Name(release.FieldEpsilon), "0", "0, but the classic calibration σ = sensitivity·√(2 ln(1.25/δ))/ε has no σ for ε = 0; expected ε > 0, or %s analytic", calName)
		return 0, false
	}
	sigma, err := curve.GaussianSigma(cal, eps, delta, sens)
	if err != nil {
		problems.AddErr(b.Name(release.FieldEpsilon)+", "+b.Name(release.FieldDelta), "", err)
		return 0, false
	}
	if hasSigma {
		if !agree(in.Num[release.FieldSigma], sigma) {
			problems.Add(b.Name(release.FieldSigma)+", "+b.Name(release.FieldEpsilon), "", "%s = %s, but the %s calibration of %s = %s, %s = %s gives σ = %s; fill one or the other",
				b.Name(release.FieldSigma), FormatNumber(in.Num[release.FieldSigma]), calibrationName(cal), b.Name(release.FieldEpsilon), FormatNumber(eps), b.Name(release.FieldDelta), FormatNumber(delta), FormatNumber(sigma))
			return 0, false
		}
		return in.Num[release.FieldSigma], true
	}
	r.DerivedSigma = sigma
	if cal == curve.ClassicCalibration && eps >= curve.ClassicEpsilonLimit {
		r.DerivedNote = classicNote(calName, b.Name(release.FieldEpsilon), eps, delta, sens/sigma)
	}
	return sigma, true
}

// classicNote warns that the classic calibration at ε ≥ 1 need not give
// (ε, δ)-DP, and says whether it does for the row: the ε of its σ at δ.
func classicNote(calName, epsName string, eps, delta, mu float64) string {
	actual := curve.Gaussian{Mu: mu}.EpsilonAt(delta)
	verdict := "holds"
	if actual > eps {
		verdict = "does not hold"
	}
	return fmt.Sprintf("%s: classic is proven only for ε < 1 (Dwork & Roth, Thm A.1); at %s = %s it gives (%.4g, δ)-DP: the stated ε %s",
		calName, epsName, FormatNumber(eps), actual, verdict)
}

// calibration reads the calibration column (analytic when empty).
func (b *Header) calibration(in *Inputs, problems *RowError) (curve.GaussianCalibration, bool) {
	if !in.Has(release.FieldCalibration) {
		return curve.AnalyticCalibration, true
	}
	switch release.CanonicalName(in.Text[release.FieldCalibration]) {
	case "analytic", "analytical", "balle_wang":
		return curve.AnalyticCalibration, true
	case "classic", "classical", "dwork_roth":
		return curve.ClassicCalibration, true
	}
	problems.Add(b.Name(release.FieldCalibration), in.Text[release.FieldCalibration], "%s is not a calibration; expected analytic (Balle & Wang 2018, the default) or classic (Dwork & Roth 2014, Thm A.1)",
		release.QuoteClipped(in.Text[release.FieldCalibration]))
	return 0, false
}

func calibrationName(c curve.GaussianCalibration) string {
	if c == curve.ClassicCalibration {
		return "classic"
	}
	return "analytic"
}

// emptyOr is a value as a message states it: "empty" for none.
func emptyOr(v string) string {
	if v == "" {
		return "empty"
	}
	return v
}

// DPSGDSchedule returns the sample rate and steps of a dpsgd row: its
// sample_rate and steps, or q = batch_size/dataset_size and steps =
// ⌈epochs·dataset_size/batch_size⌉, as TensorFlow Privacy's
// compute_dp_sgd_privacy computes them
// (tensorflow_privacy/privacy/analysis/compute_dp_sgd_privacy_lib.py:
// q = batch_size / n; steps = int(math.ceil(epochs * n / batch_size))),
// here in exact rational arithmetic. A row that states either both ways
// must agree.
func (b *Header) DPSGDSchedule(r *Release, in *Inputs, problems *RowError) (q float64, steps int, ok bool) {
	hasB, hasN, hasE := in.Has(release.FieldBatchSize), in.Has(release.FieldDatasetSize), in.Has(release.FieldEpochs)
	bName, nName, eName := b.Name(release.FieldBatchSize), b.Name(release.FieldDatasetSize), b.Name(release.FieldEpochs)
	switch {
	case hasB && !hasN:
		if b.countHeader != "" {
			problems.Add(nName, "", "empty, but %s needs it (q = %s/%s); the column %s is not read: name it %s", bName, bName, nName, b.countHeader, nName)
			return 0, 0, false
		}
		problems.Add(nName, "", "empty, but %s needs it: the sample rate is q = %s/%s; expected %s", bName, bName, nName, b.vocab.Column(release.FieldDatasetSize).Domain)
		return 0, 0, false
	case hasN && !hasB:
		problems.Add(bName, "", "empty, but %s needs it: the sample rate is q = %s/%s; expected %s", nName, bName, nName, b.vocab.Column(release.FieldBatchSize).Domain)
		return 0, 0, false
	case hasE && !hasB:
		problems.Add(eName, in.Value(release.FieldEpochs), "filled, but the steps of epochs are ⌈%s·%s/%s⌉: fill %s and %s, or steps in place of %s", eName, nName, bName, bName, nName, eName)
		return 0, 0, false
	}
	q, steps = in.Num[release.FieldSampleRate], int(in.Num[release.FieldSteps])
	if hasB {
		batch, n := in.Num[release.FieldBatchSize], in.Num[release.FieldDatasetSize]
		if batch > n {
			problems.Add(bName, FormatNumber(batch), "%s is more than %s = %s; expected a batch of at most the dataset's records", FormatNumber(batch), nName, FormatNumber(n))
			return 0, 0, false
		}
		derived := batch / n
		if in.Has(release.FieldSampleRate) && !agree(q, derived) {
			problems.Add(b.Name(release.FieldSampleRate)+", "+bName+", "+nName, "", "%s = %s, but %s/%s = %s/%s = %s; fill one or the other",
				b.Name(release.FieldSampleRate), FormatNumber(q), bName, nName, FormatNumber(batch), FormatNumber(n), FormatNumber(derived))
			return 0, 0, false
		}
		q, r.DerivedSampleRate = derived, derived
	}
	if hasE {
		derived, fits := EpochSteps(in.Num[release.FieldEpochs], in.Num[release.FieldDatasetSize], in.Num[release.FieldBatchSize])
		if !fits {
			problems.Add(eName, in.Value(release.FieldEpochs), "%s epochs of %s/%s batches are more steps than riskbatch counts; expected fewer epochs", in.Value(release.FieldEpochs), nName, bName)
			return 0, 0, false
		}
		if in.Has(release.FieldSteps) && steps != derived {
			problems.Add(b.Name(release.FieldSteps)+", "+eName, "", "%s = %d, but ⌈%s·%s/%s⌉ = ⌈%s·%s/%s⌉ = %d; fill one or the other",
				b.Name(release.FieldSteps), steps, eName, nName, bName, in.Value(release.FieldEpochs), FormatNumber(in.Num[release.FieldDatasetSize]), FormatNumber(in.Num[release.FieldBatchSize]), derived)
			return 0, 0, false
		}
		steps, r.DerivedSteps = derived, derived
	}
	for _, f := range []release.Field{release.FieldSampleRate, release.FieldSteps} {
		if (f == release.FieldSampleRate && q == 0) || (f == release.FieldSteps && steps == 0) {
			alt := bName + " and " + nName
			if f == release.FieldSteps {
				alt = eName + " with " + bName + " and " + nName
			}
			problems.Add(b.Name(f), "", "empty, but mechanism dpsgd needs it (or %s); expected %s", alt, b.vocab.Column(f).Domain)
		}
	}
	return q, steps, len(*problems) == 0
}

// maxEpochSteps bounds the steps derived from epochs, so that they fit an
// int on every platform.
const maxEpochSteps = 1 << 31

// EpochSteps is ⌈epochs·n/batch⌉, exactly (epochs, n and batch are
// float64 values, each an exact rational); false when it exceeds
// maxEpochSteps.
func EpochSteps(epochs, n, batch float64) (int, bool) {
	x := new(big.Rat).SetFloat64(epochs)
	x.Mul(x, new(big.Rat).SetFloat64(n))
	x.Quo(x, new(big.Rat).SetFloat64(batch))
	num, den := x.Num(), x.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > maxEpochSteps {
		return 0, false
	}
	return int(q.Int64()), true
}
