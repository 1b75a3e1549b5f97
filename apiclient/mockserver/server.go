// Package mockserver is an in-memory GitLab that serves the error tracking
// endpoints (and user, token, project and version lookups) the way a real
// GitLab does, as documented in shared/docs/gitlab-api.md. It is an
// independent implementation: it does not import apiclient.
package mockserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// Options configures a Server.
type Options struct {
	Seed       string        // "demo" (default) or "empty"
	FieldNames string        // "spec" (default) or "gitlab"
	Latency    time.Duration // added before every response
	FailRate   float64       // share of requests answered with 500/502/503 or 429
	FailSeed   uint64        // seeds the fault choice, for repeatable tests
	// FaultRetryAfter is the Retry-After, in seconds, of injected 429s; 1 when unset.
	FaultRetryAfter *int
	ScaleProjects   int
	ScaleKeys       int
	// ScaleGroup adds the group fleet with N projects fleet/app-NNN, each
	// with one key whose DSN its SENTRY_DSN variable holds: a group
	// rotation's worth of projects.
	ScaleGroup int
	StatePath  string // keep the data in this file across restarts
	// DSNHost is host[:port] in DSNs; default: the address of the URL Start
	// gave, or the request's Host when served by another listener.
	DSNHost string
	Now     func() time.Time
	// GitLabVersion is the release to behave as, "15.4"; DefaultGitLabVersion
	// when empty (gitlab-api.md §12).
	GitLabVersion string
	// NoIntegratedErrorTracking turns the integrated_error_tracking feature
	// flag off instance-wide, as on a default self-managed GitLab.
	NoIntegratedErrorTracking bool
	// TLS serves HTTPS (HTTP/2 and HTTP/1.1) with a certificate made at
	// start; Running.CAFile holds its CA.
	TLS bool
	// Log, when set, receives one line per request.
	Log io.Writer
	// RateLimit, when positive, is the authenticated API requests a user
	// may make per minute (Rack::Attack's throttle_authenticated_api, in
	// periods aligned to the epoch); past it GitLab's 429 answers.
	RateLimit int
	// SentryURL, when set, is the base URL of a Sentry (the mock Sentry):
	// the demo's Sentry-backed projects name it in their settings' api_url.
	SentryURL string
	// SentryDSN, when set, is the DSN of the mock Sentry's key a
	// Sentry-backed demo project's SENTRY_DSN holds (the demo rotates it).
	SentryDSN string
	// ScaleSentry adds the group sentry-fleet (the demo user its Owner)
	// with N projects sentry-fleet/app-NNN, each reporting to its own
	// project demo/fleet-app-NNN of the Sentry at SentryURL (integrated
	// false, api_url), with SENTRY_DSN holding SentryDSNOf(slug): a group
	// of Sentry-backed projects (the mock Sentry's ScaleProjects).
	ScaleSentry int
	SentryDSNOf func(slug string) string
	// Instance is InstanceSelfManaged (default) or InstanceGitLabCom: on
	// GitLab.com the RateLimit-* headers come on every answer a throttle
	// counts, elsewhere only on its 429 (ratelimit.go).
	Instance string
	// GroupAPILimit and GroupProjectsAPILimit, when positive, are the
	// requests a user may make a minute to GET /groups/:id and GET
	// /groups/:id/projects (ApplicationRateLimiter's group_api and
	// group_projects_api); past them the JSON 429 answers.
	GroupAPILimit, GroupProjectsAPILimit int
}

// Server is the mock GitLab. It is an http.Handler safe for concurrent use.
type Server struct {
	opts         Options
	now          func() time.Time
	release      release
	noIntegrated bool
	tlsOn        bool
	log          *lockedWriter // nil without Options.Log

	// envelopes counts what the ingestion endpoint accepted, per project.
	envMu     sync.Mutex
	envelopes map[int64]int

	mu sync.RWMutex
	st *state

	persistMu sync.Mutex
	version   uint64 // bumped on every mutation, under mu

	// pages caches encoded pages of client keys (see keysPage).
	pagesMu    sync.Mutex
	pages      map[pageKey][]byte
	persistVer uint64 // last version written, under persistMu
	journalN   int    // records in the journal since the state file, under persistMu

	rngMu sync.Mutex
	rng   *rand.Rand

	timeouts serverTimeouts
	rl       *rateLimiter // nil without Options.RateLimit
	app      windows      // the application limits' counts
}

// serverTimeouts bound how long a client may take to send its request and
// how long an idle connection stays; --latency is added after the request
// has been read, so it is not bounded by them.
type serverTimeouts struct{ readHeader, read, idle time.Duration }

// servedAddr is the context key of the host:port a listener is reached on.
type servedAddr struct{}

// New builds a server from opts, loading StatePath when it exists.
func New(opts Options) (*Server, error) {
	if opts.FieldNames == "" {
		opts.FieldNames = "spec"
	}
	if opts.FieldNames != "spec" && opts.FieldNames != "gitlab" {
		return nil, errors.New("field names must be spec or gitlab")
	}
	if opts.FailRate < 0 || opts.FailRate > 1 {
		return nil, errors.New("fail rate must be between 0 and 1")
	}
	switch opts.Instance {
	case "":
		opts.Instance = InstanceSelfManaged
	case InstanceSelfManaged, InstanceGitLabCom:
	default:
		return nil, fmt.Errorf("instance %q: use %s or %s", opts.Instance, InstanceSelfManaged, InstanceGitLabCom)
	}
	if opts.RateLimit < 0 || opts.GroupAPILimit < 0 || opts.GroupProjectsAPILimit < 0 {
		return nil, errors.New("rate limits must be 0 (off) or more")
	}
	if opts.GitLabVersion == "" {
		opts.GitLabVersion = DefaultGitLabVersion
	}
	rel, err := parseRelease(opts.GitLabVersion)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, now: opts.Now, release: rel, noIntegrated: opts.NoIntegratedErrorTracking, tlsOn: opts.TLS, envelopes: map[int64]int{}, pages: map[pageKey][]byte{},
		timeouts: serverTimeouts{readHeader: 10 * time.Second, read: 30 * time.Second, idle: 2 * time.Minute}}
	if s.now == nil {
		s.now = time.Now
	}
	if opts.Log != nil {
		s.log = &lockedWriter{w: opts.Log}
	}
	seed := opts.FailSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	s.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	if opts.RateLimit > 0 {
		s.rl = &rateLimiter{limit: opts.RateLimit}
	}
	if opts.StatePath != "" {
		removeStaleTemps(opts.StatePath)
		st, err := loadState(opts.StatePath)
		if err != nil {
			return nil, err
		}
		if st != nil {
			s.st, s.version, s.persistVer = st, st.Version, st.Version
			return s, nil
		}
	}
	st, err := seedState(opts.Seed, s.now(), opts.ScaleProjects, opts.ScaleKeys)
	if err != nil {
		return nil, err
	}
	st.pointSentry(opts.SentryURL, opts.SentryDSN)
	if opts.ScaleGroup > 0 {
		if opts.Seed == "empty" {
			return nil, fmt.Errorf("--scale-group adds to the demo seed: use --seed demo")
		}
		st.addFleet(opts.ScaleGroup)
	}
	if opts.ScaleSentry > 0 {
		if opts.Seed == "empty" || opts.SentryURL == "" || opts.SentryDSNOf == nil {
			return nil, fmt.Errorf("--scale-sentry adds to the demo seed with its mock Sentry: use --seed demo")
		}
		st.addSentryFleet(opts.ScaleSentry, opts.SentryURL, opts.SentryDSNOf)
	}
	s.st = st
	if opts.StatePath != "" {
		if err := s.persist(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Envelopes is how many events the ingestion endpoint accepted for
// project id, for tests.
func (s *Server) Envelopes(id int64) int {
	s.envMu.Lock()
	defer s.envMu.Unlock()
	return s.envelopes[id]
}

// Variables returns a copy of project id's CI/CD variables, for tests.
func (s *Server) Variables(id int64) []Variable {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p := s.st.byID[id]; p != nil {
		return append([]Variable(nil), p.Variables...)
	}
	return nil
}

// MakeGroupOwner makes user an Owner of the group at path, for tests
// that need its variables read.
func (s *Server) MakeGroupOwner(path string, user int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.st.groupByPath(path); g != nil {
		if g.Members == nil {
			g.Members = map[int64]int{}
		}
		g.Members[user] = owner
	}
}

// Token returns the stored token, for tests.
func (s *Server) Token(raw string) (Token, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.st.Tokens[raw]
	return t, ok
}

// Tokens lists the tokens the server accepts with a word on each, for the
// command's start-up banner.
func (s *Server) Tokens() []string {
	return []string{
		TokenMaintainer + "  Maintainer on demo projects 1-5 and 7-8, Owner of group ops, scope api",
		TokenExpiring + "    the same, expiring in 3 days",
		TokenReadOnly + "    scope read_api: writes get 403 insufficient_scope",
		TokenDeveloper + "   Developer: 403 on the error tracking endpoints",
		TokenExpired + "     expired: 401 invalid_token",
		TokenRevoked + "     revoked: 401 invalid_token",
	}
}

// KeyCount returns the number of client keys of project id, for tests.
func (s *Server) KeyCount(id int64) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p := s.st.byID[id]; p != nil {
		return len(p.Keys)
	}
	return 0
}

// Keys returns a copy of project id's keys, for tests.
func (s *Server) Keys(id int64) []ClientKey {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p := s.st.byID[id]; p != nil {
		return append([]ClientKey(nil), p.Keys...)
	}
	return nil
}

// Running is a server listening on a port.
type Running struct {
	URL string // http(s)://host:port, an address a client can use
	// Public: the server listens beyond loopback, where anyone who reaches
	// it can use the demo tokens.
	Public bool
	// CAFile is a PEM of the CA that signed the server's certificate, for a
	// client's --ca-file; removed by Close. Empty without TLS.
	CAFile string
	srv    *http.Server
	done   chan error

	closeOnce sync.Once
	closeErr  error
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves in the
// background. DSNs issued through it name the address of its URL (unless
// Options.DSNHost is set), so one server may listen on several addresses.
func (s *Server) Start(addr string) (*Running, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	tcp := ln.Addr().(*net.TCPAddr)
	// An unspecified address (0.0.0.0, ::) is no address to connect to: the
	// URL names loopback, which reaches it from this machine.
	host := tcp.IP
	if host.IsUnspecified() {
		host = net.IPv4(127, 0, 0, 1)
		if tcp.IP.To4() == nil && !ipv4Available() {
			host = net.IPv6loopback
		}
	}
	hostport := net.JoinHostPort(host.String(), strconv.Itoa(tcp.Port))
	scheme := "http"
	if s.tlsOn {
		scheme = "https"
	}
	r := &Running{
		URL:    scheme + "://" + hostport,
		Public: !tcp.IP.IsLoopback(),
		srv: &http.Server{Handler: s,
			BaseContext: func(net.Listener) context.Context {
				return context.WithValue(context.Background(), servedAddr{}, hostport)
			},
			// A client that never finishes its request must not hold a
			// connection open.
			ReadHeaderTimeout: s.timeouts.readHeader,
			ReadTimeout:       s.timeouts.read,
			IdleTimeout:       s.timeouts.idle,
			// Handshake failures (a client without --ca-file) are the
			// client's to report; with --log they are shown too.
			ErrorLog: log.New(io.Discard, "", 0),
		},
		done: make(chan error, 1),
	}
	if s.log != nil {
		r.srv.ErrorLog = log.New(s.log, "mock-server: ", 0)
	}
	if s.tlsOn {
		cert, caPEM, err := newCertificate(host)
		if err != nil {
			ln.Close()
			return nil, err
		}
		if r.CAFile, err = writeCAFile(caPEM); err != nil {
			ln.Close()
			return nil, err
		}
		r.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}, MinVersion: tls.VersionTLS12}
		go func() { r.done <- r.srv.ServeTLS(ln, "", "") }()
		return r, nil
	}
	go func() { r.done <- r.srv.Serve(ln) }()
	return r, nil
}

// ipv4Available reports whether this machine can reach 127.0.0.1.
func ipv4Available() bool {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// Close removes the CA file (no new client needs it once the server stops
// accepting, and a process ended while it waits leaves none behind), stops
// accepting requests and waits up to the context's end for those in
// flight. Closing again returns the first answer.
func (r *Running) Close(ctx context.Context) error {
	r.closeOnce.Do(func() {
		if r.CAFile != "" {
			_ = os.Remove(r.CAFile)
		}
		err := r.srv.Shutdown(ctx)
		if e := <-r.done; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
		r.closeErr = err
	})
	return r.closeErr
}
