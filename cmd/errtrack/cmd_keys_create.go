package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
)

// keysCreateCmd is `keys create`: a GitLab key, or a key of the project's
// Sentry project, which may have a name and a rate limit.
func (a *app) keysCreateCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var name, rate string
	cmd := &cobra.Command{
		Use:     "create --project P [--name NAME] [--rate-limit COUNT/WINDOW]",
		Short:   "Create a client key",
		Long:    "Creates a client key: GitLab's, or, when the project's error tracking reports to a Sentry, a key of that Sentry project (which may have a name and a rate limit).",
		Example: "  errtrack keys create --project group/web-shop\n  errtrack keys create -p group/api --name 'Production 2026' --rate-limit 1000/3600",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var rl *sentry.RateLimit
			if cmd.Flags().Changed("rate-limit") {
				var err error
				if rl, _, err = parseRateLimit(rate); err != nil {
					return err
				}
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			ref, c, host, err := a.projectClient(ctx, g, &p)
			if err != nil {
				return err
			}
			store, err := keystore.StoreOf(ctx, c, ref, a.sentryResolver(g))
			if err != nil {
				return err
			}
			updater, named := store.(keystore.Updater)
			if !named && (name != "" || rl != nil) {
				return reportedf(a, "%s's keys are GitLab's integrated keys, which have no name or rate limit: leave out --name and --rate-limit.", ref)
			}
			k, err := store.Create(ctx, name)
			if err != nil {
				return a.createFailed(err, ref)
			}
			if rl != nil {
				// A failed change may answer no key: the one made is named.
				limited, err := updater.UpdateKey(ctx, k.PublicKey, sentry.UpdateKeyOptions{RateLimit: rl})
				if err != nil {
					return reportedf(a, "The key was created, but its rate limit was not set: %s Set it with 'errtrack keys update -p %s %s --rate-limit %s'.", a.explain(err, "run it again"), ref, k.PublicKey, rate)
				}
				k = limited
			}
			a.rememberHost(host)
			if store.Backend() == keystore.BackendSentry {
				if g.jsonOut {
					return writeJSON(a.stdout, toSentryJSON(*k))
				}
				printSentryKeys(a.stdout, []apiclient.ClientKey{*k})
				return nil
			}
			a.keyCreated(host, ref, k.ID)
			if g.jsonOut {
				return writeJSON(a.stdout, k)
			}
			printKey(a.stdout, k)
			return nil
		},
	}
	p.add(cmd)
	cmd.Flags().StringVar(&name, "name", "", "the key's name (a Sentry project's keys)")
	cmd.Flags().StringVar(&rate, "rate-limit", "", "events per window, COUNT/WINDOW: 1000/1h, 50/min, 1000/3600 in seconds (a Sentry project's keys)")
	return cmd
}

// createFailed adds the one thing a user must know after a failed create:
// the key may exist anyway when the answer was lost.
func (a *app) createFailed(err error, ref apiclient.ProjectRef) error {
	if words, ok := rotation.CreateOutcomeUnknown(err, fmt.Sprintf("check with 'errtrack keys list -p %s'", ref)); ok {
		return reportedf(a, "%s %s", a.explain(err, "check"), words)
	}
	return err
}
