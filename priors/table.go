package priors

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/internal/editdist"
	"github.com/riskbatch/riskbatch/internal/words"
	"github.com/riskbatch/riskbatch/table"
)

// MaxTargets is the most targets one key may describe.
const MaxTargets = 1_000_000_000

// maxLoadErrors is the number of errors after which a Loader is done.
const maxLoadErrors = 20

// Group is a run of targets with the same prior success probability.
type Group struct {
	P     float64
	Count int
}

// Prior is the prior of one release row: the prior success probabilities
// p_i of its targets (Swanberg et al. 2025: p_i = Pr_{X∼D_i}[ℓ_i(X, z) = 1]), from a
// prior table or an inline prior. The zero Prior has no targets.
type Prior struct {
	key        string
	source     string
	groups     []Group
	ends       []int // ends[j] = Σ_{i ≤ j} groups[i].Count
	max        float64
	candidates int64
	dists      *Distributions // from a frequency table; nil when unknown
}

// Key returns the key of a table prior, or the inline text as written in
// canonical form ("zipf(1.1, 1e+09)").
func (p Prior) Key() string { return p.key }

// Source returns where the prior comes from: the file (and sheet) of a
// table prior, "inline" for an inline prior.
func (p Prior) Source() string { return p.source }

// Targets returns n, the number of targets.
func (p Prior) Targets() int {
	if len(p.ends) == 0 {
		return 0
	}
	return p.ends[len(p.ends)-1]
}

// P returns p_i of target i (0-based, in table order), or NaN when i is
// not in [0, Targets()).
func (p Prior) P(i int) float64 {
	if i < 0 || i >= p.Targets() {
		return math.NaN()
	}
	j := sort.SearchInts(p.ends, i+1)
	return p.groups[j].P
}

// Ps returns the vector (p_1, …, p_n) of every target: a new slice of
// Targets() values (use Groups for large n).
func (p Prior) Ps() []float64 {
	ps := make([]float64, 0, p.Targets())
	for _, g := range p.groups {
		for range g.Count {
			ps = append(ps, g.P)
		}
	}
	return ps
}

// Groups returns the targets as runs of equal p, in order: the same
// vector as Ps without repeating it.
func (p Prior) Groups() []Group { return slices.Clone(p.groups) }

// Max returns max_i p_i, the baseline of single-target bounds (the
// contract: "single-target bounds use the largest p"); 0 without targets.
func (p Prior) Max() float64 { return p.max }

// Candidates returns M for uniform(M), the size of the uniform candidate
// set; ok is false for every other prior (a table of p values does not
// say how many candidates there are).
func (p Prior) Candidates() (m int64, ok bool) { return p.candidates, p.candidates > 0 }

// add appends count targets of prior q.
func (p *Prior) add(q float64, count int) {
	if n := len(p.groups); n > 0 && p.groups[n-1].P == q {
		p.groups[n-1].Count += count
		p.ends[n-1] += count
	} else {
		p.groups = append(p.groups, Group{P: q, Count: count})
		p.ends = append(p.ends, p.Targets()+count)
	}
	p.max = math.Max(p.max, q)
}

// Tables are the prior tables read by a Loader, indexed by key.
type Tables struct {
	priors map[string]*Prior   // by key
	folded map[string][]string // by normalised key: the keys
	files  []loadedFile
}

// loadedFile is one loaded file and how many keys it defined.
type loadedFile struct {
	name string
	keys int
}

// KeyError is the error of a key that no loaded table defines. Its message
// names the key, the tables loaded and the closest keys.
type KeyError struct {
	Key         string
	Files       []string // "file (n keys)" for each table loaded
	Suggestions []string // the closest keys, best first
}

// Error says that no loaded table defines the key, lists the tables
// loaded (or says that none were) and suggests close keys.
func (e *KeyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "prior %q: ", e.Key)
	if len(e.Files) == 0 {
		b.WriteString("no prior tables were loaded (and it is not an inline prior: " + inlineForms + ")")
		return b.String()
	}
	b.WriteString("no such key in the prior tables loaded: " + strings.Join(e.Files, "; "))
	if len(e.Suggestions) > 0 {
		b.WriteString("; did you mean " + words.Quoted(e.Suggestions) + "?")
	}
	return b.String()
}

// columnNames returns a table's header.
func columnNames(t Rows) []string {
	var names []string
	for _, c := range t.Columns() {
		names = append(names, c.Name)
	}
	return names
}

// NormalizeName normalises a column name as a Loader matches it: lower
// case, trimmed, with space, "-" and "_" alike. Two names with the same
// normal form are the same column to a Loader.
func NormalizeName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}

// isPriorHeader reports whether a header has the columns prior and p.
func isPriorHeader(header []string) bool {
	var key, p bool
	for _, h := range header {
		switch NormalizeName(h) {
		case "prior":
			key = true
		case "p":
			p = true
		}
	}
	return key && p
}

// read loads the rows of one table, appending errors to errs.
func (ts *Tables) read(t Rows, path string, owner map[string]string, errs []error) []error {
	src := sourceName(t)
	keyCol, pCol, nCol := -1, -1, -1
	var names []string
	for i, c := range t.Columns() {
		names = append(names, c.Name)
		var dst *int
		switch NormalizeName(c.Name) {
		case "prior":
			dst = &keyCol
		case "p":
			dst = &pCol
		case "targets":
			dst = &nCol
		default:
			continue
		}
		if *dst >= 0 {
			return append(errs, &table.Error{
				Pos: table.Position{File: t.File(), Sheet: t.Sheet(), Row: 1, Column: i, ColumnName: c.Name},
				Err: fmt.Errorf("a second %q column", NormalizeName(c.Name)),
			})
		}
		*dst = i
	}
	if keyCol < 0 || pCol < 0 {
		return append(errs, &table.Error{
			Pos: table.Position{File: t.File(), Sheet: t.Sheet(), Column: -1},
			Err: fmt.Errorf("a prior table needs the columns prior and p; this one has %s", words.Quoted(names)),
		})
	}
	colErr := func(row table.Row, col int, err error) error { return cellError(row, col, names[col], err) }
	for row := range rowsOf(t, &errs) {
		kc, pc := CellAt(row, keyCol), CellAt(row, pCol)
		nc := table.Cell{}
		if nCol >= 0 {
			nc = CellAt(row, nCol)
		}
		if kc.IsEmpty() && pc.IsEmpty() && nc.IsEmpty() {
			continue
		}
		key := strings.TrimSpace(kc.String())
		if kc.IsEmpty() {
			errs = append(errs, colErr(row, keyCol, errors.New("the key is empty")))
			continue
		}
		p, err := probabilityOf(pc)
		if err != nil {
			errs = append(errs, colErr(row, pCol, err))
			continue
		}
		n := 1
		if nCol >= 0 && !nc.IsEmpty() {
			c, err := CountOf(nc)
			if err == nil && (c < 1 || c > MaxTargets) {
				err = fmt.Errorf("targets must be a whole number from 1 to %d, not %d", MaxTargets, c)
			}
			if err != nil {
				errs = append(errs, colErr(row, nCol, fmt.Errorf("%w (targets)", err)))
				continue
			}
			n = int(c)
		}
		if f, ok := owner[key]; ok && f != path {
			errs = append(errs, colErr(row, keyCol, fmt.Errorf("the key %q is also defined in %s", key, f)))
			continue
		}
		owner[key] = path
		pr := ts.priors[key]
		if pr == nil {
			pr = &Prior{key: key, source: src}
			ts.priors[key] = pr
		}
		if pr.Targets() > MaxTargets-n {
			errs = append(errs, colErr(row, keyCol, fmt.Errorf("the key %q describes more than %d targets", key, MaxTargets)))
			continue
		}
		pr.add(p, n)
	}
	return errs
}

// probabilityOf reads a p cell: a finite number in [0, 1], written as a
// number or as text, and in text as a percentage too ("30%" is 0.3), as
// release cells may be.
func probabilityOf(c table.Cell) (float64, error) {
	var x float64
	switch c.Kind {
	case table.Number:
		x = c.Num
	case table.Integer:
		x = float64(c.Int)
	case table.Text, table.Decimal:
		s := strings.TrimSpace(c.Str)
		if s == "" {
			return 0, errors.New("p is empty")
		}
		var err error
		if x, err = parseProbability(s); err != nil {
			return 0, fmt.Errorf("p %q is not a number", s)
		}
	case table.Bool:
		return 0, fmt.Errorf("p is the boolean %v, not a probability", c.Bool)
	case table.Empty:
		return 0, errors.New("p is empty")
	default:
		return 0, fmt.Errorf("p is a %s (%s), not a probability", c.Kind, c.String())
	}
	if math.IsNaN(x) || x < 0 || x > 1 {
		return 0, fmt.Errorf("p = %v is not a probability in [0, 1]", x)
	}
	return x, nil
}

// parseProbability reads the text of a p cell: a decimal number ("0.3",
// "3e-1") or a percentage ("30%", "30 %"). "inf", "NaN", hexadecimal and
// other forms that strconv.ParseFloat would take but no one types as a
// probability are refused.
func parseProbability(s string) (float64, error) {
	percent := false
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s, percent = strings.TrimSpace(t), true
	}
	if s == "" || strings.TrimLeft(s, "0123456789.+-eE") != "" {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	if percent {
		// x/100 is the double nearest the percentage when x is exact
		// (7% is 0.07); x*0.01 would be 0.07000000000000001.
		return x / 100, nil
	}
	return x, nil
}

// foldKey normalises a key for matching ignoring case and surrounding
// spaces.
func foldKey(key string) string { return strings.ToLower(strings.TrimSpace(key)) }

// Len returns the number of keys loaded.
func (ts *Tables) Len() int {
	if ts == nil {
		return 0
	}
	return len(ts.priors)
}

// Keys returns the keys loaded, sorted.
func (ts *Tables) Keys() []string {
	if ts == nil {
		return nil
	}
	keys := make([]string, 0, len(ts.priors))
	for k := range ts.priors {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Files returns the files loaded, in order.
func (ts *Tables) Files() []string {
	if ts == nil {
		return nil
	}
	names := make([]string, len(ts.files))
	for i, f := range ts.files {
		names[i] = f.name
	}
	return names
}

// Lookup returns the prior of a key: the key as written (surrounding
// spaces ignored), else the one key that matches ignoring case. A key no
// table defines is a *KeyError naming the tables loaded and up to three
// close keys. A nil *Tables has no keys.
func (ts *Tables) Lookup(key string) (Prior, error) {
	k := strings.TrimSpace(key)
	if ts != nil {
		if p, ok := ts.priors[k]; ok {
			return *p, nil
		}
		if keys := ts.folded[foldKey(k)]; len(keys) == 1 {
			return *ts.priors[keys[0]], nil
		}
	}
	e := &KeyError{Key: key}
	if ts != nil {
		for _, f := range ts.files {
			e.Files = append(e.Files, f.name+" ("+words.Count(int64(f.keys), "key", "keys")+")")
		}
		e.Suggestions = closeKeys(k, ts.Keys(), 3)
	}
	return Prior{}, e
}

// Resolve returns the prior a release row's prior cell names: an inline
// prior (ParseInline), else a key of the loaded tables (Lookup).
func (ts *Tables) Resolve(s string) (Prior, error) {
	p, inline, err := ParseInline(s)
	if inline {
		return p, err
	}
	return ts.Lookup(s)
}

// closeKeys returns up to n keys within a small edit distance of key
// (ignoring case), closest first; a key that extends key, or that key
// extends, also counts as close.
func closeKeys(key string, keys []string, n int) []string {
	k := foldKey(key)
	limit := max(2, utf8.RuneCountInString(k)/4)
	return editdist.Nearest(keys, n, func(c string) (int, bool) {
		f := foldKey(c)
		d := editdist.Distance(k, f, limit)
		if d > limit && k != "" && (strings.HasPrefix(f, k) || strings.HasPrefix(k, f)) {
			d = limit
		}
		return d, d <= limit
	})
}
