package apiclient

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// ServerVersion is the GitLab release a server runs.
type ServerVersion struct {
	Version  string `json:"version"` // "17.5.1-ee", "16.0.0-pre"
	Revision string `json:"revision"`
}

// Release reads major.minor from the version, leniently.
func (v ServerVersion) Release() (major, minor int, ok bool) {
	parts := strings.SplitN(strings.TrimPrefix(strings.TrimSpace(v.Version), "v"), ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil || major < 0 || minor < 0 {
		return 0, 0, false
	}
	return major, minor, true
}

// Short is "17.5", or the version as sent when it cannot be read.
func (v ServerVersion) Short() string {
	if maj, min, ok := v.Release(); ok {
		return strconv.Itoa(maj) + "." + strconv.Itoa(min)
	}
	return v.Version
}

// AtLeast reports whether the release is major.minor or later; false when
// it cannot be read.
func (v ServerVersion) AtLeast(major, minor int) bool {
	maj, min, ok := v.Release()
	return ok && (maj > major || (maj == major && min >= minor))
}

// ServerVersion asks /version, else /metadata (GitLab 15.2 and later), once:
// a successful answer is kept for the client's life.
func (c *Client) ServerVersion(ctx context.Context) (*ServerVersion, error) {
	c.versionMu.Lock()
	cached := c.version
	c.versionMu.Unlock()
	if cached != nil {
		return cached, nil
	}
	v, _, err := doOne[ServerVersion](ctx, c, request{method: http.MethodGet, path: "version"})
	if errors.Is(err, ErrNotFound) {
		v, _, err = doOne[ServerVersion](ctx, c, request{method: http.MethodGet, path: "metadata"})
	}
	if err != nil {
		return nil, err
	}
	c.versionMu.Lock()
	c.version = v
	c.versionMu.Unlock()
	return v, nil
}

// noteVersion adds the server's release to a catch-all 404: which release
// lacks the endpoint is what tells a user what to do.
func (c *Client) noteVersion(ctx context.Context, r request, err error) {
	var e *APIError
	if !errors.As(err, &e) || e.Kind != ErrRouteMissing || r.path == "version" || r.path == "metadata" {
		return
	}
	if v, verr := c.ServerVersion(ctx); verr == nil {
		e.ServerVersion = v.Version
	}
}
