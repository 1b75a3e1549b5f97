package sentry

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/internal/safetext"
)

// DefaultURL is Sentry's own service, SENTRY_URL's default as sentry-cli
// has it.
const DefaultURL = "https://sentry.io"

// maxAPIURL bounds an api_url; GitLab's column holds 255 characters.
const maxAPIURL = 2048

// Project names a Sentry project: the base URL of its Sentry (where
// /api/0/ is) and the organisation's and project's slugs.
type Project struct {
	Base string // "https://sentry.example.com", normalized, no trailing slash
	Org  string
	Slug string
}

// String is the project as a person reads it: host org/project.
func (p Project) String() string { return p.Base + " " + p.Org + "/" + p.Slug }

// ParseAPIURL reads the api_url GitLab's error tracking settings name for a
// Sentry-backed project, "https://sentry.example.com/api/0/projects/ORG/PROJECT/".
// It refuses what errtrack would not send a token to: a scheme other than
// http(s), plain http to a host other than loopback, user info, a query or
// fragment, escapes, dot segments, empty segments, and any path but
// [prefix]/api/0/projects/ORG/PROJECT[/].
func ParseAPIURL(raw string) (Project, error) {
	bad := func(why string) (Project, error) {
		return Project{}, &Error{Kind: ErrBadAPIURL, Message: fmt.Sprintf("the Sentry API URL %q %s", safetext.Excerpt(raw, 120), why)}
	}
	s := strings.TrimSpace(raw)
	switch {
	case s == "":
		return bad("is empty")
	case len(s) > maxAPIURL:
		return bad("is too long to be an API URL")
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7f {
			return bad("holds a space, a control or a non-ASCII character")
		}
	}
	if strings.ContainsAny(s, "%\\?#") {
		return bad("holds an escape, a backslash, a query or a fragment")
	}
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" || !strings.HasPrefix(s[len(u.Scheme):], "://") {
		return bad("is not a URL")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return bad("is not an http(s) URL")
	}
	if u.User != nil || strings.Contains(s, "@") {
		return bad("holds user info before its host")
	}
	host := strings.ToLower(u.Hostname())
	if host == "" || !validHost(host) {
		return bad("has no valid host")
	}
	if p := u.Port(); p != "" && !validPort(p) {
		return bad("has an invalid port")
	}
	if scheme == "http" && !loopback(host) {
		return bad("is plain http to a host other than this machine: a token is never sent there")
	}
	path := u.Path
	i := strings.LastIndex(path, "/api/0/projects/")
	if i < 0 {
		return bad("is not of the form https://HOST/api/0/projects/ORG/PROJECT/")
	}
	prefix, rest := path[:i], strings.TrimSuffix(path[i+len("/api/0/projects/"):], "/")
	segs := strings.Split(rest, "/")
	if len(segs) != 2 || !validSlug(segs[0]) || !validSlug(segs[1]) {
		return bad("does not end in projects/ORG/PROJECT/ with slugs of letters, digits, '_', '-' and '.'")
	}
	for _, seg := range strings.Split(strings.TrimPrefix(prefix, "/"), "/") {
		if prefix != "" && !validSlug(seg) {
			return bad("has an odd path before /api/0/")
		}
	}
	base, err := hosturl.Normalize(scheme + "://" + u.Host + prefix)
	if err != nil {
		return bad("has an invalid host")
	}
	return Project{Base: base, Org: segs[0], Slug: segs[1]}, nil
}

// NormalizeBase reads a Sentry URL as a person or SENTRY_URL gives it,
// "sentry.example.com", "https://sentry.io/" or an API URL
// ".../api/0/...", into the base the keyring and the client use.
func NormalizeBase(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if i := strings.Index(s, "/api/0"); i >= 0 && (len(s) == i+6 || s[i+6] == '/') {
		s = s[:i]
	}
	base, err := hosturl.Normalize(s)
	if err != nil {
		return "", &Error{Kind: ErrBadAPIURL, Message: "the Sentry URL: " + strings.ReplaceAll(err.Error(), "gitlab.example.com", "sentry.example.com")}
	}
	return base, nil
}

func validSlug(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}

func validHost(h string) bool {
	if ip := net.ParseIP(h); ip != nil {
		return true
	}
	if len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

func validPort(p string) bool {
	if len(p) > 5 {
		return false
	}
	n := 0
	for _, r := range p {
		if r < '0' || r > '9' {
			return false
		}
		n = n*10 + int(r-'0')
	}
	return n > 0 && n < 65536
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
