package workflow

import (
	"context"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// latency is the mock server's delay per request: elapsed time divided by it
// is the number of round trips a workflow waits for.
const latency = 200 * time.Millisecond

// BenchmarkRoundTrips measures each workflow against a mock server with
// 200 ms of latency and reports round-trips/op: requests that do not depend
// on each other go out together, so status and login take 1, opening a
// delete 1, and a rotation 4 (plan, create, check, delete).
func BenchmarkRoundTrips(b *testing.B) {
	ctx := context.Background()
	run := func(name string, f func(c *apiclient.Client) error) {
		b.Run(name, func(b *testing.B) {
			_, c := mock(b, mockserver.Options{Latency: latency}, mockserver.TokenMaintainer)
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if err := f(c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start))/float64(b.N)/float64(latency), "round-trips/op")
		})
	}
	run("status", func(c *apiclient.Client) error { _, err := CheckToken(ctx, c); return err })
	run("login", func(c *apiclient.Client) error { _, err := Login(ctx, c, memStore{}, "https://h", "t"); return err })
	run("delete-confirm", func(c *apiclient.Client) error { _, _, err := ProjectKeys(ctx, c, apiclient.ProjectID(1)); return err })
	run("rotate", func(c *apiclient.Client) error {
		r, err := PlanRotation(ctx, c, apiclient.ProjectID(5), 0)
		if err == nil {
			r, err = r.Create(ctx, c)
		}
		if err == nil {
			r, err = r.Check(ctx, c)
		}
		if err == nil {
			_, err = r.DeleteOld(ctx, c)
		}
		return err
	})
	// keys rotate --ci-variable SENTRY_DSN --verify: the variable is looked
	// up with the plan; the test event and the update add one round trip each.
	run("rotate-variable-verify", func(c *apiclient.Client) error {
		r, err := PlanRotationWithVariable(ctx, c, apiclient.ProjectID(5), 0, "SENTRY_DSN", "")
		for _, step := range []func() (Rotation, error){
			func() (Rotation, error) { return r.Create(ctx, c) },
			func() (Rotation, error) { return r.Check(ctx, c) },
			func() (Rotation, error) { return r.Verify(ctx, c) },
			func() (Rotation, error) { return r.UpdateVariables(ctx, c) },
			func() (Rotation, error) { return r.DeleteOld(ctx, c) },
		} {
			if err != nil {
				return err
			}
			r, err = step()
		}
		return err
	})
}
