package curve

import (
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// Reference values of f_{ε,δ} (Kulynych et al. 2025, Eq. (2)), computed with
// mpmath (10 significant digits).
func TestEpsDeltaCatalogTable(t *testing.T) {
	rows := []struct{ eps, delta, eta, f001, f01, f05, adv01 float64 }{
		{1, 0, 0.4621171573, 0.9728171817, 0.7281718172, 0.1839397206, 0.1718281828},
		{1, 1e-5, 0.4621225361, 0.9728071817, 0.7281618172, 0.1839360418, 0.1718381828},
		{2, 1e-5, 0.76159654, 0.926099439, 0.2610843901, 0.06766628827, 0.6389156099},
		{10.6, 1e-10, 0.9999501692, 2.466684963e-5, 2.242440876e-5, 1.245800486e-5, 0.8999775756},
	}
	for _, r := range rows {
		c := EpsDelta{Epsilon: r.eps, Delta: r.delta}
		for _, x := range []struct {
			what      string
			got, want float64
		}{
			{"η", c.WorstAdvantage(), r.eta},
			{"f(0.01)", c.TradeOff(0.01), r.f001},
			{"f(0.1)", c.TradeOff(0.1), r.f01},
			{"f(0.5)", c.TradeOff(0.5), r.f05},
			{"adv(0.1)", c.Advantage(0.1), r.adv01},
			{"1−f(0.01)−0.01", c.Advantage(0.01), 1 - r.f001 - 0.01},
		} {
			// Absolute 1e-10: the reference gives f to 10 significant digits,
			// and the last row's advantage is derived from such an f.
			if !approx.Near(x.got, x.want, 1e-10, 5e-10) {
				t.Errorf("ε=%v δ=%v %s = %.12g, catalog %.10g", r.eps, r.delta, x.what, x.got, x.want)
			}
		}
	}
}
