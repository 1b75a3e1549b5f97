package apiclient

import (
	"context"
	"errors"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func againstMock(t testing.TB, opts mockserver.Options, token string, copts ...Option) (*Client, *mockserver.Server) {
	t.Helper()
	s, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	c, err := New(ts.URL, token, copts...)
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func TestAgainstMockServer(t *testing.T) {
	for _, names := range []string{"spec", "gitlab"} {
		t.Run(names, func(t *testing.T) {
			ctx := context.Background()
			c, _ := againstMock(t, mockserver.Options{FieldNames: names}, mockserver.TokenMaintainer)
			u, _, err := c.CurrentUser(ctx)
			if err != nil || u.Username != "demo-maintainer" {
				t.Fatal(u, err)
			}
			ti, _, err := c.TokenInfo(ctx)
			if err != nil || !ti.HasScope("api") {
				t.Fatal(ti, err)
			}
			if _, ok := ti.Expiry(); !ok {
				t.Fatal("no expiry")
			}
			legacy, _ := ParseProjectRef("demo/legacy-api")
			s, _, err := c.GetSettings(ctx, legacy)
			if err != nil || s.ExternalURL == nil || *s.ExternalURL != "https://sentry.example.com/demo/legacy-api/" {
				t.Fatal(s, err)
			}
			keys, _, err := c.ListClientKeys(ctx, ProjectID(1))
			if err != nil || len(keys) != 2 {
				t.Fatal(keys, err)
			}
			dsn := regexp.MustCompile(`^http://glet_[0-9a-f]{32}@127\.0\.0\.1:\d+/errortracking/api/v1/projects/1$`)
			if !dsn.MatchString(keys[0].DSN) {
				t.Fatalf("DSN %q", keys[0].DSN)
			}
			k, _, err := c.CreateClientKey(ctx, ProjectID(1))
			if err != nil || !k.Active {
				t.Fatal(k, err)
			}
			del, _, err := c.DeleteClientKey(ctx, ProjectID(1), k.ID)
			if err != nil || del.PublicKey != k.PublicKey {
				t.Fatal(del, err)
			}
			if _, _, err := c.DeleteClientKey(ctx, ProjectID(1), k.ID); !errors.Is(err, ErrKeyNotFound) {
				t.Fatal(err)
			}
			if _, _, err := c.GetSettings(ctx, ProjectID(2)); !errors.Is(err, ErrSettingsNotFound) {
				t.Fatal(err)
			}
			if _, _, err := c.CreateSettings(ctx, ProjectID(4), true, true); !errors.Is(err, ErrIntegratedUnavailable) {
				t.Fatal(err)
			}
			if _, _, err := c.GetSettings(ctx, ProjectID(6)); !errors.Is(err, ErrProjectNotFound) {
				t.Fatal(err)
			}
			s, _, err = c.CreateSettings(ctx, ProjectID(2), true, true)
			if err != nil || !s.Active || !s.Integrated {
				t.Fatal(s, err)
			}
			no := false
			if _, _, err := c.UpdateSettings(ctx, ProjectID(2), true, &no); !errors.Is(err, ErrUpdateFailed) {
				t.Fatal(err)
			}
			s, _, err = c.UpdateSettings(ctx, ProjectID(2), false, nil)
			if err != nil || s.Active {
				t.Fatal(s, err)
			}
			ps, resp, err := c.ListProjects(ctx, ListProjectsOptions{Search: "web"})
			if err != nil || len(ps) != 1 || ps[0].PathWithNamespace != "demo/web-shop" || resp.Total != 1 {
				t.Fatal(ps, err)
			}
			p, _, err := c.GetProject(ctx, legacy)
			if err != nil || p.ID != 3 || p.AccessLevel() != MaintainerAccess {
				t.Fatal(p, err)
			}
		})
	}
}

func TestMockTokenErrors(t *testing.T) {
	ctx := context.Background()
	for tok, want := range map[string]error{
		mockserver.TokenExpired:   ErrTokenExpired,
		mockserver.TokenRevoked:   ErrTokenRevoked,
		"not-a-token":             ErrUnauthorized,
		mockserver.TokenDeveloper: ErrForbidden,
	} {
		c, _ := againstMock(t, mockserver.Options{}, tok)
		if _, _, err := c.GetSettings(ctx, ProjectID(1)); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", tok, err, want)
		}
	}
	c, _ := againstMock(t, mockserver.Options{}, mockserver.TokenReadOnly)
	if _, _, err := c.CreateClientKey(ctx, ProjectID(1)); !errors.Is(err, ErrInsufficientScope) {
		t.Fatal(err)
	}
}

// benchmarkListKeys lists n keys through a mock with 20 ms latency. Past
// 10,000 the server sends no totals, as GitLab does.
func benchmarkListKeys(b *testing.B, concurrency, n int) {
	c, _ := againstMock(b, mockserver.Options{ScaleKeys: n - 2, Latency: 20 * time.Millisecond}, mockserver.TokenMaintainer, WithPageConcurrency(concurrency))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		keys, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
		if err != nil || len(keys) != n {
			b.Fatal(len(keys), err)
		}
	}
}

func BenchmarkListClientKeys10kConcurrent(b *testing.B) {
	benchmarkListKeys(b, DefaultConcurrency, 10000)
}
func BenchmarkListClientKeys10kSequential(b *testing.B) { benchmarkListKeys(b, 1, 10000) }

// 10,002 keys: no totals, and pages in flight all the same.
func BenchmarkListClientKeys10002Concurrent(b *testing.B) {
	benchmarkListKeys(b, DefaultConcurrency, 10002)
}
