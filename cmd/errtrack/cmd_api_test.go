package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

const keys1 = "projects/1/error_tracking/client_keys"

// newScaleCLI is a CLI against a mock whose project 1 has 250 keys.
func newScaleCLI(t *testing.T) *cli {
	t.Helper()
	s, err := mockserver.New(mockserver.Options{ScaleKeys: 248})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, s)
	c.server = s
	return c
}

// --paginate follows the pages and prints one array of every element.
func TestAPIPaginate(t *testing.T) {
	t.Parallel()
	c := newScaleCLI(t)
	r := c.run("", "api", keys1, "--paginate")
	r.must(t, 0)
	var keys []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) != 250 {
		t.Fatalf("--paginate: %d elements, %v", len(keys), err)
	}
	// One page without it: the server's 20.
	r = c.run("", "api", keys1)
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) != 20 {
		t.Fatalf("one page: %d elements, %v", len(keys), err)
	}
	c.run("", "api", "-X", "DELETE", keys1+"/1", "--paginate").must(t, 2, "--paginate follows the pages of a GET")
}

// --jq filters the answer: numbers as JSON, strings without quotes, one
// per line; a bad expression is a usage error with gojq's message.
func TestAPIJQ(t *testing.T) {
	t.Parallel()
	c := newScaleCLI(t)
	r := c.run("", "api", keys1, "--paginate", "--jq", "length")
	r.must(t, 0)
	if r.stdout != "250\n" {
		t.Fatalf("--paginate --jq length: %q", r.stdout)
	}
	r = c.run("", "api", keys1)
	var keys []struct {
		ID        int64  `json:"id"`
		PublicKey string `json:"public_key"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) == 0 {
		t.Fatal(r.stdout, err)
	}
	r = c.run("", "api", keys1, "--jq", ".[0].id")
	r.must(t, 0)
	if want, _ := json.Marshal(keys[0].ID); r.stdout != string(want)+"\n" {
		t.Fatalf("--jq .[0].id: %q, want %s", r.stdout, want)
	}
	r = c.run("", "api", keys1, "-q", ".[0:2][] | .public_key")
	r.must(t, 0)
	if r.stdout != keys[0].PublicKey+"\n"+keys[1].PublicKey+"\n" {
		t.Fatalf("strings are printed raw, one a line: %q", r.stdout)
	}
	r = c.run("", "api", keys1, "--jq", ".[0] | {id}")
	if r.stdout != `{"id":`+string(mustJSON(t, keys[0].ID))+"}\n" {
		t.Fatalf("an object is compact JSON: %q", r.stdout)
	}
	c.run("", "api", keys1, "--jq", ".[").must(t, 2, "--jq: unexpected EOF")
	c.run("", "api", keys1, "--jq", "nosuchfunc").must(t, 2, "function not defined: nosuchfunc/0")
	c.run("", "api", keys1, "--jq", ".[0].id.x").must(t, 1, "--jq: expected an object but got: number")
	// No environment reaches the expression.
	if r := c.run("", "api", "user", "--jq", "env | length"); r.stdout != "0\n" {
		t.Fatalf("env: %q", r.stdout)
	}
	// A server's error is printed as sent, unfiltered, with exit 1.
	c.run("", "api", "projects/6/error_tracking/settings", "--jq", ".x").must(t, 1, `"message": "404 Project Not Found"`)
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Server text that --jq prints raw is still cleaned: no escape sequence
// or control character reaches the terminal.
func TestAPIJQEscapes(t *testing.T) {
	t.Parallel()
	s, _ := mockserver.New(mockserver.Options{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v4/hostile" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`[{"name":"a\u001b]0;owned\u0007b\u009b31mc\u202ed\te\nf"}]`))
			return
		}
		s.ServeHTTP(w, r)
	})
	c := newCLI(t, h)
	for _, expr := range []string{".[0].name", ".[0]", ".[0] | [.name]"} {
		r := c.run("", "api", "hostile", "--jq", expr)
		r.must(t, 0)
		for _, bad := range []string{"\x1b", "\a", "\u009b", "\u202e"} {
			if strings.Contains(r.stdout, bad) {
				t.Fatalf("--jq %s printed %q raw: %q", expr, bad, r.stdout)
			}
		}
	}
	r := c.run("", "api", "hostile", "--jq", ".[0].name")
	if !strings.HasPrefix(r.stdout, "ab") || !strings.Contains(r.stdout, "\te\nf\n") {
		t.Fatalf("raw string: %q", r.stdout)
	}
}

// -H adds a header; those that carry credentials or steer the request are
// usage errors, and nothing is sent.
func TestAPIHeaders(t *testing.T) {
	t.Parallel()
	s, _ := mockserver.New(mockserver.Options{})
	var mu sync.Mutex
	var seen []http.Header
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		s.ServeHTTP(w, r)
	})
	c := newCLI(t, h)
	c.run("", "api", "user", "-H", "X-Errtrack-Test: one", "-H", "Accept-Language: en").must(t, 0, "demo-maintainer")
	mu.Lock()
	last := seen[len(seen)-1]
	n := len(seen)
	mu.Unlock()
	if last.Get("X-Errtrack-Test") != "one" || last.Get("Accept-Language") != "en" || last.Get("PRIVATE-TOKEN") != mockserver.TokenMaintainer {
		t.Fatalf("headers sent: %v", last)
	}
	for _, hdr := range []string{"PRIVATE-TOKEN: " + "other", "private-token:x", "Authorization: Bearer x", "Cookie: a=b", "Host: evil.example", "X-A: b\r\nPRIVATE-TOKEN: x", "X-A: b\nc"} {
		c.run("", "api", "user", "-H", hdr).must(t, 2, "-H: ")
	}
	c.run("", "api", "user", "-H", "no colon").must(t, 2, "-H takes 'Key: Value'")
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != n {
		t.Fatalf("%d requests sent for refused headers", len(seen)-n)
	}
}

// --input sends a file's or stdin's JSON as the body; -X names the method.
func TestAPIInput(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	settings := "projects/1/error_tracking/settings"
	c.run(`{"active": false}`, "api", "-X", "PATCH", settings, "--input", "-").must(t, 0, `"active": false`)
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        no")
	file := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(file, []byte(`{"active": true}`), 0o600)
	c.run("", "api", "--method", "patch", settings, "--input", file).must(t, 0, `"active": true`)
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        yes")
	c.run(`{"active": false}`, "api", "-X", "PATCH", settings, "--input", "-", "-F", "active=true").must(t, 2, "not both")
	c.run(`{"active": false`, "api", "-X", "PATCH", settings, "--input", "-").must(t, 2, "one JSON value")
	c.run(`{}`, "api", "-X", "GET", settings, "--input", "-").must(t, 2, "--input sends a body")
	c.run("", "api", "-X", "PATCH", settings, "--input", filepath.Join(t.TempDir(), "none")).must(t, 2, "--input")
	c.run("", "api", "PATCH", settings, "-X", "GET").must(t, 2, "the method is given twice")
	c.run("", "api", "PATCH", settings, "-X", "patch", "-F", "active=false").must(t, 0, `"active": false`)
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        no")
}

// -i prints the status line and the headers before the body; a header
// echoing the token shows it redacted.
func TestAPIInclude(t *testing.T) {
	t.Parallel()
	s, _ := mockserver.New(mockserver.Options{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", "token "+r.Header.Get("PRIVATE-TOKEN"))
		s.ServeHTTP(w, r)
	})
	c := newCLI(t, h)
	r := c.run("", "api", "--include", "user")
	r.must(t, 0, "HTTP/1.1 200 OK\n", "Content-Type: application/json", "X-Echo: token [redacted]", `"username": "demo-maintainer"`)
	if strings.Index(r.stdout, "HTTP/1.1 200") != 0 || strings.Index(r.stdout, "Content-Type:") > strings.Index(r.stdout, `"username"`) {
		t.Fatalf("the head comes first: %s", r.stdout)
	}
	c.run("", "api", "-i", "projects/6/error_tracking/settings").must(t, 1, "HTTP/1.1 404 Not Found", "404 Project Not Found")
	if r := c.run("", "api", "user"); strings.Contains(r.stdout, "HTTP/1.1") {
		t.Fatal("head printed without -i")
	}
}

// errtrack api: a raw call with the stored credentials and errtrack's rules.
func TestAPICommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "api", "GET", "projects/demo%2Fweb-shop/error_tracking/settings")
	r.must(t, 0, `"active": true`, `"integrated": true`)
	c.run("", "api", "patch", "/api/v4/projects/1/error_tracking/settings", "-F", "active=false").must(t, 0, `"active": false`)
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        no")
	c.run("", "api", "GET", "projects/6/error_tracking/settings").must(t, 1, `"message": "404 Project Not Found"`, "Project not found")
	c.run("", "api", "GET", "https://evil.example/api/v4/user").must(t, 2, "not a URL")
	c.run("", "api").must(t, 2, "api takes a PATH")
	c.run("", "api", "FETCH", "user").must(t, 2, `"FETCH" is not an HTTP method`)
	c.run("", "api", "user").must(t, 0, `"username": "demo-maintainer"`) // GET, as gh api
	c.run("", "api", "GET", "user", "-f", "novalue").must(t, 2, "-f takes key=value")
	r = c.run("", "api", "GET", "projects", "-f", "search=paused", "-f", "membership=true")
	r.must(t, 0, "demo/paused")
	if strings.Contains(r.stdout, "demo/web-shop") {
		t.Fatal("-f did not reach the query")
	}
}
