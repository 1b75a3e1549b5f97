// Package mocksentry is an in-memory Sentry that serves the part of
// Sentry's web API errtrack uses (a project's client keys, projects, project
// creation under a team, the token's scopes) and the ingestion endpoint
// SDKs send events to, the way Sentry's source does; docs/sentry-api.md
// cites each route, field and rule. It is an independent implementation:
// it imports neither apiclient nor apiclient/sentry, only the standard
// library.
package mocksentry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Server.
type Options struct {
	// Now is the server's clock; time.Now when nil.
	Now func() time.Time
	// Latency is added before every answer.
	Latency time.Duration
	// RateLimit, when positive, is the requests per second a token may
	// make of each route and method (Sentry's keys endpoints allow 40);
	// answers then carry X-Sentry-Rate-Limit-* and past it are 429.
	// Self-hosted Sentry enforces none (SENTRY_SELF_HOSTED), the default.
	RateLimit int
	// NoRateLimitFeature turns the projects:rate-limits feature off: a
	// key's rateLimit is then ignored on create and update, as Sentry does.
	NoRateLimitFeature bool
	// ScaleKeys adds keys to demo/legacy-api, for paging tests.
	ScaleKeys int
	// ScaleProjects adds N projects demo/fleet-app-NNN (team backend),
	// each with the one key "Default" Sentry gives a new project: what the
	// mock GitLab's --scale-sentry group reports to.
	ScaleProjects int
	// PublicURL is where DSNs and Link headers point (Sentry's
	// system.url-prefix); the listener's URL when empty.
	PublicURL string
	// DSNHost, when set, is the host[:port] of the DSNs the keys carry
	// (the scheme stays PublicURL's): Sentry builds a key's DSN from
	// SENTRY_PUBLIC_ENDPOINT, an o<org>. ingest subdomain or a region,
	// not from the host the API was asked on (models/projectkey.py,
	// get_endpoint).
	DSNHost string
	// Log, when set, receives one line per request.
	Log io.Writer
}

// Server is the mock Sentry, an http.Handler safe for concurrent use.
type Server struct {
	opts Options
	now  func() time.Time

	mu sync.Mutex
	st *state
	// events counts what the ingestion endpoint accepted, per public key.
	events map[string]int

	rlMu sync.Mutex
	rl   map[string]*window

	logMu sync.Mutex
	// public is Options.PublicURL, or the listener's URL once started.
	public atomic.Pointer[string]
}

type window struct {
	start time.Time
	count int
}

// New returns a server with the demo data.
func New(opts Options) *Server {
	s := &Server{opts: opts, now: opts.Now, events: map[string]int{}, rl: map[string]*window{}}
	if s.now == nil {
		s.now = time.Now
	}
	s.st = seed(s.now(), opts.ScaleKeys)
	s.st.addFleet(opts.ScaleProjects, s.now())
	if opts.PublicURL != "" {
		u := strings.TrimSuffix(opts.PublicURL, "/")
		s.public.Store(&u)
	}
	return s
}

// Tokens lists the tokens the server accepts with a word on each, for the
// mock server's banner.
func (s *Server) Tokens() []string {
	rows := [][2]string{
		{TokenAdmin, "scopes project:read/write/admin, org:read, team:write"},
		{TokenWrite, "project:write: keys made and changed, not deleted (403)"},
		{TokenRead, "project:read: writes get 403"},
		{TokenExpired, "401 Token expired"},
		{TokenOrgCI, "organization token, scope org:ci: keys give 403"},
		{TokenOrgScoped, "limited to organization demo: GET /api/0/ gives 401"},
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%-29s %s", r[0], r[1])
	}
	return out
}

// Events is how many events the ingestion endpoint accepted for a key.
func (s *Server) Events(public string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.events[public]
}

// Keys returns a copy of a project's keys, oldest first.
func (s *Server) Keys(org, project string) []Key {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.project(org, project)
	if p == nil {
		return nil
	}
	out := make([]Key, 0, len(p.Keys))
	for _, k := range p.Keys {
		out = append(out, *k)
	}
	return out
}

// ProjectID is a project's numeric ID, 0 when there is none.
func (s *Server) ProjectID(org, project string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.st.project(org, project); p != nil {
		return p.ID
	}
	return 0
}

// AddToken lets a test add a token with scopes.
func (s *Server) AddToken(token string, t Token) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.tokens[token] = t
}

// Running is a server listening on a port.
type Running struct {
	URL string
	srv *http.Server
	ln  net.Listener
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves in the
// background. DSNs and links name the listener's URL unless
// Options.PublicURL is set.
func (s *Server) Start(addr string) (*Running, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	tcp := ln.Addr().(*net.TCPAddr)
	host := tcp.IP
	if host.IsUnspecified() {
		host = net.IPv4(127, 0, 0, 1)
	}
	r := &Running{URL: "http://" + net.JoinHostPort(host.String(), strconv.Itoa(tcp.Port)), ln: ln,
		srv: &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute,
			ErrorLog: log.New(io.Discard, "", 0)}}
	if s.public.Load() == nil {
		u := r.URL
		s.public.CompareAndSwap(nil, &u)
	}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// Close stops the server, waiting up to ctx's end for requests in flight.
func (r *Running) Close(ctx context.Context) error {
	err := r.srv.Shutdown(ctx)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// publicURL is where DSNs and links point.
func (s *Server) publicURL(r *http.Request) string {
	if u := s.public.Load(); u != nil {
		return *u
	}
	return "http://" + r.Host
}

// endpoint is where the keys' DSNs point: publicURL, with Options.DSNHost
// for its host when set.
func (s *Server) endpoint(public string) string {
	if s.opts.DSNHost == "" {
		return public
	}
	scheme, _, ok := strings.Cut(public, "://")
	if !ok {
		scheme = "http"
	}
	return scheme + "://" + s.opts.DSNHost
}

// DSN is the public DSN of a project's key named name, "" when there is
// none (or the server has not started: DSNs name its address).
func (s *Server) DSN(org, project, name string) string {
	pub := s.public.Load()
	if pub == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.project(org, project)
	if p == nil {
		return ""
	}
	for _, k := range p.Keys {
		if k.Label == name {
			u, err := url.Parse(s.endpoint(*pub))
			if err != nil {
				return ""
			}
			return u.Scheme + "://" + k.Public + "@" + u.Host + "/" + strconv.FormatInt(p.ID, 10)
		}
	}
	return ""
}
