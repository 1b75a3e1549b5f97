// Package hosturl normalizes the GitLab host a user types into one canonical
// form, so the keyring entry, the config file and the API client agree on it.
package hosturl

import (
	"errors"
	"fmt"
	"net"
	"net/url"
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
