package peers

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// BenchmarkFleetRotationUnderRateLimit is `errtrack keys rotate --group`
// beside a script without its checks (cmd/scriptrotate: read the variable
// and the keys, create, write the variable, delete), each a whole process
// against its own mock with the group fleet of fleetProjects projects under
// a Rack::Attack limit of fleetLimit requests a minute, both started in the
// same second, the first of a clock minute: GitLab counts requests in
// minutes on the clock, so where a run starts in its minute moves its time
// by up to a minute. In the long run the time is the requests over the
// limit: requests/project says what each costs (errtrack's two more are
// the listing check after the create and the variable's re-read before it
// is written). Takes two to four minutes; run it alone:
//
//	cd internal/peers && go test -run '^$' -bench FleetRotation -benchtime 1x .
func BenchmarkFleetRotationUnderRateLimit(b *testing.B) {
	const fleetProjects, fleetLimit = 200, 600
	dir := b.TempDir()
	errtrack, script := filepath.Join(dir, "errtrack"), filepath.Join(dir, "scriptrotate")
	// errtrack from its own module (this one's go.sum leaves its
	// dependencies out), the script from this one.
	for bin, where := range map[string][2]string{errtrack: {"../..", "./cmd/errtrack"}, script: {".", "./cmd/scriptrotate"}} {
		build := exec.Command("go", "build", "-o", bin, where[1])
		build.Dir = where[0]
		if out, err := build.CombinedOutput(); err != nil {
			b.Fatalf("building %s: %v\n%s", where[1], err, out)
		}
	}
	for b.Loop() {
		type side struct {
			requests apiRequests
			url      string
			cmd      *exec.Cmd
			took     time.Duration
		}
		var errtrackSide, scriptSide side
		for _, s := range []*side{&errtrackSide, &scriptSide} {
			srv, err := mockserver.New(mockserver.Options{Seed: "demo", ScaleGroup: fleetProjects, RateLimit: fleetLimit, Log: &s.requests})
			if err != nil {
				b.Fatal(err)
			}
			run, err := srv.Start("127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = run.Close(context.Background()) })
			s.url = run.URL
		}
		home := b.TempDir()
		env := append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
			for _, p := range []string{"ERRTRACK_", "GITLAB_", "SENTRY_", "XDG_", "HOME=", "GL_"} {
				if strings.HasPrefix(kv, p) {
					return true
				}
			}
			return false
		}), "HOME="+home, "ERRTRACK_CONFIG_DIR="+filepath.Join(home, "config"), "ERRTRACK_STATE_DIR="+filepath.Join(home, "state"),
			"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GITLAB_TOKEN="+mockserver.TokenMaintainer)
		errtrackSide.cmd = exec.Command(errtrack, "keys", "rotate", "--group", "fleet", "--ci-variable", "SENTRY_DSN", "--yes", "--timeout", "30m", "--host", errtrackSide.url)
		errtrackSide.cmd.Env = env
		scriptSide.cmd = exec.Command(script, "-group", "fleet")
		scriptSide.cmd.Env = append(slices.Clone(env), "GITLAB_HOST="+scriptSide.url)
		time.Sleep(time.Until(time.Now().Truncate(time.Minute).Add(time.Minute)))
		var wg sync.WaitGroup
		for _, s := range []*side{&errtrackSide, &scriptSide} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				out, err := s.cmd.CombinedOutput()
				s.took = time.Since(start)
				// fleet/app-001's old DSN is also in a group variable:
				// errtrack leaves it (exit 1), the script does not look.
				if code := s.cmd.ProcessState.ExitCode(); err != nil && code != 1 {
					b.Errorf("%s: %v\n%s", s.cmd.Path, err, out)
				}
			}()
		}
		wg.Wait()
		perProject := func(s *side) float64 { return float64(s.requests.n.Load()) / fleetProjects }
		b.ReportMetric(errtrackSide.took.Seconds(), "s-errtrack")
		b.ReportMetric(scriptSide.took.Seconds(), "s-script")
		b.ReportMetric(perProject(&errtrackSide), "requests/project-errtrack")
		b.ReportMetric(perProject(&scriptSide), "requests/project-script")
		b.ReportMetric(perProject(&errtrackSide)/perProject(&scriptSide), "x-long-run")
	}
}

// apiRequests counts the mock's log lines of API requests (429s included:
// they count against the limit too).
type apiRequests struct{ n atomic.Int64 }

func (r *apiRequests) Write(p []byte) (int, error) {
	r.n.Add(int64(bytes.Count(p, []byte(" /api/v4/"))))
	return len(p), nil
}
