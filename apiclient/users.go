package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// CurrentUser returns the user the token belongs to.
func (c *Client) CurrentUser(ctx context.Context) (*User, *Response, error) {
	return doOne[User](ctx, c, request{method: http.MethodGet, path: "user"})
}

// TokenInfo describes the token in use: scopes and expiry.
func (c *Client) TokenInfo(ctx context.Context) (*TokenInfo, *Response, error) {
	return doOne[TokenInfo](ctx, c, request{method: http.MethodGet, path: "personal_access_tokens/self"})
}

// ListProjectsOptions selects a page of projects.
type ListProjectsOptions struct {
	Search  string
	Page    int
	PerPage int
}

// ListProjects returns one page of the projects the user maintains
// (min_access_level=40), ordered by path.
func (c *Client) ListProjects(ctx context.Context, opt ListProjectsOptions) ([]Project, *Response, error) {
	q := maintainedQuery()
	q.Set("page", strconv.Itoa(max(opt.Page, 1)))
	q.Set("per_page", strconv.Itoa(min(max(opt.PerPage, 1), perPage)))
	if opt.PerPage == 0 {
		q.Set("per_page", strconv.Itoa(perPage))
	}
	if opt.Search != "" {
		q.Set("search", opt.Search)
	}
	var ps []Project
	resp, err := c.do(ctx, request{method: http.MethodGet, path: "projects", query: q}, &ps)
	return ps, resp, err
}

// ListAllProjects returns every project the user maintains
// (min_access_level=40) that is not archived, ordered by path, within the
// bounds of any listing.
func (c *Client) ListAllProjects(ctx context.Context) ([]Project, *Response, error) {
	return listAll[Project](ctx, c, "projects", maintainedQuery())
}

// ListArchivedProjects returns the archived projects the user maintains,
// ordered by path: the simple listing does not say which are archived, so
// they are asked for apart (archived=true is GitLab's "only archived").
func (c *Client) ListArchivedProjects(ctx context.Context) ([]Project, *Response, error) {
	q := maintainedQuery()
	q.Set("archived", "true")
	ps, resp, err := listAll[Project](ctx, c, "projects", q)
	for i := range ps {
		ps[i].Archived = true // what the listing selected, not a field it sent
	}
	return ps, resp, err
}

// maintainedQuery selects the projects the user maintains that are not
// archived, ordered by path.
func maintainedQuery() url.Values {
	return url.Values{
		"min_access_level": {strconv.Itoa(MaintainerAccess)},
		"membership":       {"true"},
		"simple":           {"true"},
		"archived":         {"false"},
		"order_by":         {"path"},
		"sort":             {"asc"},
	}
}

// GetProject reads one project, with the user's access level.
func (c *Client) GetProject(ctx context.Context, p ProjectRef) (*Project, *Response, error) {
	return doOne[Project](ctx, c, request{method: http.MethodGet, path: "projects/" + p.escaped()})
}

// RotatedToken is the answer of a token rotation: the new token's record
// and its value.
type RotatedToken struct {
	TokenInfo
	Token string `json:"token"`
}

// RotateToken replaces the token in use with a new one that expires on
// expiresAt (a date; GitLab's default is a week), and revokes the old one
// (GitLab 16.10). It is never retried: sending the old token again after a
// rotation revokes the new one too. The client keeps using the old token;
// the caller stores the new one before anything else.
func (c *Client) RotateToken(ctx context.Context, expiresAt time.Time) (*RotatedToken, *Response, error) {
	body := map[string]string{"expires_at": expiresAt.Format(time.DateOnly)}
	t, resp, err := doOne[RotatedToken](ctx, c, request{method: http.MethodPost, path: "personal_access_tokens/self/rotate",
		body: body, noRetry: true, secretField: "token"})
	if err == nil && (t.Token == "" || !validToken(t.Token)) {
		return nil, resp, &APIError{Method: http.MethodPost, Path: "/api/v4/personal_access_tokens/self/rotate", StatusCode: resp.StatusCode,
			Kind: ErrBadResponse, Message: "the answer holds no usable new token"}
	}
	return t, resp, err
}
