package mockserver

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// loggedWriter records the status of an answer for --log.
type loggedWriter struct {
	http.ResponseWriter
	s      *Server
	r      *http.Request
	start  time.Time
	status int
	note   string // what the request did besides, e.g. an envelope counted
}

func (s *Server) logged(w http.ResponseWriter, r *http.Request) *loggedWriter {
	return &loggedWriter{ResponseWriter: w, s: s, r: r, start: time.Now()}
}

func (l *loggedWriter) WriteHeader(status int) {
	if l.status == 0 {
		l.status = status
	}
	l.ResponseWriter.WriteHeader(status)
}

func (l *loggedWriter) Write(b []byte) (int, error) {
	if l.status == 0 {
		l.status = http.StatusOK
	}
	return l.ResponseWriter.Write(b)
}

// done prints the request's line: time, method, path with query (tokens
// in it replaced), status, duration and protocol.
// A request whose client left before the answer (during --latency) is
// logged as canceled rather than with a status never sent.
func (l *loggedWriter) done() {
	if l.s.log == nil {
		return
	}
	status := strconv.Itoa(l.status)
	switch {
	case l.status == 0 && l.r.Context().Err() != nil:
		status = "canceled"
	case l.status == 0:
		status = "200"
	}
	line := fmt.Sprintf("%s %-6s %s %s %s %s", l.start.Format("15:04:05.000"), l.r.Method, redactedPath(l.r.URL), status,
		time.Since(l.start).Round(time.Microsecond), l.r.Proto)
	if l.note != "" {
		line += " " + l.note
	}
	fmt.Fprintln(l.s.log, line)
}

// lockedWriter serialises the request lines and the HTTP server's own
// messages (TLS handshake failures), which come from other goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// redactedPath is the path with its query, token parameters replaced.
func redactedPath(u *url.URL) string {
	q := u.Query()
	for _, name := range []string{"private_token", "access_token", "bearer_token", "sentry_key"} {
		if q.Has(name) {
			q.Set(name, "[redacted]")
		}
	}
	p := u.EscapedPath()
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}
