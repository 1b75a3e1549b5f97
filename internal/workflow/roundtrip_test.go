package workflow

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// wave holds every request until want of them have arrived: requests sent
// together pass at once; a request that waits for another's answer holds
// its wave for the whole patience and is marked late. It proves a flow's
// requests go out in one round trip without timing it.
type wave struct {
	next    http.Handler
	want    int
	mu      sync.Mutex
	seen    []string
	arrived chan struct{}
	late    bool
}

func newWave(next http.Handler, want int) *wave {
	return &wave{next: next, want: want, arrived: make(chan struct{})}
}

func (w *wave) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	w.seen = append(w.seen, r.Method+" "+r.URL.Path)
	if len(w.seen) == w.want {
		close(w.arrived)
	}
	w.mu.Unlock()
	select {
	case <-w.arrived:
	case <-time.After(2 * time.Second):
		w.mu.Lock()
		w.late = true
		w.mu.Unlock()
	}
	w.next.ServeHTTP(rw, r)
}

// check fails unless exactly want requests came, all in one wave.
func (w *wave) check(t *testing.T) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	sort.Strings(w.seen)
	if w.late || len(w.seen) != w.want {
		t.Fatalf("not one round trip of %d requests (late %v):\n%s", w.want, w.late, strings.Join(w.seen, "\n"))
	}
}

func waveClient(t *testing.T, want int) (*wave, *apiclient.Client, *mockserver.Server) {
	t.Helper()
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := newWave(srv, want)
	ts := httptest.NewServer(w)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclient.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return w, c, srv
}

// settings update by ID: the write and the project's path in one round
// trip; enabling reads the keys in it too.
func TestChangeSettingsOneRoundTrip(t *testing.T) {
	ctx := context.Background()
	w, c, _ := waveClient(t, 2)
	ch, err := ChangeSettings(ctx, c, apiclient.ProjectID(1), KeysNotRead, func(ctx context.Context) (*apiclient.Settings, error) {
		s, _, err := c.UpdateSettings(ctx, apiclient.ProjectID(1), false, nil)
		return s, err
	})
	if err != nil || ch.Project.Path != "demo/web-shop" || ch.Settings.Active {
		t.Fatalf("%+v %v", ch, err)
	}
	w.check(t)

	// Enabling: the keys are read too, at once, and show an active key:
	// GitLab creates none, nothing more is read.
	w, c, _ = waveClient(t, 3)
	ch, err = ChangeSettings(ctx, c, apiclient.ProjectID(1), KeysAlongside, func(ctx context.Context) (*apiclient.Settings, error) {
		s, _, err := c.UpdateSettings(ctx, apiclient.ProjectID(1), true, nil)
		return s, err
	})
	if err != nil || !ch.Settings.Active || ch.CreatedKey != nil {
		t.Fatalf("%+v %v", ch, err)
	}
	w.check(t)
}

// audit -p ID of a project whose path was seen: its groups' variables are
// read with the rest, one round trip; a path that is stale (the project
// moved) costs a second, and only the real path's groups count.
func TestAuditByIDOneRoundTrip(t *testing.T) {
	ctx := context.Background()
	ios := apiclient.ProjectID(7)
	// project, settings, keys, variables, demo/mobile and demo variables
	w, c, _ := waveClient(t, 6)
	au, err := AuditProjectWith(ctx, c, ios, AuditOptions{LastPath: "demo/mobile/ios"})
	if err != nil || au.Project.Path != "demo/mobile/ios" {
		t.Fatalf("%+v %v", au, err)
	}
	w.check(t)
	_, c2 := mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	plain, err := auditProject(ctx, c2, ios)
	if err != nil || len(plain.Findings) != len(au.Findings) || len(plain.Unread) != len(au.Unread) {
		t.Fatalf("with the path: %+v\nwithout: %+v", au.Findings, plain.Findings)
	}

	_, c3 := mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	moved, err := AuditProjectWith(ctx, c3, ios, AuditOptions{LastPath: "elsewhere/team/ios"})
	if err != nil {
		t.Fatal(err)
	}
	var unread []string
	for g := range moved.Unread {
		unread = append(unread, g)
	}
	sort.Strings(unread)
	if strings.Join(unread, ",") != "demo,demo/mobile" || len(moved.Findings) != len(plain.Findings) {
		t.Fatalf("a stale path's groups counted: %v\n%+v", unread, moved.Findings)
	}
}

func TestValidVariableName(t *testing.T) {
	for s, want := range map[string]bool{"SENTRY_DSN": true, "a": true, "_1": true, strings.Repeat("A", 255): true,
		"": false, strings.Repeat("A", 256): false, "A-B": false, "A B": false, "É": false, "A\n": false} {
		if projectscope.ValidVariableName(s) != want {
			t.Errorf("%q: %v", s, !want)
		}
	}
}
