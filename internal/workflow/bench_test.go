package workflow

import (
	"context"
	"fmt"
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
	run("delete-confirm", func(c *apiclient.Client) error { _, err := PlanDeletion(ctx, c, apiclient.ProjectID(1), 1); return err })
	// The plan reads the project, its keys and its variables at once: the
	// variables add no round trip. plan, create, check, delete.
	run("rotate", func(c *apiclient.Client) error {
		_, err := NewRotation(apiclient.ProjectID(5), RotationOptions{Confirmed: true}).Advance(ctx, c, nil)
		return err
	})
	// keys rotate --ci-variable SENTRY_DSN --verify: the test event and the
	// update add one round trip each.
	run("rotate-variable-verify", func(c *apiclient.Client) error {
		r, err := NewRotation(apiclient.ProjectID(5), RotationOptions{Variable: "SENTRY_DSN", Verify: true, Confirmed: true}).Advance(ctx, c, nil)
		if err == nil && r.Next() != StepDone {
			err = fmt.Errorf("stopped at step %d", r.Next())
		}
		return err
	})
}
