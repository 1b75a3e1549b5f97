package mockserver

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Group is a namespace of projects, with its parent for a subgroup.
type Group struct {
	ID       int64  `json:"id"`
	Path     string `json:"full_path"`
	Name     string `json:"name"`
	ParentID int64  `json:"parent_id,omitempty"`
	// Members maps user IDs to their membership's access level; members of
	// a group are members of its subgroups and projects with that role.
	Members map[int64]int `json:"members,omitempty"`
	// Variables are the group's CI/CD variables (read by audits).
	Variables []Variable `json:"variables,omitempty"`
	CreatedAt time.Time  `json:"created_at,omitempty"`
}

// group finds the group of the request's :id (numeric or an encoded full
// path) that the user can see (access.go: seesGroup). It writes GitLab's
// 404 and returns nil otherwise.
func (s *Server) group(c *call) *Group {
	raw, _ := url.PathUnescape(c.segs[1])
	var g *Group
	for _, x := range s.st.Groups {
		if strconv.FormatInt(x.ID, 10) == raw || strings.EqualFold(x.Path, raw) {
			g = x
		}
	}
	if g == nil || !s.st.seesGroup(c.user.ID, g) {
		writeError(c.w, http.StatusNotFound, "message", "404 Group Not Found")
		return nil
	}
	return g
}

// groupCreated is when g was made: the seed's time for groups of a state
// file older than the field.
func (s *Server) groupCreated(g *Group) time.Time {
	if !g.CreatedAt.IsZero() || len(s.st.Projects) == 0 {
		return g.CreatedAt
	}
	return s.st.Projects[0].CreatedAt
}

// getGroup serves GET /groups/:id as GroupDetail (with_projects defaults
// to true), after the group_api rate limit (lib/api/groups.rb get ":id").
func (s *Server) getGroup(c *call) {
	withProjects := true
	if p, ok := c.params["with_projects"]; ok {
		v, blank, valid := coerceBool(p)
		if !valid {
			writeError(c.w, http.StatusBadRequest, "error", "with_projects is invalid")
			return
		}
		withProjects = v || blank
	}
	if s.appLimited(c, "group_api", s.opts.GroupAPILimit) {
		return
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if g := s.group(c); g != nil {
		writeJSON(c.w, http.StatusOK, s.groupEntity(c.r, g, c.user.ID, true, withProjects))
	}
}

// groupProjectsQuery is what GET /groups/:id/projects was asked, after
// Grape's validation.
type groupProjectsQuery struct {
	minLevel                  int
	subgroups, shared, simple bool
	archived, filterArchived  bool
	orderBy                   string
	desc                      bool
}

// readGroupProjectsQuery validates the route's parameters in the order
// lib/api/groups.rb declares them; problems is Grape's 400 sentence.
func readGroupProjectsQuery(c *call) (q groupProjectsQuery, problems []string) {
	q = groupProjectsQuery{shared: true, orderBy: "created_at", desc: true}
	boolean := func(name string, into *bool) bool {
		p, ok := c.params[name]
		if !ok {
			return false
		}
		v, blank, valid := coerceBool(p)
		if !valid {
			problems = append(problems, name+" is invalid")
			return false
		}
		if !blank {
			*into = v
		}
		return !blank
	}
	q.filterArchived = boolean("archived", &q.archived)
	if p, ok := c.params["order_by"]; ok {
		switch p.str {
		case "id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity", "star_count":
			q.orderBy = p.str
		default:
			problems = append(problems, "order_by does not have a valid value")
		}
	}
	if p, ok := c.params["sort"]; ok {
		switch p.str {
		case "asc", "desc":
			q.desc = p.str == "desc"
		default:
			problems = append(problems, "sort does not have a valid value")
		}
	}
	boolean("simple", &q.simple)
	boolean("with_shared", &q.shared)
	boolean("include_subgroups", &q.subgroups)
	if p, ok := c.params["min_access_level"]; ok {
		n, err := strconv.Atoi(p.str)
		if err != nil || !validAccessLevel(n) {
			problems = append(problems, "min_access_level does not have a valid value")
		} else {
			q.minLevel = n
		}
	}
	return q, problems
}

// validAccessLevel: Gitlab::Access.all_values (no access, minimal, guest,
// planner, reporter, developer, maintainer, owner), as the route's values.
func validAccessLevel(n int) bool {
	switch n {
	case 5, guest, 15, reporter, developer, maintainer, owner:
		return true
	}
	return false
}

// groupProjects serves GET /groups/:id/projects as GroupProjectsFinder
// answers it: the group's projects (its subgroups' with
// include_subgroups) and those shared with it (with_shared, default
// true) that the user can see, filtered by min_access_level (the user's
// role however it comes) and archived, newest first by default, each as
// Entities::Project (BasicProjectDetails with simple): no permissions.
func (s *Server) groupProjects(c *call) {
	q, problems := readGroupProjectsQuery(c)
	if len(problems) > 0 {
		writeError(c.w, http.StatusBadRequest, "error", strings.Join(problems, ", "))
		return
	}
	if s.appLimited(c, "group_projects_api", s.opts.GroupProjectsAPILimit) {
		return
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.group(c)
	if g == nil {
		return
	}
	prefix := strings.ToLower(g.Path) + "/"
	var list []*Project
	for _, p := range s.st.Projects {
		ns := strings.ToLower(p.Path[:max(strings.LastIndex(p.Path, "/"), 0)])
		in := ns == strings.ToLower(g.Path) || (q.subgroups && strings.HasPrefix(ns+"/", prefix)) || (q.shared && sharedWith(p, g))
		lvl := s.st.access(c.user.ID, p)
		if !in || lvl == 0 || lvl < q.minLevel || q.filterArchived && p.Archived != q.archived {
			continue
		}
		list = append(list, p)
	}
	sortProjects(list, q.orderBy, q.desc)
	view := fullProject
	if q.simple {
		view = basicDetails
	}
	servePage(c, list, func(p *Project) any { return s.projectEntity(c.r, p, c.user.ID, view, false) })
}

// sortProjects orders as the API's reorder_projects: the field, then the
// id in the same direction to break ties.
func sortProjects(list []*Project, by string, desc bool) {
	key := func(p *Project) string {
		switch by {
		case "name", "similarity":
			return strings.ToLower(p.Name)
		case "path":
			return strings.ToLower(p.Path)
		case "created_at", "updated_at", "last_activity_at":
			return p.CreatedAt.UTC().Format(time.RFC3339Nano)
		}
		return "" // id, star_count (every project has 0 stars)
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if desc {
			a, b = b, a
		}
		if ka, kb := key(a), key(b); ka != kb {
			return ka < kb
		}
		return a.ID < b.ID
	})
}

// subgroups serves GET /groups/:id/subgroups: the direct children the
// user can see, as Entities::Group.
func (s *Server) subgroups(c *call) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.group(c)
	if g == nil {
		return
	}
	var list []*Group
	for _, x := range s.st.Groups {
		if x.ParentID == g.ID && s.st.seesGroup(c.user.ID, x) {
			list = append(list, x)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		return list[i].Name < list[j].Name || list[i].Name == list[j].Name && list[i].ID < list[j].ID
	})
	servePage(c, list, func(x *Group) any { return s.groupEntity(c.r, x, c.user.ID, false, false) })
}

// placeholderOwner is the project whose key a seeded DSN placeholder names
// (a group variable holds a project's DSN); an empty project otherwise.
func (s *Server) placeholderOwner(value string) *Project {
	i := strings.Index(value, dsnPlaceholder)
	if i < 0 {
		return &Project{}
	}
	rest, _, _ := strings.Cut(value[i+len(dsnPlaceholder):], "}}")
	id, _ := strconv.ParseInt(rest, 10, 64)
	for _, p := range s.st.Projects {
		for _, k := range p.Keys {
			if k.ID == id {
				return p
			}
		}
	}
	return &Project{}
}
