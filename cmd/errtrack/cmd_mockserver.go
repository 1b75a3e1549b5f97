package main

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/internal/filelock"
)

func (a *app) mockServerCmd() *cobra.Command {
	var opts mockserver.Options
	listen := "127.0.0.1:8080"
	sentryListen, sentryDSNHost := "", ""
	integrated, log := true, false
	cmd := &cobra.Command{
		Use:   "mock-server",
		Short: "Run an in-memory GitLab with demo data, for demos and tests",
		Long: `Serves the error tracking endpoints (and /user, /personal_access_tokens/self and
its rotation, /projects, /projects/:id, project CI/CD variables, /version and
/metadata) the way GitLab does, and takes test events at the DSNs it issues.
The first line printed is "listening on http://HOST:PORT" (https with --tls,
then "ca-file: PATH"), followed by the tokens it accepts and a line to paste
in another terminal that opens the console on it. Stops cleanly on SIGINT or
SIGTERM.

--gitlab-version makes it answer as that GitLab release does: routes added
later answer GitLab's catch-all 404, older settings lack "integrated", and
14.3 to 16.0 issue DSNs of the legacy collector form.

A mock Sentry starts beside it on its own port (--sentry-listen; the same
host as --listen, a free port, by default): the demo project demo/legacy-api
reports to its project demo/legacy-api, whose keys errtrack manages with the
demo Sentry token. Its URL and a line to paste (SENTRY_URL=… SENTRY_AUTH_TOKEN=…)
follow the GitLab tokens.

The demo tokens are public: listening beyond loopback prints a warning.`,
		Example: `  errtrack mock-server --listen 127.0.0.1:0
  errtrack mock-server --latency 200ms --fail-rate 0.1 --state /tmp/gitlab.json
  errtrack mock-server --gitlab-version 15.4 --integrated-error-tracking=false
  errtrack mock-server --tls --log`,
		Args:        noArgs,
		Annotations: map[string]string{annotStopsOnSignal: "yes"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.NoIntegratedErrorTracking = !integrated
			if log {
				opts.Log = a.stderr
			}
			// Two servers on one state file would each acknowledge writes
			// the other then overwrites: the second one does not start.
			if opts.StatePath != "" {
				unlock, err := filelock.Lock(opts.StatePath+".lock", 0)
				if err != nil {
					return fmt.Errorf("the state file %s is in use by another mock server (%v): stop it, or give another --state", opts.StatePath, err)
				}
				defer unlock()
			}
			if u, err := url.Parse("http://" + sentryDSNHost); sentryDSNHost != "" && (err != nil || u.Host != sentryDSNHost || u.Path != "" || u.User != nil) {
				return usagef("--sentry-dsn-host %q is not host[:port]", sentryDSNHost)
			}
			sentrySrv := mocksentry.New(mocksentry.Options{Latency: opts.Latency, Log: opts.Log, DSNHost: sentryDSNHost, ScaleProjects: opts.ScaleSentry})
			if sentryListen == "" {
				host, _, err := net.SplitHostPort(listen)
				if err != nil {
					return usagef("--listen %q is not host:port", listen)
				}
				sentryListen = net.JoinHostPort(host, "0")
			}
			sentryRun, err := sentrySrv.Start(sentryListen)
			if err != nil {
				return fmt.Errorf("starting the mock Sentry: %w", err)
			}
			defer func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = sentryRun.Close(ctx)
			}()
			opts.SentryURL = sentryRun.URL
			opts.SentryDSN = sentrySrv.DSN("demo", "legacy-api", "Production")
			opts.SentryDSNOf = func(slug string) string { return sentrySrv.DSN("demo", slug, "Default") }
			s, err := mockserver.New(opts)
			if err != nil {
				return usageError{err: err}
			}
			run, err := s.Start(listen)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "listening on %s\n", run.URL)
			if run.CAFile != "" {
				fmt.Fprintf(a.stdout, "ca-file: %s\n", run.CAFile)
			}
			if run.Public {
				fmt.Fprintf(a.stderr, "errtrack: warning: the mock server listens beyond loopback (%s): anyone who reaches it can use the demo tokens below, which are public.\n", listen)
			}
			fmt.Fprintln(a.stdout, "tokens:")
			for _, t := range s.Tokens() {
				fmt.Fprintf(a.stdout, "  %s\n", t)
			}
			fmt.Fprintf(a.stdout, "sentry: listening on %s\n", sentryRun.URL)
			fmt.Fprintln(a.stdout, "sentry tokens:")
			for _, t := range sentrySrv.Tokens() {
				fmt.Fprintf(a.stdout, "  %s\n", t)
			}
			// A line to paste: the console on this server and its Sentry,
			// as the demo maintainer (the demo tokens are public).
			try := "GITLAB_TOKEN=" + mockserver.TokenMaintainer + " SENTRY_URL=" + sentryRun.URL + " SENTRY_AUTH_TOKEN=" + mocksentry.TokenAdmin + " " + selfName() + " --host " + run.URL
			if run.CAFile != "" {
				try += " --ca-file " + shellQuote(run.CAFile)
			}
			fmt.Fprintf(a.stdout, "open the console on it (in another terminal):\n  %s\n", try)
			<-cmd.Context().Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err = run.Close(ctx)
			fmt.Fprintln(a.stderr, "mock server stopped")
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", listen, "address to listen on; port 0 picks a free one")
	f.StringVar(&sentryListen, "sentry-listen", "", "address of the mock Sentry (default: --listen's host, a free port)")
	f.StringVar(&sentryDSNHost, "sentry-dsn-host", "", "host[:port] the mock Sentry writes in its keys' DSNs, as Sentry's SENTRY_PUBLIC_ENDPOINT or o<org>.ingest subdomains do (default: its listening address)")
	f.StringVar(&opts.Seed, "seed", "demo", "initial data: demo or empty")
	f.StringVar(&opts.FieldNames, "field-names", "spec", "JSON field names: spec (errtracker_*) or gitlab (sentry_*)")
	f.DurationVar(&opts.Latency, "latency", 0, "delay added to every response, e.g. 200ms")
	f.Float64Var(&opts.FailRate, "fail-rate", 0, "share of requests answered with 500/502/503 or 429, 0 to 1")
	f.IntVar(&opts.ScaleProjects, "scale-projects", 0, "add N maintainable projects scale/project-NNNNN")
	f.IntVar(&opts.ScaleGroup, "scale-group", 0, "add the group fleet with N projects, each with a key its SENTRY_DSN holds (for group rotations)")
	f.IntVar(&opts.ScaleSentry, "scale-sentry", 0, "add the group sentry-fleet with N projects, each reporting to its own mock Sentry project, with a key its SENTRY_DSN holds")
	f.IntVar(&opts.ScaleKeys, "scale-keys", 0, "add N client keys to project 1")
	f.StringVar(&opts.StatePath, "state", "", "keep the data in this file across restarts (written atomically)")
	f.IntVar(&opts.RateLimit, "rate-limit", 0, "authenticated API requests per minute per user (Rack::Attack, in minutes on the clock), as GitLab.com's 2,000; past it 429 with GitLab's RateLimit-* headers")
	f.StringVar(&opts.Instance, "instance", mockserver.InstanceSelfManaged, "self-managed (RateLimit-* only on a throttle's 429) or gitlab.com (RateLimit-* on every answer --rate-limit counts)")
	f.IntVar(&opts.GroupAPILimit, "group-api-limit", 0, "GET /groups/:id requests per minute per user; past it GitLab's JSON 429 (ApplicationRateLimiter), 0 off")
	f.IntVar(&opts.GroupProjectsAPILimit, "group-projects-api-limit", 0, "GET /groups/:id/projects requests per minute per user; past it GitLab's JSON 429 (ApplicationRateLimiter), 0 off")
	f.StringVar(&opts.DSNHost, "dsn-host", "", "host[:port] written in DSNs (default: the listening address)")
	f.StringVar(&opts.GitLabVersion, "gitlab-version", mockserver.DefaultGitLabVersion, "behave as this GitLab release, e.g. 15.4 or 17.5.1-ee")
	f.BoolVar(&integrated, "integrated-error-tracking", true, "the integrated_error_tracking feature flag; false as on a default self-managed GitLab")
	f.BoolVar(&opts.TLS, "tls", false, "serve HTTPS with a certificate made at start; its CA file is printed on the second line")
	f.BoolVar(&log, "log", false, "print one line per request to stderr (token values redacted)")
	return cmd
}

// selfName is how the user ran errtrack, for a line they paste: the path
// typed (./bin/errtrack), or errtrack when it was found on PATH.
func selfName() string {
	if name := os.Args[0]; strings.Contains(name, string(filepath.Separator)) && strings.HasPrefix(filepath.Base(name), "errtrack") {
		return shellQuote(name)
	}
	return "errtrack"
}

// shellQuote quotes s for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
