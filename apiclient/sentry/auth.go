package sentry

import (
	"context"
	"errors"
	"slices"
)

// TokenKind is which of Sentry's tokens errtrack holds.
type TokenKind int

const (
	// UserToken: a user's auth token, described by GET /api/0/.
	UserToken TokenKind = iota
	// OrgToken: an organisation's auth token (sntrys_…, made by Sentry's
	// organisation token page and sentry-wizard), scope org:ci: it
	// uploads source maps and releases, and cannot read keys.
	OrgToken
	// OrgLimitedToken: a user token limited to one organisation; Sentry
	// does not describe it (GET /api/0/ is 401 for it), so its scopes are
	// unknown and show only on the routes it reaches.
	OrgLimitedToken
)

// TokenInfo is what Sentry tells of the token (GET /api/0/, IndexEndpoint).
type TokenInfo struct {
	// Scopes are the token's; nil when Sentry described none (a session).
	Scopes []string
	// User is the token's user ("" for an organisation's token).
	User string
	Kind TokenKind
	// Orgs are the organisations an OrgLimitedToken reaches, when the
	// organisations index could be read (it takes org:read).
	Orgs []string
}

// ScopesKnown reports whether Sentry described the token's scopes.
func (t TokenInfo) ScopesKnown() bool { return t.Scopes != nil }

// Has reports whether the token holds scope.
func (t TokenInfo) Has(scope string) bool { return slices.Contains(t.Scopes, scope) }

// CanReadKeys: ProjectPermission's GET scopes.
func (t TokenInfo) CanReadKeys() bool {
	return t.Has("project:read") || t.Has("project:write") || t.Has("project:admin")
}

// CanWriteKeys: creating and updating keys (ProjectPermission POST, PUT).
func (t TokenInfo) CanWriteKeys() bool { return t.Has("project:write") || t.Has("project:admin") }

// CanDeleteKeys: deleting a key takes project:admin (ProjectPermission
// DELETE), not project:write.
func (t TokenInfo) CanDeleteKeys() bool { return t.Has("project:admin") }

// CanCreateProjects: TeamProjectPermission's POST scopes.
func (t TokenInfo) CanCreateProjects() bool {
	return t.CanWriteKeys() || t.Has("org:write") || t.Has("org:admin")
}

// CheckToken asks Sentry about the token. A token it refuses is
// ErrUnauthorized (ErrTokenExpired when it says so).
func (c *Client) CheckToken(ctx context.Context) (*TokenInfo, error) {
	var idx struct {
		Auth *struct {
			Scopes []string `json:"scopes"`
		} `json:"auth"`
		User *struct {
			Username string `json:"username"`
			Name     string `json:"name"`
			Email    string `json:"email"`
		} `json:"user"`
	}
	if _, err := c.get(ctx, "", nil, ErrNotFound, &idx); err != nil {
		if errors.Is(err, ErrOrgLimitedRoute) {
			// Sentry refuses the route, not the token: it found the token
			// valid before it looked at the URL (authentication.py).
			return &TokenInfo{Kind: OrgLimitedToken, Orgs: c.organizations(ctx)}, nil
		}
		return nil, err
	}
	info := &TokenInfo{}
	if idx.Auth != nil && idx.User == nil {
		info.Kind = OrgToken
	}
	if idx.Auth != nil {
		info.Scopes = idx.Auth.Scopes
		if info.Scopes == nil {
			info.Scopes = []string{}
		}
	}
	if u := idx.User; u != nil {
		info.User = u.Username
		if info.User == "" {
			info.User = u.Email
		}
	}
	return info, nil
}

// organizations lists the slugs of the organisations the token reaches
// (GET /api/0/organizations/, the one route without an organisation an
// organisation-limited token may use); nil when it cannot be read.
func (c *Client) organizations(ctx context.Context) []string {
	var orgs []struct {
		Slug string `json:"slug"`
	}
	if _, err := c.get(ctx, "organizations/", nil, ErrOrganizationNotFound, &orgs); err != nil {
		return nil
	}
	var out []string
	for _, o := range orgs {
		if validKeyID(o.Slug) && len(out) < 10 {
			out = append(out, o.Slug)
		}
	}
	return out
}
