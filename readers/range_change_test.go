package readers

import (
	"bytes"
	"strings"
	"testing"
)

// TestCSVPartOfChangedFile: a part whose bytes are no longer all there (the
// file was cut after it was split) ends with an error naming the file, never
// with fewer rows; the last part also notices a file that grew.
func TestCSVPartOfChangedFile(t *testing.T) {
	data := []byte("id,eps\n" + strings.Repeat("a,1\n", 50))
	first := openCSVText(t, data, Options{})
	parts, err := SplitCSV(first, bytes.NewReader(data), int64(len(data)), 40)
	if err != nil || len(parts) < 3 {
		t.Fatalf("%d parts (%v)", len(parts), err)
	}
	size := int64(len(data))
	for _, tc := range []struct {
		what string
		part CSVPart
		data []byte
		want string
	}{
		{"a middle part of a cut file", parts[1], data[:parts[1].To-2], "was cut or rewritten"},
		{"the last part of a grown file", parts[len(parts)-1], append(bytes.Clone(data), "b,2\n"...), "the file grew"},
	} {
		pt, err := OpenCSVPart(first, bytes.NewReader(tc.data), size, tc.part)
		if err != nil {
			t.Fatal(err)
		}
		got := drain(t, pt)
		if n := len(got); n == 0 || got[n-1].Err == nil || !strings.Contains(got[n-1].Err.Error(), tc.want) || !IsFatal(got[n-1].Err) {
			t.Errorf("%s: entries %+v; want a fatal error saying %q", tc.what, got, tc.want)
		}
	}
	if _, err := OpenCSVPart(first, bytes.NewReader(data), size, CSVPart{From: 10, To: size + 1}); err == nil {
		t.Error("a part past the end of the file opened")
	}
}
