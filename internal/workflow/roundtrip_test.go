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
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
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
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithRetries(0, 0))
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

func TestValidVariableName(t *testing.T) {
	for s, want := range map[string]bool{"SENTRY_DSN": true, "a": true, "_1": true, strings.Repeat("A", 255): true,
		"": false, strings.Repeat("A", 256): false, "A-B": false, "A B": false, "É": false, "A\n": false} {
		if projectscope.ValidVariableName(s) != want {
			t.Errorf("%q: %v", s, !want)
		}
	}
}
