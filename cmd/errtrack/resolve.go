package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/config"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/hosturl"
)

// sourceKeyring names the keyring as a token source, as status reports it.
const sourceKeyring = "system keyring"

// DefaultTimeout bounds a command's exchanges with the server.
const DefaultTimeout = 60 * time.Second

// globalFlags are accepted by every command that talks to GitLab.
type globalFlags struct {
	host     string
	caFile   string
	jsonOut  bool
	insecure bool
	timeout  time.Duration
	debug    bool
}

// addHostFlags adds --host, --ca-file, --allow-insecure-http and --timeout to fs.
func addHostFlags(fs *pflag.FlagSet, g *globalFlags) {
	fs.StringVar(&g.host, "host", "", "GitLab host URL (default: $GITLAB_HOST, $GITLAB_URI or $GL_HOST, else the git remote's GitLab, else the default host of errtrack config set host, else the last host used, else https://gitlab.com)")
	fs.StringVar(&g.caFile, "ca-file", "", "PEM file of extra CA certificates, for a self-managed GitLab with a private CA")
	fs.BoolVar(&g.insecure, "allow-insecure-http", false, "allow plain http:// to a non-loopback host (sends the token unencrypted)")
	fs.DurationVar(&g.timeout, "timeout", DefaultTimeout, "give up when the server has not finished within this long (time at a prompt does not count)")
	fs.BoolVar(&g.debug, "debug", false, "print every request and response, with headers, to stderr (the token shown as [redacted]); also ERRTRACK_DEBUG=api")
}

// deadline bounds one exchange with the server by --timeout. Retries and
// every page of a list share it; a byte-per-second server cannot stretch it.
func (a *app) deadline(ctx context.Context, g *globalFlags) (context.Context, context.CancelFunc) {
	a.timeout = g.timeout
	if g.timeout <= 0 {
		a.deadlineAt = time.Time{}
		return context.WithCancel(ctx)
	}
	a.deadlineAt = time.Now().Add(g.timeout)
	return context.WithTimeout(ctx, g.timeout)
}

// timeoutRanOut reports whether the bound --timeout set has ended.
func (a *app) timeoutRanOut() bool {
	return a.timeout > 0 && !a.deadlineAt.IsZero() && !time.Now().Before(a.deadlineAt)
}

// exchangeLimit is the most one exchange with a server may take: the
// client's default, or --timeout when that is longer, so one slow answer
// the command still waits for is not cut. A shorter --timeout ends the
// command first; none (0) keeps the default, so a hung connection is still
// cut (and a read retried).
func (a *app) exchangeLimit(timeout time.Duration) time.Duration {
	return max(cmp.Or(a.exchangeDefault, apiclient.DefaultTimeout), timeout)
}

// loadConfig reads the config file, warning on stderr when it was unreadable.
func (a *app) loadConfig() (*config.Config, string) {
	c, path, notice := a.loadConfigQuietly()
	if notice != "" {
		fmt.Fprintf(a.stderr, "errtrack: warning: %s\n", notice)
	}
	return c, path
}

// loadConfigQuietly returns the warning instead, for the console to show.
func (a *app) loadConfigQuietly() (*config.Config, string, string) {
	path := a.configPath
	if path == "" {
		p, err := config.DefaultPath(a.getenv("ERRTRACK_CONFIG_DIR"))
		if err != nil {
			return &config.Config{}, "", ""
		}
		path = p
	}
	c, err := config.Load(path)
	if err != nil {
		return c, path, err.Error()
	}
	return c, path, ""
}

// envHost is the host a variable names, and the variable.
func (a *app) envHost() (string, string) {
	for _, name := range hostEnvs {
		if v := strings.TrimSpace(a.getenv(name)); v != "" {
			return v, name
		}
	}
	// In a GitLab CI/CD job, the instance running it.
	if a.getenv("CI") == "true" {
		if v := strings.TrimSpace(a.getenv("CI_SERVER_URL")); v != "" {
			return v, "CI_SERVER_URL"
		}
	}
	return "", ""
}

// resolveHost picks --host, then GITLAB_HOST (or GITLAB_URI, GL_HOST), then
// the default host set, then the last host used, then gitlab.com.
func (a *app) resolveHost(flag string) (string, error) {
	raw := flag
	if raw == "" {
		raw, _ = a.envHost()
	}
	if raw == "" {
		c, _ := a.loadConfig()
		raw = cmp.Or(c.DefaultHost, c.LastHost) // the one set, else the last used
	}
	if raw == "" {
		raw = hosturl.Default
	}
	h, err := hosturl.Normalize(raw)
	if err != nil {
		return "", usageError{err: err}
	}
	a.lastHost = h
	return h, nil
}

// resolveProject reads --project and the host it is on. A project URL names
// its GitLab: with no --host or GITLAB_HOST its host is used (before the
// last host used), and a different --host or GITLAB_HOST is refused, naming
// both, rather than acting on a same-named project of another instance.
// A --host with a path (a GitLab under a relative URL root) must prefix the URL.
func (a *app) resolveProject(hostFlag, raw string) (apiclient.ProjectRef, string, error) {
	if !strings.Contains(raw, "://") {
		ref, err := apiclient.ParseProjectRef(raw)
		if err != nil {
			return ref, "", usageError{err: err}
		}
		host, err := a.resolveHost(hostFlag)
		return ref, host, err
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return apiclient.ProjectRef{}, "", usagef("%q is not a project URL", raw)
	}
	// The same rule as --host: "https://gitlab.example.com@evil/g/app" is
	// the host evil, and user info in a URL is refused.
	if u.User != nil {
		return apiclient.ProjectRef{}, "", usagef("--project: the URL holds user info before its host (%s is the host it names): give the project's URL without anything before the host", explain.Text(u.Host))
	}
	urlHost, err := hosturl.Normalize(u.Scheme + "://" + u.Host)
	if err != nil {
		return apiclient.ProjectRef{}, "", usageError{err: err}
	}
	given, from := hostFlag, "--host"
	if given == "" {
		given, from = a.envHost()
	}
	host, path := urlHost, u.EscapedPath()
	if given != "" {
		h, err := hosturl.Normalize(given)
		if err != nil {
			return apiclient.ProjectRef{}, "", usageError{err: err}
		}
		prefix := strings.TrimPrefix(h, urlHost)
		if !strings.HasPrefix(h, urlHost) || (prefix != "" && !strings.HasPrefix(path, prefix+"/")) {
			return apiclient.ProjectRef{}, "", usagef("--project names a project on %s, but %s is %s: give one host, or make them agree", urlHost, from, h)
		}
		host, path = h, strings.TrimPrefix(path, prefix)
	} else {
		a.hostFromURL = true
	}
	ref, err := apiclient.ParseProjectRef(urlHost + path)
	if err != nil {
		return ref, "", usageError{err: err}
	}
	a.lastHost = host
	return ref, host, nil
}

// resolveToken reads GITLAB_TOKEN (as read at start), else the keyring entry of host.
func (a *app) resolveToken(ctx context.Context, host string) (token, source string, err error) {
	if a.envToken != "" {
		return a.envToken, "environment (" + a.envTokenName + ")", nil
	}
	t, err := a.keyring.Get(ctx, host)
	if err != nil {
		return "", "", err
	}
	return t, sourceKeyring, nil
}

// clientOptions turns the flags into client options for host. Without
// --ca-file, the CA file that worked for host before is used.
func (a *app) clientOptions(g *globalFlags, host string) []apiclient.Option {
	opts := []apiclient.Option{apiclient.WithTimeout(a.exchangeLimit(g.timeout))}
	if g.debug || debugEnv(a.getenv("ERRTRACK_DEBUG")) {
		opts = append(opts, apiclient.WithObserver(a.debugExchange))
	}
	switch {
	case g.caFile != "":
		opts = append(opts, apiclient.WithCAFile(g.caFile))
		if abs, err := filepath.Abs(g.caFile); err == nil {
			a.caFileUsed = abs // remembered for host once a request worked
		}
	default:
		c, _, _ := a.loadConfigQuietly()
		ca := c.CAFiles[host]
		if ca == "" {
			break
		}
		if _, err := os.Stat(ca); err != nil {
			// A remembered CA that is gone (a mock server's, removed when it
			// stopped) is left out: the server may not need it any more,
			// and if it does, the TLS error says to pass --ca-file.
			if a.program.Load() == nil { // not under the console's screen
				fmt.Fprintf(a.stderr, "errtrack: warning: the CA file remembered for %s (%s) is gone; pass --ca-file again if the server needs one\n", host, explain.Text(ca))
			}
			break
		}
		opts = append(opts, apiclient.WithCAFile(ca))
	}
	if g.insecure {
		opts = append(opts, apiclient.WithInsecureHTTP())
	}
	// A long wait (a rate limit's reset) is said, so a command that pauses
	// is not taken for one that hangs. The console shows its own.
	opts = append(opts, apiclient.WithRetryNotify(func(e apiclient.RetryEvent) {
		if e.Wait >= 2*time.Second && a.program.Load() == nil && a.newPause(e.Wait) {
			why := "the server failed"
			if e.StatusCode == http.StatusTooManyRequests {
				why = "GitLab's rate limit was reached"
			}
			fmt.Fprintf(a.stderr, "errtrack: %s: waiting %s before going on\n", why, e.Wait.Round(time.Second))
		}
	}))
	return opts
}

// hostClient builds the client for the host the flags and environment
// name, for the commands that act on no project.
func (a *app) hostClient(ctx context.Context, g *globalFlags) (*apiclient.Client, string, error) {
	host, err := a.resolveHost(g.host)
	if err != nil {
		return nil, "", err
	}
	c, err := a.clientFor(ctx, g, host)
	return c, host, err
}

// clientFor builds an API client for host with its token.
func (a *app) clientFor(ctx context.Context, g *globalFlags, host string) (*apiclient.Client, error) {
	token, _, err := a.resolveToken(ctx, host)
	if err != nil {
		return nil, err
	}
	return apiclient.New(host, token, a.clientOptions(g, host)...)
}

// rememberHostQuietly is rememberHost saying nothing: the console's screen
// is not the place for a config warning.
func (a *app) rememberHostQuietly(host string) { _ = a.remember(host) }

// rememberHost records host as the last one used, after a request to it
// worked, with the --ca-file that made it work; failures only warn.
func (a *app) rememberHost(host string) {
	if err := a.remember(host); err != nil {
		fmt.Fprintf(a.stderr, "errtrack: warning: %v\n", err)
	}
}

func (a *app) remember(host string) error {
	// A host named only by a project URL does not become the one later
	// commands use with an environment token: that token was never given
	// for it.
	if a.hostFromURL && a.envToken != "" {
		return nil
	}
	c, path, notice := a.loadConfigQuietly()
	if notice != "" {
		// An unreadable config file (a FIFO, say) is left as it is.
		return errors.New(notice)
	}
	if path == "" || (c.LastHost == host && (a.caFileUsed == "" || c.CAFiles[host] == a.caFileUsed)) {
		return nil // nothing to change: no lock taken, nothing read again
	}
	// Under the file's lock: commands running at once each keep the
	// others' changes (their own --ca-file, say).
	return config.Update(path, func(c *config.Config) bool {
		if c.LastHost == host && (a.caFileUsed == "" || c.CAFiles[host] == a.caFileUsed) {
			return false
		}
		c.LastHost = host
		if a.caFileUsed != "" {
			if c.CAFiles == nil {
				c.CAFiles = map[string]string{}
			}
			c.CAFiles[host] = a.caFileUsed
		}
		return true
	})
}

// debugEnv reads ERRTRACK_DEBUG: "api", as documented, and the "1" or
// "true" people type.
func debugEnv(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "api", "1", "true", "yes":
		return true
	}
	return false
}

// newPause reports a wait that ends later than the one already said: the
// requests in flight when a rate limit hits all wait for the same reset,
// and it is said once.
func (a *app) newPause(wait time.Duration) bool {
	a.pauseMu.Lock()
	defer a.pauseMu.Unlock()
	until := time.Now().Add(wait)
	if until.Before(a.pausedUntil.Add(time.Second)) {
		return false
	}
	a.pausedUntil = until
	return true
}
