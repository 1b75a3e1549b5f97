package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Group is a GitLab group.
type Group struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	FullPath string `json:"full_path"`
	ParentID *int64 `json:"parent_id"`
	WebURL   string `json:"web_url"`
}

// GroupRef names a group by numeric ID or full path ("group/subgroup").
type GroupRef struct {
	ID   int64
	Path string
}

// ParseGroupRef accepts "42" or "group/sub".
func ParseGroupRef(s string) (GroupRef, error) {
	s = strings.Trim(strings.TrimSpace(s), "/")
	if s == "" {
		return GroupRef{}, &APIError{Kind: ErrValidation, Message: "no group given: use a numeric ID or a path such as group/subgroup"}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return GroupRef{ID: n}, nil
	}
	for _, seg := range strings.Split(s, "/") {
		if !validSegment(seg) {
			return GroupRef{}, &APIError{Kind: ErrValidation, Message: "\"" + s + "\" is not a group path: each part may use letters, digits, '_', '-' and '.'"}
		}
	}
	return GroupRef{Path: s}, nil
}

func (g GroupRef) escaped() string {
	if g.ID > 0 {
		return strconv.FormatInt(g.ID, 10)
	}
	return url.PathEscape(g.Path)
}

// String is the group's path where it is known, else its ID.
func (g GroupRef) String() string {
	if g.Path == "" && g.ID > 0 {
		return strconv.FormatInt(g.ID, 10)
	}
	return g.Path
}

// GetGroup reads a group.
func (c *Client) GetGroup(ctx context.Context, g GroupRef) (*Group, *Response, error) {
	return doOne[Group](ctx, c, request{method: http.MethodGet, path: "groups/" + g.escaped()})
}

// ListGroupProjects lists the group's projects the user has a role in
// (Guest or more), projects shared into the group included; with
// subgroups, its subgroups' too. GitLab sends no permissions here.
func (c *Client) ListGroupProjects(ctx context.Context, g GroupRef, subgroups bool) ([]Project, *Response, error) {
	return c.ListGroupProjectsWith(ctx, g, GroupProjectsOptions{Subgroups: subgroups, MinAccessLevel: GuestAccess})
}

// GroupProjectsOptions selects a group's projects.
type GroupProjectsOptions struct {
	// Subgroups: the subgroups' projects too (include_subgroups).
	Subgroups bool
	// MinAccessLevel keeps the projects where the user's role, however it
	// comes (membership, inherited, a share), is at least this; 0 sends none.
	MinAccessLevel int
}

// ListGroupProjectsWith lists a group's projects as o selects them, in the
// server's order. Projects shared into the group are listed (GitLab's
// with_shared defaults to true), and archived ones (their archived field
// says so).
func (c *Client) ListGroupProjectsWith(ctx context.Context, g GroupRef, o GroupProjectsOptions) ([]Project, *Response, error) {
	q := url.Values{}
	if o.MinAccessLevel > 0 {
		q.Set("min_access_level", strconv.Itoa(o.MinAccessLevel))
	}
	if o.Subgroups {
		q.Set("include_subgroups", "true")
	}
	return listAll[Project](ctx, c, "groups/"+g.escaped()+"/projects", q)
}

// ListGroupVariables lists a group's CI/CD variables (Maintainer on the group).
func (c *Client) ListGroupVariables(ctx context.Context, g GroupRef) ([]Variable, *Response, error) {
	return listAll[Variable](ctx, c, "groups/"+g.escaped()+"/variables", nil)
}

// GetGroupVariable reads a group's variable key in scope ("" for the only
// one).
func (c *Client) GetGroupVariable(ctx context.Context, g GroupRef, key, scope string) (*Variable, *Response, error) {
	return doOne[Variable](ctx, c, request{method: http.MethodGet, path: "groups/" + g.escaped() + "/variables/" + url.PathEscape(key), query: scopeFilter(scope)})
}

// UpdateGroupVariableValue sets the value of a group's variable key in
// scope; its other attributes stay as they are. GitLab picks one variable
// when several have the key and no scope is given: give the scope.
func (c *Client) UpdateGroupVariableValue(ctx context.Context, g GroupRef, key, scope, value string) (*Variable, *Response, error) {
	body := map[string]string{"value": value}
	return doOne[Variable](ctx, c, request{method: http.MethodPut, path: "groups/" + g.escaped() + "/variables/" + url.PathEscape(key), query: scopeFilter(scope), body: body})
}
