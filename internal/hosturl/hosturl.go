// Package hosturl normalizes the GitLab host a user types into one canonical
// form, so the keyring entry, the config file and the API client agree on it.
package hosturl

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Default is the host used when nothing else is configured.
const Default = "https://gitlab.com"

// Normalize turns "gitlab.example.com", "https://GitLab.example.com:443/" or
// "https://example.com/gitlab/" into "scheme://host[:port][/path]": scheme
// defaulting to https, host lower-cased, default ports and trailing slashes
// dropped. A path is kept for instances served under a relative URL root.
func Normalize(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", errors.New("the host is empty: give a URL such as https://gitlab.example.com")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("%q is not a valid host URL: give one such as https://gitlab.example.com", raw)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return "", fmt.Errorf("host URL scheme %q is not supported: use https:// (or http:// for a local test server)", u.Scheme)
	}
	if u.User != nil {
		return "", errors.New("the host URL must not contain a user name or password")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("the host URL must not contain a query or fragment")
	}
	host := strings.ToLower(u.Hostname())
	if strings.HasPrefix(host, ".") || strings.Contains(host, "..") {
		return "", fmt.Errorf("%q has an empty label in its host name: give one such as https://gitlab.example.com", raw)
	}
	// A fully qualified name's trailing dot names the same host.
	host = strings.TrimSuffix(host, ".")
	if ip := net.ParseIP(host); ip != nil {
		host = ip.String() // one spelling of an address: [0:0:0:0:0:0:0:1] is [::1]
	}
	if host == "" || strings.ContainsAny(host, " \t") {
		return "", fmt.Errorf("%q has no host name: give one such as https://gitlab.example.com", raw)
	}
	// The host is drawn on the terminal and sent in requests: ASCII only
	// (an international domain name in its xn-- form).
	for _, r := range u.Host + u.Path {
		if r <= ' ' || r >= 0x7f {
			return "", errors.New("the host URL holds a space, a control or a non-ASCII character: write an international domain name in its xn-- form")
		}
	}
	port := u.Port()
	if port != "" {
		// 018236 is port 18236.
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 {
			return "", fmt.Errorf("%q has no valid port: a port is a number from 1 to 65535", raw)
		}
		port = strconv.FormatUint(n, 10)
	}
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	hostport := host
	if strings.Contains(host, ":") { // IPv6 literal
		hostport = "[" + host + "]"
	}
	if port != "" {
		hostport = net.JoinHostPort(host, port)
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	path = strings.TrimSuffix(path, "/api/v4")
	return scheme + "://" + hostport + path, nil
}

// IsLoopback reports whether the normalized URL points at this machine.
func IsLoopback(normalized string) bool {
	u, err := url.Parse(normalized)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Identity names the GitLab instance a host URL reaches, for what must not
// tell one instance apart by how its URL is written: the rotation ledger
// and its claims. Past Normalize (scheme, case, default port, leading
// zeros, trailing dot), the port is always written and the scheme left
// out (one listener serves one of them), and on this machine localhost,
// 127.0.0.1 and [::1] on one port are one name. GitLab serves no instance
// identity a maintainer's token can read (gitlabhq lib/api/metadata.rb:
// /api/v4/metadata and /api/v4/version answer version, revision, kas and
// enterprise, shared by every instance of a release), so no other alias is merged: two names of a remote
// host may be two instances. A URL that does not normalize is its own
// identity.
func Identity(raw string) string {
	n, err := Normalize(raw)
	if err != nil {
		return raw
	}
	u, err := url.Parse(n)
	if err != nil {
		return n
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	switch host {
	case "localhost", "127.0.0.1", "::1": // not all of 127/8: 127.0.0.2 is another listener
		host = "loopback"
	}
	return net.JoinHostPort(host, port) + u.EscapedPath()
}

// Same reports two host URLs that name one instance (Identity).
func Same(a, b string) bool { return a == b || Identity(a) == Identity(b) }
