package readers

import (
	"math"
	"testing"
)

func TestParseLimit(t *testing.T) {
	for s, want := range map[string]int64{
		"1": 1, "1048576": 1 << 20, "64KiB": 64 << 10, "16 MiB": 16 << 20, "2gb": 2e9, "1.5GiB": 3 << 29, "1e6": 1e6,
		"none": math.MaxInt64, "Unlimited": math.MaxInt64, "9999999TiB": math.MaxInt64, "3b": 3, "1_000": 1000,
	} {
		if got, err := ParseLimit(s, true); err != nil || got != want {
			t.Errorf("ParseLimit(%q, size) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "abc", "0", "-1", "1 parsec", "0.1", "NaN", "inf", "1e", "KiB"} {
		if got, err := ParseLimit(s, true); err == nil {
			t.Errorf("ParseLimit(%q, size) = %d, want an error", s, got)
		}
	}
	if got, err := ParseLimit("200", false); err != nil || got != 200 {
		t.Errorf("ParseLimit(200) = %d, %v", got, err)
	}
	for _, s := range []string{"2.5", "1KiB", "0", "1e3"} {
		if got, err := ParseLimit(s, false); err == nil {
			t.Errorf("ParseLimit(%q, count) = %d, want an error", s, got)
		}
	}
}
