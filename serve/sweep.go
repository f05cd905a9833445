package serve

import (
	"context"
	"math"
	"net/http"
	"slices"

	"github.com/riskbatch/riskbatch/table"
)

// sweepSteps are the factors by which /api/sweep multiplies the row's
// value: 2^(j/3) for j = −6 … 6, from a quarter to four times it.
func sweepSteps() []float64 {
	var f []float64
	for j := -6; j <= 6; j++ {
		f = append(f, math.Exp2(float64(j)/3))
	}
	return f
}

// handleSweep answers POST /api/sweep?input=NAME&column=COL (the body of
// /api/row): the row evaluated again with its input NAME at a quarter to
// four times its value (13 points, log-spaced; whole numbers for a whole
// input), and the output column COL of each, as {"input", "column",
// "value", "x": [...], "y": [...]} (y null where the cell is empty). It
// is the page's picture of the headline risk as ε, σ, μ … vary. A client
// that goes away stops it.
func (s *Server) handleSweep(w http.ResponseWriter, r *http.Request) {
	req, status, msg := s.readRow(w, r)
	if status != 0 {
		s.fail(w, r, status, "%s", msg)
		return
	}
	ev := s.evaluator()
	name, colName := r.URL.Query().Get("input"), r.URL.Query().Get("column")
	field, ok := ev.Vocabulary().Lookup(name)
	if !ok {
		s.fail(w, r, http.StatusBadRequest, "input %s: not an input column (see /api/columns)", clip(name))
		return
	}
	in := ev.Vocabulary().Column(field)
	col := slices.IndexFunc(ev.Columns(), func(c table.Column) bool { return c.Name == colName })
	if col < 2 {
		s.fail(w, r, http.StatusBadRequest, "column %s: not an output column (see /api/columns)", clip(colName))
		return
	}
	if ev.Columns()[col].Kind != table.Number {
		s.fail(w, r, http.StatusBadRequest, "column %s: not a column of numbers, which a sweep draws", clip(colName))
		return
	}
	at := -1
	for i, c := range req.cols {
		if f, ok := ev.Vocabulary().Lookup(c.Name); ok && f == field {
			at = i
		}
	}
	if at < 0 {
		s.fail(w, r, http.StatusUnprocessableEntity, "the row has no %s to vary", in.Name)
		return
	}
	v, ok := number(req.cells[at])
	if !ok || !(v > 0) || math.IsInf(v, 0) {
		s.fail(w, r, http.StatusUnprocessableEntity, "%s must be a positive number to vary it", in.Name)
		return
	}
	b, err := ev.Bind(req.cols)
	if err != nil {
		s.fail(w, r, http.StatusUnprocessableEntity, "%v", err)
		return
	}
	if !s.acquire(w, r) {
		return
	}
	resp := struct {
		Input  string     `json:"input"`
		Column string     `json:"column"`
		Value  float64    `json:"value"`
		X      []float64  `json:"x"`
		Y      []*float64 `json:"y"`
	}{Input: in.Name, Column: colName, Value: v}
	cells := slices.Clone(req.cells)
	out := make([]table.Cell, ev.Width())
	finished := s.within(w, r, func(ctx context.Context) {
		for _, f := range sweepSteps() {
			x := v * f
			if in.Domain.Integer {
				x = math.Max(1, math.Round(x))
			}
			if n := len(resp.X); n > 0 && resp.X[n-1] == x {
				continue
			}
			if ctx.Err() != nil {
				return // the time limit, or the page asked again
			}
			cells[at] = table.NumberCell(x)
			b.Evaluate(cells, out)
			resp.X = append(resp.X, x)
			var y *float64
			if c := out[col]; c.Kind == table.Number && !math.IsNaN(c.Num) && !math.IsInf(c.Num, 0) {
				y = &c.Num
			}
			resp.Y = append(resp.Y, y)
		}
	})
	if !finished {
		return
	}
	defer s.release()
	if r.Context().Err() != nil {
		return // the page asked again; nobody reads this answer
	}
	writeJSON(w, resp)
}
