package main

import (
	"bytes"
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
