package sentry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/keyring/keyerr"
)

type memStore map[string]string

func (m memStore) Get(_ context.Context, base string) (string, error) {
	if t, ok := m[base]; ok {
		return t, nil
	}
	return "", &keyerr.Error{Op: "get", Host: base, Kind: keyerr.ErrNotFound}
}

// spy is a host that records every request it gets and whether it held a
// credential.
type spy struct {
	mu   sync.Mutex
	hits []string
	*httptest.Server
}

func newSpy(t *testing.T) *spy {
	s := &spy{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits = append(s.hits, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *spy) tokenSeen(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.hits {
		if strings.Contains(h, token) {
			return true
		}
	}
	return false
}

// A hostile GitLab whose settings name another Sentry host than the one
// the token is for: no client is made and nothing is sent there.
func TestTokenNeverLeavesItsHost(t *testing.T) {
	ctx := context.Background()
	good := httptest.NewServer(mocksentry.New(mocksentry.Options{}))
	defer good.Close()
	evil := newSpy(t)
	gitlab := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"active":true,"integrated":false,"project_name":"Legacy API","sentry_external_url":"%s/demo/legacy-api/","api_url":"%s/api/0/projects/demo/legacy-api/"}`, evil.URL, evil.URL)
	}))
	defer gitlab.Close()
	gl, err := apiclient.New(gitlab.URL, "glpat-x")
	if err != nil {
		t.Fatal(err)
	}
	settings, _, err := gl.GetSettings(ctx, apiclient.ProjectID(3))
	if err != nil || settings.APIURL == nil {
		t.Fatal(err)
	}
	goodBase, _ := NormalizeBase(good.URL)
	tokens := Tokens{Store: memStore{goodBase: mocksentry.TokenAdmin}, EnvToken: "sntryu_env_token_for_sentry_io"}
	_, _, _, err = ClientFor(ctx, tokens, *settings.APIURL)
	var te *TokenError
	if !errors.Is(err, ErrNoToken) || !errors.As(err, &te) || te.EnvBase != DefaultURL {
		t.Fatalf("a host without a token: %v", err)
	}
	if len(evil.hits) != 0 {
		t.Fatalf("the other host was contacted: %v", evil.hits)
	}

	// The token's own host redirects the request elsewhere: not followed
	// with the token.
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, evil.URL+r.URL.Path, http.StatusFound)
	}))
	defer redirector.Close()
	rb, _ := NormalizeBase(redirector.URL)
	tokens.Store = memStore{rb: mocksentry.TokenAdmin}
	c, p, source, err := ClientFor(ctx, tokens, redirector.URL+"/api/0/projects/demo/legacy-api/")
	if err != nil || source != SourceKeyring {
		t.Fatal(err)
	}
	if _, err := c.ListKeys(ctx, p, AllKeys); !errors.Is(err, ErrCrossRedirect) {
		t.Fatalf("redirect to another host: %v", err)
	}
	if evil.tokenSeen(mocksentry.TokenAdmin) {
		t.Fatal("the token reached the other host")
	}

	// A Link header naming another host: the next page is asked of the
	// client's own host, with the cursor only.
	var linked sync.Map
	linker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		linked.Store(r.URL.RawQuery, true)
		if r.URL.Query().Get("cursor") == "" {
			w.Header().Set("Link", `<`+evil.URL+`/api/0/projects/demo/legacy-api/keys/?&cursor=1:0:0>; rel="next"; results="true"; cursor="1:0:0"`)
		}
		_, _ = w.Write([]byte(`[{"id":"0123456789abcdef0123456789abcdef","name":"k","isActive":true,"projectId":2,"dsn":{"public":"x"}}]`))
	}))
	defer linker.Close()
	lc, err := New(linker.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := lc.ListKeys(ctx, Project{Base: lc.BaseURL(), Org: "demo", Slug: "legacy-api"}, AllKeys)
	if _, ok := linked.Load("cursor=1%3A0%3A0&per_page=100"); err != nil || len(keys) != 2 || !ok {
		t.Fatalf("%v, %d keys", err, len(keys))
	}
	if evil.tokenSeen(mocksentry.TokenAdmin) {
		t.Fatal("the token followed the link to the other host")
	}

	// SENTRY_AUTH_TOKEN belongs to SENTRY_URL's host only.
	env := Tokens{EnvToken: "env-token", EnvURL: good.URL}
	if tok, src, err := env.For(ctx, good.URL+"/"); err != nil || tok != "env-token" || src != SourceEnv {
		t.Fatalf("%q %q %v", tok, src, err)
	}
	if _, _, err := env.For(ctx, evil.URL); !errors.Is(err, ErrNoToken) {
		t.Fatalf("the env token for another host: %v", err)
	}
	if _, _, _, err := ClientFor(ctx, env, "http://sentry.example.com/api/0/projects/demo/legacy-api/"); !errors.Is(err, ErrBadAPIURL) {
		t.Fatalf("plain http beyond loopback: %v", err)
	}
}

// A keyring that does not answer is said, not taken for "no token".
func TestTokenStoreFailure(t *testing.T) {
	store := failing{}
	_, _, err := Tokens{Store: store}.For(context.Background(), "https://sentry.example.com")
	var te *TokenError
	if !errors.As(err, &te) || !errors.Is(err, keyerr.ErrUnavailable) {
		t.Fatalf("%v", err)
	}
}

type failing struct{}

func (failing) Get(context.Context, string) (string, error) {
	return "", &keyerr.Error{Op: "get", Kind: keyerr.ErrUnavailable, Cause: "no D-Bus"}
}
