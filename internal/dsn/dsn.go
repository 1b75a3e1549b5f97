// Package dsn reads the DSNs GitLab issues for client keys: both the current
// form, <scheme>://<key>@<host>:<port>/errortracking/api/v1/projects/<id>,
// and the legacy one of 14.3–16.0, <scheme>://<key>@<host>/api/v4/error_tracking/collector/<id>.
// Both are Sentry DSNs: the last path segment is the project, what comes
// before it is the path prefix of the ingestion endpoints.
package dsn

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/errtrack/errtrack/internal/safetext"
)

// MaxLen bounds a DSN errtrack accepts; GitLab's are about 110 characters.
const MaxLen = 2048

// DSN is a parsed client key DSN.
type DSN struct {
	Scheme    string // http or https
	PublicKey string
	Host      string // host[:port]
	Prefix    string // path before the project id, no trailing slash
	ProjectID int64
}

// Legacy reports the collector form of GitLab 14.3–16.0.
func (d DSN) Legacy() bool { return strings.HasSuffix(d.Prefix, "/api/v4/error_tracking/collector") }

// EnvelopeURL is where a Sentry SDK sends events for this DSN, with the
// trailing slash every SDK sends: Sentry's ingestion (Relay) routes only
// /api/ID/envelope/ and forwards the unslashed form to Sentry's web app,
// which ingests nothing.
func (d DSN) EnvelopeURL() string {
	return d.Scheme + "://" + d.Host + d.Prefix + "/api/" + strconv.FormatInt(d.ProjectID, 10) + "/envelope/"
}

// Check reports why s is not safe to hand to another program (a clipboard,
// a CI/CD variable): it must be an http(s) URL with a host, and hold no
// whitespace, control or invisible characters. Text pasted into a shell can
// otherwise carry a second command, or end bracketed paste early.
func Check(s string) error {
	if s == "" {
		return errors.New("the DSN is empty")
	}
	if len(s) > MaxLen {
		return fmt.Errorf("the DSN is %d bytes long, more than a DSN can be", len(s))
	}
	for _, r := range s {
		switch {
		case r == unicode.ReplacementChar:
			return errors.New("the DSN holds invalid UTF-8")
		case unicode.IsSpace(r):
			return errors.New("the DSN holds whitespace")
		case unicode.IsControl(r):
			return errors.New("the DSN holds control characters")
		case safetext.Invisible(r):
			return errors.New("the DSN holds invisible characters")
		case !unicode.IsPrint(r):
			return errors.New("the DSN holds unprintable characters")
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return errors.New("the DSN is not a URL")
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return fmt.Errorf("the DSN's scheme is %q, not http or https", safetext.Excerpt(u.Scheme, 20))
	}
	if u.Host == "" {
		return errors.New("the DSN has no host")
	}
	// Each part within a DSN's grammar, so that pasted after
	// "export SENTRY_DSN=" it is one word with nothing for a shell to run
	// ($, backticks, quotes, ;, |, & and the like are in no part of it).
	switch _, hasPassword := u.User.Password(); {
	case u.User != nil && !keyPart().MatchString(u.User.Username()):
		return errors.New("the DSN's public key holds characters a key does not have")
	case hasPassword:
		return errors.New("the DSN holds a password")
	case !hostPart().MatchString(u.Host):
		return errors.New("the DSN's host holds characters a host does not have")
	case !pathPart().MatchString(u.EscapedPath()) || u.RawPath != "" && u.RawPath != u.Path:
		return errors.New("the DSN's path holds characters a DSN's path does not have")
	case u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(s, "?#"):
		return errors.New("the DSN holds a query or a fragment")
	}
	return nil
}

// The patterns compile on first use: a command that checks no DSN does
// not pay for them when it starts.
var (
	keyPart  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })
	hostPart = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$`)
	})
	pathPart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)*/?$`) })
)

// Parse reads a DSN, checking it first as Check does.
func Parse(s string) (DSN, error) {
	if err := Check(s); err != nil {
		return DSN{}, err
	}
	u, _ := url.Parse(s)
	key := u.User.Username()
	if key == "" {
		return DSN{}, errors.New("the DSN has no public key before its host")
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return DSN{}, errors.New("the DSN has no project id")
	}
	id, err := strconv.ParseInt(path[i+1:], 10, 64)
	if err != nil || id <= 0 {
		return DSN{}, errors.New("the DSN does not end in a project id")
	}
	return DSN{Scheme: u.Scheme, PublicKey: key, Host: u.Host, Prefix: path[:i], ProjectID: id}, nil
}
