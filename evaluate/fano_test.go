package evaluate

import "testing"

func TestFanoScratch(t *testing.T) {
	for _, c := range []struct {
		mi float64
		m  int
	}{{0.1, 2}, {1, 10}, {2, 100}, {6, 50256}, {1e-6, 10}, {1e-4, 50256}, {20, 10000000000}} {
		b, err := FanoAlgorithm1(c.mi, c.m, nil)
		t.Logf("%v %v %+v %v", c.mi, c.m, b, err)
	}
	iw := []float64{0.367, 0.339, 0.294}
	b, _ := FanoAlgorithm1(0, 0, iw)
	t.Logf("iwpc0 %+v", b)
	a1, best, _ := FanoZCDP(ZCDP{Rho: 6}, 50256, nil)
	t.Logf("%+v\n%+v", a1, best)
	b, _ = FanoAlgorithm2(1.5, 9, 50256, nil)
	t.Logf("%+v", b)
	b, _ = FanoAlgorithm2(2, 0.1, 0, iw)
	t.Logf("%+v", b)
	mi, _ := FanoMIRandomizedResponse(RandomizedResponseFromQ(0.9, 10), nil)
	b, _ = FanoAlgorithm1(mi, 10, nil)
	t.Logf("%v %+v", mi, b)
	mi, _ = FanoMIRandomizedResponse(RandomizedResponseFromQ(0.5, 3), iw)
	t.Logf("%v", mi)
}
