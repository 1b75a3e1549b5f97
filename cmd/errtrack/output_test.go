package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// JSON for people and jq alike: '>' in a fix ("Settings > Monitor") is
// written as it is, not as \u003e, in every shape writeJSON takes.
func TestJSONKeepsHTMLCharacters(t *testing.T) {
	for _, v := range []any{
		map[string]string{"fix": "Settings > Monitor > Error Tracking & <more>"},
		[]map[string]string{{"fix": "Settings > Monitor > Error Tracking & <more>"}},
		[]apiclient.ClientKey{{ID: 1, PublicKey: "a<b>&c", DSN: "Settings > Monitor > Error Tracking & <more>"}},
	} {
		var b bytes.Buffer
		if err := writeJSON(&b, v); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), `\u00`) || !strings.Contains(b.String(), "Settings > Monitor > Error Tracking & <more>") {
			t.Errorf("%T written as\n%s", v, b.String())
		}
	}
}

// The doctor's fixes name GitLab's menus with '>': its JSON keeps them.
func TestDoctorJSONKeepsGreaterThan(t *testing.T) {
	c := newCLI(t, nil)
	r := c.run("", "doctor", "-p", "demo/mobile-app", "--json")
	if strings.Contains(r.stdout, `\u003e`) || !strings.Contains(r.stdout, "Settings > Monitor > Error Tracking") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestHostileServerOutputIsSafe(t *testing.T) {
	t.Parallel()
	const evil = "\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\u200b\U000e0041"
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(evil)
		s := string(b)
		if strings.HasSuffix(r.URL.Path, "/settings") {
			w.Write([]byte(`{"active":true,"integrated":true,"project_name":` + s + `,"api_url":` + s + `}`))
			return
		}
		if r.Method == "DELETE" {
			w.WriteHeader(403)
			w.Write([]byte(`{"message":` + s + `}`))
			return
		}
		w.Write([]byte(`[{"id":1,"active":true,"public_key":` + s + `,"sentry_dsn":` + s + `}]`))
	}))
	for _, args := range [][]string{
		{"settings", "get", "-p", "1"}, {"settings", "get", "-p", "1", "--json"},
		{"keys", "list", "-p", "1"}, {"keys", "list", "-p", "1", "--json"},
		{"keys", "delete", "-p", "1", "1", "--yes"},
	} {
		r := c.run("", args...)
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\u200b", "\U000e0041"} {
			if strings.Contains(r.stdout+r.stderr, bad) {
				t.Fatalf("%v printed %q:\n%q\n%q", args, bad, r.stdout, r.stderr)
			}
		}
	}
	r := c.run("", "keys", "list", "-p", "1", "--json")
	var keys []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || keys[0]["public_key"] != evil {
		t.Fatalf("JSON does not round-trip: %v %q", err, r.stdout)
	}
}
