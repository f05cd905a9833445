package curve

import (
	"fmt"
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
		// Absolute 1e-10: the reference gives f to 10 significant digits,
		// and the last row's advantage is derived from such an f.
		approx.CheckValues(t, fmt.Sprintf("ε=%v δ=%v", r.eps, r.delta), 1e-10, 5e-10,
			approx.Value{What: "η", Got: c.WorstAdvantage(), Want: r.eta},
			approx.Value{What: "f(0.01)", Got: c.TradeOff(0.01), Want: r.f001},
			approx.Value{What: "f(0.1)", Got: c.TradeOff(0.1), Want: r.f01},
			approx.Value{What: "f(0.5)", Got: c.TradeOff(0.5), Want: r.f05},
			approx.Value{What: "adv(0.1)", Got: c.Advantage(0.1), Want: r.adv01},
			approx.Value{What: "1−f(0.01)−0.01", Got: c.Advantage(0.01), Want: 1 - r.f001 - 0.01})
	}
}
