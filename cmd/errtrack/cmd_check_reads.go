package main

import (
	"context"
	"errors"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/testevent"
)

// check's reads beyond the audit's own: what a Sentry's keys failed
// with; the test events of the test-event rule; the console's policy.

// sentryWatch keeps what reading a project's Sentry keys failed with: the
// audit words it as a finding, check needs the error (a token: exit 4).
type sentryWatch struct {
	mu  sync.Mutex
	err error
}

func (w *sentryWatch) set(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.err = err
}

func (w *sentryWatch) get() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// resolver is base whose failures (and its stores' listings') w keeps.
func (w *sentryWatch) resolver(base keystore.SentryResolver) keystore.SentryResolver {
	return func(ctx context.Context, apiURL string) (keystore.KeyStore, error) {
		st, err := base(ctx, apiURL)
		if err != nil {
			w.set(err)
			return nil, err
		}
		return watchedStore{KeyStore: st, w: w}, nil
	}
}

type watchedStore struct {
	keystore.KeyStore
	w *sentryWatch
}

func (s watchedStore) All(ctx context.Context) ([]apiclient.ClientKey, error) {
	keys, err := s.KeyStore.All(ctx)
	if err != nil {
		s.w.set(err)
	}
	return keys, err
}

// sendTestEvents sends one test event through each key in use (the
// test-event rule, opt-in): a key's clients' events are taken, or not.
func sendTestEvents(ctx context.Context, c *apiclient.Client, au audit.Audit) map[string]check.TestEvent {
	out := map[string]check.TestEvent{}
	for _, k := range check.InUse(au) {
		res, err := testevent.Send(ctx, c, au.Project, k)
		var refused *testevent.RefusedError
		te := check.TestEvent{Err: err}
		if res != nil && (err == nil || errors.As(err, &refused)) {
			te = check.TestEvent{Accepted: res.Accepted, Status: res.StatusCode}
		}
		out[keystore.KeyRef(k)] = te
	}
	return out
}
