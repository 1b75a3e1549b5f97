package peers

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
)

// Sentry's own clients beside sentry-go: sentry-cli (npm @sentry/cli, the
// binary shipped in @sentry/cli-linux-x64), @sentry/node and Debian's
// python3-sentry-sdk send events to the mock Sentry through a key's DSN as
// to Sentry: an active key's event is taken at the path Relay routes
// (/api/ID/envelope/, or /api/ID/store/ for the older Python SDK) and
// counted; a disabled key's is refused and counted nowhere.

// syncBuffer is the mock's request log, written from its handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sentryPeer is the mock Sentry with a new key of demo/legacy-api.
type sentryPeer struct {
	srv *mocksentry.Server
	c   *sentry.Client
	p   sentry.Project
	key *sentry.Key
	log *syncBuffer
}

func newSentryPeer(t *testing.T) *sentryPeer {
	t.Helper()
	log := &syncBuffer{}
	srv := mocksentry.New(mocksentry.Options{Log: log})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := sentry.Project{Base: c.BaseURL(), Org: "demo", Slug: "legacy-api"}
	k, err := c.CreateKey(context.Background(), p, sentry.CreateKeyOptions{Name: "Peers"})
	if err != nil {
		t.Fatal(err)
	}
	return &sentryPeer{srv: srv, c: c, p: p, key: k, log: log}
}

func (sp *sentryPeer) disable(t *testing.T) {
	t.Helper()
	off := false
	if _, err := sp.c.UpdateKey(context.Background(), sp.p, sp.key.ID, sentry.UpdateKeyOptions{Active: &off}); err != nil {
		t.Fatal(err)
	}
}

// clientEnv is a client's environment: its own HOME, none of the caller's
// SENTRY_* (a DSN, a token or a config of the user's).
func clientEnv(t *testing.T, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SENTRY_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, append([]string{"HOME=" + t.TempDir()}, extra...)...)
}

// runClient runs a client and fails the test on a non-zero exit.
func runClient(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Dir = env, t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// nodeClient finds an npm client installed in internal/peers/node (.ci/run
// runs npm ci there): a missing one fails in CI, and is skipped, loudly,
// elsewhere.
func nodeClient(t *testing.T, rel string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("node", rel))
	if err == nil {
		_, err = os.Stat(path)
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		msg := fmt.Sprintf("%s is not installed (%v): run npm ci --ignore-scripts in internal/peers/node", rel, err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// mustIngest checks the key's events and that each went where Relay
// routes them.
func (sp *sentryPeer) mustIngest(t *testing.T, client string, want int, path string) {
	t.Helper()
	if n := sp.srv.Events(sp.key.ID); n != want {
		t.Fatalf("%s: %d events accepted, want %d\n%s", client, n, want, sp.log.String())
	}
	if !strings.Contains(sp.log.String(), "POST "+path+" 200") {
		t.Fatalf("%s did not post to %s:\n%s", client, path, sp.log.String())
	}
}

func TestSentryCLISendsToMockSentry(t *testing.T) {
	cli := nodeClient(t, "node_modules/.bin/sentry-cli")
	sp := newSentryPeer(t)
	env := clientEnv(t, "SENTRY_DSN="+sp.key.DSN, "SENTRY_LOAD_DOTENV=0", "SENTRY_DISABLE_UPDATE_CHECK=true")
	runClient(t, env, cli, "send-event", "-m", "errtrack peer test (sentry-cli)")
	sp.mustIngest(t, "sentry-cli", 1, "/api/2/envelope/")
	// sentry-cli says what Relay answered a disabled key, and fails.
	sp.disable(t)
	cmd := exec.Command(cli, "send-event", "-m", "after disable")
	cmd.Env, cmd.Dir = env, t.TempDir()
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "event submission rejected with_reason: ProjectId (http status: 403)") || sp.srv.Events(sp.key.ID) != 1 {
		t.Fatalf("a disabled key's event: %v, %d accepted\n%s", err, sp.srv.Events(sp.key.ID), out)
	}
}

func TestSentryNodeSDKSendsToMockSentry(t *testing.T) {
	nodeClient(t, "node_modules/@sentry/node/package.json")
	script, _ := filepath.Abs("node/send_event.mjs")
	sp := newSentryPeer(t)
	runClient(t, clientEnv(t), "node", script, sp.key.DSN)
	sp.mustIngest(t, "@sentry/node", 1, "/api/2/envelope/")
	sp.disable(t)
	runClient(t, clientEnv(t), "node", script, sp.key.DSN)
	if n := sp.srv.Events(sp.key.ID); n != 1 || !strings.Contains(sp.log.String(), "POST /api/2/envelope/ 403") {
		t.Fatalf("a disabled key's event: %d accepted\n%s", n, sp.log.String())
	}
}

func TestPythonSentrySDKSendsToMockSentry(t *testing.T) {
	// Debian's python3-sentry-sdk lives with the system's interpreter.
	py := tool(t, "/usr/bin/python3", "python3-sentry-sdk", "-c", "import sentry_sdk")
	script, _ := filepath.Abs("testdata/send_event.py")
	sp := newSentryPeer(t)
	runClient(t, clientEnv(t), py, script, sp.key.DSN)
	sp.mustIngest(t, "python3-sentry-sdk", 1, "/api/2/store/")
	sp.disable(t)
	runClient(t, clientEnv(t), py, script, sp.key.DSN)
	if n := sp.srv.Events(sp.key.ID); n != 1 || !strings.Contains(sp.log.String(), "POST /api/2/store/ 403") {
		t.Fatalf("a disabled key's event: %d accepted\n%s", n, sp.log.String())
	}
}
