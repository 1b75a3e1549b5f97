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
	}
	for in, want := range ok {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://x", "https://user:pw@host", "https://h/?q=1", "https://", "http://#x",
		"https://gitlab\u202e.com", "https://bücher.example", "https://h/%E2%80%AEx", "https://h/\u200b"} {
		if got, err := Normalize(bad); err == nil {
			t.Errorf("Normalize(%q) = %q, want error", bad, got)
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
	})
}
