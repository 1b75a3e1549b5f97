package audit

import (
	"context"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// latency is the mock server's delay per request: elapsed time divided by it
// is the number of round trips the audit waits for.
const latency = 200 * time.Millisecond

// BenchmarkAuditRoundTrips measures the audit against a mock server with
// 200 ms of latency and reports round-trips/op, as the workflow's
// BenchmarkRoundTrips does for the changes.
func BenchmarkAuditRoundTrips(b *testing.B) {
	ctx := context.Background()
	run := func(name string, f func(c *apiclient.Client) error) {
		b.Run(name, func(b *testing.B) {
			_, c := flowtest.Mock(b, mockserver.Options{Latency: latency}, mockserver.TokenMaintainer)
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
	// audit -p demo/mobile/ios: project, settings, keys, variables and both
	// ancestor groups' variables at once.
	run("audit", func(c *apiclient.Client) error {
		ref, _ := apiclient.ParseProjectRef("demo/mobile/ios")
		_, err := auditProject(ctx, c, ref)
		return err
	})
	// audit -p 7 (demo/mobile/ios): with its path last seen (the command
	// remembers it), the groups go out with the rest; never seen, they
	// wait for the project's path.
	ios := apiclient.ProjectID(7)
	run("audit-by-id", func(c *apiclient.Client) error {
		_, err := AuditProjectWith(ctx, c, ios, AuditOptions{LastPath: "demo/mobile/ios"})
		return err
	})
	run("audit-by-id-first-time", func(c *apiclient.Client) error { _, err := auditProject(ctx, c, ios); return err })
}
