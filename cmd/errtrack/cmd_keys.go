package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/safetext"
)

func (a *app) keysCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:     "keys",
		Short:   "List, create, delete, rotate and verify a project's client keys",
		Example: "  errtrack keys list --project group/web-shop\n  errtrack keys rotate --project group/web-shop",
		Args:    noArgs,
	}
	addHostFlags(cmd.PersistentFlags(), g)
	cmd.PersistentFlags().BoolVar(&g.jsonOut, "json", false, "print the API's JSON instead of a table")

	var listP projectFlag
	var listWeb bool
	list := &cobra.Command{
		Use:     "list --project P [--web]",
		Short:   "List the client keys",
		Example: "  errtrack keys list --project group/web-shop\n  errtrack keys list -p 42 --json | jq -r '.[].errtracker_dsn'",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			ref, c, host, err := a.projectClient(ctx, g, &listP)
			if err != nil {
				return err
			}
			if listWeb {
				return a.openProjectPage(ctx, c, host, ref)
			}
			store, keys, err := keystore.KeysOf(ctx, c, ref, a.sentryResolver(g))
			if err != nil {
				return err
			}
			a.rememberHost(host)
			return a.printStoreKeys(g, store, keys)
		},
	}
	listP.add(list)
	list.Flags().BoolVar(&listWeb, "web", false, "open the project's error tracking settings in GitLab instead")

	var createP projectFlag
	var createName, createRate string
	create := &cobra.Command{
		Use:     "create --project P [--name NAME] [--rate-limit COUNT/WINDOW]",
		Short:   "Create a client key",
		Long:    "Creates a client key: GitLab's, or, when the project's error tracking reports to a Sentry, a key of that Sentry project (which may have a name and a rate limit).",
		Example: "  errtrack keys create --project group/web-shop\n  errtrack keys create -p group/api --name 'Production 2026' --rate-limit 1000/3600",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var rl *sentry.RateLimit
			if cmd.Flags().Changed("rate-limit") {
				var err error
				if rl, _, err = parseRateLimit(createRate); err != nil {
					return err
				}
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			ref, c, host, err := a.projectClient(ctx, g, &createP)
			if err != nil {
				return err
			}
			store, err := keystore.StoreOf(ctx, c, ref, a.sentryResolver(g))
			if err != nil {
				return err
			}
			updater, named := store.(keystore.Updater)
			if !named && (createName != "" || rl != nil) {
				return reportedf(a, "%s's keys are GitLab's integrated keys, which have no name or rate limit: leave out --name and --rate-limit.", ref)
			}
			k, err := store.Create(ctx, createName)
			if err != nil {
				return a.createFailed(err, ref)
			}
			if rl != nil {
				// A failed change may answer no key: the one made is named.
				limited, err := updater.UpdateKey(ctx, k.PublicKey, sentry.UpdateKeyOptions{RateLimit: rl})
				if err != nil {
					return reportedf(a, "The key was created, but its rate limit was not set: %s Set it with 'errtrack keys update -p %s %s --rate-limit %s'.", a.explain(err, "run it again"), ref, k.PublicKey, createRate)
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
	createP.add(create)
	create.Flags().StringVar(&createName, "name", "", "the key's name (a Sentry project's keys)")
	create.Flags().StringVar(&createRate, "rate-limit", "", "events per window, COUNT/WINDOW: 1000/1h, 50/min, 1000/3600 in seconds (a Sentry project's keys)")

	var delP projectFlag
	var delYes bool
	del := &cobra.Command{
		Use:         "delete --project P KEY_ID",
		Short:       "Delete a client key (asks first)",
		Example:     "  errtrack keys delete --project group/web-shop 12\n  errtrack keys delete -p 42 12 --yes   # in a script",
		Annotations: map[string]string{annotKeyArg: "yes"},
		Args:        oneKeyID,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, kref, err := parseKeyRef(args[0])
			if err != nil {
				return err
			}
			if !delYes && !a.stdinIsTTY() {
				return usagef("refusing to delete without confirmation: standard input is not a terminal, so pass --yes")
			}
			ctx := cmd.Context()
			ref, c, host, err := a.projectClient(ctx, g, &delP)
			if err != nil {
				return err
			}
			// The key is looked up first, with the variables that hold its
			// DSN, so the question (or, with --yes, a warning) names them.
			lctx, cancel := a.deadline(ctx, g)
			var d rotation.Deletion
			store, err := a.keyStoreFor(lctx, g, c, ref, kref)
			if err == nil {
				d, err = rotation.PlanDeletionIn(lctx, c, ref, store, keyRefString(id, kref), delYes)
			}
			cancel()
			var ns *rotation.NoSuchKeyError
			switch {
			case errors.As(err, &ns):
				return fmt.Errorf("project %s has no client key %s: nothing was deleted (see 'errtrack keys list -p %s')", d.Project.Name(), keyRefString(id, kref), ref)
			case err != nil:
				return err
			}
			warning := d.Warning()
			if delYes {
				if warning != "" {
					fmt.Fprintf(a.stderr, "errtrack: warning: %s\n", explain.Text(warning))
				}
			} else {
				q := fmt.Sprintf("Delete client key %s of %s? Clients using its DSN will stop reporting.", rotation.KeyLabel(d.Key), d.Project.Name())
				if warning != "" {
					q += " " + warning
				}
				ok, err := a.confirm(ctx, explain.Text(q)+" [y/N] ")
				switch {
				case err != nil:
					return fmt.Errorf("%w: nothing was deleted", err)
				case !ok:
					fmt.Fprintln(a.stderr, "Nothing deleted.")
					return nil
				}
			}
			// The ledger only closes rotations the delete finishes: a
			// delete goes on without it, saying so.
			led, closeLedger, lerr := a.rotations(host, rotation.FrontEndCommand)
			if lerr != nil {
				fmt.Fprintf(a.stderr, "errtrack: warning: unfinished rotations of key %s, if any, stay open in the ledger: %s\n", keyRefString(id, kref), a.explain(lerr, "run the command again"))
			} else {
				defer closeLedger()
			}
			dctx, cancel := a.deadline(ctx, g)
			defer cancel()
			d, err = d.Run(dctx, c, led)
			switch {
			case d.Unknown:
				return reportedf(a, "%s %s", a.explain(err, "run the command again"), d.Outcome(fmt.Sprintf("check with 'errtrack keys list -p %s'", ref)))
			case err != nil:
				return err
			}
			a.rememberHost(host)
			if d.AlreadyGone {
				return reportedf(a, "%s", d.Outcome(""))
			}
			if g.jsonOut {
				return writeJSON(a.stdout, d.Key)
			}
			fmt.Fprintln(a.stdout, explain.Text(d.Outcome("")))
			return nil
		},
	}
	delP.add(del)
	del.Flags().BoolVarP(&delYes, "yes", "y", false, "delete without asking (needed when standard input is not a terminal)")

	cmd.AddCommand(list, create, del, a.keysUpdateCmd(g), a.rotateCmd(g), a.verifyCmd(g))
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

// keyStoreFor is where a key named by its public key (a Sentry key) is:
// the project's settings decide. A GitLab key's ID needs no read: it is
// GitLab's, and an integrated project's command stays at its round trips.
func (a *app) keyStoreFor(ctx context.Context, g *globalFlags, c *apiclient.Client, ref apiclient.ProjectRef, keyRef string) (keystore.KeyStore, error) {
	if keyRef == "" {
		return nil, nil
	}
	return keystore.StoreOf(ctx, c, ref, a.sentryResolver(g))
}

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
