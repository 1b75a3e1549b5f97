package mockserver

import (
	"net/http"
	"strconv"
	"time"
)

// injectFault answers a share of requests with a server failure, before the
// request is looked at, so a failed request never changes anything.
func (s *Server) injectFault(w http.ResponseWriter) bool {
	if s.opts.FailRate <= 0 {
		return false
	}
	s.rngMu.Lock()
	hit := s.rng.Float64() < s.opts.FailRate
	kind := s.rng.IntN(4)
	s.rngMu.Unlock()
	if !hit {
		return false
	}
	switch kind {
	case 0:
		writeError(w, http.StatusInternalServerError, "message", "500 Internal Server Error")
	case 1:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n"))
	case 2:
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("Service Unavailable\n"))
	default:
		h := w.Header()
		wait := 1
		if s.opts.FaultRetryAfter != nil {
			wait = *s.opts.FaultRetryAfter
		}
		reset := s.now().Add(time.Duration(wait) * time.Second)
		h.Set("Content-Type", "text/plain")
		h.Set("Retry-After", strconv.Itoa(wait))
		h.Set("RateLimit-Name", "throttle_authenticated_api")
		h.Set("RateLimit-Limit", "2000")
		h.Set("RateLimit-Observed", "2001")
		h.Set("RateLimit-Remaining", "0")
		h.Set("RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		h.Set("RateLimit-ResetTime", reset.UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte("Retry later\n"))
	}
	return true
}
