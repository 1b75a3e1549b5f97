package main

// Reaching a Sentry: its token by host, the client's options, its key store.

import (
	"context"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
)

// sentryResolver gives the store of a Sentry project's keys from its
// api_url, with the token of that host (SENTRY_AUTH_TOKEN for SENTRY_URL,
// else the keyring).
func (a *app) sentryResolver(g *globalFlags) keystore.SentryResolver {
	return func(ctx context.Context, apiURL string) (keystore.KeyStore, error) {
		c, p, _, err := sentry.ClientFor(ctx, a.sentryTokens(), apiURL, a.sentryOptions(g)...)
		if err != nil {
			return nil, &sentryProblem{base: p.Base, err: err}
		}
		return keystore.SentryKeys(c, p), nil
	}
}

// sentryTokens is which Sentry token belongs to which host: SENTRY_AUTH_TOKEN
// for SENTRY_URL's host (as read at start), the keyring for the others.
func (a *app) sentryTokens() sentry.Tokens {
	t := sentry.Tokens{EnvToken: a.sentryEnvToken, EnvURL: a.sentryEnvURL}
	if a.sentryKeyring != nil {
		t.Store = a.sentryKeyring
	}
	return t
}

// sentryOptions are a Sentry client's options from the flags: the timeout,
// the CA file and --debug.
func (a *app) sentryOptions(g *globalFlags) []apiclient.Option {
	opts := []apiclient.Option{apiclient.WithTimeout(a.exchangeLimit(g.timeout))}
	if g.debug || debugEnv(a.getenv("ERRTRACK_DEBUG")) {
		opts = append(opts, apiclient.WithObserver(a.debugExchange))
	}
	if g.caFile != "" {
		opts = append(opts, apiclient.WithCAFile(g.caFile))
	}
	if g.insecure {
		opts = append(opts, apiclient.WithInsecureHTTP())
	}
	return opts
}
