package dsn

import (
	"strings"
	"testing"
)

const gitlabDSN = "https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com:443/errortracking/api/v1/projects/5"

// Every spelling of one key's DSN is that key; another scheme, port, key,
// project or path is another.
func TestSame(t *testing.T) {
	for _, same := range []string{
		gitlabDSN,
		gitlabDSN + "/",
		"  " + gitlabDSN + "\n",
		"https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com/errortracking/api/v1/projects/5",
		"https://glet_aa77551d849c083f76d0bc545ed053a3@OBSERVE.GitLab.com:443/errortracking/api/v1/projects/5/",
		"HTTPS://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com/errortracking/api/v1/projects/5",
	} {
		if !Same(gitlabDSN, same) || !Same(same, gitlabDSN) {
			t.Errorf("%q is not the same DSN", same)
		}
	}
	for _, other := range []string{
		"http://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com:443/errortracking/api/v1/projects/5",
		"https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com:8443/errortracking/api/v1/projects/5",
		"https://glet_AA77551d849c083f76d0bc545ed053a3@observe.gitlab.com:443/errortracking/api/v1/projects/5",
		"https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com:443/errortracking/api/v1/projects/6",
		"https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com:443/api/v4/error_tracking/collector/5",
		"https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.co:443/errortracking/api/v1/projects/5",
		"not a dsn", "",
	} {
		if Same(gitlabDSN, other) {
			t.Errorf("%q is taken for the same DSN", other)
		}
	}
	if !Same("http://k@[::1]:80/p/1", "http://k@[::1]/p/1/") || Same("", "") || !Same("x", " x ") {
		t.Error("IPv6 default port, empty text, or equal non-DSN text")
	}
	if c, ok := Canonical("HTTP://k@Host.Example:80/a/b/3/"); !ok || c != "http://k@host.example/a/b/3" {
		t.Errorf("Canonical = %q, %v", c, ok)
	}
}

const sentryDSN = "https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@o42.ingest.us.sentry.io/2"

// A Sentry key is its public key and project in any DSN spelling: Sentry
// hands out the host it is configured with (an org subdomain, a region, a
// customer Relay) and Relay never compares it. A GitLab key stays bound
// to its host and collector path.
func TestSameSentryKeyInAnySpelling(t *testing.T) {
	for _, same := range []string{
		"https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@o42.ingest.sentry.io/2",
		"https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@sentry.io/2",
		"http://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@relay.internal:3000/2/",
		"https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@sentry.example/sentry/2",
	} {
		if !Same(sentryDSN, same) || !Same(same, sentryDSN) {
			t.Errorf("%q is not the same Sentry key", same)
		}
	}
	for _, other := range []string{
		"https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@o42.ingest.us.sentry.io/3",
		"https://5b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@o42.ingest.us.sentry.io/2",
		"https://4B1A3FD5E2C94E4B8A7E2D3C1F0E9D8C@o42.ingest.us.sentry.io/2",
		"https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@gitlab.example/errortracking/api/v1/projects/2",
		"https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@gitlab.example/api/v4/error_tracking/collector/2",
	} {
		if Same(sentryDSN, other) {
			t.Errorf("%q is taken for the same Sentry key", other)
		}
	}
	// GitLab's: another host is another instance, even with the key.
	for _, other := range []string{
		"https://glet_aa77551d849c083f76d0bc545ed053a3@gitlab.example/errortracking/api/v1/projects/5",
		"https://glet_aa77551d849c083f76d0bc545ed053a3@observe.gitlab.com/5",
	} {
		if Same(gitlabDSN, other) {
			t.Errorf("%q is taken for the same GitLab key", other)
		}
	}
	// A file variable's line holding the key under another host is
	// replaced too, its name and quotes kept.
	out, n := ReplaceInFile("A=1\nSENTRY_DSN=\"https://4b1a3fd5e2c94e4b8a7e2d3c1f0e9d8c@o42.ingest.sentry.io/2\"\n", sentryDSN, "https://new@o42.ingest.us.sentry.io/2")
	if n != 1 || out != "A=1\nSENTRY_DSN=\"https://new@o42.ingest.us.sentry.io/2\"\n" {
		t.Errorf("ReplaceInFile = %q, %d", out, n)
	}
}

func FuzzSame(f *testing.F) {
	for _, s := range []string{gitlabDSN, gitlabDSN + "/", sentryDSN, "http://k@[::1]:80/p/1", "HTTP://k@H:81/x/2", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := Canonical(s)
		if !ok {
			if Same(s, gitlabDSN) {
				t.Fatalf("%q is no DSN and yet the same as one", s)
			}
			return
		}
		again, ok := Canonical(c)
		if !ok || again != c {
			t.Fatalf("Canonical(%q) = %q, and again %q %v", s, c, again, ok)
		}
		if !Same(s, c) || !Same(c, s) || !Same(s, s) {
			t.Fatalf("%q is not the same as its canonical form %q", s, c)
		}
		if strings.HasSuffix(c, "/") || strings.ToLower(c[:strings.Index(c, "://")]) != c[:strings.Index(c, "://")] {
			t.Fatalf("Canonical(%q) = %q keeps a slash or a capital scheme", s, c)
		}
		// Another host: the same key when it is Sentry's, another when
		// it is GitLab's (another instance).
		d, _ := Parse(strings.TrimSpace(s))
		moved := d
		moved.Host = "elsewhere.example"
		if d.Host == moved.Host {
			moved.Host = "other.example"
		}
		if again := moved.String(); Same(s, again) == d.GitLab() {
			t.Fatalf("%q and %q: same %v, GitLab %v", s, again, Same(s, again), d.GitLab())
		}
		// Another project or public key is another key, whoever's.
		other := d
		other.ProjectID++
		if other.ProjectID > 0 && Same(s, other.String()) {
			t.Fatalf("%q is the same as %q", s, other.String())
		}
		if strings.TrimSpace(s) != s {
			return // blanks around it would be parts of the line
		}
		// Found on a dotenv line, quoted or not, and replaced there alone.
		for _, line := range []string{"SENTRY_DSN=" + s, `export SENTRY_DSN="` + s + `"`, "A=1\nSENTRY_DSN='" + s + "' # prod\nB=2"} {
			found := InFile(line)
			if len(found) != 1 || !Same(found[0].Value, s) {
				t.Fatalf("InFile(%q) = %+v", line, found)
			}
			out, n := ReplaceInFile(line, c, gitlabDSN)
			if n != 1 || strings.Count(out, "\n") != strings.Count(line, "\n") || len(InFile(out)) != 1 || InFile(out)[0].Value != gitlabDSN {
				t.Fatalf("ReplaceInFile(%q) = %q, %d", line, out, n)
			}
		}
	})
}
