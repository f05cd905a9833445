package evaluate

import (
	"maps"
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// sameOutputs checks that two rows' outputs are the same, cell for cell
// (kind, number bits, text), except the columns named in differ, and that
// both rows are ok.
func sameOutputs(t *testing.T, what string, stated, plain map[string]string, differ ...string) (map[string]table.Cell, map[string]table.Cell) {
	t.Helper()
	e := New()
	st1, a := evalWith(t, e, stated)
	st2, b := evalWith(t, e, plain)
	if st1 != StatusOK || st2 != StatusOK {
		t.Fatalf("%s: status %s (%q) and %s (%q), want ok", what, st1, a["message"].Str, st2, b["message"].Str)
	}
	for name, ca := range a {
		cb := b[name]
		skip := false
		for _, d := range differ {
			skip = skip || d == name
		}
		if skip {
			continue
		}
		if ca.Kind != cb.Kind || math.Float64bits(ca.Num) != math.Float64bits(cb.Num) || ca.Str != cb.Str || ca.Int != cb.Int {
			t.Errorf("%s: %s = %v stated, %v with the parameter written out", what, name, ca, cb)
		}
	}
	return a, b
}

// A laplace row stated by ε is the laplace_scale row with b = Δ/ε, byte for
// byte, with b in derived_laplace_scale; the same without the mechanism
// column when both agree.
func TestStatedLaplace(t *testing.T) {
	for _, c := range []struct{ eps, sens, scale string }{{"0.2", "", "5"}, {"0.5", "2", "4"}, {"0.25", "0.5", "2"}} {
		for _, extra := range []map[string]string{{}, {"compositions": "3"}, {"delta": "1e-6"}} {
			stated := map[string]string{"mechanism": "laplace", "epsilon": c.eps, "baseline": "0.1", "target_advantage": "0.2", "targets": "10", "successes": "3", "sensitivity": c.sens}
			maps.Copy(stated, extra)
			plain := maps.Clone(stated)
			delete(plain, "epsilon")
			plain["laplace_scale"] = c.scale
			a, b := sameOutputs(t, "laplace ε = "+c.eps, stated, plain, "derived_laplace_scale")
			if got := a["derived_laplace_scale"]; got.Kind != table.Number || ftoa(got.Num) != c.scale {
				t.Errorf("ε = %s, Δ = %s: derived_laplace_scale = %v, want %s", c.eps, c.sens, got, c.scale)
			}
			if got := b["derived_laplace_scale"]; got.Kind != table.Empty {
				t.Errorf("laplace_scale row: derived_laplace_scale = %v, want empty", got)
			}
			both := maps.Clone(plain)
			both["epsilon"] = c.eps
			delete(both, "mechanism")
			sameOutputs(t, "laplace_scale and epsilon, no mechanism", both, plain)
		}
	}
}

// A gaussian row stated by (ε, δ) is the sigma row with the derived σ, byte
// for byte, pmp_data included; σ is GaussianSigma's (its own tests check it
// against 50-digit references), 3.7306316348… for ε = 1, δ = 1e-5 (Balle &
// Wang's analytic calibration) and √(2 ln 125000) = 4.8448… (classic).
func TestStatedGaussian(t *testing.T) {
	for i, c := range []struct {
		eps, delta, sens, cal string
		want                  float64 // σ to 1e-11
	}{
		{"1", "1e-5", "", "", 3.7306316348159418},
		{"1", "1e-5", "", "", 3.7306316348159418}, // with compositions: the σ of each release
		{"1", "1e-5", "", "analytic", 3.7306316348159418},
		{"1", "1e-5", "2", "", 2 * 3.7306316348159418},
		{"0.5", "1e-5", "", "classic", 2 * math.Sqrt(2*math.Log(125000))},
		{"1", "1e-5", "", "Classic", math.Sqrt(2 * math.Log(125000))},
	} {
		stated := map[string]string{"mechanism": "gaussian", "epsilon": c.eps, "delta": c.delta, "sensitivity": c.sens, "calibration": c.cal,
			"baseline": "0.5", "target_advantage": "0.05", "pmp_data": "0.1, 0.2; 0.4, 0.1"}
		_, a := evalWith(t, New(), stated)
		sigma := a["derived_sigma"]
		if sigma.Kind != table.Number || math.Abs(sigma.Num-c.want) > 1e-11*c.want {
			t.Fatalf("%v: derived_sigma = %v, want %.17g", stated, sigma, c.want)
		}
		plain := maps.Clone(stated)
		delete(plain, "epsilon")
		delete(plain, "calibration")
		plain["sigma"] = ftoa(sigma.Num)
		if i == 1 {
			// δ is per step, as on approx rows: four releases report
			// their ε at δ_total = 4δ, which a row of σ states itself.
			stated["compositions"], plain["compositions"] = "4", "4"
			plain["delta"] = ftoa(4 * 1e-5)
			delete(stated, "pmp_data") // the PMP bounds are for one release
			delete(plain, "pmp_data")
		}
		a, b := sameOutputs(t, "gaussian (ε, δ) = ("+c.eps+", "+c.delta+")", stated, plain, "derived_sigma", "message")
		if a["pmp_data_eps"].Kind != table.Number && i != 1 {
			t.Errorf("%v: pmp_data_eps = %v, want a number", stated, a["pmp_data_eps"])
		}
		if b["derived_sigma"].Kind != table.Empty {
			t.Errorf("sigma row: derived_sigma = %v, want empty", b["derived_sigma"])
		}
		cal := curve.AnalyticCalibration
		if c.cal != "" && c.cal != "analytic" {
			cal = curve.ClassicCalibration
		}
		sens := 1.0
		if c.sens != "" {
			sens = 2
		}
		if want, _ := curve.GaussianSigma(cal, parseFloat(t, c.eps), 1e-5, sens); sigma.Num != want {
			t.Errorf("%v: derived_sigma = %.17g, GaussianSigma %.17g", stated, sigma.Num, want)
		}
	}
}

// The classic calibration at ε ≥ 1 is evaluated at the σ it gives, with a
// warning that says whether that σ keeps the stated ε.
func TestStatedGaussianClassicWarning(t *testing.T) {
	for _, c := range []struct{ eps, want string }{
		{"0.5", ""},
		{"3", "calibration: classic is proven only for ε < 1 (Dwork & Roth, Thm A.1); at epsilon = 3 it gives (2.533, δ)-DP: the stated ε holds"},
		{"10", "calibration: classic is proven only for ε < 1 (Dwork & Roth, Thm A.1); at epsilon = 10 it gives (10.39, δ)-DP: the stated ε does not hold"},
	} {
		st, msg, out := evalRow(t, map[string]string{"mechanism": "gaussian", "epsilon": c.eps, "delta": "1e-5", "calibration": "classic", "baseline": "0.1"})
		if st != StatusOK || msg != c.want || out["derived_sigma"].Kind != table.Number {
			t.Errorf("ε = %s: %s, %q, derived_sigma %v; want ok, %q", c.eps, st, msg, out["derived_sigma"], c.want)
		}
	}
}

// A dpsgd row stated by batch_size, dataset_size (or num_examples) and epochs is the
// row with q = B/n and steps = ⌈epochs·n/B⌉, byte for byte.
func TestStatedDPSGD(t *testing.T) {
	for _, c := range []struct {
		batch, n, epochs, nHeader string
		q                         float64
		steps                     string
	}{
		{"100", "10000", "2", "dataset_size", 0.01, "200"},
		{"256", "1024", "1", "num_examples", 0.25, "4"},
		{"300", "1000", "2.5", "dataset_size", 0.3, "9"}, // 8.33… steps: rounded up
	} {
		stated := map[string]string{"noise_multiplier": "1", "batch_size": c.batch, c.nHeader: c.n, "epochs": c.epochs, "delta": "1e-5", "baseline": "0.1"}
		plain := map[string]string{"noise_multiplier": "1", "sample_rate": ftoa(c.q), "steps": c.steps, "delta": "1e-5", "baseline": "0.1"}
		a, b := sameOutputs(t, "dpsgd "+c.batch+"/"+c.n+" × "+c.epochs, stated, plain, "derived_sample_rate", "derived_steps")
		if q := a["derived_sample_rate"]; q.Kind != table.Number || q.Num != c.q {
			t.Errorf("%v: derived_sample_rate = %v, want %v", stated, q, c.q)
		}
		if s := a["derived_steps"]; s.Kind != table.Number || ftoa(s.Num) != c.steps {
			t.Errorf("%v: derived_steps = %v, want %s", stated, s, c.steps)
		}
		if b["derived_sample_rate"].Kind != table.Empty || b["derived_steps"].Kind != table.Empty {
			t.Errorf("sample_rate row: derived columns %v, %v, want empty", b["derived_sample_rate"], b["derived_steps"])
		}
	}
}

// ⌈epochs·n/B⌉ exactly, as TensorFlow Privacy's compute_dp_sgd_privacy
// counts steps: 15 epochs of 60,000 in batches of 256 are 3,515.625 → 3,516.
func TestEpochSteps(t *testing.T) {
	for _, c := range []struct {
		epochs, n, batch float64
		want             int
		fits             bool
	}{
		{15, 60000, 256, 3516, true},
		{100, 50000, 8192, 611, true},
		{1, 1024, 256, 4, true},
		{0.1, 10, 3, 1, true},
		{0.3, 1000, 100, 3, true}, // the float64 0.3 is 0.29999999999999998889…: 2.99… steps → 3
		{3, 3, 3, 3, true},
		{1e12, 1e6, 1, 0, false},
	} {
		got, fits := resolve.EpochSteps(c.epochs, c.n, c.batch)
		if got != c.want || fits != c.fits {
			t.Errorf("⌈%g·%g/%g⌉ = %d, %v; want %d, %v", c.epochs, c.n, c.batch, got, fits, c.want, c.fits)
		}
	}
}

// Rows stated in the new words infer their mechanism; epsilon alone stays
// pure, epsilon and delta approx.
func TestStatedInference(t *testing.T) {
	checkInference(t, []inferenceCase{
		{map[string]string{"epsilon": "1"}, release.MechanismPure},
		{map[string]string{"epsilon": "1", "delta": "1e-5"}, release.MechanismApprox},
		{map[string]string{"epsilon": "1", "sensitivity": "2"}, ""}, // pure, which has no sensitivity: laplace or gaussian?
		{map[string]string{"epsilon": "0.2", "laplace_scale": "5"}, release.MechanismLaplace},
		{map[string]string{"epsilon": "1", "delta": "1e-5", "calibration": "analytic"}, release.MechanismGaussian},
		{map[string]string{"epsilon": "1", "delta": "1e-5", "sigma": "3.7306316348122004"}, release.MechanismGaussian},
		{map[string]string{"noise_multiplier": "1", "batch_size": "10", "dataset_size": "100", "epochs": "1"}, release.MechanismDPSGD},
		{map[string]string{"epsilon": "1", "mu": "1"}, ""}, // ambiguous still
	})
}

// Rows that state a parameter two ways that disagree, or half of a
// statement, are errors naming the columns.
func TestStatedErrors(t *testing.T) {
	for _, c := range []struct {
		row  map[string]string
		want string
	}{
		{map[string]string{"mechanism": "laplace", "epsilon": "0.3", "laplace_scale": "5"},
			"laplace_scale, epsilon: laplace_scale = 5 gives ε = 1/laplace_scale = 0.2, but epsilon = 0.3; fill one or the other"},
		{map[string]string{"epsilon": "0.3", "laplace_scale": "5", "sensitivity": "2"},
			"laplace_scale, epsilon: laplace_scale = 5 gives ε = sensitivity/laplace_scale = 0.4, but epsilon = 0.3; fill one or the other"},
		{map[string]string{"mechanism": "laplace"},
			"laplace_scale: empty, but mechanism laplace needs it (or epsilon, with b = sensitivity/ε); expected a number > 0"},
		{map[string]string{"mechanism": "gaussian", "epsilon": "1"},
			"delta: empty, but a Gaussian mechanism stated by epsilon needs δ > 0 (no σ gives δ = 0); expected a number in (0, 1)"},
		{map[string]string{"mechanism": "gaussian", "epsilon": "1", "delta": "1e-5", "sigma": "4"},
			"sigma, epsilon: sigma = 4, but the analytic calibration of epsilon = 1, delta = 1e-05 gives σ = 3.730631635; fill one or the other"},
		{map[string]string{"epsilon": "1", "delta": "1e-5", "σ": "3.7306", "calibration": "classic"},
			"σ, epsilon: σ = 3.7306, but the classic calibration of epsilon = 1, delta = 1e-05 gives σ = 4.844805263; fill one or the other"},
		{map[string]string{"mechanism": "gaussian", "epsilon": "1", "delta": "1e-5", "calibration": "exact"},
			`calibration: "exact" is not a calibration; expected analytic (Balle & Wang 2018, the default) or classic (Dwork & Roth 2014, Thm A.1)`},
		{map[string]string{"mechanism": "gaussian", "sigma": "2", "calibration": "classic"},
			"calibration: filled, but the row states sigma, not epsilon and delta, so there is nothing to calibrate; clear it, or fill epsilon and delta in place of sigma"},
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-5", "calibration": "analytic"},
			"calibration: filled, but mechanism approx does not use it; clear it or correct mechanism"},
		{map[string]string{"mechanism": "gaussian", "epsilon": "0", "delta": "1e-5", "calibration": "classic"},
			"epsilon: 0, but the classic calibration σ = sensitivity·√(2 ln(1.25/δ))/ε has no σ for ε = 0; expected ε > 0, or calibration analytic"},
		{map[string]string{"noise_multiplier": "1", "sample_rate": "0.01", "batch_size": "256", "dataset_size": "60000"},
			"sample_rate, batch_size, dataset_size: sample_rate = 0.01, but batch_size/dataset_size = 256/60000 = 0.004266666667; fill one or the other"},
		{map[string]string{"noise_multiplier": "1", "batch_size": "256", "dataset_size": "60000", "epochs": "15", "steps": "3000"},
			"steps, epochs: steps = 3000, but ⌈epochs·dataset_size/batch_size⌉ = ⌈15·60000/256⌉ = 3516; fill one or the other"},
		{map[string]string{"noise_multiplier": "1", "batch_size": "256", "steps": "10"},
			"dataset_size: empty, but batch_size needs it: the sample rate is q = batch_size/dataset_size; expected a whole number ≥ 1"},
		{map[string]string{"noise_multiplier": "1", "sample_rate": "0.01", "epochs": "3"},
			"epochs: filled, but the steps of epochs are ⌈epochs·dataset_size/batch_size⌉: fill batch_size and dataset_size, or steps in place of epochs"},
		{map[string]string{"noise_multiplier": "1", "batch_size": "600", "num_examples": "500", "epochs": "1"},
			"batch_size: 600 is more than num_examples = 500; expected a batch of at most the dataset's records"},
		{map[string]string{"noise_multiplier": "1", "batch_size": "256", "num_examples": "60000"},
			"steps: empty, but mechanism dpsgd needs it (or epochs with batch_size and num_examples); expected a whole number ≥ 1"},
		// n is a common header for counts: it passes through, and a
		// dpsgd row that meant it as dataset_size is told so.
		{map[string]string{"noise_multiplier": "1", "batch_size": "256", "N": "60000", "epochs": "1"},
			"dataset_size: empty, but batch_size needs it (q = batch_size/dataset_size); the column N is not read: name it dataset_size"},
		{map[string]string{"mechanism": "pure", "epsilon": "1", "batch_size": "10"},
			"batch_size: filled, but mechanism pure does not use it; clear it or correct mechanism"},
	} {
		st, msg, _ := evalRow(t, c.row)
		if st != StatusError || msg != c.want {
			t.Errorf("%v: %s\n got %q\nwant %q", c.row, st, msg, c.want)
		}
	}
}
