package mockserver

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Group is a namespace of projects, with its parent for a subgroup.
type Group struct {
	ID       int64  `json:"id"`
	Path     string `json:"full_path"`
	Name     string `json:"name"`
	ParentID int64  `json:"parent_id,omitempty"`
	// Variables are the group's CI/CD variables (read by audits).
	Variables []Variable `json:"variables,omitempty"`
}

// group finds the group of the request's :id (numeric or an encoded full
// path) that the user can see: one holding a project the user is a member
// of. It writes GitLab's 404 and returns nil otherwise.
func (s *Server) group(c *call) *Group {
	raw, _ := url.PathUnescape(c.segs[1])
	var g *Group
	for _, x := range s.st.Groups {
		if strconv.FormatInt(x.ID, 10) == raw || strings.EqualFold(x.Path, raw) {
			g = x
		}
	}
	if g == nil || !s.seesGroup(c.user.ID, g) {
		writeError(c.w, http.StatusNotFound, "message", "404 Group Not Found")
		return nil
	}
	return g
}

func (s *Server) seesGroup(user int64, g *Group) bool {
	for _, p := range s.st.Projects {
		if strings.HasPrefix(strings.ToLower(p.Path), strings.ToLower(g.Path)+"/") && p.Members[user] > 0 {
			return true
		}
	}
	return false
}

func (s *Server) groupBody(r *http.Request, g *Group) map[string]any {
	name := g.Path[strings.LastIndex(g.Path, "/")+1:]
	var parent any
	if g.ParentID != 0 {
		parent = g.ParentID
	}
	return map[string]any{"id": g.ID, "name": g.Name, "path": name, "full_path": g.Path, "full_name": g.Name,
		"parent_id": parent, "web_url": s.webURL(r, "groups/"+g.Path), "visibility": "private"}
}

// getGroup serves GET /groups/:id.
func (s *Server) getGroup(c *call) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if g := s.group(c); g != nil {
		writeJSON(c.w, http.StatusOK, s.groupBody(c.r, g))
	}
}

// groupProjects serves GET /groups/:id/projects with include_subgroups,
// min_access_level and paging: the group's own projects, and its
// subgroups' with include_subgroups, that the user is a member of.
func (s *Server) groupProjects(c *call) {
	q := c.r.URL.Query()
	minLevel, _ := strconv.Atoi(q.Get("min_access_level"))
	sub := truthy[q.Get("include_subgroups")]
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.group(c)
	if g == nil {
		return
	}
	var list []*Project
	for _, p := range s.st.Projects {
		ns := strings.ToLower(p.Path[:strings.LastIndex(p.Path, "/")])
		in := ns == strings.ToLower(g.Path) || (sub && strings.HasPrefix(ns, strings.ToLower(g.Path)+"/"))
		if !in || p.Members[c.user.ID] == 0 || p.Members[c.user.ID] < minLevel {
			continue
		}
		list = append(list, p)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	servePage(c, list, func(p *Project) any { return s.projectBody(c.r, p, c.user.ID, false) }) // Entities::Project: no permissions
}

// subgroups serves GET /groups/:id/subgroups: the direct children.
func (s *Server) subgroups(c *call) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.group(c)
	if g == nil {
		return
	}
	var list []*Group
	for _, x := range s.st.Groups {
		if x.ParentID == g.ID && s.seesGroup(c.user.ID, x) {
			list = append(list, x)
		}
	}
	servePage(c, list, func(x *Group) any { return s.groupBody(c.r, x) })
}

func (s *Server) maintainsIn(user int64, g *Group) bool {
	for _, p := range s.st.Projects {
		if strings.HasPrefix(strings.ToLower(p.Path), strings.ToLower(g.Path)+"/") && p.Members[user] < maintainer {
			return false
		}
	}
	return true
}

// placeholderOwner is the project whose key a seeded DSN placeholder names
// (a group variable holds a project's DSN); an empty project otherwise.
func (s *Server) placeholderOwner(value string) *Project {
	rest, ok := strings.CutPrefix(value, dsnPlaceholder)
	if !ok {
		return &Project{}
	}
	id, _ := strconv.ParseInt(strings.TrimSuffix(rest, "}}"), 10, 64)
	for _, p := range s.st.Projects {
		for _, k := range p.Keys {
			if k.ID == id {
				return p
			}
		}
	}
	return &Project{}
}
