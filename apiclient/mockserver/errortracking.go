package mockserver

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

type settingsSpec struct {
	Active      bool    `json:"active"`
	ProjectName *string `json:"project_name"`
	ExternalURL *string `json:"errtracker_external_url"`
	APIURL      *string `json:"api_url"`
	Integrated  bool    `json:"integrated"`
}

type settingsGitLab struct {
	Active      bool    `json:"active"`
	ProjectName *string `json:"project_name"`
	ExternalURL *string `json:"sentry_external_url"`
	APIURL      *string `json:"api_url"`
	Integrated  bool    `json:"integrated"`
}

type keySpec struct {
	ID        int64  `json:"id"`
	Active    bool   `json:"active"`
	PublicKey string `json:"public_key"`
	DSN       string `json:"errtracker_dsn"`
}

type keyGitLab struct {
	ID        int64  `json:"id"`
	Active    bool   `json:"active"`
	PublicKey string `json:"public_key"`
	DSN       string `json:"sentry_dsn"`
}

var sentrySlug = regexp.MustCompile(`/api/0/projects/+([^/]+)/+([^/]+)/*$`)

// settingsBody renders a setting row as GitLab's ProjectSetting entity.
func (s *Server) settingsBody(p *Project) any {
	st := p.Settings
	name := st.ProjectName
	var ext *string
	if st.APIURL != nil {
		e := strings.Replace(*st.APIURL, "api/0/projects/", "", 1)
		ext = &e
		if name == nil {
			if m := sentrySlug.FindStringSubmatch(*st.APIURL); m != nil {
				t := titleize(m[2])
				name = &t
			}
		}
	}
	integrated := st.Integrated && !p.NoIntegrated // masked when the feature flag is off
	if s.opts.FieldNames == "gitlab" {
		return settingsGitLab{st.Enabled, name, ext, st.APIURL, integrated}
	}
	return settingsSpec{st.Enabled, name, ext, st.APIURL, integrated}
}

func titleize(slug string) string {
	words := strings.FieldsFunc(slug, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

func (s *Server) keyBody(r *http.Request, p *Project, k ClientKey) any {
	host := s.opts.DSNHost
	if host == "" {
		host = r.Host
	}
	dsn := "https://" + k.PublicKey + "@" + host + "/errortracking/api/v1/projects/" + strconv.FormatInt(p.ID, 10)
	if s.opts.FieldNames == "gitlab" {
		return keyGitLab{k.ID, k.Active, k.PublicKey, dsn}
	}
	return keySpec{k.ID, k.Active, k.PublicKey, dsn}
}

// settings serves GET, PUT and PATCH /projects/:id/error_tracking/settings.
func (s *Server) settings(c *call) {
	if c.r.Method == http.MethodGet || c.r.Method == http.MethodHead {
		s.mu.RLock()
		defer s.mu.RUnlock()
		p := s.project(c, true)
		if p == nil {
			return
		}
		if p.Settings == nil {
			writeError(c.w, http.StatusNotFound, "message", "404 Error Tracking Setting Not Found")
			return
		}
		writeJSON(c.w, http.StatusOK, s.settingsBody(p))
		return
	}

	ps := readParams(c)
	s.mu.Lock()
	p := s.project(c, true)
	if p == nil {
		s.mu.Unlock()
		return
	}
	put := c.r.Method == http.MethodPut
	active, _, p1 := boolParam(ps, "active", true, false)
	integrated, hasIntegrated, p2 := boolParam(ps, "integrated", put, true)
	if problems := joinProblems(p1, p2); problems != "" {
		s.mu.Unlock()
		writeError(c.w, http.StatusBadRequest, "error", problems)
		return
	}
	if put && p.NoIntegrated {
		s.mu.Unlock()
		writeError(c.w, http.StatusNotFound, "message", "404 Not Found")
		return
	}
	if !put && p.Settings == nil {
		s.mu.Unlock()
		writeError(c.w, http.StatusNotFound, "message", "404 Error Tracking Setting Not Found")
		return
	}
	next := Settings{}
	if p.Settings != nil {
		next = *p.Settings
	}
	next.Enabled = active
	if hasIntegrated {
		next.Integrated = integrated
	}
	// The model's Sentry validations apply when enabled and not integrated.
	if next.Enabled && !next.Integrated {
		var missing []string
		if next.APIURL == nil {
			missing = append(missing, "Error tracking setting api url is a required field")
		}
		if !next.HasToken {
			missing = append(missing, "Error tracking setting token is a required field")
		}
		if len(missing) > 0 {
			s.mu.Unlock()
			writeJSON(c.w, http.StatusOK, map[string]string{"message": strings.Join(missing, " and "), "status": "error"})
			return
		}
	}
	p.Settings = &next
	// after_save: an enabled, integrated setting gets a key if it has no active one.
	if next.Enabled && next.Integrated && !p.hasActiveKey() {
		s.st.addKey(p)
	}
	s.version++
	body := s.settingsBody(p)
	s.mu.Unlock()
	s.persistQuietly()
	writeJSON(c.w, http.StatusOK, body)
}

func joinProblems(ps ...string) string {
	var out []string
	for _, p := range ps {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// clientKeys serves GET (paginated) and POST /projects/:id/error_tracking/client_keys.
func (s *Server) clientKeys(c *call) {
	if c.r.Method == http.MethodPost {
		s.mu.Lock()
		p := s.project(c, true)
		if p == nil {
			s.mu.Unlock()
			return
		}
		k := s.st.addKey(p)
		s.version++
		body := s.keyBody(c.r, p, k)
		s.mu.Unlock()
		s.persistQuietly()
		writeJSON(c.w, http.StatusCreated, body)
		return
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.project(c, true)
	if p == nil {
		return
	}
	pg := paginate(c, len(p.Keys), map[string]string{"id": c.segs[1]})
	out := make([]any, 0, pg.end-pg.start)
	for _, k := range p.Keys[pg.start:pg.end] {
		out = append(out, s.keyBody(c.r, p, k))
	}
	writeJSON(c.w, http.StatusOK, out)
}

// deleteClientKey serves DELETE /projects/:id/error_tracking/client_keys/:key_id.
func (s *Server) deleteClientKey(c *call) {
	s.mu.Lock()
	p := s.project(c, true)
	if p == nil {
		s.mu.Unlock()
		return
	}
	id, err := strconv.ParseInt(c.segs[4], 10, 64)
	idx := -1
	if err == nil {
		for i, k := range p.Keys {
			if k.ID == id {
				idx = i
				break
			}
		}
	}
	if idx < 0 {
		s.mu.Unlock()
		writeError(c.w, http.StatusNotFound, "message", "404 Not found")
		return
	}
	k := p.Keys[idx]
	p.Keys = append(p.Keys[:idx:idx], p.Keys[idx+1:]...)
	s.version++
	body := s.keyBody(c.r, p, k)
	s.mu.Unlock()
	s.persistQuietly()
	writeJSON(c.w, http.StatusOK, body)
}
