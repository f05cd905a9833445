package bound

import "testing"

// unwrap returns a function that passes a result through and fails the
// test on an error: unwrap[T](t)(f(…)) for an f returning (T, error).
func unwrap[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return v
	}
}

// grid returns a rows × cols matrix whose cell (i, j) is cell(i, j), filled
// row by row (so that a cell drawing from a random source draws in that
// order).
func grid(rows, cols int, cell func(i, j int) float64) [][]float64 {
	g := make([][]float64, rows)
	for i := range g {
		g[i] = make([]float64, cols)
		for j := range g[i] {
			g[i][j] = cell(i, j)
		}
	}
	return g
}
