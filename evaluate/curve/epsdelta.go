package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// EpsDelta is the trade-off curve of an (ε, δ)-DP mechanism, pure when
// δ = 0. It holds for add/remove and replace-one neighbours alike: the
// relation is whichever the (ε, δ) guarantee was stated for.
//
//	f_{ε,δ}(α) = max{0, 1 − δ − e^ε·α, e^{−ε}·(1 − δ − α)}
//
// Kulynych et al., "Unifying Re-Identification, Attribute Inference, and
// Data Reconstruction Risks in Differential Privacy" (2025), Eq. (2)/(18);
// (ε, δ)-DP holds if and only if the mechanism is f_{ε,δ}-DP.
type EpsDelta struct {
	Epsilon float64 // ε ≥ 0
	Delta   float64 // δ in [0, 1)
}

// TradeOff returns f_{ε,δ}(α), the smallest type II error of a test with
// type I error α between neighbouring outputs.
func (c EpsDelta) TradeOff(alpha float64) float64 {
	if alpha <= 0 {
		return 1 - c.Delta
	}
	a := 1 - c.Delta - math.Exp(c.Epsilon+numeric.LogPos(alpha))
	b := math.Exp(-c.Epsilon) * (1 - c.Delta - alpha)
	return math.Max(0, math.Max(a, b))
}

// Advantage returns 1 − f_{ε,δ}(b) − b, the bound of Kulynych et al.
// Thm 3.3 (Eq. 11) on the advantage of any re-identification, attribute
// inference or reconstruction attack over the baseline b. It is computed
// without cancellation as
//
//	min{1 − b, δ + b·(e^ε − 1), δ + (1 − δ − b)·(1 − e^{−ε})}
//
// so that small ε and small b keep their relative precision and ε up to
// 700 does not overflow. The result is exact (not rounded up).
func (c EpsDelta) Advantage(b float64) float64 {
	eps, delta := c.Epsilon, c.Delta
	if b <= 0 {
		return delta
	}
	adv := 1 - b
	if grow := delta + b*math.Expm1(eps); grow < adv {
		adv = grow
	}
	if rest := 1 - delta - b; rest > 0 {
		if shrink := delta - rest*math.Expm1(-eps); shrink < adv {
			adv = shrink
		}
	}
	return math.Max(adv, 0)
}

// WorstAdvantage returns η = max_α (1 − f(α) − α), the baseline-free bound
// of Kulynych et al. Thm 3.4 (Eq. 12), which for f_{ε,δ} is the total
// variation bound of Prop. A.1 (Kairouz et al. 2015):
//
//	η = (e^ε − 1 + 2δ)/(e^ε + 1) = tanh(ε/2) + δ·2/(e^ε + 1)
//
// The second form neither overflows nor cancels.
func (c EpsDelta) WorstAdvantage() float64 {
	return math.Tanh(c.Epsilon/2) + c.Delta*2/(1+math.Exp(c.Epsilon))
}
