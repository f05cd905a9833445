// Package serve is the web page and HTTP API of `riskbatch serve`: the
// handlers, the page's assets (built into the binary), the limits and the
// security checks. It holds no evaluation logic of its own: a file is
// evaluated by the function the command hands in (Config.EvalFile, the
// code `riskbatch eval` runs), one row by package evaluate's façade, and
// the column reference is evaluate's registry.
//
// A server is a door into the machine it runs on, so every request is
// checked before it is answered: its Host (DNS rebinding), its origin
// (cross-site requests), its token when the server listens beyond
// loopback, its size, and the number of evaluations already running. No
// file of the server's disk is named or read on a request's behalf: a file
// is evaluated in a folder of its own that holds only the request's
// uploads, removed when the response ends.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/riskbatch/riskbatch/evaluate"
)

// DefaultAddr is the address riskbatch serve listens on by default.
const DefaultAddr = "127.0.0.1:8421"

// DefaultMaxUpload is the default limit on a request's body (--max-upload).
const DefaultMaxUpload = 256 << 20

// DefaultTimeout is the default time limit of one request's evaluation.
const DefaultTimeout = 10 * time.Minute

// Config is what the command hands the server: its address and limits,
// and the functions that evaluate a file and write the template.
type Config struct {
	// Addr is the address the server listens on (host:port), as the Host
	// header of a request must name it.
	Addr string
	// Token, when not empty, is required on every request (Authorization:
	// Bearer, or ?token=). It must be set when Addr is not loopback.
	Token string
	// MaxUpload bounds the body of a request, in bytes (default
	// DefaultMaxUpload).
	MaxUpload int64
	// Workers bounds the evaluations running at once (default 1); a
	// request beyond it is answered 503 with Retry-After.
	Workers int
	// Timeout bounds one request's evaluation (default DefaultTimeout).
	Timeout time.Duration
	// TempDir is where each request's folder is made (default the
	// system's temporary folder).
	TempDir string
	// EvalFile evaluates a file as `riskbatch eval` does (see
	// EvalRequest). An error that is not an *InputError is answered 500
	// without its text.
	EvalFile func(ctx context.Context, req EvalRequest) error
	// Template writes the input workbook of `riskbatch template` to the
	// file path.
	Template func(ctx context.Context, path string) error
	// Log, when not nil, gets one line per refused or failed request.
	Log io.Writer
}

// EvalRequest is one file to evaluate. Every file it names is in Dir, a
// folder made for the request that holds its uploads and nothing else.
type EvalRequest struct {
	// Dir is the request's folder.
	Dir string
	// Input is the path of the uploaded table.
	Input string
	// Priors are the paths of the uploaded prior tables (--priors).
	Priors []string
	// DataFiles are the names (in Dir) of the uploaded files that cells
	// (pmp_data) may name: no other file may be read for a cell.
	DataFiles []string
	// Output is the path of the file to write; its extension is the format.
	Output string
	// Format is the output format: xlsx, csv, tsv or parquet.
	Format string
	// Flags are eval's flags from the request's fields, as --name=value,
	// each one of EvalFlags.
	Flags []string
	// Progress, when not nil, is to be told how far the evaluation is
	// after each batch of rows is written: the rows written, the bytes of
	// the table read and its size in bytes (≤ 0 when not known). It may be
	// called from any goroutine, not at once.
	Progress func(rows, read, size int64)
}

// InputError is a request's input that eval refused (exit status 2): its
// message is the answer's, with the request's folder taken out.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// EvalFlags returns the flags of `riskbatch eval` a request may set as
// form fields (with - or _ in the name). The others name files of the
// server (--output, --priors, --data-dir), or are the server's to set
// (--workers, the --max-* limits, --force, --quiet). The command's tests
// check that each is one of eval's flags.
func EvalFlags() []string {
	return []string{"confidence", "columns", "sheet", "input-format", "values-only", "threshold",
		"sorted-groups", "encoding", "delimiter", "decimal-comma", "decimal-point"}
}

// Server answers the page and the API.
type Server struct {
	cfg     Config
	slots   chan struct{}
	page    []byte
	csp     string
	allowed map[string]bool // Host headers accepted; nil: any (a wildcard listen address)
	mux     *http.ServeMux
	ev      *evaluate.Evaluator
	// progress holds the running evaluations' progress, by the ID their
	// requests named (/api/progress).
	progress progressBoard
}

// New checks cfg and returns its Server.
func New(cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = DefaultMaxUpload
	}
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.TempDir == "" {
		cfg.TempDir = os.TempDir()
	}
	if cfg.EvalFile == nil || cfg.Template == nil {
		return nil, errors.New("serve: Config.EvalFile and Config.Template are required")
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("serve: listen address %s: %w", cfg.Addr, err)
	}
	if !IsLoopback(host) && cfg.Token == "" {
		return nil, fmt.Errorf("serve: listen address %s is not loopback: a token is required", cfg.Addr)
	}
	s := &Server{cfg: cfg, slots: make(chan struct{}, cfg.Workers), ev: evaluate.New()}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		s.allowed = nil // every address of the machine: the token guards it
	} else {
		s.allowed = map[string]bool{}
		for _, h := range []string{host, "localhost", "127.0.0.1", "::1"} {
			s.allowed[strings.ToLower(net.JoinHostPort(h, port))] = true
		}
	}
	if s.page, s.csp, err = page(); err != nil {
		return nil, err
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /{$}", s.handlePage)
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok")
	})
	s.mux.HandleFunc("GET /api/columns", s.handleColumns)
	s.mux.HandleFunc("GET /api/mechanisms", s.handleMechanisms)
	s.mux.HandleFunc("GET /api/papers", s.handlePapers)
	s.mux.HandleFunc("POST /api/row", s.handleRow)
	s.mux.HandleFunc("POST /api/curve", s.handleCurve)
	s.mux.HandleFunc("POST /api/sweep", s.handleSweep)
	s.mux.HandleFunc("POST /api/eval", s.handleEval)
	s.mux.HandleFunc("GET /api/progress", s.handleProgress)
	s.mux.HandleFunc("GET /api/template", s.handleTemplate)
	return s, nil
}

// Handler returns the server's handler: every request is checked (Host,
// token, origin) before it reaches an endpoint.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

// IsLoopback reports whether host (a name or an address, without port)
// is this machine's loopback: localhost or an address in 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fail answers an error: status and one line of text. The text never
// names a path of the server (the handlers take the request's folder out
// of any message that could hold it).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "riskbatch serve: %s %s: %d %s\n", r.Method, r.URL.Path, status, msg)
	}
	h := w.Header()
	h.Del("Content-Disposition")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, msg+"\n")
}

// acquire takes an evaluation slot, or answers 503 and returns false.
func (s *Server) acquire(w http.ResponseWriter, r *http.Request) bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
	}
	w.Header().Set("Retry-After", "5")
	s.fail(w, r, http.StatusServiceUnavailable, "busy: %d evaluations are running, the most this server runs at once (--workers %d); try again in a few seconds", s.cfg.Workers, s.cfg.Workers)
	return false
}

func (s *Server) release() { <-s.slots }

// within runs one request's evaluation, which holds a slot (acquire),
// under the time limit of Config.Timeout; eval may stop early once its
// context is done (a sweep between its points). It reports whether eval
// finished in time. When the limit passes first, the request is answered
// 503 and the slot is released when eval ends (a row's evaluation cannot
// be stopped midway): the caller must not release it.
func (s *Server) within(w http.ResponseWriter, r *http.Request, eval func(ctx context.Context)) bool {
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
	done := make(chan struct{})
	go func() {
		defer close(done)
		eval(ctx)
	}()
	select {
	case <-done:
		timedOut := ctx.Err() != nil && r.Context().Err() == nil
		cancel()
		if !timedOut {
			return true
		}
		s.release()
	case <-ctx.Done():
		cancel()
		go func() {
			<-done
			s.release()
		}()
	}
	if r.Context().Err() == nil {
		s.fail(w, r, http.StatusServiceUnavailable, "the evaluation was stopped at the time limit of %s per request; evaluate this row with riskbatch eval", s.cfg.Timeout)
	}
	return false
}
