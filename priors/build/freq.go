package build

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// Frequency is one value of a distribution: how many records have it and
// its probability.
type Frequency struct {
	Value string
	Count int64
	P     float64
}

// EntropyBits returns the Shannon entropy, in bits, of the distribution
// with the given counts (zero counts allowed, at least one positive):
//
//	H = −Σ_u q_u log2 q_u,   q_u = c_u / Σ c.
//
// It returns 0 when no count is positive.
func EntropyBits(counts []int64) float64 {
	var total int64
	for _, c := range counts {
		if c > 0 {
			total += c
		}
	}
	return smoothedEntropy(counts, total, 0, 0)
}

// smoothedEntropy is the entropy in bits of the distribution
// q_u = (c_u + α)/(C + α·m) over a support of m values, of which those
// listed in counts have the given counts and the other m − len(counts)
// (if m is larger) have count 0. With α = 0, m is not used.
func smoothedEntropy(counts []int64, total int64, alpha float64, m int) float64 {
	if total <= 0 && alpha == 0 {
		return 0
	}
	den := float64(total) + alpha*float64(m)
	h := 0.0
	listed := 0
	for _, c := range counts {
		if c <= 0 && alpha == 0 {
			continue
		}
		listed++
		if q := (float64(c) + alpha) / den; q > 0 {
			h -= q * math.Log2(q)
		}
	}
	if alpha > 0 && m > listed {
		q := alpha / den
		h -= float64(m-listed) * q * math.Log2(q)
	}
	return math.Max(h, 0)
}

// smoothedP is the additive-smoothing estimate (c + α)/(n + α·m) of a
// value with count c among n records and a support of m values; α = 0 is
// the plain frequency c/n.
func smoothedP(c, n int64, alpha float64, m int) float64 {
	if alpha == 0 {
		if n == 0 {
			return 0
		}
		return float64(c) / float64(n)
	}
	return (float64(c) + alpha) / (float64(n) + alpha*float64(m))
}

// sortFrequencies orders values by decreasing count, ties by increasing
// value (byte order), so that the first is the Bayes-optimal guess.
func sortFrequencies(f []Frequency) {
	slices.SortFunc(f, func(a, b Frequency) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	})
}

// noID marks a missing value where a value id is expected.
const noID = math.MaxUint32

// interner numbers the distinct values of a column (or of a tuple of
// columns) in order of first appearance. Lookups with a []byte key do not
// allocate; only a new value does.
type interner struct {
	ids      map[string]uint32
	vals     []string
	emptyID  uint32 // the id of "", or noID before it is seen
	distinct int    // values other than ""
	// limit is the most values other than "" that a column may have (a
	// default attribute's MaxCategories); overID is the id of the first
	// value beyond it, or noID. As ids follow first appearance, a row
	// whose value has an id ≥ overID (other than "") is the first with
	// more values than limit or a later one.
	limit  int
	overID uint32
}

func newInterner() *interner {
	return &interner{ids: make(map[string]uint32), emptyID: noID, limit: math.MaxInt, overID: noID}
}

// over reports whether value id v (not noID) comes after the first limit
// values other than "".
func (in *interner) over(v uint32) bool {
	return v != noID && v >= in.overID && v != in.emptyID
}

// idString returns the id of s, numbering it if new.
func (in *interner) idString(s string) uint32 {
	if id, ok := in.ids[s]; ok {
		return id
	}
	return in.add(strings.Clone(s))
}

// idBytes returns the id of string(b), numbering it if new.
func (in *interner) idBytes(b []byte) uint32 {
	if id, ok := in.ids[string(b)]; ok {
		return id
	}
	return in.add(string(b))
}

func (in *interner) add(s string) uint32 {
	id := uint32(len(in.vals))
	in.ids[s] = id
	in.vals = append(in.vals, s)
	if s == "" {
		in.emptyID = id
	} else {
		in.distinct++
		if in.distinct > in.limit && in.overID == noID {
			in.overID = id
		}
	}
	return id
}

// empty returns the id of "" (the missing value as a value of its own).
func (in *interner) empty() uint32 {
	if in.emptyID == noID {
		return in.add("")
	}
	return in.emptyID
}

// cellText returns the text by which a cell is compared (see the package
// documentation, "Values"): trimmed text, or the cell's canonical form
// appended to buf for other kinds. present is false for an empty cell.
// Exactly one of s and b is meaningful: s when isText.
func cellText(c table.Cell, buf []byte) (s string, b []byte, isText, present bool) {
	switch c.Kind {
	case table.Text:
		s = strings.TrimSpace(c.Str)
		return s, buf, true, s != ""
	case table.Integer:
		return "", strconv.AppendInt(buf[:0], c.Int, 10), false, true
	case table.Number:
		return "", strconv.AppendFloat(buf[:0], c.Num, 'g', -1, 64), false, true
	case table.Bool:
		return "", strconv.AppendBool(buf[:0], c.Bool), false, true
	case table.Empty:
		return "", buf, false, false
	}
	// Dates, times, exact decimals (uint64 beyond int64 among them) and
	// nested values: their text, as the package compares cells.
	s = c.String()
	return s, buf, true, s != ""
}

// intern returns the id of a cell's value, or ok = false for an empty
// cell.
func (in *interner) intern(c table.Cell, buf *[]byte) (id uint32, ok bool) {
	s, b, isText, present := cellText(c, *buf)
	if !present {
		return noID, false
	}
	if isText {
		return in.idString(s), true
	}
	*buf = b
	return in.idBytes(b), true
}

// appendID appends id to b as 4 little-endian bytes (tuple keys).
func appendID(b []byte, id uint32) []byte {
	return append(b, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
}

// displayTuple formats the values of a joint attribute or of known
// columns: the values separated by ", ", each quoted (Go syntax) when it
// is empty or holds a comma or a quote.
func displayTuple(vals []string) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		if v == "" || strings.ContainsAny(v, `,"`) {
			b.WriteString(strconv.Quote(v))
		} else {
			b.WriteString(v)
		}
	}
	return b.String()
}

// bitset is a growable set of record indexes.
type bitset []uint64

func (s *bitset) set(i int) {
	w := i >> 6
	for len(*s) <= w {
		*s = append(*s, 0)
	}
	(*s)[w] |= 1 << (uint(i) & 63)
}

func (s bitset) has(i int) bool {
	w := i >> 6
	return w < len(s) && s[w]&(1<<(uint(i)&63)) != 0
}
