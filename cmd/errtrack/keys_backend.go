package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

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
