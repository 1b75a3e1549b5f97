package sentry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

var legacy = Project{Org: "demo", Slug: "legacy-api"}

func mock(t testing.TB, opts mocksentry.Options, token string, copts ...apiclient.Option) (*mocksentry.Server, *Client) {
	t.Helper()
	s := mocksentry.New(opts)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	c, err := New(ts.URL, token, copts...)
	if err != nil {
		t.Fatal(err)
	}
	p := legacy
	p.Base = c.BaseURL()
	legacy = p
	return s, c
}

func TestKeysLifecycle(t *testing.T) {
	ctx := context.Background()
	srv, c := mock(t, mocksentry.Options{}, mocksentry.TokenAdmin)
	keys, err := c.ListKeys(ctx, legacy, AllKeys)
	if err != nil || len(keys) != 2 {
		t.Fatalf("%v, %d keys", err, len(keys))
	}
	// Newest first, as Sentry orders them; the staging key is rate-limited.
	if keys[0].Name != "Staging" || keys[0].RateLimit == nil || *keys[0].RateLimit != (RateLimit{Window: 3600, Count: 1000}) || keys[1].Name != "Production" {
		t.Fatalf("keys: %+v", keys)
	}
	pid := srv.ProjectID("demo", "legacy-api")
	if k := keys[1]; !k.Active || k.ProjectID != pid || !strings.HasPrefix(k.DSN, "http://"+k.ID+"@") || strings.Contains(k.DSN, ":"+srv.Keys("demo", "legacy-api")[0].Secret) || k.Created.IsZero() {
		t.Fatalf("key: %+v", k)
	}
	made, err := c.CreateKey(ctx, legacy, CreateKeyOptions{Name: "Rotated", RateLimit: &RateLimit{Window: 60, Count: 10}})
	if err != nil || made.Name != "Rotated" || *made.RateLimit != (RateLimit{Window: 60, Count: 10}) {
		t.Fatalf("create: %+v %v", made, err)
	}
	unnamed, err := c.CreateKey(ctx, legacy, CreateKeyOptions{})
	if err != nil || len(strings.Fields(unnamed.Name)) != 2 {
		t.Fatalf("an unnamed key gets Sentry's two-word name: %+v %v", unnamed, err)
	}
	off, name := false, "Old"
	upd, err := c.UpdateKey(ctx, legacy, keys[1].ID, UpdateKeyOptions{Name: &name, Active: &off, ClearRateLimit: true})
	if err != nil || upd.Active || upd.Name != "Old" {
		t.Fatalf("update: %+v %v", upd, err)
	}
	if inactive, err := c.ListKeys(ctx, legacy, InactiveKeys); err != nil || len(inactive) != 1 || inactive[0].ID != keys[1].ID {
		t.Fatalf("inactive: %+v %v", inactive, err)
	}
	got, err := c.GetKey(ctx, legacy, made.ID)
	if err != nil || got.ID != made.ID {
		t.Fatal(got, err)
	}
	if _, err := c.DeleteKey(ctx, legacy, made.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetKey(ctx, legacy, made.ID); !errors.Is(err, ErrKeyNotFound) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("a deleted key: %v", err)
	}
	if _, err := c.DeleteKey(ctx, legacy, made.ID); !errors.Is(err, ErrKeyNotFound) {
		t.Fatalf("deleting it again: %v", err)
	}
}

// More keys than a page: the cursor of rel="next" is followed while its
// results is "true", and no key is read twice or missed.
func TestListKeysPages(t *testing.T) {
	var pages int
	var mu sync.Mutex
	obs := apiclient.WithObserver(func(e apiclient.Exchange) {
		mu.Lock()
		pages++
		mu.Unlock()
	})
	srv, c := mock(t, mocksentry.Options{ScaleKeys: 250}, mocksentry.TokenRead, obs)
	keys, err := c.ListKeys(context.Background(), legacy, AllKeys)
	if err != nil || len(keys) != 252 {
		t.Fatalf("%v: %d keys", err, len(keys))
	}
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k.ID] {
			t.Fatalf("key %s read twice", k.ID)
		}
		seen[k.ID] = true
	}
	all := srv.Keys("demo", "legacy-api")
	if keys[0].ID != all[len(all)-1].Public || keys[len(keys)-1].ID != all[0].Public || pages != 3 {
		t.Fatalf("order or pages: first %s last %s, %d pages", keys[0].ID, keys[len(keys)-1].ID, pages)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	_, c := mock(t, mocksentry.Options{}, mocksentry.TokenWrite)
	keys, err := c.ListKeys(ctx, legacy, AllKeys)
	if err != nil {
		t.Fatal(err)
	}
	// Deleting takes project:admin: Sentry names the scopes it accepts.
	_, err = c.DeleteKey(ctx, legacy, keys[0].ID)
	var se *Error
	if !errors.As(err, &se) || !errors.Is(err, ErrInsufficientScope) || !errors.Is(err, ErrForbidden) || len(se.Scopes) != 1 || se.Scopes[0] != "project:admin" {
		t.Fatalf("delete with project:write: %v", err)
	}
	if _, err := c.ListKeys(ctx, Project{Org: "demo", Slug: "nope"}, AllKeys); !errors.Is(err, ErrProjectNotFound) {
		t.Fatalf("missing project: %v", err)
	}
	if _, err := c.CreateProject(ctx, "demo", "backend", CreateProjectOptions{Name: "Legacy API", Slug: "legacy-api"}); !errors.Is(err, ErrConflict) {
		t.Fatalf("a slug in use: %v", err)
	}
	if _, err := c.CreateProject(ctx, "demo", "nope", CreateProjectOptions{Name: "X"}); !errors.Is(err, ErrTeamNotFound) {
		t.Fatalf("missing team: %v", err)
	}
	_, expired := mock(t, mocksentry.Options{}, mocksentry.TokenExpired)
	if _, err := expired.ListKeys(ctx, legacy, AllKeys); !errors.Is(err, ErrTokenExpired) || !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("expired: %v", err)
	}
	_, bad := mock(t, mocksentry.Options{}, "not-a-token")
	if _, err := bad.CheckToken(ctx); !errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrTokenExpired) {
		t.Fatalf("unknown token: %v", err)
	}
	if _, err := c.UpdateKey(ctx, legacy, "../x", UpdateKeyOptions{}); !errors.Is(err, ErrValidation) {
		t.Fatalf("a key id that is no public key: %v", err)
	}
	if _, err := c.CreateKey(ctx, legacy, CreateKeyOptions{RateLimit: &RateLimit{Count: 1, Window: 86401}}); !errors.Is(err, ErrValidation) {
		t.Fatalf("a window over a day: %v", err)
	}
}

// Where the projects:rate-limits feature is off Sentry ignores a key's
// rate limit and answers 200: the client says so.
func TestRateLimitNotApplied(t *testing.T) {
	ctx := context.Background()
	_, c := mock(t, mocksentry.Options{NoRateLimitFeature: true}, mocksentry.TokenAdmin)
	k, err := c.CreateKey(ctx, legacy, CreateKeyOptions{Name: "x", RateLimit: &RateLimit{Window: 60, Count: 5}})
	if !errors.Is(err, ErrNotApplied) || k == nil || k.RateLimit != nil {
		t.Fatalf("create: %+v %v", k, err)
	}
	if _, err := c.UpdateKey(ctx, legacy, k.ID, UpdateKeyOptions{RateLimit: &RateLimit{Window: 60, Count: 5}}); !errors.Is(err, ErrNotApplied) {
		t.Fatalf("update: %v", err)
	}
}

// Sentry's 429 (a JSON string, X-Sentry-Rate-Limit-Reset, no Retry-After)
// is waited out by the host's pace; without retries it is ErrRateLimited.
func TestRateLimited(t *testing.T) {
	ctx := context.Background()
	frozen := time.Now()
	_, c := mock(t, mocksentry.Options{RateLimit: 1, Now: func() time.Time { return frozen }}, mocksentry.TokenAdmin, apiclienttest.WithRetries(0, 0))
	if _, err := c.CheckToken(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := c.CheckToken(ctx)
	var se *Error
	if !errors.As(err, &se) || !errors.Is(err, ErrRateLimited) || !strings.Contains(se.Message, "too frequently") {
		t.Fatalf("second request in the second: %v", err)
	}
	_, retrying := mock(t, mocksentry.Options{RateLimit: 1}, mocksentry.TokenRead)
	for i := 0; i < 3; i++ {
		if _, err := retrying.CheckToken(ctx); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
}

func TestProjectsAndToken(t *testing.T) {
	ctx := context.Background()
	srv, c := mock(t, mocksentry.Options{}, mocksentry.TokenAdmin)
	info, err := c.CheckToken(ctx)
	if err != nil || !info.CanDeleteKeys() || !info.CanCreateProjects() || info.User != "demo-maintainer" {
		t.Fatalf("%+v %v", info, err)
	}
	p, err := c.GetProject(ctx, legacy)
	if err != nil || p.ID != srv.ProjectID("demo", "legacy-api") || p.Org != "demo" || len(p.Teams) != 1 {
		t.Fatalf("%+v %v", p, err)
	}
	made, err := c.CreateProject(ctx, "demo", "backend", CreateProjectOptions{Name: "Mobile App", Platform: "android"})
	if err != nil || made.Slug != "mobile-app" {
		t.Fatalf("%+v %v", made, err)
	}
	keys, err := c.ListKeys(ctx, Project{Base: c.BaseURL(), Org: "demo", Slug: "mobile-app"}, AllKeys)
	if err != nil || len(keys) != 1 || keys[0].Name != "Default" {
		t.Fatalf("a new project's key: %+v %v", keys, err)
	}
	list, err := c.ListProjects(ctx, "demo")
	if err != nil || len(list) != 3 || list[0].Slug != "legacy-api" || list[1].Slug != "mobile-app" {
		t.Fatalf("%+v %v", list, err)
	}
	ro, err := New(c.BaseURL(), mocksentry.TokenRead)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := ro.CheckToken(ctx); err != nil || info.CanWriteKeys() || !info.CanReadKeys() {
		t.Fatalf("read-only: %+v %v", info, err)
	}
}

// A test event through an active key's public DSN is accepted and counted;
// through a disabled or deleted key's it is refused (403), and the token is
// not sent to the ingestion endpoint.
func TestSendTestEvent(t *testing.T) {
	ctx := context.Background()
	srv, c := mock(t, mocksentry.Options{}, mocksentry.TokenAdmin)
	keys, _ := c.ListKeys(ctx, legacy, AllKeys)
	check, err := c.SendTestEvent(ctx, keys[0].DSN, "errtrack test")
	if err != nil || !check.Accepted || srv.Events(keys[0].ID) != 1 {
		t.Fatalf("%+v %v", check, err)
	}
	off := false
	if _, err := c.UpdateKey(ctx, legacy, keys[0].ID, UpdateKeyOptions{Active: &off}); err != nil {
		t.Fatal(err)
	}
	if check, err := c.SendTestEvent(ctx, keys[0].DSN, "x"); err != nil || check.Accepted || check.StatusCode != http.StatusForbidden {
		t.Fatalf("disabled: %+v %v", check, err)
	}
	if _, err := c.DeleteKey(ctx, legacy, keys[1].ID); err != nil {
		t.Fatal(err)
	}
	if check, err := c.SendTestEvent(ctx, keys[1].DSN, "x"); err != nil || check.Accepted || check.StatusCode != http.StatusForbidden {
		t.Fatalf("deleted: %+v %v", check, err)
	}
}

// A create Sentry refused with its rate limit (answered before the view,
// so nothing was made) is sent again once the limit resets: one key made.
// Any other failure of a create is never sent again.
func TestCreateRetriedOnlyAfterRateLimit(t *testing.T) {
	ctx := context.Background()
	ss := mocksentry.New(mocksentry.Options{})
	var posts atomic.Int32
	var fail atomic.Int32
	fail.Store(429)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && posts.Add(1) == 1 {
			w.Header().Set("X-Sentry-Rate-Limit-Reset", strconv.FormatInt(time.Now().Add(time.Second).Unix(), 10))
			w.WriteHeader(int(fail.Load()))
			_, _ = w.Write([]byte(`{"detail":"You are attempting to use this endpoint too frequently."}`))
			return
		}
		ss.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	c, err := New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	before := len(ss.Keys("demo", "legacy-api"))
	if _, err := c.CreateKey(ctx, legacy, CreateKeyOptions{Name: "x"}); err != nil || posts.Load() != 2 || len(ss.Keys("demo", "legacy-api")) != before+1 {
		t.Fatalf("after a 429: %v, %d posts, %d keys", err, posts.Load(), len(ss.Keys("demo", "legacy-api"))-before)
	}
	posts.Store(0)
	fail.Store(502)
	if _, err := c.CreateKey(ctx, legacy, CreateKeyOptions{Name: "y"}); err == nil || posts.Load() != 1 {
		t.Fatalf("after a 502: %v, %d posts", err, posts.Load())
	}
}

// An endpoint's own rate limit answers a bare JSON string: its words are
// read as the middleware's {"detail": …} are.
func TestRateLimitAsABareString(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`"You are attempting to use this endpoint too frequently. Limit is 3 requests in 3600 seconds"`))
	}))
	t.Cleanup(ts.Close)
	c, err := New(ts.URL, mocksentry.TokenAdmin, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CheckToken(context.Background())
	var se *Error
	if !errors.As(err, &se) || !errors.Is(err, ErrRateLimited) || !strings.Contains(se.Message, "Limit is 3 requests") {
		t.Fatalf("%v", err)
	}
}
