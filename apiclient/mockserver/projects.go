package mockserver

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

func (s *Server) projectBody(r *http.Request, p *Project, userID int64, withPerms bool) map[string]any {
	ns := p.Path[:strings.LastIndex(p.Path, "/")]
	m := map[string]any{
		"id": p.ID, "name": p.Name, "description": p.Description,
		"path": p.Path[strings.LastIndex(p.Path, "/")+1:], "path_with_namespace": p.Path,
		"name_with_namespace": ns + " / " + p.Name, "web_url": s.webURL(r, p.Path),
		"created_at": p.CreatedAt.Format(time.RFC3339),
		"namespace":  map[string]any{"name": ns, "path": ns, "full_path": ns, "kind": "group"},
	}
	if withPerms {
		var pa any
		if lvl := p.Members[userID]; lvl > 0 {
			pa = map[string]int{"access_level": lvl, "notification_level": 3}
		}
		m["permissions"] = map[string]any{"project_access": pa, "group_access": nil}
	}
	return m
}

func (s *Server) getProject(c *call) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.project(c, false)
	if p == nil {
		return
	}
	writeJSON(c.w, http.StatusOK, s.projectBody(c.r, p, c.user.ID, true))
}

// listProjects serves GET /projects with membership, min_access_level,
// search, order_by, sort and paging.
func (s *Server) listProjects(c *call) {
	q := c.r.URL.Query()
	minLevel := 0
	if v := q.Get("min_access_level"); v != "" {
		n, err := strconv.Atoi(v)
		switch n {
		case 5, guest, 15, reporter, developer, maintainer, owner:
		default:
			err = strconv.ErrSyntax
		}
		if err != nil {
			writeError(c.w, http.StatusBadRequest, "error", "min_access_level does not have a valid value")
			return
		}
		minLevel = n
	}
	archived, filterArchived := archivedParam(q)
	membership := truthy[q.Get("membership")] || minLevel > 0
	search := strings.ToLower(q.Get("search"))
	orderBy := q.Get("order_by")
	desc := q.Get("sort") != "asc"

	s.mu.RLock()
	defer s.mu.RUnlock()
	var list []*Project
	for _, p := range s.st.Projects {
		lvl := p.Members[c.user.ID]
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
	less := func(a, b *Project) bool { return a.ID < b.ID }
	switch orderBy {
	case "name":
		less = func(a, b *Project) bool { return a.Name < b.Name || (a.Name == b.Name && a.ID < b.ID) }
	case "path":
		less = func(a, b *Project) bool { return a.Path < b.Path }
	}
	sort.SliceStable(list, func(i, j int) bool {
		if desc {
			return less(list[j], list[i])
		}
		return less(list[i], list[j])
	})
	pg, ok := paginate(c, len(list), nil)
	if !ok {
		return
	}
	out := make([]map[string]any, 0, pg.end-pg.start)
	for _, p := range list[pg.start:pg.end] {
		out = append(out, s.projectBody(c.r, p, c.user.ID, false))
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
