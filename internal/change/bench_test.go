package change

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/tokens"
)

// BenchmarkRoundTrips measures each workflow against a mock server with
// 200 ms of latency and reports round-trips/op: requests that do not depend
// on each other go out together, so status and login take 1, opening a
// delete 1, and a rotation 4 (plan, create, check, delete).
func BenchmarkRoundTrips(b *testing.B) {
	ctx := context.Background()
	run := func(name string, f func(c *apiclient.Client) error, scaleKeys ...int) {
		b.Run(name, func(b *testing.B) {
			opts := mockserver.Options{Latency: flowtest.Latency}
			if len(scaleKeys) > 0 {
				opts.ScaleKeys = scaleKeys[0]
			}
			_, c := flowtest.Mock(b, opts, mockserver.TokenMaintainer)
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if err := f(c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start))/float64(b.N)/float64(flowtest.Latency), "round-trips/op")
		})
	}
	run("status", func(c *apiclient.Client) error { _, err := tokens.CheckToken(ctx, c); return err })
	run("login", func(c *apiclient.Client) error {
		_, err := tokens.Login(ctx, c, flowtest.MemStore{}, "https://h", "t")
		return err
	})
	// The delete's question also names the groups' variables holding the
	// DSN: given by path (as the console and most commands do) they are
	// read with the rest; by ID, once the path is known.
	run("delete-confirm", func(c *apiclient.Client) error {
		_, err := rotation.PlanDeletionIn(ctx, c, apiclient.ProjectRef{Path: "demo/web-shop"}, nil, "1", false)
		return err
	})
	run("delete-confirm-by-id", func(c *apiclient.Client) error {
		_, err := rotation.PlanDeletionIn(ctx, c, apiclient.ProjectID(1), nil, "1", false)
		return err
	})
	// keys delete --yes: the look-up (project, key, variables, and by path
	// the groups' variables, at once), then the delete (by ID, with the
	// groups' variables): two round trips either way. Each run deletes a
	// key made before its clock starts.
	deleteYes := func(name string, ref apiclient.ProjectRef) {
		b.Run(name, func(b *testing.B) {
			_, c := flowtest.Mock(b, mockserver.Options{Latency: flowtest.Latency}, mockserver.TokenMaintainer)
			var spent time.Duration
			for i := 0; i < b.N; i++ {
				k, _, err := c.CreateClientKey(ctx, apiclient.ProjectID(1))
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				d, err := rotation.PlanDeletionIn(ctx, c, ref, nil, strconv.FormatInt(k.ID, 10), true)
				if err == nil {
					_, err = d.Run(ctx, c, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
				spent += time.Since(start)
			}
			b.ReportMetric(float64(spent)/float64(b.N)/float64(flowtest.Latency), "round-trips/op")
		})
	}
	deleteYes("delete-yes", apiclient.ProjectRef{Path: "demo/web-shop"})
	deleteYes("delete-yes-by-id", apiclient.ProjectID(1))
	// The plan reads the project, its keys and its variables at once: the
	// variables add no round trip. plan, create, check, delete.
	run("rotate", func(c *apiclient.Client) error {
		_, err := rotation.NewRotation(apiclient.ProjectID(5), rotation.RotationOptions{Confirmed: true}).Advance(ctx, c, nil)
		return err
	})
	// settings update -p 1 --active=false / --active=true: the write, the
	// project's path and (enabling) the keys at once.
	settings := func(active bool, keys NewKeyRead) func(c *apiclient.Client) error {
		return func(c *apiclient.Client) error {
			_, err := ChangeSettings(ctx, c, apiclient.ProjectID(1), keys, func(ctx context.Context) (*apiclient.Settings, error) {
				s, _, err := c.UpdateSettings(ctx, apiclient.ProjectID(1), active, nil)
				return s, err
			})
			return err
		}
	}
	run("settings-update", settings(false, KeysNotRead))
	run("settings-enable", settings(true, KeysAlongside))
	// keys rotate --ci-variable SENTRY_DSN --verify: the test event and the
	// update add one round trip each.
	run("rotate-variable-verify", func(c *apiclient.Client) error {
		r, err := rotation.NewRotation(apiclient.ProjectID(5), rotation.RotationOptions{Variable: "SENTRY_DSN", Verify: true, Confirmed: true}).Advance(ctx, c, nil)
		if err == nil && r.Next() != rotation.StepDone {
			err = fmt.Errorf("stopped at step %d", r.Next())
		}
		return err
	})
}

// BenchmarkRoundTrips10kKeys is BenchmarkRoundTrips on a project with
// 10,002 keys: the rotation's plan reads the list only up to the key (on
// its first page here), the check only the last page, and the delete's
// question only up to the key. Only the workflow is timed.
func BenchmarkRoundTrips10kKeys(b *testing.B) {
	ctx := context.Background()
	_, c := flowtest.Mock(b, mockserver.Options{Latency: flowtest.Latency, ScaleKeys: 10000}, mockserver.TokenMaintainer)
	p := apiclient.ProjectID(1)
	timed := func(name string, f func(old int64) error) {
		b.Run(name, func(b *testing.B) {
			var spent time.Duration
			for i := 0; i < b.N; i++ {
				first, _, err := c.FirstClientKeys(ctx, p) // a key on the first page, not the one SENTRY_DSN holds
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := f(first[1].ID); err != nil {
					b.Fatal(err)
				}
				spent += time.Since(start)
			}
			b.ReportMetric(float64(spent)/float64(b.N)/float64(flowtest.Latency), "round-trips/op")
		})
	}
	timed("rotate", func(old int64) error {
		r, err := rotation.NewRotation(p, rotation.RotationOptions{OldID: old, Confirmed: true}).Advance(ctx, c, nil)
		if err == nil && !r.Deleted {
			err = fmt.Errorf("stopped at step %d", r.Next())
		}
		return err
	})
	timed("delete-confirm", func(old int64) error {
		_, err := rotation.PlanDeletionIn(ctx, c, p, nil, strconv.FormatInt(old, 10), false)
		return err
	})
}

// BenchmarkGroupRotation20 rotates the key SENTRY_DSN holds in each of 20
// projects (mock fleet group) at 100 ms latency, fanout.GroupConcurrency projects
// at a time. Its floor: the plan reads the group and its projects at
// once, then each project's keys and variables at once and the group's
// variables once (1 + 1 + ⌈20/3⌉ = 9 round trips); each rotation takes 5
// (create, check, the variable's re-read, its update, delete), ⌈20/3⌉ = 7
// rounds of them: 35 round trips; 44 in all, 4.4 s.
func BenchmarkGroupRotation20(b *testing.B) {
	const lat = 100 * time.Millisecond
	ctx := context.Background()
	ref, _ := apiclient.ParseGroupRef("fleet")
	var plan, run time.Duration
	for i := 0; i < b.N; i++ {
		srv, c := flowtest.Mock(b, mockserver.Options{Latency: lat, ScaleGroup: 20}, mockserver.TokenMaintainer)
		start := time.Now()
		// --keep-variables: the fleet's group variable holds the first
		// app's old DSN, which errtrack leaves as it is.
		p, err := PlanGroup(ctx, c, ref, false, RotateChange{Variable: "SENTRY_DSN", KeepVariables: true})
		if err != nil || p.Acting() != 20 {
			b.Fatalf("%v: %d projects to rotate", err, p.Acting())
		}
		mid := time.Now()
		done := p.Run(ctx, runEnv(c), nil)
		run += time.Since(mid)
		plan += mid.Sub(start)
		if done.Failed() != 0 {
			b.Fatalf("%+v", done.Items)
		}
		for _, it := range done.Items {
			if it.Result != ResultChanged || srv.KeyCount(it.Project.ID) != 1 {
				b.Fatalf("%s: %s, %d keys", it.Project.Path, it.Result, srv.KeyCount(it.Project.ID))
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(plan)/n/float64(lat), "plan-round-trips/op")
	b.ReportMetric(float64(run)/n/float64(lat), "run-round-trips/op")
	b.ReportMetric((float64(plan+run))/n/1e9, "s/op")
}

// benchGroupRotation rotates the keys SENTRY_DSN holds in n projects of
// the mock's fleet at no latency, with the ledger in a state directory
// (or none), and returns the plan and run's time.
func benchGroupRotation(b *testing.B, n int, withLedger bool) time.Duration {
	b.Helper()
	_, c := flowtest.Mock(b, mockserver.Options{ScaleGroup: n}, mockserver.TokenMaintainer)
	ctx := context.Background()
	kind := RotateChange{Variable: "SENTRY_DSN", KeepVariables: true}
	if withLedger {
		store, err := ledger.OpenLedger(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		defer store.Close()
		kind.Ledger = rotation.NewRotations(store, flowtest.TestHost, rotation.FrontEndGroupCommand).WithUser("bench")
	}
	start := time.Now()
	p, err := PlanGroup(ctx, c, apiclient.GroupRef{Path: "fleet"}, false, kind)
	if err != nil || p.Acting() != n {
		b.Fatalf("%v: %d of %d to rotate", err, p.Acting(), n)
	}
	release, err := p.Begin("fleet")
	if err != nil {
		b.Fatal(err)
	}
	done := p.Run(ctx, runEnv(c), nil)
	if err := done.Finish(); err != nil {
		b.Fatal(err)
	}
	release()
	if done.Count(ResultChanged) != n {
		b.Fatalf("%d of %d changed", done.Count(ResultChanged), n)
	}
	return time.Since(start)
}

// BenchmarkGroupRotationLedgerShare rotates 1,000 and 2,000 projects at no
// latency, each with the ledger and without it in the same run: the
// ledger's share of the workflow's time (target: at most 10%). How the
// command's time grows with the projects, with every store it writes, is
// cmd/errtrack's BenchmarkGroupRotationScale.
func BenchmarkGroupRotationLedgerShare(b *testing.B) {
	var per [2]time.Duration
	for i, n := range []int{1000, 2000} {
		b.Run(fmt.Sprintf("projects=%d", n), func(b *testing.B) {
			var with, without time.Duration
			for i := range b.N {
				// Alternated, so neither order nor warming favours one.
				if i%2 == 0 {
					without += benchGroupRotation(b, n, false)
					with += benchGroupRotation(b, n, true)
				} else {
					with += benchGroupRotation(b, n, true)
					without += benchGroupRotation(b, n, false)
				}
			}
			per[i] = with / time.Duration(b.N)
			b.ReportMetric(per[i].Seconds(), "s/run")
			// The ledger's share: the difference with no ledger, the peer
			// run in the same benchmark.
			b.ReportMetric(100*float64(with-without)/float64(with), "%-vs-no-ledger")
		})
	}
	if per[0] > 0 && per[1] > 0 {
		b.Logf("2,000 projects take %.2fx the time of 1,000", float64(per[1])/float64(per[0]))
	}
}
