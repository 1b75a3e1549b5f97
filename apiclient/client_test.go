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
	"sync/atomic"
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

func TestDecodesBothFieldNames(t *testing.T) {
	for _, body := range []string{
		`{"active":true,"project_name":"P","errtracker_external_url":"https://e/","api_url":"https://a/","integrated":false}`,
		`{"active":true,"project_name":"P","sentry_external_url":"https://e/","api_url":"https://a/","integrated":false}`,
	} {
		c := setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 200, body) })
		s, _, err := c.GetSettings(context.Background(), ProjectID(1))
		if err != nil || s.ExternalURL == nil || *s.ExternalURL != "https://e/" || *s.ProjectName != "P" || s.Integrated {
			t.Fatalf("%+v %v", s, err)
		}
	}
}

func TestErrorKinds(t *testing.T) {
	cases := []struct {
		name, method string
		status       int
		body         string
		want         []error
		wantMsg      string
	}{
		{"401", "GET", 401, `{"message":"401 Unauthorized"}`, []error{ErrUnauthorized}, "401 Unauthorized"},
		{"expired", "GET", 401, `{"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."}`, []error{ErrUnauthorized, ErrTokenExpired}, "Token is expired"},
		{"revoked", "GET", 401, `{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}`, []error{ErrUnauthorized, ErrTokenRevoked}, "revoked"},
		{"scope", "PUT", 403, `{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api"}`, []error{ErrForbidden, ErrInsufficientScope}, "higher privileges"},
		{"forbidden", "GET", 403, `{"message":"403 Forbidden"}`, []error{ErrForbidden}, "403 Forbidden"},
		{"project", "GET", 404, `{"message":"404 Project Not Found"}`, []error{ErrNotFound, ErrProjectNotFound}, ""},
		{"settings", "GET", 404, `{"message":"404 Error Tracking Setting Not Found"}`, []error{ErrNotFound, ErrSettingsNotFound}, ""},
		{"integrated unavailable", "PUT", 404, `{"message":"404 Not Found"}`, []error{ErrNotFound, ErrIntegratedUnavailable}, ""},
		{"validation", "PATCH", 400, `{"error":"active is invalid"}`, []error{ErrValidation}, "active is invalid"},
		{"update refused", "PATCH", 200, `{"message":"Error tracking setting api url is a required field","status":"error"}`, []error{ErrUpdateFailed}, "api url is a required field"},
		{"server", "GET", 500, `{"message":"500 Internal Server Error"}`, []error{ErrServer}, ""},
		{"html proxy page", "GET", 502, "<html><body><h1>502 Bad Gateway</h1></body></html>", []error{ErrServer}, "non-JSON answer: <html><body><h1>502 Bad Gateway"},
		{"html on 200", "GET", 200, "<html>login page</html>", []error{ErrBadResponse}, "did not answer with JSON"},
		{"empty 200", "GET", 200, "", []error{ErrBadResponse}, "empty body"},
		{"wrong types", "GET", 200, `{"active":"yes","integrated":1}`, []error{ErrBadResponse}, "could not be read"},
		{"escape in message", "GET", 403, "{\"message\":\"\\u001b]0;pwned\\u0007403 Forbidden\"}", []error{ErrForbidden}, "403 Forbidden"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := setup(t, func(w http.ResponseWriter, r *http.Request) {
				ct := "application/json"
				if strings.HasPrefix(tc.body, "<") {
					ct = "text/html"
				}
				w.Header().Set("Content-Type", ct)
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			}, WithRetries(0, 0))
			var err error
			switch tc.method {
			case "PUT":
				_, _, err = c.CreateSettings(context.Background(), ProjectID(1), true, true)
			case "PATCH":
				_, _, err = c.UpdateSettings(context.Background(), ProjectID(1), true, nil)
			default:
				_, _, err = c.GetSettings(context.Background(), ProjectID(1))
			}
			var apiErr *APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err %v is not an *APIError", err)
			}
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("errors.Is(%v, %v) false", err, w)
				}
			}
			if !strings.Contains(apiErr.Message, tc.wantMsg) {
				t.Errorf("message %q lacks %q", apiErr.Message, tc.wantMsg)
			}
			if strings.ContainsRune(err.Error(), 0x1b) || strings.Contains(err.Error(), fakeToken) {
				t.Errorf("unsafe error text %q", err)
			}
		})
	}
}

func TestKeyNotFound(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 404, `{"message":"404 Not found"}`) })
	_, _, err := c.DeleteClientKey(context.Background(), ProjectID(1), 5)
	if !errors.Is(err, ErrKeyNotFound) || !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}

func TestRedirectToAnotherHostKeepsToken(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("PRIVATE-TOKEN") != "" || r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
		jsonReply(w, 200, `{"id":1}`)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) // another host name
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+r.URL.Path, http.StatusFound)
	})
	_, _, err := c.CurrentUser(context.Background())
	if !errors.Is(err, ErrCrossRedirect) {
		t.Fatalf("err = %v, want ErrCrossRedirect", err)
	}
	if leaked.Load() {
		t.Fatal("token was sent to the other host")
	}
}

func TestSameHostRedirectFollowed(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v4/projects/old%2Fpath" || strings.HasSuffix(r.URL.EscapedPath(), "old%2Fpath") {
			http.Redirect(w, r, "/api/v4/projects/9", http.StatusMovedPermanently)
			return
		}
		if r.Header.Get("PRIVATE-TOKEN") != fakeToken {
			jsonReply(w, 401, `{"message":"401 Unauthorized"}`)
			return
		}
		jsonReply(w, 200, `{"id":9}`)
	})
	p, _ := ParseProjectRef("old/path")
	got, _, err := c.GetProject(context.Background(), p)
	if err != nil || got.ID != 9 {
		t.Fatal(got, err)
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

func TestOversizeBody(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":1,"username":"`+strings.Repeat("a", 4096)+`"}`)
	}, WithMaxBody(1024))
	_, _, err := c.CurrentUser(context.Background())
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestBodyThatNeverEnds(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":1,`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}, WithTimeout(200*time.Millisecond), WithRetries(0, 0))
	start := time.Now()
	_, _, err := c.CurrentUser(context.Background())
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "no complete answer within 200ms") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("timeout not honoured")
	}
}

func TestRetriesIdempotentWithRetryAfter(t *testing.T) {
	var n atomic.Int32
	var waits []time.Duration
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) < 3 {
			w.Header().Set("Retry-After", "2")
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(429)
			fmt.Fprint(w, "Retry later\n")
			return
		}
		jsonReply(w, 200, `{"active":true,"integrated":true}`)
	})
	c.Sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	var events []RetryEvent
	c.onRetry = func(e RetryEvent) { events = append(events, e) }
	if _, _, err := c.GetSettings(context.Background(), ProjectID(1)); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 3 || len(waits) != 2 || waits[0] < 1900*time.Millisecond || waits[0] > 2*time.Second {
		t.Fatalf("attempts %d, waits %v", n.Load(), waits)
	}
	if len(events) != 2 || events[0].StatusCode != 429 || events[0].Wait != 2*time.Second || events[1].Attempt != 2 {
		t.Fatalf("retry events %+v", events)
	}
}

// A wait the caller's deadline cannot cover is not started: the error
// says how long the server asked for.
func TestRetryBudget(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(429)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := c.GetSettings(ctx, ProjectID(1))
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Kind != ErrRateLimited || apiErr.RetryAfter != 60*time.Second {
		t.Fatalf("err = %#v", err)
	}
	if n.Load() != 1 {
		t.Fatalf("%d attempts; a 60 s wait is past the deadline, so none should be retried", n.Load())
	}
}

// A reset longer than the old 20 s cap is waited out when the deadline
// allows it, and said to the front end.
func TestLongRetryAfterWaitedWithinDeadline(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(429)
			return
		}
		jsonReply(w, 200, `{"active":true,"integrated":true}`)
	}, WithRetries(3, DefaultMaxWait))
	var slept time.Duration
	c.Sleep = func(ctx context.Context, d time.Duration) error { slept += d; return nil }
	var events []RetryEvent
	c.onRetry = func(e RetryEvent) { events = append(events, e) }
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, _, err := c.GetSettings(ctx, ProjectID(1)); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 || slept < 29*time.Second || len(events) != 1 || events[0].Wait != 30*time.Second {
		t.Fatalf("attempts %d, slept %v, events %+v", n.Load(), slept, events)
	}
}

// A read is retried on any 5xx (a 500 included); a write is not retried on
// a 500, whose change may have been applied.
func TestReadsRetriedOn5xx(t *testing.T) {
	for _, method := range []string{"GET", "PATCH"} {
		var n atomic.Int32
		c := setup(t, func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				w.WriteHeader(500)
				return
			}
			jsonReply(w, 200, `{"active":true,"integrated":true}`)
		})
		c.Sleep = func(context.Context, time.Duration) error { return nil }
		var err error
		if method == "GET" {
			_, _, err = c.GetSettings(context.Background(), ProjectID(1))
		} else {
			_, _, err = c.UpdateSettings(context.Background(), ProjectID(1), true, nil)
		}
		if method == "GET" && (err != nil || n.Load() != 2) || method == "PATCH" && (err == nil || n.Load() != 1) {
			t.Fatalf("%s: %d attempts, %v", method, n.Load(), err)
		}
	}
}

func TestPostNeverRetried(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504} {
		var n atomic.Int32
		c := setup(t, func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.WriteHeader(status)
		})
		if _, _, err := c.CreateClientKey(context.Background(), ProjectID(1)); err == nil {
			t.Fatal("no error")
		}
		if n.Load() != 1 {
			t.Fatalf("status %d: POST sent %d times", status, n.Load())
		}
	}
}

// A 429 refused the create before it was handled: after the reset it is
// sent again, once, and one key is made.
func TestPostRetriedAfterRateLimit(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		jsonReply(w, 201, `{"id":4,"active":true,"public_key":"k","errtracker_dsn":"d"}`)
	})
	k, _, err := c.CreateClientKey(context.Background(), ProjectID(1))
	if err != nil || k.ID != 4 || n.Load() != 2 {
		t.Fatalf("%v %v, %d sends", k, err, n.Load())
	}
}

// A create whose connection dropped after the server read it may have
// made a key: it is never sent again, and its error says the outcome is
// unknown.
func TestPostNotResentAfterConnectionFailure(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		hj, _, _ := w.(http.Hijacker).Hijack()
		hj.Close() // the request was read; the answer is lost
	})
	_, _, err := c.CreateClientKey(context.Background(), ProjectID(1))
	if err == nil || !OutcomeUnknown(err) {
		t.Fatalf("err %v, unknown %v", err, OutcomeUnknown(err))
	}
	if n.Load() != 1 {
		t.Fatalf("the POST was sent %d times", n.Load())
	}
}

func TestConnectionErrorRetried(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			hj, _, _ := w.(http.Hijacker).Hijack()
			hj.Close() // drop the connection mid-request
			return
		}
		jsonReply(w, 200, `{"id":1,"active":true,"public_key":"k","errtracker_dsn":"d"}`)
	})
	if _, _, err := c.DeleteClientKey(context.Background(), ProjectID(1), 1); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 {
		t.Fatalf("attempts %d", n.Load())
	}
}

func TestListKeysPagingConcurrentInOrder(t *testing.T) {
	const total = 1050
	var inFlight, peak atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		cur := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if cur <= p || peak.CompareAndSwap(p, cur) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		page := 0
		fmt.Sscan(r.URL.Query().Get("page"), &page)
		w.Header().Set("X-Total-Pages", "11")
		w.Header().Set("X-Total", fmt.Sprint(total))
		var parts []string
		for id := (page-1)*100 + 1; id <= min(page*100, total); id++ {
			parts = append(parts, fmt.Sprintf(`{"id":%d,"active":true,"public_key":"k","errtracker_dsn":"d"}`, id))
		}
		jsonReply(w, 200, "["+strings.Join(parts, ",")+"]")
	})
	keys, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != total {
		t.Fatalf("%d keys", len(keys))
	}
	for i, k := range keys {
		if k.ID != int64(i+1) {
			t.Fatalf("key %d has id %d: not in server order", i, k.ID)
		}
	}
	if p := peak.Load(); p > DefaultConcurrency || p < 2 {
		t.Fatalf("peak concurrency %d", p)
	}
}

func TestListKeysFollowsNextPage(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page")
		next := map[string]string{"1": "2", "2": "3", "3": ""}[page]
		w.Header().Set("X-Next-Page", next)
		jsonReply(w, 200, `[{"id":`+page+`,"active":true,"public_key":"k","errtracker_dsn":"d"}]`)
	})
	keys, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if err != nil || len(keys) != 3 || keys[2].ID != 3 {
		t.Fatal(keys, err)
	}
}

func TestHostileTotalPages(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Total-Pages", "999999999")
		jsonReply(w, 200, `[]`)
	})
	if _, _, err := c.ListClientKeys(context.Background(), ProjectID(1)); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("err = %v", err)
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

func TestServerWait(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, tc := range []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After": {"7"}}, 7 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(3 * time.Second).UTC().Format(http.TimeFormat)}}, 3 * time.Second, true},
		{http.Header{"Ratelimit-Reset": {"1000005"}}, 5 * time.Second, true},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{}, 0, false},
	} {
		got, ok := serverWait(tc.h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("serverWait(%v) = %v, %v; want %v, %v", tc.h, got, ok, tc.want, tc.ok)
		}
	}
}
