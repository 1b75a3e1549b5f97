package dsn

import (
	"net"
	"strconv"
	"strings"
)

// Canonical is s as one form per key: the scheme and host lower-cased, a
// port that is the scheme's default dropped, no trailing slash. GitLab
// writes its DSNs with the port (observe.gitlab.com:443) and people copy
// them without it, with a slash, or with the host in capitals: each is the
// same key. ok is false when s is not a DSN.
func Canonical(s string) (string, bool) {
	d, err := Parse(strings.TrimSpace(s))
	if err != nil {
		return "", false
	}
	d.Host = CanonicalHost(d)
	return d.String(), true
}

// CanonicalHost is d's host[:port] lower-cased, without the scheme's
// default port: where its events go.
func CanonicalHost(d DSN) string {
	host, port, err := net.SplitHostPort(d.Host)
	if err != nil {
		host, port = d.Host, ""
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if port == defaultPort(d.Scheme) {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" {
		return host
	}
	return host + ":" + port
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// GitLab reports a DSN of GitLab's integrated error tracking: a glet_ key,
// or the path of either of its collectors (under any relative URL root).
func (d DSN) GitLab() bool {
	return strings.HasPrefix(d.PublicKey, "glet_") || d.Legacy() ||
		strings.HasSuffix(d.Prefix, "/errortracking/api/v1/projects")
}

// Identity is what names s's key, ok false when s is not a DSN.
//
// A Sentry key is its public key and project ID: Sentry builds the DSN's
// host only when it answers (SENTRY_PUBLIC_ENDPOINT, o<org>. subdomains,
// a region, a customer Relay), and Relay reads the key and the project
// from the DSN and never compares the host or the path before the ID
// (relay-server/src/extractors/request_meta.rs, PartialDsn). So the same
// key copied from another Sentry page, another region's spelling or an
// older DSN host is that key.
//
// A GitLab DSN keeps its canonical form, host and path included: two
// hosts are two GitLab instances (each with its own keys), and GitLab's
// two collector paths are not promised to serve each other's keys. Only
// where both sides are Sentry-shaped is the host left out.
func Identity(s string) (string, bool) {
	d, err := Parse(strings.TrimSpace(s))
	if err != nil {
		return "", false
	}
	if d.GitLab() {
		c, _ := Canonical(s)
		return c, true
	}
	return "sentry:" + d.PublicKey + "/" + strconv.FormatInt(d.ProjectID, 10), true
}

// Same reports whether a and b are one key's DSN: one Identity (for a
// Sentry key, its public key and project in any spelling; for a GitLab
// key, equal as canonical DSNs), or, when either is not a DSN, equal as
// text (surrounding blanks aside).
func Same(a, b string) bool {
	ia, aok := Identity(a)
	ib, bok := Identity(b)
	if aok && bok {
		return ia == ib
	}
	return !aok && !bok && strings.TrimSpace(a) == strings.TrimSpace(b) && strings.TrimSpace(a) != ""
}

// String is d as a DSN, its host as parsed.
func (d DSN) String() string {
	return d.Scheme + "://" + d.PublicKey + "@" + d.Host + d.Prefix + "/" + strconv.FormatInt(d.ProjectID, 10)
}
