package sentry

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestParseAPIURL(t *testing.T) {
	good := map[string]Project{
		"https://sentry.example.com/api/0/projects/demo/legacy-api/": {Base: "https://sentry.example.com", Org: "demo", Slug: "legacy-api"},
		"https://Sentry.Example.com:443/api/0/projects/o/p":          {Base: "https://sentry.example.com", Org: "o", Slug: "p"},
		"https://example.com:8443/sentry/api/0/projects/o_1/p.2/":    {Base: "https://example.com:8443/sentry", Org: "o_1", Slug: "p.2"},
		"http://127.0.0.1:9000/api/0/projects/demo/app/":             {Base: "http://127.0.0.1:9000", Org: "demo", Slug: "app"},
		"http://localhost/api/0/projects/demo/app/":                  {Base: "http://localhost", Org: "demo", Slug: "app"},
		"http://[::1]:9000/api/0/projects/demo/app/":                 {Base: "http://[::1]:9000", Org: "demo", Slug: "app"},
		"  https://sentry.io/api/0/projects/acme/web/  ":             {Base: "https://sentry.io", Org: "acme", Slug: "web"},
	}
	for in, want := range good {
		got, err := ParseAPIURL(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", in, got, err, want)
		}
	}
	bad := []string{
		"", "sentry.example.com/api/0/projects/o/p/", "ftp://sentry.example.com/api/0/projects/o/p/",
		"http://sentry.example.com/api/0/projects/o/p/",          // plain http beyond loopback
		"https://user:pw@sentry.example.com/api/0/projects/o/p/", // user info
		"https://sentry.example.com@evil.example/api/0/projects/o/p/",
		"https://sentry.example.com/api/0/projects/o/p/?x=1",    // query
		"https://sentry.example.com/api/0/projects/o/p/#f",      // fragment
		"https://sentry.example.com/api/0/projects/o%2Fx/p/",    // escape
		"https://sentry.example.com/api/0/projects/o/../p/",     // dot segment
		"https://sentry.example.com/api/0/projects/o//p/",       // empty segment
		"https://sentry.example.com/api/0/projects/o/p/keys/",   // another route
		"https://sentry.example.com/api/0/organizations/o/",     // not a project
		"https://sentry.example.com/x y/api/0/projects/o/p/",    // space
		"https://sentry.example.com/../api/0/projects/o/p/",     // odd prefix
		"https://sentry.example.com:99999/api/0/projects/o/p/",  // port
		"https://-bad-.example.com/api/0/projects/o/p/",         // host
		"https://sentry.example.com\\@evil/api/0/projects/o/p/", // backslash
		"https://séntry.example.com/api/0/projects/o/p/",        // non-ASCII
		"https://sentry.example.com/api/0/projects/o/p\x00/",    // control
		"https:///api/0/projects/o/p/",                          // no host
		"https://sentry.example.com/api/0/projects/" + strings.Repeat("o", 101) + "/p/",
	}
	for _, in := range bad {
		if p, err := ParseAPIURL(in); err == nil || !errors.Is(err, ErrBadAPIURL) {
			t.Errorf("%q: accepted as %+v (%v)", in, p, err)
		}
	}
}

func TestNormalizeBase(t *testing.T) {
	for in, want := range map[string]string{
		"https://sentry.io/":                   "https://sentry.io",
		"sentry.example.com":                   "https://sentry.example.com",
		"https://sentry.example.com/api/0/":    "https://sentry.example.com",
		"https://sentry.example.com:443/api/0": "https://sentry.example.com",
		"http://127.0.0.1:9000":                "http://127.0.0.1:9000",
	} {
		if got, err := NormalizeBase(in); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ftp://x", "https://u:p@sentry.io"} {
		if _, err := NormalizeBase(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// FuzzParseAPIURL: whatever it accepts is https (or http to loopback),
// has no user info, query or escape, and names the same project when its
// base and slugs are put back together.
func FuzzParseAPIURL(f *testing.F) {
	for _, s := range []string{
		"https://sentry.example.com/api/0/projects/demo/legacy-api/", "http://127.0.0.1:9/api/0/projects/a/b",
		"https://a@b/api/0/projects/o/p/", "https://x/p/api/0/projects/o/p/", "http://10.0.0.1/api/0/projects/o/p/",
		"https://[::1]:1/api/0/projects/o/p/", "https://h/api/0/projects/o/p/keys/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := ParseAPIURL(raw)
		if err != nil {
			if !errors.Is(err, ErrBadAPIURL) {
				t.Fatalf("%q: untyped error %v", raw, err)
			}
			return
		}
		u, err := url.Parse(p.Base)
		if err != nil || u.User != nil || u.RawQuery != "" || strings.Contains(p.Base, "%") {
			t.Fatalf("%q: base %q", raw, p.Base)
		}
		if u.Scheme != "https" && !(u.Scheme == "http" && loopback(u.Hostname())) {
			t.Fatalf("%q: base %q is plain http beyond loopback", raw, p.Base)
		}
		if !validSlug(p.Org) || !validSlug(p.Slug) {
			t.Fatalf("%q: slugs %q %q", raw, p.Org, p.Slug)
		}
		again, err := ParseAPIURL(p.Base + "/api/0/projects/" + p.Org + "/" + p.Slug + "/")
		if err != nil || again != p {
			t.Fatalf("%q: %+v does not read back (%+v, %v)", raw, p, again, err)
		}
	})
}
