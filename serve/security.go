package serve

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
)

// NewToken returns a random token of 24 bytes in hex, for a server that
// listens beyond loopback without --token.
func NewToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// serveHTTP checks a request and hands it to its endpoint. The checks, in
// order: the Host header (a page of another site that a DNS name of its
// own points at this machine must not reach the server: 400 without one,
// 403 for a foreign one), the token (401), and for a POST its origin (a
// page of another site must not submit to the server: 403).
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", s.csp)
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.Host == "" {
		s.fail(w, r, http.StatusBadRequest, "the request has no Host header")
		return
	}
	if s.allowed != nil && !s.allowed[strings.ToLower(r.Host)] {
		s.fail(w, r, http.StatusForbidden, "Host %s is not this server's address (%s) nor a loopback name: refused (DNS rebinding)", clip(r.Host), s.cfg.Addr)
		return
	}
	if s.cfg.Token != "" && !s.tokenOK(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="riskbatch"`)
		s.fail(w, r, http.StatusUnauthorized, "a token is required: open the address riskbatch serve printed (with ?token=), or send Authorization: Bearer TOKEN")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			s.fail(w, r, http.StatusForbidden, "cross-origin request refused: Origin %s is not this server", clip(o))
			return
		}
		switch r.Header.Get("Sec-Fetch-Site") {
		case "", "same-origin", "none":
		default:
			s.fail(w, r, http.StatusForbidden, "cross-origin request refused: Sec-Fetch-Site %s", clip(r.Header.Get("Sec-Fetch-Site")))
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// tokenOK reports whether the request carries the server's token, in
// Authorization: Bearer or ?token=, compared in constant time.
func (s *Server) tokenOK(r *http.Request) bool {
	got := r.URL.Query().Get("token")
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, t, ok := strings.Cut(a, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			got = strings.TrimSpace(t)
		}
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) == 1
}

// clip shortens a text a request sent, quoted in an answer, to 100 bytes
// of printable characters.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}
