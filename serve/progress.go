package serve

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// The progress of an evaluation, for the page: POST /api/eval?progress=ID
// registers ID for the time of the request, and GET /api/progress?id=ID
// answers how far it is. The page draws ID at random (128 bits), so that
// no one else can guess it; the server lists no IDs, answers 404 for one it
// does not hold, and holds one only while its request runs, at most one per
// evaluation slot (--workers).

// progressID bounds a progress ID: 32 to 64 characters of [0-9A-Za-z_-],
// at least 128 bits when drawn at random as hex or base64url.
const (
	minProgressID = 32
	maxProgressID = 64
)

// validProgressID reports whether id is a progress ID's shape.
func validProgressID(id string) bool {
	if len(id) < minProgressID || len(id) > maxProgressID {
		return false
	}
	for _, c := range []byte(id) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// evalProgress is how far one request's evaluation is. It is written by
// the request's goroutines and read by /api/progress.
type evalProgress struct {
	uploadSize int64        // the request's Content-Length, -1 when not sent
	uploaded   atomic.Int64 // bytes of the body received
	evaluating atomic.Bool  // the upload is stored and the table is being evaluated
	rows       atomic.Int64 // rows written
	read       atomic.Int64 // bytes of the table read
	size       atomic.Int64 // the table's size in bytes; ≤ 0 when not known
}

// update is EvalRequest.Progress.
func (p *evalProgress) update(rows, read, size int64) {
	p.rows.Store(rows)
	p.read.Store(read)
	p.size.Store(size)
}

// ProgressAnswer is the answer of GET /api/progress.
type progressAnswer struct {
	// Phase is "upload" while the request's body arrives, then "evaluate".
	Phase string `json:"phase"`
	// Uploaded and UploadSize are the body's bytes received and its
	// length (null when the client did not send one).
	Uploaded   int64  `json:"uploaded"`
	UploadSize *int64 `json:"upload_size"`
	// Rows is the number of rows written so far, totals included.
	Rows int64 `json:"rows"`
	// Read and Size are the bytes of the table read and its size (null
	// when not known, as for a table whose size eval cannot tell).
	Read int64  `json:"read"`
	Size *int64 `json:"size"`
	// Fraction is how much of the phase is done, in [0, 1]: the body
	// received in the upload, the table read in the evaluation; null when
	// the total is not known.
	Fraction *float64 `json:"fraction"`
}

// answer is p as /api/progress answers it.
func (p *evalProgress) answer() progressAnswer {
	a := progressAnswer{Phase: "upload", Uploaded: p.uploaded.Load(), Rows: p.rows.Load(), Read: p.read.Load()}
	if p.uploadSize >= 0 {
		a.UploadSize = &p.uploadSize
	}
	if size := p.size.Load(); size > 0 {
		a.Size = &size
	}
	done, total := a.Uploaded, a.UploadSize
	if p.evaluating.Load() {
		a.Phase = "evaluate"
		done, total = a.Read, a.Size
	}
	if total != nil && *total > 0 {
		f := min(1, float64(done)/float64(*total))
		a.Fraction = &f
	}
	return a
}

// progressBoard holds the progress of the evaluations whose requests
// named an ID.
type progressBoard struct {
	mu   sync.Mutex
	runs map[string]*evalProgress
}

// add registers id, or returns false if a running request holds it.
func (b *progressBoard) add(id string, p *evalProgress) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.runs[id]; ok {
		return false
	}
	if b.runs == nil {
		b.runs = map[string]*evalProgress{}
	}
	b.runs[id] = p
	return true
}

// remove forgets id.
func (b *progressBoard) remove(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.runs, id)
}

// get returns the progress registered as id, or nil.
func (b *progressBoard) get(id string) *evalProgress {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runs[id]
}

// handleProgress answers GET /api/progress?id=ID: the progress of the
// running evaluation that registered ID, 404 for any other.
func (s *Server) handleProgress(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	if !validProgressID(id) {
		s.fail(w, r, http.StatusBadRequest, "id must be %d to %d letters, digits, - or _, drawn at random by the page", minProgressID, maxProgressID)
		return
	}
	p := s.progress.get(id)
	if p == nil {
		s.fail(w, r, http.StatusNotFound, "no evaluation is running under this id")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(p.answer())
}

// countingReader counts the bytes read through it into n.
type countingReader struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c countingReader) Read(b []byte) (int, error) {
	k, err := c.ReadCloser.Read(b)
	c.n.Add(int64(k))
	return k, err
}
