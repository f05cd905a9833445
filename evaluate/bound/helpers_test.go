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
