package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/config"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/tokens"
	"github.com/errtrack/errtrack/keyring"
	"github.com/errtrack/errtrack/tui"
)

type consoleOptions struct {
	flags   *globalFlags
	project string
	demo    bool
	demoTLS bool
	// accessible: --accessible or ACCESSIBLE set (as gh and huh read it).
	accessible bool
	// group scopes the projects list (with subgroups, theirs too).
	group     string
	subgroups bool
	// theme: --theme (light, dark or auto).
	theme string
}

// addConsole makes root run the console, with its flags: errtrack with no
// subcommand opens it.
func (a *app) addConsole(root *cobra.Command, g *globalFlags) {
	var opts consoleOptions
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		opts.flags = g
		if opts.demoTLS && !opts.demo {
			return usagef("--tls serves the built-in mock GitLab over HTTPS, so it needs --demo; for a GitLab with a private CA use --ca-file")
		}
		return a.runConsole(cmd.Context(), opts)
	}
	root.Flags().StringVarP(&opts.project, "project", "p", "", "open this project directly (ID or group/project)")
	root.Flags().BoolVar(&opts.demo, "demo", false, "start a built-in mock GitLab with demo data and open the console on it")
	root.Flags().BoolVar(&opts.demoTLS, "tls", false, "with --demo: serve the mock GitLab over HTTPS with a certificate made at start")
	root.Flags().StringVar(&opts.group, "group", "", "open the console on this group's projects (ID or path); space marks projects, ctrl+o changes the marked ones")
	root.Flags().BoolVar(&opts.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	root.Flags().BoolVar(&opts.accessible, "accessible", false, "no animation and no colour, for screen readers (also ACCESSIBLE=1)")
	root.Flags().StringVar(&opts.theme, "theme", "", "the console's palette: light, dark or auto, the terminal's background (also ERRTRACK_THEME, or the config file's theme)")
}

// errNeedsTerminal is the console's answer when it has no terminal to draw on.
var errNeedsTerminal = usagef("the console needs a terminal; the subcommands work without one: errtrack --help")

// runConsole builds the console's dependencies and runs it until the user
// quits or a signal ends it.
//
// Bubble Tea's own signal handler is off: it blocks sending its interrupt
// message once the program is shutting down, which hung the console on
// SIGINT/SIGTERM about half the time. Signals cancel ctx instead (see
// handleSignals); the program runs on ctx, so its event loop ends at once
// and the terminal is restored on the way out.
func (a *app) runConsole(ctx context.Context, opts consoleOptions) error {
	if opts.project != "" && !strings.Contains(opts.project, "://") {
		if _, err := apiclient.ParseProjectRef(opts.project); err != nil {
			return usageError{err: err}
		}
	}
	switch {
	case opts.group != "" && opts.project != "":
		return usageError{err: errGroupAndProject}
	case opts.subgroups && opts.group == "":
		return usagef("--include-subgroups goes with --group")
	case opts.group != "":
		if _, err := apiclient.ParseGroupRef(opts.group); err != nil {
			return usagef("--group: %v", err)
		}
	}
	keys, err := a.consoleKeys()
	if err != nil {
		return err
	}
	theme, err := a.consoleTheme(opts.theme)
	if err != nil {
		return err
	}
	if !a.consoleTTY() {
		return errNeedsTerminal
	}
	// TEA_TRACE makes Bubble Tea log every input byte, the typed token included.
	_ = os.Unsetenv("TEA_TRACE")
	deps, cleanup, err := a.consoleDeps(ctx, opts)
	if err != nil {
		return err
	}
	defer cleanup()
	a.clipboardDeps(&deps)
	defer a.seenDeps(&deps, opts.demo)()
	deps.Keys = keys
	deps.Group, deps.Subgroups = opts.group, opts.subgroups
	deps.Context = ctx
	// The commands' ledger: a rotation interrupted here goes on in `keys
	// rotate`, and the other way round. The demo keeps its own, gone at
	// its end.
	led, closeLedger, err := a.consoleLedger(deps.Host, opts.demo)
	if err != nil {
		return err
	}
	defer closeLedger()
	deps.Rotations = led
	a.migrationDeps(&deps, opts.flags)
	deps.Accessible = opts.accessible || accessibleEnv(a.getenv("ACCESSIBLE"))
	deps.Theme, deps.LightBackground = theme, lightColorFGBG(a.getenv("COLORFGBG"))
	p := tea.NewProgram(tui.New(deps), tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithInput(a.stdin), tea.WithOutput(a.stdout))
	a.program.Store(p)
	defer a.program.Store(nil)
	final, err := p.Run()
	if m, ok := final.(tui.Model); ok {
		for _, w := range m.PendingWrites() {
			if w.Reading {
				fmt.Fprintf(a.stderr, "errtrack: you quit while %s: nothing was changed.\n", explain.Text(w.What))
				continue
			}
			fmt.Fprintf(a.stderr, "errtrack: you quit while %s; it may have happened or not. Check the project before trying again.\n", explain.Text(w.What))
		}
		for _, r := range m.RotationsAtQuestion() {
			ref := r.Project.Ref
			if r.Project.Path != "" {
				ref = apiclient.ProjectRef{Path: r.Project.Path}
			}
			fmt.Fprintf(a.stderr, "errtrack: you quit at a question of the rotation in %s. %s %s\n", explain.Text(r.Project.Name()), explain.Text(r.State(cliChecks(ref))), explain.Text(deleteLater(ref, r)))
		}
		if n := m.BulkQuitNote(); n != "" {
			fmt.Fprintf(a.stderr, "errtrack: %s\n", explain.Text(n))
		}
	}
	if ctx.Err() != nil {
		return reported{context.Cause(ctx)}
	}
	if m, ok := final.(tui.Model); ok && err == nil && m.Unfinished() {
		return quitUnfinished{} // said above
	}
	if errors.Is(err, tea.ErrInterrupted) {
		return nil
	}
	return err
}

func (a *app) consoleDeps(ctx context.Context, opts consoleOptions) (tui.Deps, func(), error) {
	nothing := func() {}
	if opts.demo {
		return a.demoDeps(opts)
	}
	// Read the config first: a corrupt one is set aside here and reported in
	// the console, where the user will see it.
	cfg, cfgPath, notice := a.loadConfigQuietly()
	host, err := a.resolveHost(opts.flags.host)
	if opts.project == "" {
		if ref, h, why, ok := a.projectFromRemote(ctx, opts.flags.host); ok {
			opts.project, host, err = ref.String(), h, nil
			notice = strings.TrimSpace(notice + " Opened " + why + ".")
		}
	} else {
		var ref apiclient.ProjectRef
		ref, host, err = a.resolveProject(opts.flags.host, opts.project)
		opts.project = ref.String()
	}
	if err != nil {
		return tui.Deps{}, nothing, err
	}
	deps := tui.Deps{
		Notice:         notice,
		Host:           host,
		Project:        opts.project,
		RequestTimeout: opts.flags.timeout,
	}
	for _, r := range cfg.Recent[host] {
		deps.Recent = append(deps.Recent, tui.RecentProject{ID: r.ID, Path: r.Path})
	}
	deps.Policy, deps.Notice = a.consolePolicy(deps.Notice)
	deps.TokenEnv = a.envTokenName
	deps.OpenURL = a.openURL
	deps.Log = a.requestLog()
	deps.Sentry = a.consoleSentry(opts.flags, deps.Log)
	clientOpts := func(host string) []apiclient.Option {
		return append(a.clientOptions(opts.flags, host), a.retryNotice(), apiclient.WithObserver(deps.Log.Add))
	}
	deps.Login = func(ctx context.Context, host, token string) (tui.API, error) {
		c, err := apiclient.New(host, token, clientOpts(host)...)
		if err != nil {
			return nil, err
		}
		_, err = tokens.Login(ctx, c, a.keyring, host, token)
		var notStored *tokens.NotStoredError
		if errors.As(err, &notStored) {
			return c, err // valid: the console can use it for this session
		}
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	if a.envToken == "" {
		deps.RotateToken = func(ctx context.Context, host string) (tui.API, *apiclient.RotatedToken, error) {
			token, _, err := a.resolveToken(ctx, host)
			if err != nil {
				return nil, nil, err
			}
			return rotateWith(ctx, a.keyring, host, token, clientOpts(host), a.now())
		}
	}
	// Config writes are conveniences: a failed save must not disturb the console.
	if cfgPath != "" {
		deps.HostWorked = a.rememberHostQuietly
		deps.ProjectOpened = func(host string, p tui.RecentProject) {
			_ = config.Update(cfgPath, func(c *config.Config) bool {
				c.LastHost = host
				c.AddRecent(host, config.Recent{ID: p.ID, Path: p.Path})
				return true
			})
		}
		deps.ForgetRecent = func(host string, p tui.RecentProject) {
			_ = config.Update(cfgPath, func(c *config.Config) bool {
				c.ForgetRecent(host, config.Recent{ID: p.ID, Path: p.Path})
				return true
			})
		}
	}
	// The keyring may be slow or waiting to be unlocked: look the token up
	// inside the console, behind a spinner, not before its first frame.
	deps.Connect = func(ctx context.Context) (tui.API, error) {
		token, _, err := a.resolveToken(ctx, host)
		switch {
		case errors.Is(err, keyring.ErrNotFound):
			return nil, fmt.Errorf("no token for %s yet: log in below, or set GITLAB_TOKEN", host)
		case err != nil:
			return nil, err
		}
		c, err := apiclient.New(host, token, clientOpts(host)...)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return deps, nothing, nil
}

// requestLog collects the console's requests for its request log pane and
// wakes the console when one is added.
func (a *app) requestLog() *tui.RequestLog {
	return &tui.RequestLog{OnChange: func() {
		if p := a.program.Load(); p != nil {
			go p.Send(tui.RequestLogged{})
		}
	}}
}

// retryNotice shows the client's automatic retries in the console's status
// line ("rate limited; retrying in 3 s").
func (a *app) retryNotice() apiclient.Option {
	return apiclient.WithRetryNotify(func(e apiclient.RetryEvent) {
		if p := a.program.Load(); p != nil {
			go p.Send(tui.RetryNotice{Wait: e.Wait, StatusCode: e.StatusCode, RateLimited: e.StatusCode == 429})
		}
	})
}

// demoDeps starts the mock server in-process on a free loopback port and
// logs in as demo-maintainer. Nothing is written outside memory.
func (a *app) demoDeps(opts consoleOptions) (tui.Deps, func(), error) {
	// The mock Sentry the demo's Sentry-backed projects report to, with the
	// demo Sentry token at hand as the demo GitLab token is (in memory).
	sentrySrv := mocksentry.New(mocksentry.Options{})
	sentryRun, err := sentrySrv.Start("127.0.0.1:0")
	if err != nil {
		return tui.Deps{}, nil, fmt.Errorf("starting the demo Sentry: %w", err)
	}
	a.sentryKeyring = sentryMemory{sentryRun.URL: mocksentry.TokenAdmin}
	a.demoSentry = sentryRun.URL
	srv, err := mockserver.New(mockserver.Options{Seed: "demo", TLS: opts.demoTLS, SentryURL: sentryRun.URL,
		SentryDSN: sentrySrv.DSN("demo", "legacy-api", "Production")})
	if err != nil {
		return tui.Deps{}, nil, err
	}
	run, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return tui.Deps{}, nil, fmt.Errorf("starting the demo server: %w", err)
	}
	// The demo keeps nothing, so it need not wait: a graceful shutdown would
	// wait up to its whole timeout for a connection the client dialled but
	// never used, delaying the exit after a signal.
	cleanup := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = run.Close(ctx)
		_ = sentryRun.Close(ctx)
	}
	log := a.requestLog()
	sentryKeys := a.consoleSentry(opts.flags, log)
	opt := []apiclient.Option{a.retryNotice(), apiclient.WithObserver(log.Add), apiclient.WithCAFile(run.CAFile), apiclient.WithTimeout(a.exchangeLimit(opts.flags.timeout))}
	c, err := apiclient.New(run.URL, mockserver.TokenMaintainer, opt...)
	if err != nil {
		cleanup()
		return tui.Deps{}, nil, err
	}
	// The demo's token lives in memory; rotating it shows the API at work.
	store := &memoryStore{tokens: map[string]string{}}
	return tui.Deps{
		RotateToken: func(ctx context.Context, host string) (tui.API, *apiclient.RotatedToken, error) {
			token, ok := store.get(host)
			if !ok {
				token = mockserver.TokenMaintainer
			}
			return rotateWith(ctx, store, host, token, opt, time.Now())
		},
		API: c, Host: c.BaseURL(), Demo: true, Project: opts.project, Log: log, Sentry: sentryKeys, Policy: check.Demo(),
		Recent:         []tui.RecentProject{{ID: 1, Path: "demo/web-shop"}},
		RequestTimeout: opts.flags.timeout,
	}, cleanup, nil
}

// consoleSentry reaches a Sentry-backed project's Sentry from the console:
// the commands' token lookup (SENTRY_AUTH_TOKEN for SENTRY_URL's host, the
// keyring for the others; the demo's in memory), the token sent only to
// the host the project's settings name. Unlike sentryResolver it notes no
// last host: the console resolves from several goroutines at once. Its
// requests join the request log.
func (a *app) consoleSentry(g *globalFlags, log *tui.RequestLog) keystore.SentryResolver {
	tokens := a.sentryTokens()
	opts := append(a.sentryOptions(g), a.retryNotice(), apiclient.WithObserver(log.Add))
	return func(ctx context.Context, apiURL string) (keystore.KeyStore, error) {
		c, p, _, err := sentry.ClientFor(ctx, tokens, apiURL, opts...)
		if err != nil {
			return nil, err
		}
		return keystore.SentryKeys(c, p), nil
	}
}

// rotateWith rotates token (tokens.RotateToken, which stores the new one
// first) and returns a client that uses the new token.
func rotateWith(ctx context.Context, store tokens.TokenStore, host, token string, opts []apiclient.Option, now time.Time) (tui.API, *apiclient.RotatedToken, error) {
	c, err := apiclient.New(host, token, opts...)
	if err != nil {
		return nil, nil, err
	}
	t, err := tokens.RotateToken(ctx, c, store, host, token, tokens.DefaultTokenDays, now)
	if err != nil {
		return nil, nil, err
	}
	next, err := apiclient.New(host, t.Token, opts...)
	if err != nil {
		return nil, nil, err
	}
	return next, t, nil
}
