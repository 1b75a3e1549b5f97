package mocksentry

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// projectJSON is ProjectSummarySerializer's output (the fields errtrack
// reads, src/sentry/api/serializers/models/project.py); details add the
// organisation, as DetailedProjectSerializer does.
func (s *Server) projectJSON(p *Project, detailed bool) map[string]any {
	var teams []map[string]string
	for _, slug := range p.Teams {
		if t := s.st.team(p.Org, slug); t != nil {
			teams = append(teams, map[string]string{"id": strconv.FormatInt(t.ID, 10), "slug": t.Slug, "name": t.Name})
		}
	}
	var platform any
	if p.Platform != "" {
		platform = p.Platform
	}
	out := map[string]any{
		"id": strconv.FormatInt(p.ID, 10), "slug": p.Slug, "name": p.Name, "platform": platform,
		"dateCreated": p.Created.UTC().Format("2006-01-02T15:04:05.000000Z"), "isBookmarked": false, "isMember": true,
		"hasAccess": true, "features": []string{}, "firstEvent": nil, "teams": teams,
	}
	if len(teams) > 0 {
		out["team"] = teams[0]
	}
	if detailed {
		if o := s.st.org(p.Org); o != nil {
			out["organization"] = map[string]string{"id": strconv.FormatInt(o.ID, 10), "slug": o.Slug, "name": o.Name}
		}
		out["status"] = "active"
	}
	return out
}

// projectDetails is ProjectDetailsEndpoint's GET.
func (s *Server) projectDetails(c *call) {
	if c.r.Method != http.MethodGet {
		writeJSON(c.w, http.StatusMethodNotAllowed, map[string]string{"detail": "Method \"" + c.r.Method + "\" not allowed."})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.projectOf(c); p != nil {
		writeJSON(c.w, http.StatusOK, s.projectJSON(p, true))
	}
}

// orgProjects is OrganizationProjectsEndpoint's GET: ordered by slug,
// OffsetPaginator pages.
func (s *Server) orgProjects(c *call) {
	per, cur, ok := pageParams(c.w, c.r, 100)
	if !ok {
		return
	}
	base := s.publicURL(c.r)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.org(c.params[0]) == nil {
		notFound(c.w)
		return
	}
	var list []*Project
	for _, p := range s.st.projects {
		if p.Org == c.params[0] {
			list = append(list, p)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Slug < list[j].Slug })
	lo, hi, next, prev, ok := offsetPage(len(list), per, cur)
	if !ok {
		writeJSON(c.w, http.StatusBadRequest, map[string]string{"detail": "Pagination offset cannot be negative"})
		return
	}
	out := make([]any, 0, hi-lo)
	for _, p := range list[lo:hi] {
		out = append(out, s.projectJSON(p, false))
	}
	setLink(c.w, c.r, base, next, prev)
	writeJSON(c.w, http.StatusOK, out)
}

// slugRe is SentrySerializerSlugField's: lowercase letters, digits, '_'
// and '-', not all digits.
var slugRe = regexp.MustCompile(`^[a-z0-9_\-]+$`)

// teamProjects is TeamProjectsEndpoint (src/sentry/core/endpoints/team_projects.py):
// GET lists the team's projects, POST makes one bound to the team, with
// the "Default" key Sentry's receiver gives every new project.
func (s *Server) teamProjects(c *call) {
	org, teamSlug := c.params[0], c.params[1]
	if c.r.Method == http.MethodGet {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.st.team(org, teamSlug) == nil {
			notFound(c.w)
			return
		}
		var out []any
		for _, p := range s.st.projects {
			if p.Org == org && contains(p.Teams, teamSlug) {
				out = append(out, s.projectJSON(p, false))
			}
		}
		writeJSON(c.w, http.StatusOK, out)
		return
	}
	var in struct {
		Name     *string `json:"name"`
		Slug     *string `json:"slug"`
		Platform *string `json:"platform"`
	}
	if err := json.Unmarshal(c.body, &in); err != nil {
		writeJSON(c.w, http.StatusBadRequest, map[string]string{"detail": "JSON parse error - " + err.Error()})
		return
	}
	errs := map[string][]string{}
	switch {
	case in.Name == nil:
		errs["name"] = []string{"This field is required."}
	case strings.TrimSpace(*in.Name) == "":
		errs["name"] = []string{"This field may not be blank."}
	case len([]rune(*in.Name)) > 50:
		errs["name"] = []string{"Ensure this field has no more than 50 characters."}
	case slices.Contains(ReservedProjectSlugs, *in.Name):
		errs["name"] = []string{`The name "` + *in.Name + `" is reserved and not allowed.`}
	}
	if in.Slug != nil && *in.Slug != "" {
		if sl := *in.Slug; !slugRe.MatchString(sl) || strings.Trim(sl, "0123456789") == "" || len(sl) > 100 {
			errs["slug"] = []string{"Enter a valid slug consisting of lowercase letters, numbers, underscores or hyphens. It cannot be entirely numeric."}
		}
	}
	if in.Platform != nil && !validPlatform(*in.Platform) {
		errs["platform"] = []string{"Invalid platform"}
	}
	if len(errs) > 0 {
		writeJSON(c.w, http.StatusBadRequest, errs)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.team(org, teamSlug) == nil {
		notFound(c.w)
		return
	}
	sl := ""
	if in.Slug != nil {
		sl = *in.Slug
	}
	if sl == "" {
		sl = slugify(*in.Name)
		for i := 2; s.st.project(org, sl) != nil; i++ {
			sl = slugify(*in.Name) + "-" + strconv.Itoa(i)
		}
	} else if s.st.project(org, sl) != nil {
		writeJSON(c.w, http.StatusConflict, map[string]string{"detail": "A project with this slug already exists."})
		return
	}
	s.st.nextID++
	p := &Project{ID: s.st.nextID, Org: org, Slug: sl, Name: *in.Name, Teams: []string{teamSlug}, Created: s.now().UTC()}
	if in.Platform != nil {
		p.Platform = *in.Platform
	}
	s.st.projects = append(s.st.projects, p)
	s.st.addKey(p, "Default", s.now())
	c.w.(*statusWriter).note = "(project " + org + "/" + sl + " made)"
	writeJSON(c.w, http.StatusCreated, s.projectJSON(p, false))
}

// ReservedProjectSlugs is Sentry's RESERVED_PROJECT_SLUGS
// (src/sentry/constants.py): ProjectPostSerializer.validate_name refuses
// them as a new project's name.
var ReservedProjectSlugs = []string{"$all", "api-keys", "audit-log", "auth", "members", "projects", "rate-limits", "repos",
	"settings", "teams", "billing", "payments", "legal", "subscription", "support", "integrations", "developer-settings", "usage"}

// slugify is Django's slugify, as Project.save makes a slug from a name.
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
			dash = false
		case r == '-' || r == ' ':
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		out = "project"
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// RenameProject gives a project a new slug, as Sentry's project settings
// do: the old slug is kept as a redirect (ProjectRedirect). false when
// there is no such project or the new slug is taken.
func (s *Server) RenameProject(org, slug, newSlug string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.project(org, slug)
	if p == nil || s.st.project(org, newSlug) != nil || !slugRe.MatchString(newSlug) {
		return false
	}
	p.OldSlugs = append(p.OldSlugs, slug)
	p.Slug = newSlug
	return true
}

// moved answers ProjectMoved for a slug a project had before a rename,
// for every method: 302, Location the requested path and query with the
// new slug, body {slug, detail: {code, message, extra: {url, slug}}}
// (src/sentry/api/bases/project.py, ProjectEndpoint.convert_args and
// handle_exception_with_details; the detail SentryAPIException makes,
// src/sentry/api/exceptions.py). false when the slug is no old one.
func (s *Server) moved(c *call) bool {
	org, slug := c.params[0], c.params[1]
	for _, p := range s.st.projects {
		if p.Org != org || !slices.Contains(p.OldSlugs, slug) {
			continue
		}
		full := c.r.URL.EscapedPath()
		if c.r.URL.RawQuery != "" {
			full += "?" + c.r.URL.RawQuery
		}
		newURL := strings.Replace(full, "projects/"+org+"/"+slug+"/", "projects/"+org+"/"+p.Slug+"/", 1)
		c.w.Header().Set("Location", newURL)
		writeJSON(c.w, http.StatusFound, map[string]any{"slug": p.Slug, "detail": map[string]any{
			"code": "resource-moved", "message": "Resource has been moved", "extra": map[string]string{"url": newURL, "slug": p.Slug}}})
		return true
	}
	return false
}
