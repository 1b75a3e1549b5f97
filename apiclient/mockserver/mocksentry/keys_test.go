package mocksentry

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// With a DSN host chosen, the keys' DSNs name it (as SENTRY_PUBLIC_ENDPOINT
// or an o<org>. ingest subdomain make Sentry do) while links stay on the
// API's address.
func TestDSNHostChosen(t *testing.T) {
	s := New(Options{PublicURL: "https://sentry.example.com", DSNHost: "o42.ingest.us.sentry.io"})
	ts := httptest.NewServer(s)
	defer ts.Close()
	resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/?per_page=1", TokenRead)
	var page []struct {
		Public string            `json:"public"`
		ID     int64             `json:"projectId"`
		DSN    map[string]string `json:"dsn"`
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil || len(page) != 1 {
		t.Fatalf("%v %s", err, body)
	}
	want := "https://" + page[0].Public + "@o42.ingest.us.sentry.io/" + strconv.FormatInt(page[0].ID, 10)
	if page[0].DSN["public"] != want || !strings.HasPrefix(page[0].DSN["csp"], "https://o42.ingest.us.sentry.io/api/") {
		t.Fatalf("dsn %v, want public %s", page[0].DSN, want)
	}
	if !strings.Contains(resp.Header.Get("Link"), "<https://sentry.example.com/api/0/") {
		t.Fatalf("Link %s", resp.Header.Get("Link"))
	}
	if got := s.DSN("demo", "legacy-api", "Production"); !strings.Contains(got, "@o42.ingest.us.sentry.io/") {
		t.Fatalf("DSN() = %s", got)
	}
}

func put(t *testing.T, ts *httptest.Server, path, token, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, ts.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// Sentry's key PUT sets browserSdkVersion on every call: the one sent, or
// the project's default when absent (project_key_details.py); loader
// options sent are merged into the key's.
func TestKeyPutResetsTheLoaderVersion(t *testing.T) {
	s := New(Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	var prod Key
	for _, k := range s.Keys("demo", "legacy-api") {
		if k.Label == "Production" {
			prod = k
		}
	}
	path := "/api/0/projects/demo/legacy-api/keys/" + prod.Public + "/"
	_, body := get(t, ts, path, TokenRead)
	if !strings.Contains(body, `"browserSdkVersion":"7.x"`) || !strings.Contains(body, `"hasReplay":false`) {
		t.Fatalf("the demo key's loader: %s", body)
	}
	code, got := put(t, ts, path, TokenAdmin, `{"name":"Prod","browserSdkVersion":"7.x","dynamicSdkLoaderOptions":{"hasDebug":true}}`)
	opts, _ := got["dynamicSdkLoaderOptions"].(map[string]any)
	if code != 200 || got["browserSdkVersion"] != "7.x" || opts["hasReplay"] != false || opts["hasDebug"] != true {
		t.Fatalf("%d %v", code, got)
	}
	code, got = put(t, ts, path, TokenAdmin, `{"name":"Prod 2"}`)
	opts, _ = got["dynamicSdkLoaderOptions"].(map[string]any)
	if code != 200 || got["browserSdkVersion"] != "latest" || opts["hasDebug"] != true {
		t.Fatalf("a PUT without the version: %d %v", code, got)
	}
	if code, got = put(t, ts, path, TokenAdmin, `{"browserSdkVersion":"9.x"}`); code != 400 || got["browserSdkVersion"] == nil {
		t.Fatalf("%d %v", code, got)
	}
}

// A renamed project's old slug answers ProjectMoved to every method: 302,
// Location the requested path and query with the new slug, and Sentry's
// body naming the new slug.
func TestRenamedProjectAnswersProjectMoved(t *testing.T) {
	s := New(Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	if !s.RenameProject("demo", "legacy-api", "legacy-api-v2") || s.RenameProject("demo", "nope", "x") {
		t.Fatal("RenameProject")
	}
	key := s.Keys("demo", "legacy-api-v2")[0].Public
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "keys/?per_page=5"}, {http.MethodPut, "keys/" + key + "/"}, {http.MethodDelete, "keys/" + key + "/"},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+"/api/0/projects/demo/legacy-api/"+c.path, strings.NewReader(`{"name":"x"}`))
		req.Header.Set("Authorization", "Bearer "+TokenAdmin)
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Slug   string `json:"slug"`
			Detail struct {
				Extra struct{ URL, Slug string } `json:"extra"`
			} `json:"detail"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		want := "/api/0/projects/demo/legacy-api-v2/" + c.path
		if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != want || body.Slug != "legacy-api-v2" ||
			body.Detail.Extra.URL != want || body.Detail.Extra.Slug != "legacy-api-v2" {
			t.Fatalf("%s: %d %q %+v", c.method, resp.StatusCode, resp.Header.Get("Location"), body)
		}
	}
	if k := s.Keys("demo", "legacy-api-v2")[0]; k.Public != key || k.Label == "x" {
		t.Fatalf("a redirected write changed the key: %+v", k)
	}
	if resp, _ := get(t, ts, "/api/0/projects/demo/legacy-api-v2/keys/", TokenRead); resp.StatusCode != 200 {
		t.Fatalf("the new slug: %d", resp.StatusCode)
	}
}

// ScaleProjects adds projects with the one key "Default" Sentry gives a new
// project, each with a DSN of its own.
func TestScaleProjectsHaveTheirDefaultKey(t *testing.T) {
	var s *Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.ServeHTTP(w, r) }))
	defer ts.Close()
	s = New(Options{ScaleProjects: 3, PublicURL: ts.URL})
	seen := map[string]bool{}
	for i := 1; i <= 3; i++ {
		keys := s.Keys("demo", FleetSlug(i))
		dsn := s.DSN("demo", FleetSlug(i), "Default")
		if len(keys) != 1 || keys[0].Label != "Default" || !keys[0].Active || dsn == "" || seen[dsn] {
			t.Fatalf("%s: keys %+v, DSN %q", FleetSlug(i), keys, dsn)
		}
		seen[dsn] = true
	}
	resp, body := get(t, ts, "/api/0/projects/demo/fleet-app-003/keys/", TokenRead)
	if resp.StatusCode != 200 || !strings.Contains(body, `"name":"Default"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}
