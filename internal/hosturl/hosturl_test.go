package hosturl

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	ok := map[string]string{
		"gitlab.com":                         "https://gitlab.com",
		"https://GitLab.com/":                "https://gitlab.com",
		"https://gitlab.com:443":             "https://gitlab.com",
		"http://127.0.0.1:8080/":             "http://127.0.0.1:8080",
		"http://localhost:80":                "http://localhost",
		"  https://example.com/gitlab/ ":     "https://example.com/gitlab",
		"https://example.com/gitlab/api/v4/": "https://example.com/gitlab",
		"https://[::1]:8443":                 "https://[::1]:8443",
		"gitlab.example.com:8443":            "https://gitlab.example.com:8443",
		"http://127.0.0.1:018236":            "http://127.0.0.1:18236",
		"https://gitlab.example.com.":        "https://gitlab.example.com",
		"https://GitLab.Example.com.:0443/":  "https://gitlab.example.com",
		"http://[0:0:0:0:0:0:0:1]:8080":      "http://[::1]:8080",
	}
	for in, want := range ok {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://x", "https://user:pw@host", "https://h/?q=1", "https://", "http://#x",
		"https://gitlab\u202e.com", "https://h:0", "https://h:65536", "https://h.:99999999999999999999", "https://..", "https://bücher.example", "https://h/%E2%80%AEx", "https://h/\u200b"} {
		if got, err := Normalize(bad); err == nil {
			t.Errorf("Normalize(%q) = %q, want error", bad, got)
		}
	}
}

// One instance however its host is written: scheme, case, port (leading
// zeros, the default port), a trailing dot; on this machine, localhost,
// 127.0.0.1 and [::1] on one port are one listener's names. Other hosts
// stay apart.
func TestSameInstance(t *testing.T) {
	same := [][2]string{
		{"http://localhost:18236", "http://127.0.0.1:018236"},
		{"http://localhost:18236", "http://[::1]:18236/"},
		{"http://LOCALHOST.:18236", "127.0.0.1:18236"},
		{"gitlab.example.com", "https://GitLab.Example.com.:443/"},
		{"https://example.com/gitlab", "https://example.com/gitlab/api/v4"},
	}
	for _, p := range same {
		if Identity(p[0]) != Identity(p[1]) {
			t.Errorf("%q and %q are two hosts: %q, %q", p[0], p[1], Identity(p[0]), Identity(p[1]))
		}
	}
	apart := [][2]string{
		{"http://localhost:18236", "http://localhost:18237"},
		{"http://127.0.0.1:18236", "http://10.0.0.1:18236"},
		{"https://gitlab.example.com", "https://gitlab.example.org"},
		{"https://example.com/gitlab", "https://example.com/other"},
	}
	for _, p := range apart {
		if Identity(p[0]) == Identity(p[1]) {
			t.Errorf("%q and %q are one host: %q", p[0], p[1], Identity(p[0]))
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for s, want := range map[string]bool{
		"http://127.0.0.1:8080": true, "http://localhost": true, "http://[::1]:1": true,
		"http://127.9.9.9": true, "https://gitlab.com": false, "http://10.0.0.1": false,
	} {
		if IsLoopback(s) != want {
			t.Errorf("IsLoopback(%q) != %v", s, want)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"gitlab.com", "https://a:1/b/", "http://[::1]", "x://y", "%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Normalize(s)
		if err != nil {
			return
		}
		if !strings.HasPrefix(n, "https://") && !strings.HasPrefix(n, "http://") {
			t.Fatalf("Normalize(%q) = %q lacks a scheme", s, n)
		}
		if strings.HasSuffix(n, "/") {
			t.Fatalf("Normalize(%q) = %q ends in /", s, n)
		}
		again, err := Normalize(n)
		if err != nil || again != n {
			t.Fatalf("not idempotent: %q -> %q -> %q, %v", s, n, again, err)
		}
		if Identity(s) != Identity(n) || !Same(s, n) {
			t.Fatalf("%q and its normal form %q are two hosts: %q, %q", s, n, Identity(s), Identity(n))
		}
	})
}
