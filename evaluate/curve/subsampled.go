package curve

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// DPSGD describes Poisson-subsampled Gaussian noise composed over training
// steps (DP-SGD, Abadi et al. 2016): at each step every record is included
// independently with probability SampleRate = q, the clipped per-record
// contributions (L2 norm ≤ C) are summed, and Gaussian noise of standard
// deviation NoiseMultiplier·C = σ·C is added. Neighbours are add/remove
// (one record present or absent), as in dp_accounting's and Opacus's RDP
// accountants; under replace-one the sensitivity doubles (Kulynych et al. 2025)
// and this accounting does not apply as is.
//
// RDP() gives its Rényi DP (Mironov, Talwar & Zhang 2019, "Rényi
// Differential Privacy of the Sampled Gaussian Mechanism", arXiv:1908.10530,
// §3): one step is (α, ε_α)-RDP with
//
//	ε_α = ln(A_α)/(α − 1),  A_α = E_{z∼μ₀}[(μ(z)/μ₀(z))^α],
//	μ₀ = N(0, σ²), μ = (1 − q)·μ₀ + q·N(1, σ²),
//
// which bounds D_α in both directions (the paper shows D_α(μ‖μ₀) dominates
// D_α(μ₀‖μ)), and Steps steps are (α, Steps·ε_α)-RDP by the composition
// theorem of RDP (Mironov 2017, Prop. 1). The curve, ε(δ) and η then come
// from the RDP type's optimal conversion.
//
// NoiseMultiplier must be > 0, SampleRate in [0, 1], Steps ≥ 0. q = 0 or
// Steps = 0 is no release (ε_α = 0); σ ≤ 0, a NaN, q > 1 or Steps < 0 is no
// guarantee (ε_α = +Inf, the vacuous curve f ≡ 0).
type DPSGD struct {
	NoiseMultiplier float64 // σ, noise standard deviation over clipping norm
	SampleRate      float64 // q, Poisson sampling probability per step
	Steps           int     // number of noisy steps
}

// DefaultRDPOrders returns a fresh copy of dp_accounting's default order
// grid (rdp_privacy_accountant.py, DEFAULT_RDP_ORDERS): 1.1, 1.2, …, 10.9,
// then 11, 12, …, 63, then 128, 256, 512, 1024 (156 orders).
func DefaultRDPOrders() []float64 {
	orders := make([]float64, 0, 156)
	for x := 1; x < 100; x++ {
		orders = append(orders, 1+float64(x)/10)
	}
	for a := 11; a < 64; a++ {
		orders = append(orders, float64(a))
	}
	return append(orders, 128, 256, 512, 1024)
}

// RDP returns the composed RDP guarantees on DefaultRDPOrders.
func (m DPSGD) RDP() RDP { return m.RDPAt(DefaultRDPOrders()) }

// RDPAt returns the composed RDP guarantees Steps·ε_α at the given orders
// (see DPSGD and SubsampledGaussianRDP). The orders slice is copied.
func (m DPSGD) RDPAt(orders []float64) RDP {
	r := RDP{Orders: append([]float64(nil), orders...), Epsilons: make([]float64, len(orders))}
	for i, a := range orders {
		switch {
		case m.Steps < 0:
			r.Epsilons[i] = math.Inf(1)
		case m.Steps == 0:
			r.Epsilons[i] = 0
		default:
			e := SubsampledGaussianRDP(m.SampleRate, m.NoiseMultiplier, a)
			r.Epsilons[i] = nudgeUp(e * float64(m.Steps))
		}
	}
	return r
}

// rdpConcurrently returns m.RDP(), the orders computed on two goroutines
// (alternate orders each, so that both get as many of the costly
// fractional ones): a calibration computes it at about twenty noise
// multipliers in turn, each a few milliseconds, while the row's other
// core is idle. The values are RDP's, bit for bit.
func (m DPSGD) rdpConcurrently() RDP {
	orders := DefaultRDPOrders()
	r := RDP{Orders: orders, Epsilons: make([]float64, len(orders))}
	var wg sync.WaitGroup
	for part := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := part; i < len(orders); i += 2 {
				r.Epsilons[i] = m.RDPAt(orders[i : i+1]).Epsilons[0]
			}
		}()
	}
	wg.Wait()
	return r
}

// SubsampledGaussianRDP returns an upper bound on ε_α of one step of the
// Poisson-subsampled Gaussian mechanism with sampling probability q and
// noise multiplier σ, ε_α = ln(A_α)/(α − 1) (Mironov, Talwar & Zhang 2019,
// §3; see DPSGD). Rounding is towards larger ε throughout.
//
// q = 1 is the Gaussian mechanism, ε_α = α/(2σ²) (Mironov 2017; Kulynych et al. 2025
// §2.2).
//
// Integer α (up to 100000) uses the binomial expansion of the paper,
//
//	A_α = Σ_{k=0}^{α} C(α,k)(1 − q)^{α−k} q^k e^{(k²−k)/(2σ²)},
//
// summed as A_α − 1 = Σ_{k≥2} C(α,k)(1 − q)^{α−k} q^k·expm1((k²−k)/(2σ²))
// in log space: every term is positive, so tiny q (A_α − 1 ≈ 1e-30) keeps
// its relative precision and huge A_α does not overflow.
//
// Fractional α (up to 100000) uses the paper's two series (§3.3, as
// dp_accounting's _compute_log_a_frac), split at z₀ = σ²·ln(1/q − 1) + 1/2,
// where q·N(1, σ²) = (1 − q)·N(0, σ²):
//
//	A_α = Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}·Φ((z₀ − k)/σ)
//	    + Σ_k C(α,k) q^{α−k}(1−q)^k e^{(j²−j)/(2σ²)}·Φ((j − z₀)/σ),  j = α − k.
//
// The terms are positive up to k = ⌈α⌉ and then alternate in sign with
// decreasing magnitude (each series expands a power of a ratio ≤ 1 on its
// half-line), so a truncated sum plus the magnitude of the first omitted
// term is a rigorous upper bound. The sum stops when that term is below
// 2⁻³⁶ (1.5e-11) of the total, or after 1000 terms (dp_accounting's cap),
// where for orders near 1 and σ near 0.5 the bound is still ~1e-10 of the
// total. For q < 1/2 and A_α ≤ e the series are summed as A_α − 1 (using
// Σ_k C(α,k)(1−q)^{α−k} q^k = 1 to subtract Φ(z₀/σ) term by term), so tiny
// q keeps its relative precision. The result is also capped by the
// log-convexity of ln A_α in α (Hölder's inequality):
// ln A_α ≤ (⌈α⌉ − α)·ln A_{⌊α⌋} + (α − ⌊α⌋)·ln A_{⌈α⌉}, with ln A₁ = 0.
//
// q ≤ 0 gives 0; σ = +Inf gives 0; σ ≤ 0, q > 1, α ≤ 1, α above 100000
// (including +Inf) or a NaN give +Inf (no guarantee).
func SubsampledGaussianRDP(q, sigma, alpha float64) float64 {
	switch {
	case math.IsNaN(q) || math.IsNaN(sigma) || math.IsNaN(alpha):
		return math.Inf(1)
	case !(alpha > 1) || alpha > 100000 || q > 1 || sigma <= 0:
		return math.Inf(1)
	case q <= 0 || math.IsInf(sigma, 1):
		return 0
	case q == 1:
		return nudgeUp(alpha / (2 * sigma * sigma))
	}
	var logA float64
	if alpha == math.Trunc(alpha) {
		logA = sgmLogAInt(q, sigma, int(alpha))
	} else {
		logA = sgmLogAFrac(q, sigma, alpha)
		if lo, hi := math.Floor(alpha), math.Ceil(alpha); hi <= 100000 {
			w := alpha - lo
			interp := w * sgmLogAInt(q, sigma, int(hi))
			if lo > 1 {
				interp += (1 - w) * sgmLogAInt(q, sigma, int(lo))
			}
			logA = math.Min(logA, nudgeUp(interp))
		}
	}
	if logA <= 0 {
		return 0
	}
	return nudgeUp(logA / (alpha - 1))
}

// nudgeUp moves x four ulps towards +∞ (for the final divisions and
// products, each exact to half an ulp); 0, an exact result, stays 0.
func nudgeUp(x float64) float64 {
	if x == 0 {
		return 0
	}
	for i := 0; i < 4; i++ {
		x = math.Nextafter(x, math.Inf(1))
	}
	return x
}

// sgmLogAInt returns an upper bound on ln A_n for integer n ≥ 2 from
// A_n − 1 = Σ_{k=2}^{n} C(n,k)(1 − q)^{n−k} q^k·expm1((k²−k)/(2σ²)), all
// terms positive, summed in log space. The returned value includes a bound
// on the rounding error of the terms' logarithms.
func sgmLogAInt(q, sigma float64, n int) float64 {
	lq, l1q := numeric.LogPos(q), math.Log1p(-q)
	s2 := 2 * sigma * sigma
	nf := float64(n)
	lgN, _ := math.Lgamma(nf + 1)
	ref, sum, maxErr := math.Inf(-1), 0.0, 0.0 // Σ e^{l_k} = sum·e^{ref}
	for k := 2; k <= n; k++ {
		l, err := sgmIntTerm(k, nf, lgN, lq, l1q, s2)
		if l > ref {
			sum *= math.Exp(ref - l)
			ref = l
		}
		sum += math.Exp(l - ref)
		maxErr = math.Max(maxErr, err)
	}
	lAm1 := ref + math.Log(sum)
	lAm1 += maxErr + 4*numeric.MachineEpsilon*(math.Abs(lAm1)+math.Log(nf)+1)
	return numeric.Softplus(lAm1) * (1 + 4*numeric.MachineEpsilon)
}

// sgmIntTerm returns the log of the k-th term of A_n − 1 and a bound on its
// absolute error.
func sgmIntTerm(k int, n, lgN, lq, l1q, s2 float64) (float64, float64) {
	kf := float64(k)
	lgK, _ := math.Lgamma(kf + 1)
	lgNK, _ := math.Lgamma(n - kf + 1)
	c := (kf*kf - kf) / s2
	lc := numeric.LogExpm1(c)
	l := lgN - lgK - lgNK + (n-kf)*l1q + kf*lq + lc
	err := 8 * numeric.MachineEpsilon * (lgN + lgK + lgNK + math.Abs((n-kf)*l1q) + math.Abs(kf*lq) + math.Abs(lc) + c + 1)
	return l, err
}

// sgmFracMaxTerms caps the series for fractional orders (dp_accounting's
// _MAX_STEPS_LOG_A_FRAC); the bound on the omitted tail keeps the result an
// upper bound when the cap is reached.
const sgmFracMaxTerms = 1000

// sgmLogAFrac returns an upper bound on ln A_α for fractional α > 1 (see
// SubsampledGaussianRDP).
func sgmLogAFrac(q, sigma, alpha float64) float64 {
	if q < 0.5 {
		if am1, ok := sgmAm1Frac(q, sigma, alpha); ok && am1 <= math.E-1 {
			return math.Log1p(am1) * (1 + 4*numeric.MachineEpsilon)
		}
	}
	return sgmLogAFracDirect(q, sigma, alpha)
}

// sgmSeries holds what both fractional-order sums share.
type sgmSeries struct {
	alpha, sigma, s2, z0 float64
	lq, l1q              float64
}

func newSGMSeries(q, sigma, alpha float64) sgmSeries {
	lq, l1q := numeric.LogPos(q), math.Log1p(-q)
	return sgmSeries{alpha: alpha, sigma: sigma, s2: 2 * sigma * sigma,
		z0: sigma*sigma*(l1q-lq) + 0.5, lq: lq, l1q: l1q}
}

// term returns, for index k with ln|C(α,k)| = lc, the logarithms of the
// k-th terms of the two series, ln u_k + ln M_k and ln v_k + ln N_k, and
// ln u_k on its own, with u_k = |C(α,k)|(1 − q)^{α−k}q^k,
// M_k = e^{(k²−k)/(2σ²)}Φ((z₀ − k)/σ), v_k = |C(α,k)| q^{α−k}(1 − q)^k,
// N_k = e^{(j²−j)/(2σ²)}Φ((j − z₀)/σ), j = α − k; and bounds on the
// absolute rounding errors of the two logarithms (lc is built up by k
// multiplications, and ln Φ(a) moves by at most (max(−a, 0) + 1)·δa when
// its argument moves by δa).
func (s sgmSeries) term(k int, lc float64) (l0, l1, lu, err0, err1 float64) {
	kf := float64(k)
	j := s.alpha - kf
	lu = lc + j*s.l1q + kf*s.lq
	lv := lc + kf*s.l1q + j*s.lq
	c0 := (kf*kf - kf) / s.s2
	c1 := (j*j - j) / s.s2
	a := (s.z0 - kf) / s.sigma
	b := (j - s.z0) / s.sigma
	p0, p1 := numeric.LogNormCDF(a), numeric.LogNormCDF(b)
	l0, l1 = lu+c0+p0, lv+c1+p1
	common := (kf + 2) * (math.Abs(lc) + 1)
	err0 = 8 * numeric.MachineEpsilon * (common + math.Abs(j*s.l1q) + math.Abs(kf*s.lq) + c0 + math.Abs(p0) +
		(math.Abs(s.z0)+kf)/s.sigma*(math.Max(-a, 0)+1))
	err1 = 8 * numeric.MachineEpsilon * (common + math.Abs(kf*s.l1q) + math.Abs(j*s.lq) + c1 + math.Abs(p1) +
		(math.Abs(s.z0)+math.Abs(j))/s.sigma*(math.Max(-b, 0)+1))
	return l0, l1, lu, err0, err1
}

// sgmLogAFracDirect sums both series in scaled linear space (log A may be
// large) and returns an upper bound on ln A_α.
func sgmLogAFracDirect(q, sigma, alpha float64) float64 {
	s := newSGMSeries(q, sigma, alpha)
	ceil := int(math.Ceil(alpha))
	ref := math.Inf(-1) // the sum is Σ · e^{ref}
	sum, errSum := 0.0, 0.0
	add := func(l, sign, err float64) {
		if math.IsInf(l, -1) {
			return
		}
		if l > ref {
			sum *= math.Exp(ref - l)
			errSum *= math.Exp(ref - l)
			ref = l
		}
		v := math.Exp(l - ref)
		sum += sign * v
		errSum += v * (err + 4*numeric.MachineEpsilon)
	}
	lc, sign := 0.0, 1.0
	var bound float64 // magnitude of the first omitted terms, scaled by e^{ref}
	for k := 0; ; k++ {
		l0, l1, _, err0, err1 := s.term(k, lc)
		if k > ceil && k > 1 {
			m := math.Exp(l0-ref) + math.Exp(l1-ref)
			if m <= 0x1p-36*sum || k >= sgmFracMaxTerms {
				bound = m
				break
			}
		}
		add(l0, sign, err0)
		add(l1, sign, err1)
		// C(α, k+1) = C(α, k)·(α − k)/(k + 1).
		lc += math.Log(math.Abs(alpha-float64(k))) - math.Log(float64(k+1))
		if alpha-float64(k) < 0 {
			sign = -sign
		}
	}
	total := sum + bound + errSum + 2*numeric.MachineEpsilon*sum
	return (ref + math.Log(total)) * (1 + 4*numeric.MachineEpsilon)
}

// sgmAm1Frac returns an upper bound on A_α − 1 for fractional α and
// q < 1/2, or false if a term overflows (A_α is then large and
// sgmLogAFracDirect applies). With a_k = (z₀ − k)/σ, P₀ = Φ(a₀), P₁ = 1 − P₀:
//
//	A_α − 1 = Σ_k ±u_k·(M_k − M₀) + Σ_k ±v_k·N_k − P₁,
//	M_k − M₀ = expm1((k²−k)/(2σ²))·Φ(a_k) − (Φ(a₀) − Φ(a_k)),
//
// where the first identity subtracts P₀ = M₀·Σ_k ±u_k term by term
// (Σ_k C(α,k)(1 − q)^{α−k}q^k = 1 for q < 1/2).
func sgmAm1Frac(q, sigma, alpha float64) (float64, bool) {
	s := newSGMSeries(q, sigma, alpha)
	a0 := s.z0 / sigma
	lP0 := numeric.LogNormCDF(a0)
	p1 := numeric.NormSF(a0)
	ceil := int(math.Ceil(alpha))
	sum, errSum := 0.0, 0.0
	lc, sign := 0.0, 1.0
	for k := 0; ; k++ {
		l0, l1, lu, err0, err1 := s.term(k, lc)
		kf := float64(k)
		ak := (s.z0 - kf) / sigma
		// u_k·(M_k − M₀), formed without cancelling the common Φ(a₀).
		var d, dErr float64
		if k > 0 {
			band, bandErr := normBand(ak, a0)
			c := (kf*kf - kf) / s.s2
			grow := 0.0
			if c > 0 {
				grow = math.Exp(lu + numeric.LogExpm1(c) + numeric.LogNormCDF(ak))
			}
			shrink := math.Exp(lu) * band
			d = grow - shrink
			dErr = grow*(err0+4*numeric.MachineEpsilon) + shrink*(err0+4*numeric.MachineEpsilon) + math.Exp(lu)*bandErr
		}
		n := math.Exp(l1) // v_k·N_k
		if math.IsInf(d, 0) || math.IsInf(n, 0) || math.IsNaN(d) {
			return 0, false
		}
		if k > ceil && k > 1 {
			// Bound on the omitted tails: |u_k|·(M_k + M₀) + |v_k|·N_k.
			tail := math.Exp(l0) + math.Exp(lu+lP0) + n
			if math.IsInf(tail, 0) || math.IsNaN(tail) {
				return 0, false
			}
			if (sum > 0 && tail <= 0x1p-36*sum) || k >= sgmFracMaxTerms {
				total := sum - p1 + tail + errSum + 4*numeric.MachineEpsilon*(math.Abs(sum)+p1)
				if !(total > 0) {
					return 0, false
				}
				return total, true
			}
		}
		sum += sign * (d + n)
		errSum += dErr + n*(err1+4*numeric.MachineEpsilon)
		lc += math.Log(math.Abs(alpha-kf)) - math.Log(kf+1)
		if alpha-kf < 0 {
			sign = -sign
		}
	}
}

// normBand returns Φ(hi) − Φ(lo) for lo ≤ hi, formed in the tail where both
// values are small, and a bound on its absolute rounding error.
func normBand(lo, hi float64) (float64, float64) {
	var a, b float64
	switch {
	case hi <= 0:
		a, b = numeric.NormCDF(hi), numeric.NormCDF(lo)
	case lo >= 0:
		a, b = numeric.NormSF(lo), numeric.NormSF(hi)
	default:
		a, b = 1-numeric.NormSF(hi), numeric.NormCDF(lo)
	}
	return math.Max(a-b, 0), 4 * numeric.MachineEpsilon * (a + b)
}

// DP-SGD rows are accounted twice. The privacy-loss distribution (package
// pld) gives the tight trade-off curve that every f-DP, one-run and
// conversion column uses; the RDP accountant (DPSGD.RDP) gives the
// conservative values that most published DP-SGD guarantees were computed
// with, kept as the *_rdp comparison columns. Kulynych et al. (2025, §4.2,
// Fig. 1) show the difference: about 20% less noise for the same risk.

// PLDCurve is the trade-off curve of a privacy-loss distribution accountant
// (pld.PLD): the symmetrised Neyman–Pearson curve of the discretised,
// pessimistically rounded PLD of DP-SGD under add/remove neighbours
// (Kulynych et al. 2024, Alg. 1; Dong, Roth & Su 2022, Def. F.1). Every
// value it gives bounds the exact curve's risk from above.
type PLDCurve struct{ PLD *pld.PLD }

// TradeOff returns a lower bound on f(α).
func (c PLDCurve) TradeOff(alpha float64) float64 { return c.PLD.TradeOff(alpha) }

// Advantage returns an upper bound on 1 − f(b) − b.
func (c PLDCurve) Advantage(b float64) float64 { return c.PLD.Advantage(b) }

// WorstAdvantage returns δ(0) ≥ η.
func (c PLDCurve) WorstAdvantage() float64 { return c.PLD.WorstAdvantage() }

// EpsilonAt returns an upper bound on ε(δ).
func (c PLDCurve) EpsilonAt(delta float64) float64 { return c.PLD.Epsilon(delta) }

// DeltaAt returns an upper bound on δ(ε) for ε ≥ 0.
func (c PLDCurve) DeltaAt(eps float64) float64 { return c.PLD.Delta(eps) }

// DPSGDCurve is the trade-off curve of a dpsgd row: its PLD accountant's
// curve, tightened by its RDP accountant's where that is tighter. Both are
// valid lower bounds on the type II error of every test (PLDCurve by
// pessimistic discretisation, RDP by the optimal RDP → f-DP conversion of
// Zhu, Dong & Wang 2022), so their pointwise maximum is one too; likewise
// every δ(ε), ε(δ) and advantage is the smaller of the two upper bounds.
// The PLD is tighter everywhere except far in the tails, below its
// numerical floor (δ under about 1e-10, where the PLD's slack and the mass
// its truncation moved to +∞ dominate), where the RDP bound takes over
// instead of the PLD's ε(δ) becoming infinite.
type DPSGDCurve struct {
	PLD PLDCurve
	RDP RDP
}

// TradeOff returns max(f_PLD(α), f_RDP(α)), a lower bound on f(α).
func (c DPSGDCurve) TradeOff(alpha float64) float64 {
	return math.Max(c.PLD.TradeOff(alpha), c.RDP.TradeOff(alpha))
}

// Advantage returns the smaller of the two bounds on 1 − f(b) − b.
func (c DPSGDCurve) Advantage(b float64) float64 {
	return math.Min(c.PLD.Advantage(b), c.RDP.Advantage(b))
}

// WorstAdvantage returns the smaller of the two bounds on η.
func (c DPSGDCurve) WorstAdvantage() float64 {
	return math.Min(c.PLD.WorstAdvantage(), c.RDP.WorstAdvantage())
}

// EpsilonAt returns the smaller of the two bounds on ε(δ).
func (c DPSGDCurve) EpsilonAt(delta float64) float64 {
	return math.Min(c.PLD.EpsilonAt(delta), c.RDP.EpsilonAt(delta))
}

// DeltaAt returns the smaller of the two bounds on δ(ε) for ε ≥ 0.
func (c DPSGDCurve) DeltaAt(eps float64) float64 {
	return math.Min(c.PLD.DeltaAt(eps), c.RDP.DeltaAt(eps))
}

// DPSGDStages returns the stages of a dpsgd row: its own stage first, then
// its extra stages.
func DPSGDStages(own DPSGD, extra []pld.Stage) []pld.Stage {
	stages := make([]pld.Stage, 0, 1+len(extra))
	stages = append(stages, pld.Stage{NoiseMultiplier: own.NoiseMultiplier, SampleRate: own.SampleRate, Steps: own.Steps})
	return append(stages, extra...)
}

// NewPLD builds the accountant of the stages with the default grid,
// sharing the powers of the steps' PLDs with the other accountants built
// with the same chains (nil: none; the values are the same). A defect of
// the accountant that panics must not end a run of many rows: it becomes
// this row's error, reported as a defect.
func NewPLD(stages []pld.Stage, chains *pld.Chains) (p *pld.PLD, err error) {
	defer func() {
		if v := recover(); v != nil {
			p, err = nil, fmt.Errorf("internal error in the PLD accountant (please report it): %v", v)
		}
	}()
	return pld.NewDPSGD(stages, pld.Options{Chains: chains})
}

// dpsgdRisk returns the risk that noise calibration bounds for a row: the
// advantage at the row's baseline when it has one, else the worst-case
// advantage.
func dpsgdRisk(c Curve, baseline float64, hasBaseline bool) float64 {
	if hasBaseline {
		return c.Advantage(baseline)
	}
	return c.WorstAdvantage()
}

// pldNoiseTolerance is the relative width of the final bracket of the PLD
// noise calibration: each step of the bisection builds an accountant, so
// it stops at 0.01% of σ, returning the end that meets the target.
const pldNoiseTolerance = 1e-4

// NoiseForTargetPLD returns the smallest noise multiplier σ (to a relative
// pldNoiseTolerance, rounded up) of the first stage such that the PLD
// accountant's risk of the stages — the advantage at baseline b, or the
// worst-case advantage when b is NaN — is at most target. The other stages
// are kept as they are. start is a noise multiplier to bracket from (the
// RDP-calibrated one, which meets the target with room to spare). It
// returns 0 when any σ ≥ 0.001 meets the target; the error is a
// *NoiseLimitError when no σ up to 4¹² times start does, an
// *AccountantError when an accountant fails.
//
// Each evaluation builds an accountant (as in the calibration of Kulynych
// et al. 2025, §4.2, by bisection on σ), so the search is a safeguarded secant
// method on ln σ, which needs about half the accountants of a bisection:
// the risk is smooth and non-increasing in σ (up to discretisation). Whatever the shape, the σ returned meets the
// target as computed, and one just below it (by the tolerance) does not.
func NoiseForTargetPLD(stages []pld.Stage, target, b, start float64) (sigma float64, err error) {
	sigma, _, err = noiseForTargetPLD(stages, target, b, start)
	return sigma, err
}

// noiseForTargetPLD is NoiseForTargetPLD, also returning the number of
// accountants built (for tests of the search's cost).
func noiseForTargetPLD(stages []pld.Stage, target, b, start float64) (sigma float64, builds int, err error) {
	if len(stages) == 0 {
		return 0, 0, errNoStage
	}
	// excess returns risk(σ) − target: ≤ 0 when σ meets the target.
	excess := func(s float64) (float64, error) {
		builds++
		st := append([]pld.Stage(nil), stages...)
		st[0].NoiseMultiplier = s
		p, err := NewPLD(st, nil)
		if err != nil {
			return 0, &AccountantError{NoiseMultiplier: s, Err: err}
		}
		return dpsgdRisk(PLDCurve{p}, b, !math.IsNaN(b)) - target, nil
	}
	if !(start > 0) || math.IsInf(start, 1) {
		start = 1
	}
	// Bracket in x = ln σ: xHi meets the target (gHi ≤ 0), xLo does not
	// (gLo > 0). The RDP-calibrated start usually meets it and lies 5–25%
	// above the answer, so the first step down is small.
	x0 := math.Log(start)
	g0, err := excess(start)
	if err != nil {
		return 0, builds, err
	}
	xLo, xHi, gLo, gHi := x0, x0, g0, g0
	if g0 > 0 {
		for i := 0; gHi > 0; i++ {
			if i == 12 {
				return 0, builds, &NoiseLimitError{Largest: math.Exp(xHi)}
			}
			xLo, gLo = xHi, gHi
			xHi += math.Log(4)
			if gHi, err = excess(math.Exp(xHi)); err != nil {
				return 0, builds, err
			}
		}
	} else {
		step := math.Log(1.15)
		for i := 0; gLo <= 0; i++ {
			if i == 40 || math.Exp(xLo) < 1e-3 {
				return 0, builds, nil // any noise multiplier meets the target
			}
			xHi, gHi = xLo, gLo
			xLo -= step
			step = math.Min(2*step, math.Log(4))
			if gLo, err = excess(math.Exp(xLo)); err != nil {
				return 0, builds, err
			}
		}
	}
	// Secant steps through the two latest points, kept inside the bracket
	// (at least 0.45 of the tolerance from its ends); a bisection step when
	// the secant leaves the bracket or two steps have not halved it. When
	// a step that meets the target was small, a probe just below it closes
	// the bracket at once if the estimate was good.
	tol := math.Log1p(pldNoiseTolerance)
	xa, ga := xLo, gLo // the two latest points
	xb, gb := xHi, gHi
	width, stalls := xHi-xLo, 0
	for xHi-xLo > tol {
		x := xb - gb*(xb-xa)/(gb-ga)
		margin := 0.45 * tol
		if stalls >= 2 || !(x > xLo && x < xHi) || math.IsNaN(x) {
			x, stalls = 0.5*(xLo+xHi), 0
		}
		x = math.Min(math.Max(x, xLo+margin), xHi-margin)
		g, err := excess(math.Exp(x))
		if err != nil {
			return 0, builds, err
		}
		small := math.Abs(x-xb) < 3*tol
		xa, ga, xb, gb = xb, gb, x, g
		if g <= 0 {
			xHi, gHi = x, g
			if xp := x - 0.9*tol; small && xp > xLo {
				gp, err := excess(math.Exp(xp))
				if err != nil {
					return 0, builds, err
				}
				if gp <= 0 {
					xHi, gHi = xp, gp
				} else {
					xLo, gLo = xp, gp
				}
				xa, ga, xb, gb = xb, gb, xp, gp
			}
		} else {
			xLo, gLo = x, g
		}
		if xHi-xLo > 0.5*width {
			stalls++
		} else {
			stalls, width = 0, xHi-xLo
		}
	}
	// σ = e^{xHi} meets the target as computed; round it up so that the
	// value written is not below the one evaluated.
	return numeric.UlpsAway(math.Exp(xHi), numeric.RoundingUlps), builds, nil
}

// NoiseForTargetRDP returns the smallest noise multiplier σ of the row's
// own stage whose RDP-based risk (the advantage at baseline b, or the
// worst case when b is NaN), composed with the extra stages' RDP, is at
// most target: bisection on 1/σ to adjacent floats, rounded up. It returns
// 0 when any σ ≥ 0.001 meets the target, ErrNoNoise when none does and
// ErrOnlyInfiniteNoise when only σ = ∞ does.
func NoiseForTargetRDP(own DPSGD, extra RDP, target, b float64) (sigma float64, err error) {
	risk := func(inv float64) float64 {
		if inv == 0 && len(extra.Orders) == 0 {
			return 0
		}
		c := DPSGD{NoiseMultiplier: 1 / inv, SampleRate: own.SampleRate, Steps: own.Steps}.rdpConcurrently()
		if inv == 0 {
			c = RDP{Orders: c.Orders, Epsilons: make([]float64, len(c.Orders))}
		}
		if len(extra.Orders) > 0 {
			c = AddRDP(c, extra)
		}
		return dpsgdRisk(c, b, !math.IsNaN(b))
	}
	// 1/σ from 0 (infinite noise) to 1e3 (σ = 0.001).
	// The search starts at σ = 1 (noise multipliers of DP-SGD are mostly
	// within a factor of 4 of it); the answer does not depend on it.
	inv, ok := numeric.LargestParameterInterpolating(risk, target, 0, 1e3, 1)
	switch {
	case !ok:
		return 0, ErrNoNoise
	case inv == 0 || math.IsInf(1/inv, 1):
		return 0, ErrOnlyInfiniteNoise
	case inv == 1e3:
		return 0, nil
	}
	return numeric.UlpsAway(1/inv, numeric.RoundingUlps), nil
}

// AddRDP returns the composition of two RDP guarantees on the same orders:
// ε_α adds (Mironov 2017, Prop. 1), rounded up.
func AddRDP(a, b RDP) RDP {
	c := RDP{Orders: append([]float64(nil), a.Orders...), Epsilons: make([]float64, len(a.Orders))}
	for i := range c.Epsilons {
		c.Epsilons[i] = nudgeUp(a.Epsilons[i] + b.Epsilons[i])
	}
	return c
}

// Errors of the noise calibrations.
var (
	errNoStage           = errors.New("no stage to calibrate")
	ErrNoNoise           = errors.New("no noise level meets the target")
	ErrOnlyInfiniteNoise = errors.New("only infinite noise meets the target")
)

// NoiseLimitError reports that no noise multiplier up to Largest meets
// the target of a PLD calibration.
type NoiseLimitError struct{ Largest float64 }

func (e *NoiseLimitError) Error() string {
	return "no noise multiplier up to " + strconv.FormatFloat(e.Largest, 'g', -1, 64) + " meets the target"
}

// AccountantError reports that the PLD accountant failed at a noise
// multiplier tried by a calibration.
type AccountantError struct {
	NoiseMultiplier float64
	Err             error
}

func (e *AccountantError) Error() string {
	return "the PLD accountant fails at noise multiplier " + strconv.FormatFloat(e.NoiseMultiplier, 'g', -1, 64) + ": " + e.Err.Error()
}

func (e *AccountantError) Unwrap() error { return e.Err }
