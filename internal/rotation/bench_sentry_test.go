package rotation

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// BenchmarkSentryRoundTrips is BenchmarkRoundTrips for a Sentry-backed
// project, with the same latency at GitLab and at its Sentry. The floor of
// a listing is 2: GitLab's settings name the Sentry (GitLab's keys read
// with them, so an integrated project's listing stays 1), then the
// Sentry's keys. A soft rotation: the plan (GitLab's project, settings and
// variables at once, then the Sentry's keys) 2, the create 1, its listing
// 1, the variable's re-read and update 2, the test event 1, the old key
// turned off 1: 8.
func BenchmarkSentryRoundTrips(b *testing.B) {
	ctx := context.Background()
	world := func(b *testing.B) (*apiclient.Client, keystore.SentryResolver, *mocksentry.Server) {
		ss := mocksentry.New(mocksentry.Options{Latency: flowtest.Latency})
		ts := httptest.NewServer(ss)
		b.Cleanup(ts.Close)
		_, gl := flowtest.Mock(b, mockserver.Options{Latency: flowtest.Latency, SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
		sc, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
		if err != nil {
			b.Fatal(err)
		}
		return gl, func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
			p, err := sentry.ParseAPIURL(apiURL)
			return keystore.SentryKeys(sc, p), err
		}, ss
	}
	report := func(b *testing.B, spent time.Duration) {
		b.ReportMetric(float64(spent)/float64(b.N)/float64(flowtest.Latency), "round-trips/op")
	}
	b.Run("list", func(b *testing.B) {
		gl, resolve, _ := world(b)
		start := time.Now()
		for i := 0; i < b.N; i++ {
			if _, _, err := keystore.KeysOf(ctx, gl, apiclient.ProjectID(3), resolve); err != nil {
				b.Fatal(err)
			}
		}
		report(b, time.Since(start))
	})
	b.Run("rotate-soft", func(b *testing.B) {
		var spent time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			gl, resolve, ss := world(b)
			var old string
			for _, k := range ss.Keys("demo", "legacy-api") {
				if k.Label == "Production" {
					old = k.Public
				}
			}
			b.StartTimer()
			start := time.Now()
			o := RotationOptions{Resolve: resolve, OldRef: old, Variable: "SENTRY_DSN", UpdateVariables: true, Verify: true, Confirmed: true, Soft: true}
			if _, err := NewRotation(apiclient.ProjectID(3), o).Advance(ctx, gl, nil); err != nil {
				b.Fatal(err)
			}
			spent += time.Since(start)
		}
		report(b, spent)
	})
}
