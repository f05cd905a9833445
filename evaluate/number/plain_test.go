package number

import "testing"

// Format.plain, the shortcut for plain decimal numbers, reads every
// text it accepts as the general rules do (Format.parse), in every
// format that is not the decimal comma's: checked over every text of up to
// six characters from digits, '.', 'e', 'E', '+' and '-'.
func TestPlainNumbersReadAsGeneral(t *testing.T) {
	const alphabet = "05.eE+-"
	formats := []Format{{}, {Mark: DecimalPoint}, {Mark: DecimalPoint, Settled: true}, {Mark: DecimalUnknown, Percent: true}}
	accepted := 0
	var walk func(s []byte)
	walk = func(s []byte) {
		for _, f := range formats {
			v, ok := f.plain(string(s))
			if !ok {
				continue
			}
			accepted++
			w, err := f.parse(string(s))
			if err != nil || w != v {
				t.Fatalf("%+v: %q: plain reads %v, the general rules %v, %v", f, s, v, w, err)
			}
		}
		if len(s) == 6 {
			return
		}
		for i := range len(alphabet) {
			walk(append(s, alphabet[i]))
		}
	}
	walk(nil)
	if accepted == 0 {
		t.Fatal("plain accepted no text")
	}
	for _, s := range []string{"", "1e999", " 1", "1,5", "5%", "1/2", "inf", "0x10", "−3"} {
		if v, ok := (Format{}).plain(s); ok {
			t.Errorf("plain(%q) = %v: should be left to the general rules", s, v)
		}
	}
	if _, ok := (Format{Mark: DecimalComma}).plain("1.5"); ok {
		t.Error("plain read a text of a decimal-comma table")
	}
}
