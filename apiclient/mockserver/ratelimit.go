package mockserver

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// GitLab has two rate limiters, each with its own 429:
//
//   - Rack::Attack's throttle_authenticated_api, a middleware in front of
//     every API route (lib/gitlab/rack_attack.rb): text/plain "Retry later",
//     with RateLimit-* headers, Retry-After the seconds to the end of the
//     period. Periods are aligned to the epoch (now % period), per user.
//     A self-managed instance has it off by default; --rate-limit turns it
//     on. RateLimit-* on answers that are not throttled come only where the
//     rate_limiting_headers_for_unthrottled_requests feature flag is on:
//     --instance gitlab.com.
//   - ApplicationRateLimiter, checked inside some routes
//     (lib/api/helpers/rate_limiter.rb, lib/gitlab/application_rate_limiter.rb):
//     a JSON body {"message":{"error":"This endpoint has been requested too
//     many times. Try again later."}}, Retry-After the whole interval, no
//     RateLimit-* of its own. GET /groups/:id (group_api) and
//     GET /groups/:id/projects (group_projects_api) use it, per user, with
//     a one-minute interval aligned to the epoch too.

// Instances the mock can behave as.
const (
	InstanceSelfManaged = "self-managed"
	InstanceGitLabCom   = "gitlab.com"
)

// ratePeriod is throttle_authenticated_api's period, and the interval of
// the group routes' application limits.
const ratePeriod = 60

// windows counts requests per key in epoch-aligned periods.
type windows struct {
	mu  sync.Mutex
	win map[string]*rateWindow
}

type rateWindow struct {
	period int64 // now / ratePeriod
	count  int
}

// count adds a request of key at now and returns the period's count.
func (w *windows) count(key string, now time.Time) int {
	period := now.Unix() / ratePeriod
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.win == nil {
		w.win = map[string]*rateWindow{}
	}
	cur := w.win[key]
	if cur == nil || cur.period != period {
		if len(w.win) > 100000 { // keys of old periods
			clear(w.win)
		}
		cur = &rateWindow{period: period}
		w.win[key] = cur
	}
	cur.count++
	return cur.count
}

// rateLimiter is throttle_authenticated_api at limit requests a period.
type rateLimiter struct {
	limit int
	windows
}

// throttled counts an authenticated API request against its user's
// period and sets the RateLimit-* headers where GitLab sends them; past
// the limit it writes Rack::Attack's 429 and reports true. A request with
// a token the server does not know is not authenticated: another throttle
// (off here) would count it.
func (s *Server) throttled(w http.ResponseWriter, r *http.Request) bool {
	rl := s.rl
	if rl == nil || !strings.HasPrefix(r.URL.Path, "/api/v4/") {
		return false
	}
	token := r.Header.Get("PRIVATE-TOKEN")
	if token == "" {
		token = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	s.mu.RLock()
	t, known := s.st.Tokens[token]
	s.mu.RUnlock()
	if token == "" || !known {
		return false
	}
	now := s.now()
	observed := rl.count("user:"+strconv.FormatInt(t.UserID, 10), now)
	retryAfter := ratePeriod - now.Unix()%ratePeriod
	reset := time.Unix(now.Unix()+retryAfter, 0)
	h := w.Header()
	common := func() {
		h.Set("RateLimit-Name", "throttle_authenticated_api")
		h.Set("RateLimit-Limit", strconv.Itoa(rl.limit)) // per 60 s already
		h.Set("RateLimit-Observed", strconv.Itoa(observed))
		h.Set("RateLimit-Remaining", strconv.Itoa(max(rl.limit-observed, 0)))
		h.Set("RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	}
	if observed <= rl.limit {
		if s.opts.Instance == InstanceGitLabCom {
			common()
		}
		return false
	}
	common()
	h.Set("Retry-After", strconv.FormatInt(retryAfter, 10))
	h.Set("RateLimit-ResetTime", reset.UTC().Format(http.TimeFormat))
	h.Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte("Retry later\n"))
	return true
}

// appLimited is check_rate_limit_by_user_or_ip!(key) at limit requests a
// minute (0: off, as a threshold of 0 is): past it, ApplicationRateLimiter's
// 429 is written and it reports true.
func (s *Server) appLimited(c *call, key string, limit int) bool {
	if limit <= 0 {
		return false
	}
	if s.app.count(key+":user:"+strconv.FormatInt(c.user.ID, 10), s.now()) <= limit {
		return false
	}
	c.w.Header().Set("Retry-After", strconv.Itoa(ratePeriod))
	writeJSON(c.w, http.StatusTooManyRequests, map[string]any{
		"message": map[string]string{"error": "This endpoint has been requested too many times. Try again later."}})
	return true
}
