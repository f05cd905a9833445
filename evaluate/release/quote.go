package release

import "strconv"

// clipLength is the most characters of a value a message quotes.
const clipLength = 40

// ClipText shortens a long text for a message: its first 40 characters
// and "…".
func ClipText(s string) string {
	if r := []rune(s); len(r) > clipLength {
		return string(r[:clipLength]) + "…"
	}
	return s
}

// QuoteClipped quotes a value for a message, shortened to 40 characters.
func QuoteClipped(s string) string { return strconv.Quote(ClipText(s)) }
