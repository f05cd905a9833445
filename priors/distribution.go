package priors

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// Distribution is the attacker's prior over the values of one target's
// attribute: P(u) for a marginal key, P(u | k) for the cell k of a
// conditional key. Bounds that depend on the whole prior, not only on its
// largest p (the κ_0, κ_0^- and μ of Guerra-Balboa et al. Thm 7.3, the prior
// vector of Guo et al.'s Fano bounds), read it from here.
type Distribution struct {
	// P holds the probabilities of the values observed in the cell, in
	// decreasing order. Values of the attribute that the cell never shows
	// have probability 0 and are not listed: Domain counts them.
	P []float64
	// Records is the number of records (targets) that have this
	// distribution, summed over the cells that share it.
	Records int64
}

// Distributions are the distinct prior distributions of a key's targets,
// as loaded from a frequency table (the "-frequencies" table that
// `riskbatch priors` writes beside a prior table).
type Distributions struct {
	// Domain is the number of distinct values of the attribute over every
	// cell of the key: the candidate set m of the bounds.
	Domain int
	// Cells is the number of cells (combinations of known values) read.
	Cells int
	// Distinct holds one entry per distinct distribution, the most
	// records first (ties: the largest P[0] first).
	Distinct []Distribution
}

// Distributions returns the distributions of the prior's targets over the
// values of their attribute, or nil when they are not known: for inline
// priors, for keys no loaded frequency table describes, and for window
// keys (approximate reconstruction: their p is not the mass of one value).
// The value is shared and must not be modified.
func (p Prior) Distributions() *Distributions { return p.dists }

// frequencyColumns are the columns a frequency table needs.
var frequencyColumns = [...]string{"key", "value", "probability"}

// isFrequencyHeader reports whether a header has the columns key, value
// and probability (a frequency table, see Result.Tables).
func isFrequencyHeader(header []string) bool {
	found := 0
	for _, want := range frequencyColumns {
		for _, h := range header {
			if NormalizeName(h) == want {
				found++
				break
			}
		}
	}
	return found == len(frequencyColumns)
}

// isWindowKey reports whether a key names an approximate (window)
// reconstruction: an unescaped "~" before any unescaped "|".
func isWindowKey(key string) bool {
	escaped := false
	for _, r := range key {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case r == '|':
			return false
		case r == '~':
			return true
		}
	}
	return false
}

// frequencyKey accumulates the cells of one key of a frequency table.
type frequencyKey struct {
	source string
	values map[string]bool        // the attribute's values over all cells
	cells  map[string]*cellValues // by the cell's identity
	order  []string               // cells in first-seen order
}

// cellValues is one cell's distribution as read.
type cellValues struct {
	p       []float64
	records int64
}

// frequencyReader reads frequency tables into per-key distributions.
type frequencyReader struct {
	keys  map[string]*frequencyKey
	owner map[string]string // key → the file that defines its frequencies
}

func newFrequencyReader() *frequencyReader {
	return &frequencyReader{keys: map[string]*frequencyKey{}, owner: map[string]string{}}
}

// read loads the rows of one frequency table, appending errors to errs.
// A row's cell is identified by every column other than value, count and
// probability (the key, the given columns' values, cell_records).
func (fr *frequencyReader) read(t Rows, path string, errs []error) []error {
	keyCol, valueCol, pCol, recordsCol := -1, -1, -1, -1
	var names []string
	var identity []int
	for i, c := range t.Columns() {
		names = append(names, c.Name)
		switch NormalizeName(c.Name) {
		case "key":
			keyCol = i
		case "value":
			valueCol = i
			continue
		case "probability":
			pCol = i
			continue
		case "count":
			continue
		case "cell_records":
			recordsCol = i
		}
		identity = append(identity, i)
	}
	colErr := func(row table.Row, col int, err error) error { return cellError(row, col, names[col], err) }
	var id strings.Builder
	for row := range rowsOf(t, &errs) {
		kc, vc, pc := CellAt(row, keyCol), CellAt(row, valueCol), CellAt(row, pCol)
		if kc.IsEmpty() && vc.IsEmpty() && pc.IsEmpty() {
			continue
		}
		if kc.IsEmpty() {
			errs = append(errs, colErr(row, keyCol, errors.New("the key is empty")))
			continue
		}
		key := strings.TrimSpace(kc.String())
		p, err := probabilityOf(pc)
		if err != nil {
			errs = append(errs, colErr(row, pCol, fmt.Errorf("%w (probability)", err)))
			continue
		}
		if f, ok := fr.owner[key]; ok && f != path {
			errs = append(errs, colErr(row, keyCol, fmt.Errorf("the frequencies of key %q are also in %s", key, f)))
			continue
		}
		fr.owner[key] = path
		fk := fr.keys[key]
		if fk == nil {
			fk = &frequencyKey{source: sourceName(t), values: map[string]bool{}, cells: map[string]*cellValues{}}
			fr.keys[key] = fk
		}
		id.Reset()
		for _, i := range identity {
			id.WriteString(strings.TrimSpace(CellAt(row, i).String()))
			id.WriteByte(0)
		}
		cell := fk.cells[id.String()]
		if cell == nil {
			cell = &cellValues{}
			if recordsCol >= 0 {
				if n, err := CountOf(CellAt(row, recordsCol)); err == nil {
					cell.records = n
				}
			}
			fk.cells[id.String()] = cell
			fk.order = append(fk.order, id.String())
		}
		cell.p = append(cell.p, p)
		fk.values[strings.TrimSpace(vc.String())] = true
	}
	return errs
}

// distributions turns the cells read for a key into its distinct
// distributions, each renormalised to sum to 1. A cell whose
// probabilities do not sum to 1 within 1e-6 (the table's decimals) is an
// error naming the key.
func (fk *frequencyKey) distributions(key string) (*Distributions, error) {
	d := &Distributions{Domain: len(fk.values), Cells: len(fk.cells)}
	index := map[string]int{}
	var buf []byte
	for _, id := range fk.order {
		c := fk.cells[id]
		sum := 0.0
		for _, v := range c.p {
			sum += v
		}
		if math.Abs(sum-1) > 1e-6 {
			return nil, fmt.Errorf("frequencies of key %q: a cell's probabilities sum to %v, not 1", key, sum)
		}
		// The table's decimals may miss 1 by a few units of their last
		// digit: the distribution is the cell's probabilities renormalised.
		p := slices.Clone(c.p)
		for i := range p {
			p[i] /= sum
		}
		slices.SortFunc(p, func(a, b float64) int { return cmp.Compare(b, a) })
		for len(p) > 0 && p[len(p)-1] == 0 {
			p = p[:len(p)-1]
		}
		buf = buf[:0]
		for _, v := range p {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
		records := max(c.records, 1)
		if i, ok := index[string(buf)]; ok {
			d.Distinct[i].Records += records
			continue
		}
		index[string(buf)] = len(d.Distinct)
		d.Distinct = append(d.Distinct, Distribution{P: p, Records: records})
	}
	slices.SortStableFunc(d.Distinct, func(a, b Distribution) int {
		if c := cmp.Compare(b.Records, a.Records); c != 0 {
			return c
		}
		return cmp.Compare(b.P[0], a.P[0])
	})
	return d, nil
}

// attach gives each loaded prior the distributions of its key. Window keys
// get none; a key with frequencies but no prior rows is ignored (its p
// values are what the bounds of single targets use).
func (fr *frequencyReader) attach(ts *Tables, errs []error) []error {
	for key, fk := range fr.keys {
		pr := ts.priors[key]
		if pr == nil || isWindowKey(key) {
			continue
		}
		d, err := fk.distributions(key)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", fk.source, err))
			continue
		}
		pr.dists = d
	}
	return errs
}
