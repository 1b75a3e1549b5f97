package main

import (
	"context"
	"sync"

	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A Sentry-backed project's keys are its Sentry project's: GitLab's count
// of its own client keys (which such a project does not use) would say 0
// keys of a project that has three. projects list counts them in Sentry,
// with the Sentry token of that host, or says the count is unknown.

// keyCount is the keys of a project as listed: the count, whether it is
// known, and where it was read ("sentry"; "" for GitLab's own count).
type keyCount struct {
	n      int
	known  bool
	source string
}

// sentryKeyCounts reads, a few at a time, the keys of every Sentry-backed
// project's Sentry project; nil for a project that is not Sentry-backed.
// Only with jsonOut: the table's summary does not count them.
func (a *app) sentryKeyCounts(ctx context.Context, g *globalFlags, overviews []audit.Overview) []*keyCount {
	out := make([]*keyCount, len(overviews))
	resolve := a.sentryResolver(g)
	sem := make(chan struct{}, overviewConcurrency)
	var wg sync.WaitGroup
	for i, o := range overviews {
		if o.Err != nil || !keystore.SentryBacked(o.Settings) {
			continue
		}
		out[i] = &keyCount{source: "sentry"}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			store, err := resolve(ctx, *o.Settings.APIURL)
			if err != nil {
				return // unknown: no token for that Sentry, or it did not answer
			}
			if keys, err := store.All(ctx); err == nil {
				out[i].n, out[i].known = len(keys), true
			}
		}()
	}
	wg.Wait()
	return out
}

// overviewConcurrency is how many projects are read at once.
const overviewConcurrency = 4
