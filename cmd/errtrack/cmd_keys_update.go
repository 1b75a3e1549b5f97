package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/safetext"
)

// keysUpdateCmd is `keys update`: a Sentry key's name, on/off and rate
// limit (GitLab's integrated keys have none of these).
func (a *app) keysUpdateCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var name, rate string
	var active bool
	cmd := &cobra.Command{
		Use:   "update --project P KEY [--name NAME] [--active=true|false] [--rate-limit COUNT/WINDOW|none]",
		Short: "Rename a Sentry key, turn it off or on, or set its rate limit",
		Long: `Changes a key of a Sentry-backed project's Sentry project: its name,
whether it is active (a disabled key's events are refused, and it can be
turned on again), and its rate limit (events per window of seconds, or none).
GitLab's integrated keys have none of these: only create and delete.`,
		Example:     "  errtrack keys update -p group/api 1a2b3c4d5e6f --name 'Production 2026'\n  errtrack keys update -p group/api 1a2b3c4d5e6f --active=false\n  errtrack keys update -p group/api 1a2b3c4d5e6f --rate-limit 1000/3600",
		Annotations: map[string]string{annotKeyArg: "yes"},
		Args:        oneKeyID,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, ref, err := parseKeyRef(args[0])
			if err != nil {
				return err
			}
			fl := cmd.Flags()
			o := sentry.UpdateKeyOptions{}
			if fl.Changed("name") {
				o.Name = &name
			}
			if fl.Changed("active") {
				o.Active = &active
			}
			if fl.Changed("rate-limit") {
				rl, clear, err := parseRateLimit(rate)
				if err != nil {
					return err
				}
				o.RateLimit, o.ClearRateLimit = rl, clear
			}
			if o.Name == nil && o.Active == nil && o.RateLimit == nil && !o.ClearRateLimit {
				return usagef("nothing to change: give --name, --active or --rate-limit")
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			pref, c, host, err := a.projectClient(ctx, g, &p)
			if err != nil {
				return err
			}
			store, err := keystore.StoreOf(ctx, c, pref, a.sentryResolver(g))
			if err != nil {
				return err
			}
			updater, ok := store.(keystore.Updater)
			if !ok {
				return reportedf(a, "%s reports to GitLab's integrated error tracking, whose keys have no name, switch or rate limit: only 'keys create' and 'keys delete' change them.", pref)
			}
			if ref == "" {
				return reportedf(a, "a Sentry key is named by its public key (see 'errtrack keys list -p %s')", pref)
			}
			k, err := updater.UpdateKey(ctx, ref, o)
			switch {
			case errors.Is(err, sentry.ErrKeyNotFound) || errors.Is(err, sentry.ErrNotFound):
				return reportedf(a, "the %s has no key %s: nothing was changed (see 'errtrack keys list -p %s')", store.Where(), ref, pref)
			case err != nil:
				return err
			}
			a.rememberHost(host)
			if g.jsonOut {
				return writeJSON(a.stdout, toSentryJSON(*k))
			}
			fmt.Fprintf(a.stdout, "Updated key %s: %s, %s, rate limit %s.\n", explain.Text(keystore.KeyName(*k)), map[bool]string{true: "active", false: "disabled (its events are refused)"}[k.Active], explain.Text(safetext.Clean(k.DSN)), keystore.RateLimitText(k.RateLimit))
			return nil
		},
	}
	p.add(cmd)
	fl := cmd.Flags()
	fl.StringVar(&name, "name", "", "the key's new name")
	fl.BoolVar(&active, "active", true, "turn the key on (true) or off (false)")
	fl.StringVar(&rate, "rate-limit", "", "events per window, COUNT/WINDOW: 1000/1h, 50/min, 1000/3600 in seconds, or none")
	return cmd
}
