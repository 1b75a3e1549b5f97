package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/config"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/keyring"
)

// sentryLogin checks a Sentry token and stores it for base.
func (a *app) sentryLogin(cmd *cobra.Command, g *globalFlags, raw string) error {
	base, err := sentry.NormalizeBase(raw)
	if err != nil {
		return usageError{err: err}
	}
	token, err := a.readSentryToken(cmd.Context(), base)
	if err != nil {
		return err
	}
	ctx, cancel := a.deadline(cmd.Context(), g)
	defer cancel()
	c, err := sentry.New(base, token, a.sentryOptions(g)...)
	if err != nil {
		return fmt.Errorf("the token was not stored: %s", sentryWords(err, base))
	}
	info, err := c.CheckToken(ctx)
	if err != nil {
		return fmt.Errorf("the token was not stored: %s", sentryWords(err, base))
	}
	if a.sentryKeyring == nil {
		return errors.New("the token was not stored: no system keyring here")
	}
	if err := a.sentryKeyring.Set(ctx, base, token); err != nil {
		return fmt.Errorf("the token was accepted by Sentry, but it could not be stored: %s", sentryWords(&sentry.TokenError{Base: base, Err: err}, base))
	}
	a.rememberSentryHost(base, true)
	fmt.Fprintf(a.stdout, "Logged in to Sentry at %s; the token is stored in the system keyring.\n", base)
	describeSentryToken(a.stdout, base, info)
	if a.sentryEnvToken != "" {
		if envBase, err := sentry.NormalizeBase(orDefault(a.sentryEnvURL, sentry.DefaultURL)); err == nil && envBase == base {
			fmt.Fprintln(a.stdout, "  Note: SENTRY_AUTH_TOKEN is set for this host and takes precedence over the keyring while it is.")
		}
	}
	return nil
}

func describeSentryToken(w io.Writer, base string, info *sentry.TokenInfo) {
	if info.User != "" {
		fmt.Fprintf(w, "  User:    %s\n", safetext.Clean(info.User))
	}
	switch {
	case info.Kind == sentry.OrgLimitedToken && len(info.Orgs) > 0:
		fmt.Fprintf(w, "  Limited to: organization %s (Sentry shows its scopes only on that organization's routes)\n", safetext.Clean(strings.Join(info.Orgs, ", ")))
		return
	case info.Kind == sentry.OrgLimitedToken:
		fmt.Fprintln(w, "  Limited to: one organization (Sentry shows its scopes only on that organization's routes)")
		return
	case info.Scopes == nil:
		fmt.Fprintln(w, "  Scopes:  unknown (Sentry did not describe this token)")
		return
	}
	fmt.Fprintf(w, "  Scopes:  %s\n", safetext.Clean(strings.Join(info.Scopes, ", ")))
	switch {
	case info.Kind == sentry.OrgToken && !info.CanReadKeys():
		fmt.Fprintln(w, "  Warning: an organization token cannot list a project's keys (they take project:read): create a personal auth token with project:read and project:write at "+audit.SentryTokenPage(base)+".")
	case !info.CanReadKeys():
		fmt.Fprintln(w, "  Warning: without project:read errtrack cannot list a project's keys.")
	case !info.CanWriteKeys():
		fmt.Fprintln(w, "  Warning: without project:write errtrack can list keys but not make or change them.")
	case !info.CanDeleteKeys():
		fmt.Fprintln(w, "  Note:    deleting a key takes project:admin, which this token lacks.")
	}
}

// readSentryToken reads a Sentry token from piped stdin or a hidden prompt,
// as login reads a GitLab token.
func (a *app) readSentryToken(ctx context.Context, base string) (string, error) {
	if a.stdinIsTTY() {
		fmt.Fprintf(a.stderr, "Create an auth token with the scopes project:read and project:write (project:admin to delete keys) at\n  %s/settings/account/api/auth-tokens/\n", base)
	}
	return a.readToken(ctx, "")
}

func (a *app) sentryLogout(cmd *cobra.Command, raw string) error {
	base, err := sentry.NormalizeBase(raw)
	if err != nil {
		return usageError{err: err}
	}
	if a.sentryKeyring == nil {
		return errors.New("no system keyring here")
	}
	err = a.sentryKeyring.Delete(cmd.Context(), base)
	switch {
	case errors.Is(err, keyring.ErrNotFound):
		fmt.Fprintf(a.stdout, "No Sentry token was stored for %s.\n", base)
	case err != nil:
		// The keyring's words, for the Sentry's token (not GitLab's).
		return reportedf(a, "%s", explain.Sentry(&sentry.TokenError{Base: base, Err: err}, base, explain.Context{}))
	default:
		fmt.Fprintf(a.stdout, "Logged out of Sentry at %s: its token is removed from the system keyring.\n", base)
	}
	a.rememberSentryHost(base, false)
	if a.sentryEnvToken != "" {
		fmt.Fprintln(a.stdout, "Note: SENTRY_AUTH_TOKEN is still set in this environment.")
	}
	return nil
}

// sentryStatusJSON is one Sentry host in `status --json`.
type sentryStatusJSON struct {
	URL    string   `json:"url"`
	Source string   `json:"token_source,omitempty"`
	Stored bool     `json:"token_stored"`
	Scopes []string `json:"scopes,omitempty"`
	// Kind is "organization" for an organization token (sntrys_),
	// "organization-limited" for a user token limited to LimitedTo.
	Kind      string   `json:"kind,omitempty"`
	LimitedTo []string `json:"limited_to,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// sentryStatus tells, for each Sentry host errtrack knows (logged in with
// login --sentry, SENTRY_URL's when SENTRY_AUTH_TOKEN is set, and those
// given), whether a token is there and where it comes from, never its
// value. check asks Sentry about each token.
func (a *app) sentryStatus(ctx context.Context, g *globalFlags, given []string, check bool) []sentryStatusJSON {
	var hosts []string
	add := func(raw string) {
		if b, err := sentry.NormalizeBase(raw); err == nil && !slices.Contains(hosts, b) {
			hosts = append(hosts, b)
		}
	}
	for _, h := range given {
		add(h)
	}
	if a.sentryEnvToken != "" {
		add(orDefault(a.sentryEnvURL, sentry.DefaultURL))
	}
	if c, _, _ := a.loadConfigQuietly(); c != nil {
		for _, h := range c.SentryHosts {
			add(h)
		}
	}
	tokens := a.sentryTokens()
	var out []sentryStatusJSON
	for _, base := range hosts {
		st := sentryStatusJSON{URL: base}
		token, source, err := tokens.For(ctx, base)
		if err != nil {
			st.Error = sentryWords(err, base)
			out = append(out, st)
			continue
		}
		st.Source, st.Stored = source, source == sentry.SourceKeyring
		if check {
			c, err := sentry.New(base, token, a.sentryOptions(g)...)
			var info *sentry.TokenInfo
			if err == nil {
				info, err = c.CheckToken(ctx)
			}
			if err != nil {
				st.Error = sentryWords(err, base)
			} else {
				st.Scopes = info.Scopes
				switch info.Kind {
				case sentry.OrgToken:
					st.Kind = "organization"
				case sentry.OrgLimitedToken:
					st.Kind, st.LimitedTo = "organization-limited", info.Orgs
				}
			}
		}
		out = append(out, st)
	}
	return out
}

func printSentryStatus(w io.Writer, list []sentryStatusJSON) {
	for _, st := range list {
		fmt.Fprintf(w, "Sentry %s\n", st.URL)
		if st.Source != "" {
			fmt.Fprintf(w, "  Token:   from the %s\n", st.Source)
		}
		switch {
		case st.Kind == "organization-limited":
			fmt.Fprintf(w, "  Limited: to %s (its scopes show only on that organization's routes)\n", safetext.Clean(orDefault(strings.Join(st.LimitedTo, ", "), "one organization")))
		case st.Kind == "organization":
			fmt.Fprintln(w, "  Kind:    organization token")
		}
		if st.Scopes != nil {
			fmt.Fprintf(w, "  Scopes:  %s\n", safetext.Clean(strings.Join(st.Scopes, ", ")))
		}
		if st.Error != "" {
			fmt.Fprintf(w, "  Problem: %s\n", st.Error)
		}
	}
}

// rememberSentryHost adds or removes base in the config's Sentry hosts.
func (a *app) rememberSentryHost(base string, add bool) {
	_, path, notice := a.loadConfigQuietly()
	if notice != "" || path == "" {
		return
	}
	_ = config.Update(path, func(c *config.Config) bool {
		i := slices.Index(c.SentryHosts, base)
		switch {
		case add && i < 0:
			c.SentryHosts = append(c.SentryHosts, base)
		case !add && i >= 0:
			c.SentryHosts = slices.Delete(c.SentryHosts, i, i+1)
		default:
			return false
		}
		return true
	})
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
