package mockserver

import (
	"fmt"
	"net/http"
	"net/url"
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
func (l *loggedWriter) done() {
	if l.s.opts.Log == nil {
		return
	}
	status := l.status
	if status == 0 {
		status = http.StatusOK
	}
	line := fmt.Sprintf("%s %-6s %s %d %s %s", l.start.Format("15:04:05.000"), l.r.Method, redactedPath(l.r.URL), status,
		time.Since(l.start).Round(time.Microsecond), l.r.Proto)
	if l.note != "" {
		line += " " + l.note
	}
	l.s.logMu.Lock()
	defer l.s.logMu.Unlock()
	fmt.Fprintln(l.s.opts.Log, line)
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
