package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// maxRowBody bounds the body of /api/row and /api/curve.
const maxRowBody = 1 << 20

// rowRequest is a row of /api/row or /api/curve: its input columns,
// in the order the request wrote them, and its cells.
type rowRequest struct {
	cols  []table.Column
	cells []table.Cell
}

// readRow reads a JSON object of input columns: a string is a text cell
// (read as `eval` reads a CSV cell), a number a number cell, true/false a
// boolean, null an empty cell. It returns 0, or the status and message of
// a refusal.
func (s *Server) readRow(w http.ResponseWriter, r *http.Request) (rowRequest, int, string) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return rowRequest{}, http.StatusUnsupportedMediaType, "send the row as a JSON object, with Content-Type: application/json"
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRowBody))
	dec.UseNumber()
	var req rowRequest
	bad := func() (rowRequest, int, string) {
		return rowRequest{}, http.StatusBadRequest, "the body must be one JSON object of input columns, such as {\"mechanism\": \"gaussian\", \"sigma\": 2, \"baseline\": 0.01}"
	}
	tok, err := dec.Token()
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return rowRequest{}, http.StatusRequestEntityTooLarge, fmt.Sprintf("the row is larger than %d bytes", maxRowBody)
		}
		return bad()
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return bad()
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return bad()
		}
		key := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				return rowRequest{}, http.StatusRequestEntityTooLarge, fmt.Sprintf("the row is larger than %d bytes", maxRowBody)
			}
			return bad()
		}
		if seen[key] {
			return rowRequest{}, http.StatusBadRequest, fmt.Sprintf("the column %s is given twice", clip(key))
		}
		seen[key] = true
		var c table.Cell
		switch v := v.(type) {
		case nil:
		case string:
			c = table.TextCell(v)
		case json.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return rowRequest{}, http.StatusBadRequest, fmt.Sprintf("%s: %s is not a number riskbatch can hold", clip(key), clip(string(v)))
			}
			c = table.NumberCell(f)
		case bool:
			c = table.BoolCell(v)
		default:
			return rowRequest{}, http.StatusBadRequest, fmt.Sprintf("%s: a cell is a string, a number, true, false or null, not a list or an object", clip(key))
		}
		req.cols = append(req.cols, table.Column{Name: key})
		req.cells = append(req.cells, c)
	}
	if _, err := dec.Token(); err != nil || dec.More() {
		return bad()
	}
	return req, 0, ""
}

// evaluateRow reads the row of a /api/row or /api/curve request, takes an
// evaluation slot and evaluates the row with the façade of package
// evaluate, as eval evaluates a row of a table: out holds status, message
// and every output column. Where it answers the request itself (a bad
// row, no slot, a header that does not bind, the time limit) it returns
// ok false;
// otherwise the caller holds the slot and must release it.
func (s *Server) evaluateRow(w http.ResponseWriter, r *http.Request) (ev *evaluate.Evaluator, req rowRequest, out []table.Cell, ok bool) {
	req, status, msg := s.readRow(w, r)
	if status != 0 {
		s.fail(w, r, status, "%s", msg)
		return nil, req, nil, false
	}
	if !s.acquire(w, r) {
		return nil, req, nil, false
	}
	ev = s.evaluator()
	b, err := ev.Bind(req.cols)
	if err != nil {
		s.release()
		s.fail(w, r, http.StatusUnprocessableEntity, "%v", err)
		return nil, req, nil, false
	}
	out = make([]table.Cell, ev.Width())
	if !s.within(w, r, func(context.Context) { b.Evaluate(req.cells, out) }) {
		return nil, req, nil, false
	}
	return ev, req, out, true
}

// handleRow answers POST /api/row: the row evaluated by the façade of
// package evaluate, as eval evaluates a row of a table: a JSON object of
// status, message and every output column in the registry's order, a
// number or null (an empty cell; message says why). The evaluator has no
// loader of files: a cell naming a file (pmp_data) gets an error.
func (s *Server) handleRow(w http.ResponseWriter, r *http.Request) {
	ev, _, out, ok := s.evaluateRow(w, r)
	if !ok {
		return
	}
	defer s.release()
	var buf bytes.Buffer
	buf.WriteByte('{')
	for k, c := range ev.Columns() {
		if k > 0 {
			buf.WriteByte(',')
		}
		name, _ := json.Marshal(c.Name)
		buf.Write(name)
		buf.WriteByte(':')
		buf.Write(cellJSON(out[k]))
	}
	buf.WriteString("}\n")
	w.Header().Set("Content-Type", "application/json")
	w.Write(buf.Bytes())
}

// cellJSON is an output cell in JSON: a number, a string, or null for an
// empty cell. An infinite number is the string "+Inf" or "-Inf".
func cellJSON(c table.Cell) []byte {
	switch {
	case c.IsEmpty():
		return []byte("null")
	case c.Kind == table.Number && math.IsInf(c.Num, 0):
		if c.Num > 0 {
			return []byte(`"+Inf"`)
		}
		return []byte(`"-Inf"`)
	case c.Kind == table.Number && !math.IsNaN(c.Num):
		return strconv.AppendFloat(nil, c.Num, 'g', -1, 64)
	}
	b, _ := json.Marshal(c.String())
	return b
}

// curveAlphas is the grid of α of /api/curve: fine near 0, where the
// baselines of re-identification lie, and every 0.01 to 1.
func curveAlphas() []float64 {
	var a []float64
	for e := -6.0; e < -2; e += 0.25 {
		a = append(a, math.Pow(10, e))
	}
	for i := 1; i <= 100; i++ {
		a = append(a, float64(i)/100)
	}
	return append([]float64{0}, a...)
}

// handleCurve answers POST /api/curve (the same body as /api/row): the
// release's trade-off curve f(α) = 1 − fdp_success at baseline α
// (evaluate.SheetBinding.SuccessCurve), on a grid of α in [0, 1] with the
// row's baseline added, as {"alpha": [...], "f": [...], "baseline": b}
// (b null when the row has none). A row that does not resolve is 422 with
// its message.
func (s *Server) handleCurve(w http.ResponseWriter, r *http.Request) {
	ev, req, out, ok := s.evaluateRow(w, r)
	if !ok {
		return
	}
	defer s.release()
	header := append(slices.Clone(req.cols), ev.Columns()...)
	sheet, err := ev.BindSheet(header)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "the curve cannot be drawn for this row")
		return
	}
	cells := append(slices.Clone(req.cells), out...)
	alphas := curveAlphas()
	baseline := math.NaN()
	for i, c := range req.cols {
		if f, ok := ev.Vocabulary().Lookup(c.Name); ok && f == release.FieldBaseline {
			if v, ok := number(req.cells[i]); ok && v >= 0 && v <= 1 {
				baseline = v
				k, _ := slices.BinarySearch(alphas, v)
				if k == len(alphas) || alphas[k] != v {
					alphas = slices.Insert(alphas, k, v)
				}
			}
		}
	}
	success, err := sheet.SuccessCurve(cells, alphas)
	if err != nil {
		msg := out[1].String()
		if msg == "" {
			msg = "the release has no trade-off curve"
		}
		s.fail(w, r, http.StatusUnprocessableEntity, "%s", msg)
		return
	}
	f := make([]float64, len(success))
	for i, v := range success {
		f[i] = max(0, 1-v)
	}
	resp := struct {
		Alpha    []float64 `json:"alpha"`
		F        []float64 `json:"f"`
		Baseline *float64  `json:"baseline"`
	}{Alpha: alphas, F: f}
	if !math.IsNaN(baseline) {
		resp.Baseline = &baseline
	}
	writeJSON(w, resp)
}

// number reads a cell as a number: a number cell, or text that parses.
func number(c table.Cell) (float64, bool) {
	switch c.Kind {
	case table.Number:
		return c.Num, true
	case table.Integer:
		return float64(c.Int), true
	case table.Text:
		v, err := strconv.ParseFloat(strings.TrimSpace(c.Str), 64)
		return v, err == nil
	}
	return 0, false
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// column is one entry of /api/columns.
type column struct {
	Name        string   `json:"name"`
	Aliases     []string `json:"aliases,omitempty"`
	Kind        string   `json:"kind"`
	Meaning     string   `json:"meaning"`
	Formula     string   `json:"formula"`
	Paper       string   `json:"paper"`
	Needs       string   `json:"needs"`
	Assumptions string   `json:"assumptions"`
	Applies     string   `json:"applies"`
	Choices     []string `json:"choices,omitempty"`
	// PaperID is the paper an output column comes from (seed000 …
	// seed004, an entry of /api/papers), and Where the theorem, equation
	// or section of it that Paper cites.
	PaperID string `json:"paper_id,omitempty"`
	Where   string `json:"where,omitempty"`
}

// columns is the registry as /api/columns returns it: the rows of
// evaluate's Docs (the Columns sheet, riskbatch columns), inputs with
// their name, aliases and choices from the vocabulary.
func columns(ev *evaluate.Evaluator) []column {
	docs := ev.Docs()[1:]
	inputs := ev.Vocabulary().Columns()
	cols := make([]column, len(docs))
	for i, d := range docs {
		c := column{Name: d[0], Kind: d[1], Meaning: d[2], Formula: d[3], Paper: d[4], Needs: d[5], Assumptions: d[6], Applies: d[7]}
		if i < len(inputs) {
			in := inputs[i]
			c.Name, c.Aliases, c.Choices = in.Name, in.Aliases, in.Choices
			if in.Field == release.FieldMechanism {
				c.Choices = release.MechanismNames()
			}
		}
		cols[i] = c
	}
	outputs := ev.Outputs()
	for i, c := range cols {
		for k := range outputs {
			if o := &outputs[k]; o.Name == c.Name && strings.HasPrefix(c.Kind, "output") {
				cols[i].PaperID = o.PaperID()
				if id := cols[i].PaperID; id != "" {
					_, cols[i].Where = citedPaper(o.Citation, paperAuthor(id))
				}
			}
		}
	}
	return cols
}

// paperAuthor is the first author of a paper (evaluate.Papers), "" for
// an unknown id.
func paperAuthor(id string) string {
	for _, p := range evaluate.Papers() {
		if p.ID == id {
			return p.Author
		}
	}
	return ""
}

// handleColumns answers GET /api/columns: the registry as a JSON array.
func (s *Server) handleColumns(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, columns(s.evaluator()))
}

// handleMechanisms answers GET /api/mechanisms: each mechanism with the
// input columns its row may fill (release.MechanismInputs), for the
// page's one-release form.
func (s *Server) handleMechanisms(w http.ResponseWriter, r *http.Request) {
	type mechanism struct {
		Name   string   `json:"name"`
		Inputs []string `json:"inputs"`
	}
	var ms []mechanism
	for _, m := range release.MechanismNames() {
		ms = append(ms, mechanism{Name: m, Inputs: release.MechanismInputs(m)})
	}
	writeJSON(w, ms)
}
