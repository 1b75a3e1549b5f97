package apiclient

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

const fakeToken = "test-token-not-real"

// setup starts an httptest server and a client for it with fast retries.
func setup(t *testing.T, h http.HandlerFunc, opts ...Option) *Client {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	c, err := New(ts.URL, fakeToken, append([]Option{WithRetries(3, 5*time.Second)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	c.Sleep = func(ctx context.Context, d time.Duration) error { return ctx.Err() }
	return c
}

func jsonReply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

func TestExactRequests(t *testing.T) {
	ctx := context.Background()
	p, _ := ParseProjectRef("group/sub/project")
	yes := true
	cases := []struct {
		name                         string
		call                         func(c *Client) error
		method, rawPath, query, body string
	}{
		{"get settings", func(c *Client) error { _, _, err := c.GetSettings(ctx, p); return err },
			"GET", "/api/v4/projects/group%2Fsub%2Fproject/error_tracking/settings", "", `{"active":true,"integrated":true}`},
		{"create settings", func(c *Client) error { _, _, err := c.CreateSettings(ctx, ProjectID(7), true, false); return err },
			"PUT", "/api/v4/projects/7/error_tracking/settings", "active=true&integrated=false", `{"active":true,"integrated":false}`},
		{"update settings", func(c *Client) error { _, _, err := c.UpdateSettings(ctx, ProjectID(7), false, nil); return err },
			"PATCH", "/api/v4/projects/7/error_tracking/settings", "active=false", `{"active":false,"integrated":true}`},
		{"update settings integrated", func(c *Client) error { _, _, err := c.UpdateSettings(ctx, p, true, &yes); return err },
			"PATCH", "/api/v4/projects/group%2Fsub%2Fproject/error_tracking/settings", "active=true&integrated=true", `{"active":true,"integrated":true}`},
		{"list keys", func(c *Client) error { _, _, err := c.ListClientKeys(ctx, p); return err },
			"GET", "/api/v4/projects/group%2Fsub%2Fproject/error_tracking/client_keys", "page=1&per_page=100", `[]`},
		{"create key", func(c *Client) error { _, _, err := c.CreateClientKey(ctx, p); return err },
			"POST", "/api/v4/projects/group%2Fsub%2Fproject/error_tracking/client_keys", "", `{"id":1,"active":true,"public_key":"glet_x","errtracker_dsn":"https://x"}`},
		{"delete key", func(c *Client) error { _, _, err := c.DeleteClientKey(ctx, ProjectID(7), 12); return err },
			"DELETE", "/api/v4/projects/7/error_tracking/client_keys/12", "", `{"id":12,"active":true,"public_key":"glet_x","sentry_dsn":"https://x"}`},
		{"user", func(c *Client) error { _, _, err := c.CurrentUser(ctx); return err },
			"GET", "/api/v4/user", "", `{"id":1,"username":"u"}`},
		{"token", func(c *Client) error { _, _, err := c.TokenInfo(ctx); return err },
			"GET", "/api/v4/personal_access_tokens/self", "", `{"id":1,"scopes":["api"]}`},
		{"projects", func(c *Client) error {
			_, _, err := c.ListProjects(ctx, ListProjectsOptions{Search: "web shop", Page: 2})
			return err
		}, "GET", "/api/v4/projects", "archived=false&membership=true&min_access_level=40&order_by=path&page=2&per_page=100&search=web+shop&simple=true&sort=asc", `[]`},
		{"project", func(c *Client) error { _, _, err := c.GetProject(ctx, p); return err },
			"GET", "/api/v4/projects/group%2Fsub%2Fproject", "", `{"id":3}`},
		{"archived projects", func(c *Client) error { _, _, err := c.ListArchivedProjects(ctx); return err },
			"GET", "/api/v4/projects", "archived=true&membership=true&min_access_level=40&order_by=path&page=1&per_page=100&simple=true&sort=asc", `[]`},
		{"group projects maintained", func(c *Client) error {
			_, _, err := c.ListGroupProjectsWith(ctx, GroupRef{Path: "g/sub"}, GroupProjectsOptions{Subgroups: true, MinAccessLevel: MaintainerAccess})
			return err
		}, "GET", "/api/v4/groups/g%2Fsub/projects", "include_subgroups=true&min_access_level=40&page=1&per_page=100", `[]`},
		{"group projects", func(c *Client) error { _, _, err := c.ListGroupProjects(ctx, GroupRef{ID: 9}, false); return err },
			"GET", "/api/v4/groups/9/projects", "min_access_level=10&page=1&per_page=100", `[]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var seen *http.Request
			c := setup(t, func(w http.ResponseWriter, r *http.Request) {
				seen = r
				status := 200
				if r.Method == "POST" {
					status = 201
				}
				jsonReply(w, status, tc.body)
			})
			if err := tc.call(c); err != nil {
				t.Fatal(err)
			}
			if seen.Method != tc.method || seen.URL.EscapedPath() != tc.rawPath || seen.URL.RawQuery != tc.query {
				t.Errorf("got %s %s?%s, want %s %s?%s", seen.Method, seen.URL.EscapedPath(), seen.URL.RawQuery, tc.method, tc.rawPath, tc.query)
			}
			if seen.Header.Get("PRIVATE-TOKEN") != fakeToken {
				t.Error("PRIVATE-TOKEN header missing")
			}
			if ua := seen.Header.Get("User-Agent"); !strings.HasPrefix(ua, "errtrack/") {
				t.Errorf("User-Agent %q", ua)
			}
			if tc.method == "POST" && seen.Header.Get("Content-Type") != "application/json" {
				t.Error("POST without JSON content type")
			}
		})
	}
}

func TestPlainHTTPRefused(t *testing.T) {
	if _, err := New("http://gitlab.example.com", fakeToken); !errors.Is(err, ErrInsecureURL) {
		t.Fatalf("err = %v", err)
	}
	if _, err := New("http://gitlab.example.com", fakeToken, WithInsecureHTTP()); err != nil {
		t.Fatal(err)
	}
	if _, err := New("http://127.0.0.1:8080", fakeToken); err != nil {
		t.Fatal(err)
	}
}

func TestTokenNeverInErrors(t *testing.T) {
	c, err := New("http://127.0.0.1:1", fakeToken, WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.CurrentUser(context.Background())
	if err == nil || strings.Contains(err.Error(), fakeToken) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "could not reach the server") {
		t.Fatalf("err = %v", err)
	}
}

func TestCustomCAFile(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"id":1,"username":"u"}`)
	}))
	defer ts.Close()
	dir := t.TempDir()
	caFile := dir + "/ca.pem"
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	without, _ := New(ts.URL, fakeToken, WithRetries(0, 0))
	if _, _, err := without.CurrentUser(context.Background()); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("untrusted server accepted: %v", err)
	}
	with, err := New(ts.URL, fakeToken, WithCAFile(caFile))
	if err != nil {
		t.Fatal(err)
	}
	if u, _, err := with.CurrentUser(context.Background()); err != nil || u.Username != "u" {
		t.Fatal(u, err)
	}
	if _, err := New(ts.URL, fakeToken, WithCAFile(dir+"/missing.pem")); err == nil {
		t.Fatal("missing CA file accepted")
	}
	os.WriteFile(dir+"/junk.pem", []byte("junk"), 0o600)
	if _, err := New(ts.URL, fakeToken, WithCAFile(dir+"/junk.pem")); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("junk CA file: %v", err)
	}
}
