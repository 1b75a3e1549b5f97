//go:build unix

package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// ctrlCReader stands for a user at a prompt who presses Ctrl+C: the first
// read delivers SIGINT to the app, as the terminal would, and then blocks
// like a terminal nobody types into.
type ctrlCReader struct {
	signals chan os.Signal
	sent    atomic.Bool
	block   chan struct{}
}

func newCtrlC(c *cli) *ctrlCReader {
	c.signals = make(chan os.Signal, 2)
	r := &ctrlCReader{signals: c.signals, block: make(chan struct{})}
	c.t.Cleanup(func() { close(r.block) })
	return r
}

func (r *ctrlCReader) Read([]byte) (int, error) {
	if !r.sent.Swap(true) {
		r.signals <- syscall.SIGINT
	}
	<-r.block
	return 0, io.EOF
}

func TestCtrlCAtDeletePromptEndsAtOnce(t *testing.T) {
	c := newCLI(t, nil)
	c.tty = true
	c.stdin = newCtrlC(c)
	r := timed(t, 3*time.Second, func() result { return c.run("", "keys", "delete", "-p", "1", "2") })
	r.must(t, 130, "Delete client key 2", "Interrupted: nothing was deleted")
	if c.server.KeyCount(1) != 2 {
		t.Fatal("a key was deleted")
	}
}

// After rotate created the new key, an interrupted question must not claim
// that nothing changed: both keys exist, and the new DSN is printed.
func TestCtrlCAtRotatePromptTellsTheTruth(t *testing.T) {
	c := newCLI(t, nil)
	c.tty = true
	c.stdin = newCtrlC(c)
	r := timed(t, 3*time.Second, func() result { return c.run("", "keys", "rotate", "-p", "5") })
	r.must(t, 130, "Created client key 4", "Both keys exist", "old key 3 (glet_", "errtrack keys delete -p 5 3")
	if strings.Contains(r.stdout+r.stderr, "nothing was changed") {
		t.Fatalf("claims nothing changed:\n%s", r.stderr)
	}
	keys := c.server.Keys(5)
	if len(keys) != 2 || !strings.Contains(r.stdout, keys[1].PublicKey) {
		t.Fatalf("keys %v; stdout %q", keys, r.stdout)
	}
}

func TestEndOfInputAtRotatePrompt(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.tty = true
	r := c.run("", "keys", "rotate", "-p", "5")
	r.must(t, 1, "no answer was read", "Both keys exist")
	if strings.Contains(r.stdout+r.stderr, "nothing was changed") {
		t.Fatalf("claims nothing changed:\n%s", r.stderr)
	}
}

// A server that never answers, then Ctrl+C: the command ends at once, and a
// create says it may have happened.
func TestSignalDuringRequest(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/error_tracking/settings") {
			// Integrated (no Sentry): the create is what hangs.
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"active":true,"integrated":true,"api_url":null,"project_name":null,"sentry_external_url":null}`))
			return
		}
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	for _, args := range [][]string{{"keys", "list", "-p", "1"}, {"keys", "create", "-p", "1"}} {
		c.signals = make(chan os.Signal, 2)
		go func(ch chan os.Signal) { time.Sleep(200 * time.Millisecond); ch <- syscall.SIGTERM }(c.signals)
		r := timed(t, 3*time.Second, func() result { return c.run("", args...) })
		r.must(t, 143)
		if strings.Contains(r.stderr, "network") || !strings.Contains(strings.ToLower(r.stderr), "interrupted") {
			t.Fatalf("an interruption worded as something else:\n%s", r.stderr)
		}
		if args[1] == "create" && !strings.Contains(r.stderr, "may or may not have been created") {
			t.Fatalf("create interrupted in flight:\n%s", r.stderr)
		}
	}
}

func TestRotateOldValidatedBeforeAnything(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		srv.ServeHTTP(w, r)
	}))
	for _, old := range []string{"0", "-3"} {
		c.run("", "keys", "rotate", "-p", "5", "--old", old, "--yes").must(t, 2, "--old takes the key to replace")
	}
	c.run("", "keys", "rotate", "-p", "5", "--old", "99", "--yes").must(t, 1, "no client key 99", "nothing was changed")
	if n := posts.Load(); n != 0 {
		t.Fatalf("%d keys created by rotations that were refused", n)
	}
}

// --timeout bounds the whole command: a server that sends a byte a second
// cannot keep `keys list` busy past it.
func TestTimeoutBoundsTheCommand(t *testing.T) {
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("["))
		for r.Context().Err() == nil {
			w.(http.Flusher).Flush()
			time.Sleep(100 * time.Millisecond)
			w.Write([]byte(" "))
		}
	}))
	start := time.Now()
	r := timed(t, 10*time.Second, func() result { return c.run("", "keys", "list", "-p", "1", "--timeout", "1s") })
	r.must(t, 1, "did not answer in time", "--timeout")
	if d := time.Since(start); d > 4*time.Second {
		t.Fatalf("took %v with --timeout 1s", d)
	}
}

// GITLAB_TOKEN is read once and removed from the process environment, so
// no child process (a keyring helper, a clipboard tool) inherits it.
func TestTokenRemovedFromEnvironment(t *testing.T) {
	srv, _ := mockserver.New(mockserver.Options{})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("GITLAB_TOKEN", mockserver.TokenMaintainer)
	a := newApp()
	var out strings.Builder
	a.stdout, a.stderr = &out, &out
	a.configPath = t.TempDir() + "/config.json"
	a.signals = make(chan os.Signal, 1)
	if code := a.run([]string{"keys", "list", "-p", "1", "--host", ts.URL}); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if _, ok := os.LookupEnv("GITLAB_TOKEN"); ok {
		t.Fatal("GITLAB_TOKEN is still in the environment")
	}
}

// A same-host redirect turns a PATCH into a GET; errtrack used to print the
// settings it read back and exit 0 though nothing was written.
func TestRedirectedWriteIsAFailure(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && !strings.HasPrefix(r.URL.Path, "/moved") {
			http.Redirect(w, r, "/moved"+r.URL.Path, http.StatusFound)
			return
		}
		r.URL.Path = strings.TrimPrefix(r.URL.Path, "/moved")
		r.URL.RawPath = strings.TrimPrefix(r.URL.RawPath, "/moved")
		srv.ServeHTTP(w, r)
	}))
	c.run("", "settings", "disable", "-p", "1").must(t, 1, "redirect", "not re-sent")
	c.run("", "keys", "delete", "-p", "1", "1", "--yes").must(t, 1, "redirect", "not re-sent")
	c.run("", "keys", "create", "-p", "1").must(t, 1, "redirect", "not re-sent")
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        yes")
	if n := srv.KeyCount(1); n != 2 {
		t.Fatalf("%d keys: a redirected write was applied", n)
	}
}

// The first DELETE is applied and the connection drops; the retry finds the
// key gone. That is a delete done, and said so.
func TestRetriedDeleteReportedDone(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	var deletes atomic.Int32
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && deletes.Add(1) == 1 {
			srv.ServeHTTP(httptest.NewRecorder(), r) // applied...
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close() // ...and the answer lost
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.run("", "keys", "delete", "-p", "1", "2", "--yes").must(t, 0, "Deleted client key 2", "no longer has it")
	if srv.KeyCount(1) != 1 {
		t.Fatal("key not deleted")
	}
}

// Text the network controls (a certificate's names) reaches stderr and
// status's stdout only cleaned.
func TestHostileTransportTextCleaned(t *testing.T) {
	t.Parallel()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "x"},
		DNSNames:  []string{"evil\x1b]0;owned\x07\x1b]52;c;eA==\x07\x1b[2J.example"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, _ := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	ts.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	ts.Config.ErrorLog = quietLog()
	ts.StartTLS()
	defer ts.Close()
	c := newCLI(t, nil)
	c.env["GITLAB_HOST"] = ts.URL
	for _, args := range [][]string{{"status"}, {"keys", "list", "-p", "1"}, {"settings", "disable", "-p", "1"}} {
		r := c.run("", args...)
		r.must(t, 1, "certificate")
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
			t.Fatalf("%v printed control characters:\n%q\n%q", args, r.stdout, r.stderr)
		}
	}
}

func TestConsoleNeedsATerminal(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	for _, args := range [][]string{{"--demo"}, {}, {"--project", "demo/web-shop"}} {
		r := c.run("", args...)
		r.must(t, 2, "the console needs a terminal; the subcommands work without one: errtrack --help")
	}
}

// A config path that is a FIFO nobody writes to: commands still run.
func TestConfigFIFODoesNotHang(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	if err := syscall.Mkfifo(c.cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	r := timed(t, 10*time.Second, func() result { return c.run("", "keys", "list", "-p", "1") })
	r.must(t, 0, "glet_", "not a regular file")
}

func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
