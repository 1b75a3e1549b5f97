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
	return d.Scheme + "://" + d.PublicKey + "@" + CanonicalHost(d) + d.Prefix + "/" + strconv.FormatInt(d.ProjectID, 10), true
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

// Same reports whether a and b are one key's DSN: equal as canonical DSNs,
// or, when either is not a DSN, equal as text (surrounding blanks aside).
func Same(a, b string) bool {
	ca, aok := Canonical(a)
	cb, bok := Canonical(b)
	if aok && bok {
		return ca == cb
	}
	return !aok && !bok && strings.TrimSpace(a) == strings.TrimSpace(b) && strings.TrimSpace(a) != ""
}
