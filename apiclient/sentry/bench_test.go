package sentry

import (
	"context"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// BenchmarkRoundTrips is change.BenchmarkRoundTrips for Sentry's key API:
// elapsed time over the mock's latency is the round trips a call waits
// for. Listing a project's keys on one page takes 1; 250 keys, 3 pages of
// 100 (Sentry's cursors are sequential: a page names the next).
func BenchmarkRoundTrips(b *testing.B) {
	const latency = 200 * time.Millisecond
	ctx := context.Background()
	run := func(name string, scale int, f func(c *Client) error) {
		b.Run(name, func(b *testing.B) {
			_, c := mock(b, mocksentry.Options{Latency: latency, ScaleKeys: scale}, mocksentry.TokenAdmin)
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
	run("list-keys", 0, func(c *Client) error { _, err := c.ListKeys(ctx, legacy, AllKeys); return err })
	run("list-keys-250", 248, func(c *Client) error { _, err := c.ListKeys(ctx, legacy, AllKeys); return err })
	run("token", 0, func(c *Client) error { _, err := c.CheckToken(ctx); return err })
}
