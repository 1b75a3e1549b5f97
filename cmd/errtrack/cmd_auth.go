package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/tokens"
	"github.com/errtrack/errtrack/keyring"
)

// describeToken writes the server's release, the user, scopes and expiry,
// with warnings. stored: the token is the keyring's, which auth rotate can
// replace.
func describeToken(w io.Writer, st tokens.TokenStatus, now time.Time, stored bool, env string) {
	if st.Version != nil {
		fmt.Fprintf(w, "  GitLab:  %s\n", safetext.Clean(st.Version.Version))
	}
	fmt.Fprintf(w, "  User:    %s (%s)\n", safetext.Clean(st.User.Username), safetext.Clean(st.User.Name))
	if st.Token == nil {
		fmt.Fprintln(w, "  Scopes:  unknown (the server does not describe this kind of token)")
		return
	}
	fmt.Fprintf(w, "  Scopes:  %s\n", safetext.Clean(strings.Join(st.Token.Scopes, ", ")))
	if exp, ok := st.Token.Expiry(); ok {
		note := ""
		if advice := st.ExpiryAdvice(now, stored, env); advice != "" {
			note = "  ← " + advice
		}
		fmt.Fprintf(w, "  Expires: %s (%s)%s\n", exp.Format(time.DateOnly), st.Expiry(now), note)
	} else {
		fmt.Fprintln(w, "  Expires: never")
	}
	if st.ReadOnly() {
		fmt.Fprintln(w, "  Warning: this token lacks the api scope: it can read settings and keys but not change them.")
	}
}

// statusJSON is what `status --json` prints.
type statusJSON struct {
	Host      string   `json:"host"`
	Version   string   `json:"gitlab_version,omitempty"`
	Source    string   `json:"token_source"`
	LoggedIn  bool     `json:"logged_in"`
	User      string   `json:"user,omitempty"`
	Name      string   `json:"name,omitempty"`
	Scopes    []string `json:"scopes"`
	ExpiresAt *string  `json:"expires_at"`
	DaysLeft  *int     `json:"days_left"`
	ReadOnly  bool     `json:"read_only"`
	Error     string   `json:"error,omitempty"`
	// Sentry lists the Sentry hosts errtrack has a token for (never the
	// token): logged in with login --sentry, SENTRY_URL's, --sentry's.
	Sentry []sentryStatusJSON `json:"sentry,omitempty"`
}

func (a *app) loginCmd() *cobra.Command {
	g := &globalFlags{}
	sentryURL := ""
	cmd := &cobra.Command{
		Use:   "login [--host URL | --sentry URL]",
		Short: "Check a GitLab (or Sentry) access token and store it in the system keyring",
		Long: `Reads a personal access token (scope api) from standard input when it is not a
terminal, else asks for it with a hidden prompt. The token is checked with the
server first and stored in the system keyring only if the server accepts it.
The token is never taken as a command-line argument.

With --sentry URL it reads a Sentry auth token instead (scopes project:read and
project:write; project:admin to delete keys), checks it with that Sentry and
stores it for that Sentry host only: errtrack sends it to no other host.
SENTRY_AUTH_TOKEN, with SENTRY_URL (default https://sentry.io), is used for
SENTRY_URL's host without a login.`,
		Example: "  errtrack login --host https://gitlab.example.com\n  printenv MY_TOKEN | errtrack login --host gitlab.example.com\n  errtrack login --sentry https://sentry.example.com",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if sentryURL != "" {
				return a.sentryLogin(cmd, g, sentryURL)
			}
			host, err := a.resolveHost(g.host)
			if err != nil {
				return err
			}
			token, err := a.readToken(cmd.Context(), host)
			if err != nil {
				return err
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			words := explain.Context{Host: host, Login: "run 'errtrack login' again", Retry: "run 'errtrack login' again"}
			c, err := apiclient.New(host, token, a.clientOptions(g, host)...)
			if err != nil {
				return fmt.Errorf("the token was not stored: %s", explain.Error(err, words))
			}
			st, err := tokens.Login(ctx, c, a.keyring, host, token)
			var notStored *tokens.NotStoredError
			switch {
			case errors.As(err, &notStored):
				return fmt.Errorf("the server accepted the token, but it could not be stored: %s", explain.Error(notStored.Err, words))
			case err != nil:
				return fmt.Errorf("the token was not stored: %s", explain.Error(err, words))
			}
			a.rememberHost(host)
			fmt.Fprintf(a.stdout, "Logged in to %s; the token is stored in the system keyring.\n", host)
			describeToken(a.stdout, st, a.now(), a.envToken == "", a.envTokenName)
			if a.envToken != "" {
				fmt.Fprintf(a.stdout, "  Note: %s is set and takes precedence over the keyring while it is.\n", a.envTokenName)
			}
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	cmd.Flags().StringVar(&sentryURL, "sentry", "", "log in to this Sentry (a URL such as https://sentry.example.com) instead of GitLab")
	return cmd
}

func (a *app) logoutCmd() *cobra.Command {
	g := &globalFlags{}
	sentryURL := ""
	cmd := &cobra.Command{
		Use:     "logout [--host URL | --sentry URL]",
		Short:   "Remove the host's token (or a Sentry host's) from the system keyring",
		Example: "  errtrack logout --host https://gitlab.example.com\n  errtrack logout --sentry https://sentry.example.com",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if sentryURL != "" {
				return a.sentryLogout(cmd, sentryURL)
			}
			host, err := a.resolveHost(g.host)
			if err != nil {
				return err
			}
			err = a.keyring.Delete(cmd.Context(), host)
			switch {
			case errors.Is(err, keyring.ErrNotFound):
				fmt.Fprintf(a.stdout, "No token was stored for %s.\n", host)
			case err != nil:
				return err
			default:
				fmt.Fprintf(a.stdout, "Logged out of %s: its token is removed from the system keyring.\n", host)
			}
			if a.envToken != "" {
				fmt.Fprintf(a.stdout, "Note: %s is still set in this environment.\n", a.envTokenName)
			}
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	cmd.Flags().StringVar(&sentryURL, "sentry", "", "remove the token of this Sentry (a URL such as https://sentry.example.com) instead")
	return cmd
}

func (a *app) statusCmd() *cobra.Command {
	g := &globalFlags{}
	var sentryURLs []string
	cmd := &cobra.Command{
		Use:     "status [--host URL] [--json]",
		Short:   "Show the host, the user, where the token comes from, its scopes and expiry",
		Example: "  errtrack status\n  errtrack auth status --host gitlab.example.com --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			host, err := a.resolveHost(g.host)
			if err != nil {
				return err
			}
			out := statusJSON{Host: host, Scopes: []string{}}
			token, source, err := a.resolveToken(ctx, host)
			var st tokens.TokenStatus
			if err == nil {
				out.Source = source
				var c *apiclient.Client
				if c, err = apiclient.New(host, token, a.clientOptions(g, host)...); err == nil {
					st, err = tokens.CheckToken(ctx, c)
				}
			}
			// Sentry hosts with a token: whether one is there and where it
			// comes from; with --sentry, also what Sentry says of it.
			out.Sentry = a.sentryStatus(ctx, g, sentryURLs, len(sentryURLs) > 0)
			if g.jsonOut {
				return a.printStatusJSON(out, st, err)
			}
			defer printSentryStatus(a.stdout, out.Sentry)
			fmt.Fprintf(a.stdout, "%s\n", host)
			switch {
			case out.Source == "":
				fmt.Fprintf(a.stdout, "  Not logged in: %s\n", a.explain(err, "run 'errtrack status' again"))
				return reported{err}
			case err != nil:
				fmt.Fprintf(a.stdout, "  Token:   from the %s\n  Problem: %s\n", source, a.explain(err, "run 'errtrack status' again"))
				return reported{err}
			}
			a.rememberHost(host)
			fmt.Fprintf(a.stdout, "  Token:   from the %s\n", source)
			env := ""
			if source != sourceKeyring {
				env = a.envTokenName
			}
			describeToken(a.stdout, st, a.now(), source == sourceKeyring, env)
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	cmd.Flags().StringArrayVar(&sentryURLs, "sentry", nil, "also check the token of this Sentry (a URL); repeatable")
	cmd.Flags().BoolVar(&g.jsonOut, "json", false, "print the status as JSON")
	return cmd
}

// printStatusJSON prints status as one JSON document; a problem is reported
// in it (and on stderr) with exit status 1.
func (a *app) printStatusJSON(out statusJSON, st tokens.TokenStatus, err error) error {
	if err != nil {
		out.Error = a.explain(err, "run 'errtrack status' again")
		_ = writeJSON(a.stdout, out)
		fmt.Fprintf(a.stderr, "errtrack: %s\n", out.Error)
		return reported{err}
	}
	out.LoggedIn = true
	out.User, out.Name = st.User.Username, st.User.Name
	if st.Version != nil {
		out.Version = st.Version.Version
	}
	if st.Token != nil {
		out.Scopes = st.Token.Scopes
		out.ReadOnly = st.ReadOnly()
		if d, ok := st.DaysLeft(a.now()); ok {
			exp := st.Token.ExpiresAt
			out.ExpiresAt, out.DaysLeft = &exp, &d
		}
	}
	a.rememberHost(out.Host)
	return writeJSON(a.stdout, out)
}

func (a *app) authCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "auth", Short: "Log in, log out, show the token status and rotate the token", Args: noArgs,
		Example: "  errtrack auth login --host gitlab.example.com\n  errtrack auth status"}
	cmd.AddCommand(a.loginCmd(), a.logoutCmd(), a.statusCmd(), a.rotateTokenCmd(), a.permissionsCmd())
	return cmd
}
