package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/riskbatch/riskbatch/readers"
)

// Formats are the output formats of /api/eval, and their media types.
var formats = map[string]string{
	"xlsx":    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"csv":     "text/csv; charset=utf-8",
	"tsv":     "text/tab-separated-values; charset=utf-8",
	"parquet": "application/vnd.apache.parquet",
}

// maxParts bounds the parts of one multipart request, and maxField the
// bytes of a field that is not a file.
const (
	maxParts = 256
	maxField = 4096
)

// evalForm is what /api/eval read of its request.
type evalForm struct {
	input  string   // the table's file name
	priors []string // file names of prior tables
	data   []string // file names cells may name
	format string
	flags  []string
	names  map[string]bool
	inDir  string
}

// handleEval answers POST /api/eval: the uploaded table evaluated by
// Config.EvalFile, as `riskbatch eval` writes it. The uploads go into a
// folder of the request's own, removed when the answer ends, also when
// the client goes away (the evaluation's context is the request's). With
// ?progress=ID, /api/progress?id=ID tells how far it is while it runs.
func (s *Server) handleEval(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > s.cfg.MaxUpload {
		s.tooLarge(w, r)
		return
	}
	id, tracked := r.URL.Query()["progress"]
	if tracked && (len(id) != 1 || !validProgressID(id[0])) {
		s.fail(w, r, http.StatusBadRequest, "progress must be one id of %d to %d letters, digits, - or _, drawn at random", minProgressID, maxProgressID)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUpload)
	if !s.acquire(w, r) {
		return
	}
	defer s.release()
	var progress *evalProgress
	if tracked {
		// Registered once the request holds a slot: the board holds at
		// most --workers entries.
		progress = &evalProgress{uploadSize: r.ContentLength}
		if !s.progress.add(id[0], progress) {
			s.fail(w, r, http.StatusConflict, "progress: another evaluation is running under this id; draw a new one")
			return
		}
		defer s.progress.remove(id[0])
		r.Body = countingReader{ReadCloser: r.Body, n: &progress.uploaded}
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
	defer cancel()
	// The upload is read within the time limit too, so that a client
	// sending slowly does not hold a slot for longer (a recorder in tests
	// has no deadline to set).
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.Timeout))
	dir, err := os.MkdirTemp(s.cfg.TempDir, "riskbatch-serve-")
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "cannot make a temporary folder")
		return
	}
	defer os.RemoveAll(dir)
	form := &evalForm{inDir: filepath.Join(dir, "in"), names: map[string]bool{}}
	outDir := filepath.Join(dir, "out")
	if os.Mkdir(form.inDir, 0o700) != nil || os.Mkdir(outDir, 0o700) != nil {
		s.fail(w, r, http.StatusInternalServerError, "cannot make a temporary folder")
		return
	}
	if status, msg := s.readEvalForm(r, form); status != 0 {
		s.fail(w, r, status, "%s", msg)
		return
	}
	out := outputName(form.input, form.format)
	req := EvalRequest{Dir: form.inDir, Input: filepath.Join(form.inDir, form.input), Output: filepath.Join(outDir, out),
		Format: form.format, Flags: form.flags, DataFiles: form.data}
	for _, p := range form.priors {
		req.Priors = append(req.Priors, filepath.Join(form.inDir, p))
	}
	if progress != nil {
		req.Progress = progress.update
		progress.evaluating.Store(true)
	}
	err = s.cfg.EvalFile(ctx, req)
	if r.Context().Err() != nil {
		return // the client went away: nothing to answer; the folder goes
	}
	var ie *InputError
	switch {
	case ctx.Err() != nil:
		s.fail(w, r, http.StatusServiceUnavailable, "the evaluation was stopped at the time limit of %s per request; evaluate this file with riskbatch eval", s.cfg.Timeout)
		return
	case errors.As(err, &ie):
		s.fail(w, r, http.StatusUnprocessableEntity, "%s", scrub(ie.Msg, dir))
		return
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, "the evaluation failed")
		return
	}
	f, err := os.Open(req.Output)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "the evaluation wrote no output")
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "the evaluation wrote no output")
		return
	}
	h := w.Header()
	h.Set("Content-Type", formats[form.format])
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": out}))
	h.Set("Content-Length", fmt.Sprint(fi.Size()))
	io.Copy(w, f)
}

// tooLarge answers 413 naming the limit.
func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusRequestEntityTooLarge, "the upload is larger than this server's limit of %s (riskbatch serve --max-upload)", readers.FormatSize(s.cfg.MaxUpload))
}

// readEvalForm reads the parts of the request into form, the files into
// form.inDir. It returns 0, or the status and message of a refusal.
func (s *Server) readEvalForm(r *http.Request, form *evalForm) (int, string) {
	mr, err := r.MultipartReader()
	if err != nil {
		return http.StatusBadRequest, "the request must be multipart/form-data, with the table in the field file"
	}
	for n := 0; ; n++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.bodyError(err)
		}
		if n >= maxParts {
			return http.StatusBadRequest, fmt.Sprintf("more than %d fields", maxParts)
		}
		field := part.FormName()
		switch field {
		case "file", "priors", "data":
			if field == "file" && form.input != "" {
				return http.StatusBadRequest, "one file per request: the field file is given twice"
			}
			name, status, msg := s.saveUpload(part, form)
			if status != 0 {
				return status, msg
			}
			switch field {
			case "file":
				form.input = name
			case "priors":
				form.priors = append(form.priors, name)
			default:
				form.data = append(form.data, name)
			}
			continue
		}
		value, err := io.ReadAll(io.LimitReader(part, maxField+1))
		if err != nil {
			return s.bodyError(err)
		}
		if len(value) > maxField {
			return http.StatusBadRequest, fmt.Sprintf("the field %s is longer than %d bytes", clip(field), maxField)
		}
		v := strings.TrimSpace(string(value))
		flag := strings.ReplaceAll(strings.ToLower(field), "_", "-")
		switch {
		case field == "format":
			form.format = strings.ToLower(v)
			if _, ok := formats[form.format]; !ok && v != "" {
				return http.StatusBadRequest, fmt.Sprintf("format %s: the formats are xlsx, csv, tsv and parquet", clip(v))
			}
		case slices.Contains(EvalFlags(), flag):
			if v != "" {
				form.flags = append(form.flags, "--"+flag+"="+v)
			}
		default:
			return http.StatusBadRequest, fmt.Sprintf("unknown field %s; the fields are file, priors (repeatable), data (repeatable: files pmp_data cells name), format, and these flags of riskbatch eval: %s",
				clip(field), strings.Join(EvalFlags(), ", "))
		}
	}
	if form.input == "" {
		return http.StatusBadRequest, "no table: send it in the field file (CSV, TSV, XLSX or Parquet)"
	}
	if form.format == "" {
		form.format = formatOf(form.input)
	}
	return 0, ""
}

// bodyError is the refusal of a body that could not be read: 413 when it
// passed the limit.
func (s *Server) bodyError(err error) (int, string) {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("the upload is larger than this server's limit of %s (riskbatch serve --max-upload)", readers.FormatSize(s.cfg.MaxUpload))
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return http.StatusRequestTimeout, fmt.Sprintf("the upload took longer than the time limit of %s per request", s.cfg.Timeout)
	}
	return http.StatusBadRequest, "the request's body could not be read as multipart/form-data"
}

// saveUpload writes an uploaded file into form.inDir under its own name
// (made safe), which cells may use to name it.
func (s *Server) saveUpload(part io.Reader, form *evalForm) (string, int, string) {
	type named interface{ FileName() string }
	name := ""
	if p, ok := part.(named); ok {
		name = safeName(p.FileName())
	}
	if name == "" {
		return "", http.StatusBadRequest, "an uploaded file has no name: send it as a file, with its file name"
	}
	if form.names[strings.ToLower(name)] {
		return "", http.StatusBadRequest, fmt.Sprintf("two uploaded files are named %s", name)
	}
	form.names[strings.ToLower(name)] = true
	f, err := os.OpenFile(filepath.Join(form.inDir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", http.StatusInternalServerError, "cannot store the upload"
	}
	_, err = io.Copy(f, part)
	if cerr := f.Close(); err == nil && cerr != nil {
		return "", http.StatusInternalServerError, "cannot store the upload"
	}
	if err != nil {
		st, msg := s.bodyError(err)
		return "", st, msg
	}
	return name, 0, ""
}

// safeName is the last element of an uploaded file's name, with anything
// but letters, digits, space and ._-()+ replaced by _; "" for a name that
// is empty or only dots. It is at most 120 bytes, the extension kept.
func safeName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" ._-()+", r) {
			return r
		}
		return '_'
	}, strings.TrimSpace(name))
	if strings.Trim(name, ".") == "" {
		return ""
	}
	if strings.HasPrefix(name, ".") {
		name = "_" + name
	}
	if len(name) > 120 {
		ext := filepath.Ext(name)
		if len(ext) > 20 {
			ext = ""
		}
		stem := name[:120-len(ext)]
		for len(stem) > 0 && !utf8ValidEnd(stem) {
			stem = stem[:len(stem)-1]
		}
		name = stem + ext
	}
	return name
}

// utf8ValidEnd reports whether s does not end inside a UTF-8 sequence.
func utf8ValidEnd(s string) bool {
	return strings.ToValidUTF8(s, "\uFFFD") == s
}

// compressions are the extensions of compressed tables eval reads.
var compressions = []string{".gz", ".zst", ".bz2"}

// formatOf is the output format of a table named name when the request
// names none: the table's own (its extension under a compression's), or
// xlsx.
func formatOf(name string) string {
	lower := strings.ToLower(name)
	for _, c := range compressions {
		lower = strings.TrimSuffix(lower, c)
	}
	if f := strings.TrimPrefix(filepath.Ext(lower), "."); formats[f] != "" {
		return f
	}
	return "xlsx"
}

// outputName is the download's name: the table's name without its
// extensions, -risk, and the format's extension (as eval's default
// output INPUT-risk.EXT).
func outputName(input, format string) string {
	stem := input
	for _, c := range compressions {
		if strings.HasSuffix(strings.ToLower(stem), c) {
			stem = stem[:len(stem)-len(c)]
		}
	}
	if ext := filepath.Ext(stem); ext != "" && formats[strings.ToLower(ext[1:])] != "" {
		stem = stem[:len(stem)-len(ext)]
	}
	return stem + "-risk." + format
}

// scrub takes the request's folder out of a message: a file in it is
// named by its own name, the folder itself as "the upload".
func scrub(msg, dir string) string {
	dirs := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		dirs = append(dirs, real) // a temporary folder reached through a link
	}
	for _, d := range dirs {
		msg = scrubDir(msg, d)
	}
	return msg
}

// scrubDir is scrub for one spelling of the request's folder.
func scrubDir(msg, dir string) string {
	for _, d := range []string{filepath.Join(dir, "in"), filepath.Join(dir, "out"), dir} {
		msg = strings.ReplaceAll(msg, d+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, d, "the upload")
	}
	return msg
}
