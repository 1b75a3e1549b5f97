package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

func settingsPath(p ProjectRef) string {
	return "projects/" + p.escaped() + "/error_tracking/settings"
}

// GetSettings reads a project's error tracking settings.
// A project without settings gives ErrSettingsNotFound.
func (c *Client) GetSettings(ctx context.Context, p ProjectRef) (*Settings, *Response, error) {
	return doOne[Settings](ctx, c, request{method: http.MethodGet, path: settingsPath(p)})
}

// CreateSettings creates (or overwrites) the settings with PUT. Only works
// where integrated error tracking is available; else ErrIntegratedUnavailable.
func (c *Client) CreateSettings(ctx context.Context, p ProjectRef, active, integrated bool) (*Settings, *Response, error) {
	q := url.Values{"active": {strconv.FormatBool(active)}, "integrated": {strconv.FormatBool(integrated)}}
	return c.writeSettings(ctx, request{method: http.MethodPut, path: settingsPath(p), query: q}, active)
}

// UpdateSettings enables or disables existing settings with PATCH, and sets
// integrated when it is not nil.
func (c *Client) UpdateSettings(ctx context.Context, p ProjectRef, active bool, integrated *bool) (*Settings, *Response, error) {
	q := url.Values{"active": {strconv.FormatBool(active)}}
	if integrated != nil {
		q.Set("integrated", strconv.FormatBool(*integrated))
	}
	return c.writeSettings(ctx, request{method: http.MethodPatch, path: settingsPath(p), query: q}, active)
}

// writeSettings sends a settings write and checks its answer is the
// settings written.
func (c *Client) writeSettings(ctx context.Context, r request, active bool) (*Settings, *Response, error) {
	s, resp, err := doOne[Settings](ctx, c, r)
	if err == nil {
		err = checkSettings(r, resp, s, active)
	}
	if err != nil {
		return nil, resp, err
	}
	return s, resp, nil
}
