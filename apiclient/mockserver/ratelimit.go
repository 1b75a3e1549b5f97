package mockserver

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rateLimiter counts authenticated API requests per token in fixed 60 s
// windows, as GitLab's throttle_authenticated_api does, and answers past
// the limit with GitLab's 429 (gitlab-api.md §6).
type rateLimiter struct {
	limit int
	mu    sync.Mutex
	win   map[string]*rateWindow
}

type rateWindow struct {
	start time.Time
	count int
}

// throttled counts the request and sets the RateLimit-* headers GitLab
// sends on every answer; past the limit it writes the 429 and reports true.
func (s *Server) throttled(w http.ResponseWriter, r *http.Request) bool {
	rl := s.rl
	if rl == nil || !strings.HasPrefix(r.URL.Path, "/api/v4/") {
		return false
	}
	token := r.Header.Get("PRIVATE-TOKEN")
	if token == "" {
		token = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	if token == "" {
		return false
	}
	now := s.now()
	rl.mu.Lock()
	win := rl.win[token]
	if win == nil || now.Sub(win.start) >= time.Minute {
		win = &rateWindow{start: now}
		rl.win[token] = win
	}
	win.count++
	observed, reset := win.count, win.start.Add(time.Minute)
	rl.mu.Unlock()
	h := w.Header()
	h.Set("RateLimit-Name", "throttle_authenticated_api")
	h.Set("RateLimit-Limit", strconv.Itoa(rl.limit))
	h.Set("RateLimit-Observed", strconv.Itoa(observed))
	h.Set("RateLimit-Remaining", strconv.Itoa(max(rl.limit-observed, 0)))
	h.Set("RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	if observed <= rl.limit {
		return false
	}
	wait := int(reset.Sub(now).Round(time.Second) / time.Second)
	h.Set("RateLimit-ResetTime", reset.UTC().Format(http.TimeFormat))
	h.Set("Retry-After", strconv.Itoa(max(wait, 1)))
	h.Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte("Retry later\n"))
	return true
}
