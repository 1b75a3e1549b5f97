package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// BenchmarkGroupRotationScale runs `keys rotate --group` as a user runs it,
// in process against the mock's fleet at no latency, with every store the
// command writes in a state directory and config of its own: the rotation
// ledger, keys-seen.json, the config's last host. (The project-path cache
// is the audit's; no group rotation writes it.) 1,000 and 2,000 projects in
// the same run: the time per project must not grow with the projects
// (target: 2,000 within 2.1 times 1,000).
func BenchmarkGroupRotationScale(b *testing.B) {
	per := map[int]time.Duration{}
	for _, n := range []int{1000, 2000} {
		b.Run(fmt.Sprintf("projects=%d", n), func(b *testing.B) {
			var total time.Duration
			for range b.N {
				total += benchGroupCommand(b, n)
			}
			per[n] = total / time.Duration(b.N)
			b.ReportMetric(per[n].Seconds(), "s/run")
			b.ReportMetric(float64(per[n].Microseconds())/float64(n), "µs/project")
		})
	}
	if per[1000] > 0 && per[2000] > 0 {
		b.Logf("2,000 projects take %.2fx the time of 1,000", float64(per[2000])/float64(per[1000]))
	}
}

// benchGroupCommand rotates the fleet's n projects with the command and
// checks every store was written; it returns the command's time.
func benchGroupCommand(b *testing.B, n int) time.Duration {
	b.StopTimer()
	srv, err := mockserver.New(mockserver.Options{ScaleGroup: n})
	if err != nil {
		b.Fatal(err)
	}
	c := newCLI(b, srv)
	c.server = srv
	state := c.env["ERRTRACK_STATE_DIR"]
	b.StartTimer()
	start := time.Now()
	r := c.run("", "keys", "rotate", "--group", "fleet", "--ci-variable", "SENTRY_DSN", "--keep-variables", "--yes")
	took := time.Since(start)
	b.StopTimer()
	if r.code != 0 {
		b.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var ages map[string]map[string]map[string]any
	raw, err := os.ReadFile(filepath.Join(state, "keys-seen.json"))
	if err != nil || json.Unmarshal(raw, &ages) != nil || len(ages[c.url]) != n {
		b.Fatalf("keys-seen.json holds %d projects, want %d: %v", len(ages[c.url]), n, err)
	}
	if _, err := os.Stat(filepath.Join(state, "rotations.jsonl")); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(c.cfg); err != nil {
		b.Fatalf("the config was not written: %v", err)
	}
	b.StartTimer()
	return took
}
