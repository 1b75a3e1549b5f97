package sentry

import (
	"context"
	"slices"
)

// TokenInfo is what Sentry tells of the token (GET /api/0/, IndexEndpoint).
type TokenInfo struct {
	// Scopes are the token's; nil when Sentry described none (a session).
	Scopes []string
	// User is the token's user ("" for an organisation's token).
	User string
}

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
		return nil, err
	}
	info := &TokenInfo{}
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
