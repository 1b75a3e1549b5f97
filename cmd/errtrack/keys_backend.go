package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/safetext"
)

// A project's keys are GitLab's, or, when its error tracking settings name
// a Sentry, that Sentry project's: the keys commands act on the keys where
// they are, with the Sentry token of that host only.

// parseKeyRef reads a KEY argument: a GitLab key's ID, or a Sentry key's
// public key (32 hex digits, or what a Sentry-compatible server uses).
func parseKeyRef(arg string) (int64, string, error) {
	if id, err := strconv.ParseInt(arg, 10, 64); err == nil && id > 0 {
		return id, "", nil
	}
	if keyRefPattern().MatchString(arg) {
		return 0, arg, nil
	}
	return 0, "", usagef("KEY %q is not a key: a GitLab key's ID, or a Sentry key's public key (see 'errtrack keys list')", explain.Text(arg))
}

var keyRefPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`) })

// keyRefString is the ref a store reads: the ID as text, or the public key.
func keyRefString(id int64, ref string) string {
	if ref != "" {
		return ref
	}
	return strconv.FormatInt(id, 10)
}

// sentryKeyJSON is a Sentry key in --json output: never its secret.
type sentryKeyJSON struct {
	Backend   string                  `json:"backend"`
	ID        string                  `json:"id"`
	Name      string                  `json:"name"`
	Active    bool                    `json:"active"`
	RateLimit *apiclient.KeyRateLimit `json:"rate_limit"`
	PublicKey string                  `json:"public_key"`
	DSN       string                  `json:"dsn"`
}

func toSentryJSON(k apiclient.ClientKey) sentryKeyJSON {
	return sentryKeyJSON{Backend: keystore.BackendSentry, ID: k.PublicKey, Name: k.Name, Active: k.Active, RateLimit: k.RateLimit, PublicKey: k.PublicKey, DSN: k.DSN}
}

// printStoreKeys prints keys as their store has them.
func (a *app) printStoreKeys(g *globalFlags, store keystore.KeyStore, keys []apiclient.ClientKey) error {
	if store.Backend() != keystore.BackendSentry {
		if g.jsonOut {
			if keys == nil {
				keys = []apiclient.ClientKey{}
			}
			return writeJSON(a.stdout, keys)
		}
		printKeys(a.stdout, keys)
		return nil
	}
	if g.jsonOut {
		out := make([]sentryKeyJSON, len(keys))
		for i, k := range keys {
			out[i] = toSentryJSON(k)
		}
		return writeJSON(a.stdout, out)
	}
	fmt.Fprintf(a.stderr, "Keys of the %s (the project's error tracking reports there).\n", explain.Text(store.Where()))
	printSentryKeys(a.stdout, keys)
	return nil
}

func printSentryKeys(w io.Writer, keys []apiclient.ClientKey) {
	if len(keys) == 0 {
		fmt.Fprintln(w, "No client keys. Create one with 'errtrack keys create --name NAME'.")
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "PUBLIC KEY\tNAME\tACTIVE\tRATE LIMIT\tDSN")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", safetext.Clean(k.PublicKey), safetext.Clean(k.Name), yesNo(k.Active), keystore.RateLimitText(k.RateLimit), safetext.Clean(k.DSN))
	}
	tw.Flush()
}

// parseRateLimit reads --rate-limit COUNT/WINDOW ("1000/1h", "50/min", "1000/3600"),
// or "none" to remove it (keystore.ParseRateLimit, as the console reads it).
func parseRateLimit(s string) (*sentry.RateLimit, bool, error) {
	rl, clear, err := keystore.ParseRateLimit(s)
	if err != nil {
		return nil, false, usagef("--rate-limit %s", err)
	}
	return rl, clear, nil
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
