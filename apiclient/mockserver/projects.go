package mockserver

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// getProject serves GET /projects/:id as ProjectWithAccess: the only
// project answer with permissions.
func (s *Server) getProject(c *call) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.project(c, false)
	if p == nil {
		return
	}
	writeJSON(c.w, http.StatusOK, s.projectEntity(c.r, p, c.user.ID, withAccess, true))
}

// listProjects serves GET /projects with membership, min_access_level,
// archived, search, simple, order_by, sort and paging: ProjectWithAccess
// for a signed-in user, BasicProjectDetails with simple.
func (s *Server) listProjects(c *call) {
	q := c.r.URL.Query()
	minLevel := 0
	if v := q.Get("min_access_level"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || !validAccessLevel(n) {
			writeError(c.w, http.StatusBadRequest, "error", "min_access_level does not have a valid value")
			return
		}
		minLevel = n
	}
	archived, filterArchived := archivedParam(q)
	membership := truthy[q.Get("membership")] || minLevel > 0
	search := strings.ToLower(q.Get("search"))
	orderBy := q.Get("order_by")
	if orderBy == "" {
		orderBy = "created_at"
	}
	desc := q.Get("sort") != "asc"
	view := withAccess
	if truthy[q.Get("simple")] {
		view = basicDetails
	}

	s.mu.RLock()
	defer s.mu.RUnlock()
	var list []*Project
	for _, p := range s.st.Projects {
		lvl := s.st.access(c.user.ID, p)
		if lvl == 0 && (membership || !p.Public) {
			continue
		}
		if lvl < minLevel || filterArchived && p.Archived != archived {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(p.Path), search) && !strings.Contains(strings.ToLower(p.Name), search) {
			continue
		}
		list = append(list, p)
	}
	sortProjects(list, orderBy, desc)
	pg, ok := paginate(c, len(list), nil)
	if !ok {
		return
	}
	out := make([]object, 0, pg.end-pg.start)
	for _, p := range list[pg.start:pg.end] {
		out = append(out, s.projectEntity(c.r, p, c.user.ID, view, false))
	}
	writeJSON(c.w, http.StatusOK, out)
}

// archivedParam reads archived as the API passes it to the finder: true is
// "only archived" (API::Helpers#archived_param), false "not archived",
// absent both.
func archivedParam(q url.Values) (only, filter bool) {
	v, ok := q["archived"]
	if !ok {
		return false, false
	}
	return truthy[v[len(v)-1]], true
}
