package mockserver

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

func (s *Server) webURL(r *http.Request, path string) string {
	return schemeOf(r) + "://" + r.Host + "/" + path
}

func (s *Server) getUser(c *call) {
	writeJSON(c.w, http.StatusOK, map[string]any{
		"id": c.user.ID, "username": c.user.Username, "name": c.user.Name, "state": "active",
		"web_url": s.webURL(c.r, c.user.Username),
	})
}

func (s *Server) getTokenSelf(c *call) {
	t := c.token
	var exp any
	if t.ExpiresAt != "" {
		exp = t.ExpiresAt
	}
	writeJSON(c.w, http.StatusOK, map[string]any{
		"id": t.ID, "name": t.Name, "revoked": t.Revoked, "created_at": t.CreatedAt.Format(time.RFC3339),
		"scopes": t.Scopes, "user_id": t.UserID, "active": true, "expires_at": exp,
	})
}

// getVersion serves /version and /metadata (15.2+) with the release the
// server behaves as.
func (s *Server) getVersion(c *call) {
	v := s.release.String()
	if c.segs[0] == "metadata" {
		writeJSON(c.w, http.StatusOK, map[string]any{"version": v, "revision": "mock", "enterprise": false,
			"kas": map[string]any{"enabled": false, "externalUrl": nil, "version": nil}})
		return
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"version": v, "revision": "mock"})
}

// rotateToken serves POST /personal_access_tokens/self/rotate (16.10): a
// new token with the same user and scopes, the old one revoked at once.
// expires_at is a date within a year; a week when not given.
func (s *Server) rotateToken(c *call) {
	today := s.now().UTC()
	expires := today.AddDate(0, 0, 7)
	if p, ok := c.params["expires_at"]; ok && p.str != "" {
		d, err := time.Parse(time.DateOnly, p.str)
		switch {
		case err != nil:
			writeError(c.w, http.StatusBadRequest, "error", "expires_at is invalid")
			return
		case !d.After(today) || d.After(today.AddDate(1, 0, 0)):
			writeError(c.w, http.StatusBadRequest, "message", "Expiration date must be in the future and at most one year from today")
			return
		}
		expires = d
	}
	s.mu.Lock()
	raw := tokenOf(c)
	old := s.st.Tokens[raw]
	fresh := old
	fresh.ID = s.st.nextTokenID()
	fresh.ExpiresAt = expires.Format(time.DateOnly)
	fresh.CreatedAt = s.now().UTC().Truncate(time.Second)
	fresh.Revoked, fresh.RotatedTo = false, ""
	newRaw := newSecret()
	s.st.Tokens[newRaw] = fresh
	old.Revoked, old.RotatedTo = true, newRaw
	s.st.Tokens[raw] = old
	s.version++
	s.mu.Unlock()
	s.persistQuietly()
	writeJSON(c.w, http.StatusOK, map[string]any{
		"id": fresh.ID, "name": fresh.Name, "revoked": false, "active": true, "created_at": fresh.CreatedAt.Format(time.RFC3339),
		"scopes": fresh.Scopes, "user_id": fresh.UserID, "expires_at": fresh.ExpiresAt, "last_used_at": nil, "token": newRaw,
	})
}

// revokeFamily revokes a rotated token's successors: GitLab's answer to a
// rotated token used again (reuse detection). It reports whether raw was one.
func (s *Server) revokeFamily(raw string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.st.Tokens[raw]
	if !ok || t.RotatedTo == "" {
		return false
	}
	for next := t.RotatedTo; next != ""; {
		n := s.st.Tokens[next]
		n.Revoked = true
		s.st.Tokens[next] = n
		next = n.RotatedTo
	}
	s.version++
	return true
}

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
		if lvl < minLevel {
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
