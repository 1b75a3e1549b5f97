package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/tokens"
)

func (a *app) rotateTokenCmd() *cobra.Command {
	g := &globalFlags{}
	lifetime := fmt.Sprintf("%dd", tokens.DefaultTokenDays)
	var yes bool
	cmd := &cobra.Command{
		Use:   "rotate [--host URL] [--expires-in 30d]",
		Short: "Replace the stored access token with a new one (GitLab 16.10+)",
		Long: `Rotates the personal access token stored in the system keyring: GitLab issues a
new token with the same scopes and revokes the old one at once. The new token
is stored in the keyring before anything else and is never printed.

--expires-in sets the new token's lifetime (GitLab's own default is a week;
errtrack asks for 30 days unless told otherwise, at most 365). A rotation is
never retried: GitLab revokes the new token too if the old one is used again.

It asks first, saying what is left of the current token against the new
one's lifetime; --yes skips the question (needed without a terminal).

A token from GITLAB_TOKEN (or GITLAB_ACCESS_TOKEN) is not rotated: the
variable would still hold the revoked token.`,
		Example: "  errtrack auth rotate\n  errtrack auth rotate --host gitlab.example.com --expires-in 90d --yes",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			days, err := tokens.ParseLifetime(lifetime)
			if err != nil {
				return usagef("--expires-in %q: %v", explain.Text(lifetime), err)
			}
			if a.envToken != "" {
				return usagef("the token comes from %s, which would still hold the revoked token after a rotation: rotate it in GitLab (User settings > Access tokens > Rotate) and set %s to the new one, or unset %s to rotate the keyring's token", a.envTokenName, a.envTokenName, a.envTokenName)
			}
			if !yes && !a.stdinIsTTY() {
				return usagef("refusing to rotate the token without confirmation: standard input is not a terminal, so pass --yes")
			}
			host, err := a.resolveHost(g.host)
			if err != nil {
				return err
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			a.lastHost = host
			token, _, err := a.resolveToken(ctx, host)
			if err != nil {
				return reportedf(a, "no token to rotate: %s", a.explain(err, "run 'errtrack auth rotate' again"))
			}
			c, err := apiclient.New(host, token, a.clientOptions(g, host)...)
			if err != nil {
				return err
			}
			if !yes {
				st, err := tokens.CheckToken(ctx, c)
				if err != nil {
					return reportedf(a, "the token was not rotated: %s", a.explain(err, "run 'errtrack auth rotate' again"))
				}
				for _, l := range tokens.RotateTokenQuestion(st, days, "the "+sourceKeyring, a.now()) {
					fmt.Fprintln(a.stderr, l)
				}
				ok, err := a.confirm(ctx, fmt.Sprintf("Rotate the token of @%s on %s? [y/N] ", explain.Text(st.User.Username), host))
				switch {
				case err != nil:
					return fmt.Errorf("%w: the token was not rotated", err)
				case !ok:
					fmt.Fprintln(a.stderr, "The token was not rotated.")
					return nil
				}
			}
			t, err := tokens.RotateToken(ctx, c, a.keyring, host, token, days, a.now())
			if err != nil {
				return reportedf(a, "%s", tokens.RotateTokenFailure(err, func(err error) string {
					return a.explain(err, "run 'errtrack auth rotate' again")
				}, "check with 'errtrack status'", "run 'errtrack login'"))
			}
			a.rememberHost(host)
			fmt.Fprintln(a.stdout, tokens.RotatedText(host, "the "+sourceKeyring, t, a.now()))
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "rotate without asking (needed when standard input is not a terminal)")
	cmd.Flags().StringVar(&lifetime, "expires-in", lifetime, "lifetime of the new token: days or weeks, e.g. 30d or 4w (at most 365d)")
	return cmd
}
