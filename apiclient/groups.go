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

// ListGroupProjects lists the group's projects the user is a member of,
// with their permissions; with subgroups, its subgroups' too.
func (c *Client) ListGroupProjects(ctx context.Context, g GroupRef, subgroups bool) ([]Project, *Response, error) {
	q := url.Values{"min_access_level": {"10"}}
	if subgroups {
		q.Set("include_subgroups", "true")
	}
	return listAll[Project](ctx, c, "groups/"+g.escaped()+"/projects", q)
}

// ListGroupVariables lists a group's CI/CD variables (Maintainer on the group).
func (c *Client) ListGroupVariables(ctx context.Context, g GroupRef) ([]Variable, *Response, error) {
	return listAll[Variable](ctx, c, "groups/"+g.escaped()+"/variables", nil)
}
