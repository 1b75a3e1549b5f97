package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/keyring"
)

const maxTokenLen = 4096

// authCheck is what the server says about a token.
type authCheck struct {
	user  *apiclient.User
	token *apiclient.TokenInfo // nil when the server cannot tell (OAuth token, old GitLab)
}

// checkToken asks the server who the token belongs to, and its scopes and expiry.
func checkToken(ctx context.Context, c *apiclient.Client) (*authCheck, error) {
	u, _, err := c.CurrentUser(ctx)
	if err != nil {
		return nil, err
	}
	ac := &authCheck{user: u}
	if ti, _, err := c.TokenInfo(ctx); err == nil {
		ac.token = ti
	}
	return ac, nil
}

// describe writes the user, scopes and expiry, with warnings.
func (ac *authCheck) describe(w io.Writer, now time.Time) {
	fmt.Fprintf(w, "  User:    %s (%s)\n", safetext.Clean(ac.user.Username), safetext.Clean(ac.user.Name))
	if ac.token == nil {
		fmt.Fprintln(w, "  Scopes:  unknown (the server does not describe this kind of token)")
		return
	}
	fmt.Fprintf(w, "  Scopes:  %s\n", safetext.Clean(strings.Join(ac.token.Scopes, ", ")))
	if exp, ok := ac.token.Expiry(); ok {
		days := int(exp.Sub(now.Truncate(24*time.Hour)).Hours() / 24)
		note := ""
		if days <= 7 {
			note = "  ← expires soon: create a new token and log in again"
		}
		fmt.Fprintf(w, "  Expires: %s (in %d days)%s\n", exp.Format(time.DateOnly), days, note)
	} else {
		fmt.Fprintln(w, "  Expires: never")
	}
	if !ac.token.HasScope("api") {
		fmt.Fprintln(w, "  Warning: this token lacks the api scope: it can read settings and keys but not change them.")
	}
}

func (a *app) loginCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:   "login [--host URL]",
		Short: "Check a GitLab access token and store it in the system keyring",
		Long: `Reads a personal access token (scope api) from standard input when it is not a
terminal, else asks for it with a hidden prompt. The token is checked with the
server first and stored in the system keyring only if the server accepts it.
The token is never taken as a command-line argument.`,
		Example: "  errtrack login --host https://gitlab.example.com\n  printenv MY_TOKEN | errtrack login --host gitlab.example.com",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			c, err := apiclient.New(host, token, g.clientOptions()...)
			if err != nil {
				return fmt.Errorf("the token was not stored: %s", explain.Error(err, explain.Context{Host: host, Login: "run 'errtrack login' again"}))
			}
			ac, err := checkToken(ctx, c)
			if err != nil {
				return fmt.Errorf("the token was not stored: %s", explain.Error(err, explain.Context{Host: host, Login: "run 'errtrack login' again", Retry: "run 'errtrack login' again"}))
			}
			if err := a.keyring.Set(ctx, host, token); err != nil {
				return fmt.Errorf("the token is valid but could not be stored: %w", err)
			}
			a.rememberHost(host)
			fmt.Fprintf(a.stdout, "Logged in to %s; the token is stored in the system keyring.\n", host)
			ac.describe(a.stdout, time.Now())
			if a.envToken != "" {
				fmt.Fprintln(a.stdout, "  Note: GITLAB_TOKEN is set and takes precedence over the keyring while it is.")
			}
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	return cmd
}

// readToken reads the token from piped stdin or a hidden prompt.
func (a *app) readToken(ctx context.Context, host string) (string, error) {
	var tok string
	if a.stdinIsTTY() {
		fmt.Fprintf(a.stderr, "Create a personal access token with the api scope at\n  %s/-/user_settings/personal_access_tokens\n", host)
		t, err := a.readSecret(ctx, "Token (input hidden): ")
		if err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("%w: nothing was stored", context.Cause(ctx))
			}
			return "", fmt.Errorf("reading the token: %w", err)
		}
		tok = t
	} else {
		b, err := io.ReadAll(io.LimitReader(a.stdin, maxTokenLen+1))
		if err != nil {
			return "", fmt.Errorf("reading the token from standard input: %w", err)
		}
		if len(b) > maxTokenLen {
			return "", usagef("standard input holds more than %d bytes: pipe just the token", maxTokenLen)
		}
		tok = string(b)
	}
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", usagef("no token given: pipe it on standard input or type it at the prompt")
	}
	if strings.ContainsAny(tok, " \t\r\n") {
		return "", usagef("the token contains spaces or several lines: pipe just the token")
	}
	return tok, nil
}

func (a *app) logoutCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:     "logout [--host URL]",
		Short:   "Remove the host's token from the system keyring",
		Example: "  errtrack logout --host https://gitlab.example.com",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
				fmt.Fprintln(a.stdout, "Note: GITLAB_TOKEN is still set in this environment.")
			}
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	return cmd
}

func (a *app) statusCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:     "status [--host URL]",
		Short:   "Show the host, the user, where the token comes from, its scopes and expiry",
		Example: "  errtrack status\n  errtrack auth status --host gitlab.example.com",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			host, err := a.resolveHost(g.host)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s\n", host)
			token, source, err := a.resolveToken(ctx, host)
			if err != nil {
				fmt.Fprintf(a.stdout, "  Not logged in: %s\n", a.explain(err, "run 'errtrack status' again"))
				return reported{err}
			}
			fmt.Fprintf(a.stdout, "  Token:   from the %s\n", source)
			c, err := apiclient.New(host, token, g.clientOptions()...)
			if err == nil {
				var ac *authCheck
				if ac, err = checkToken(ctx, c); err == nil {
					ac.describe(a.stdout, time.Now())
					return nil
				}
			}
			fmt.Fprintf(a.stdout, "  Problem: %s\n", a.explain(err, "run 'errtrack status' again"))
			return reported{err}
		},
	}
	addHostFlags(cmd.Flags(), g)
	return cmd
}

func (a *app) authCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "auth", Short: "Log in, log out and show the token status", Args: noArgs}
	cmd.AddCommand(a.loginCmd(), a.logoutCmd(), a.statusCmd())
	return cmd
}
