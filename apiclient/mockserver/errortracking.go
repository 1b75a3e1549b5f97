package mockserver

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
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

// Before 14.2 the entity had no integrated field.
type settingsSpecOld struct {
	Active      bool    `json:"active"`
	ProjectName *string `json:"project_name"`
	ExternalURL *string `json:"errtracker_external_url"`
	APIURL      *string `json:"api_url"`
}

type settingsGitLabOld struct {
	Active      bool    `json:"active"`
	ProjectName *string `json:"project_name"`
	ExternalURL *string `json:"sentry_external_url"`
	APIURL      *string `json:"api_url"`
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

var sentrySlug = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/api/0/projects/+([^/]+)/+([^/]+)/*$`) })

// integratedOn reports the integrated_error_tracking feature flag for p: off
// instance-wide (--integrated-error-tracking=false, the self-managed
// default) or for one project.
func (s *Server) integratedOn(p *Project) bool {
	return !s.noIntegrated && !p.NoIntegrated
}

// settingsBody renders a setting row as GitLab's ProjectSetting entity.
func (s *Server) settingsBody(p *Project) any {
	st := p.Settings
	name := st.ProjectName
	var ext *string
	if st.APIURL != nil {
		e := strings.Replace(*st.APIURL, "api/0/projects/", "", 1)
		ext = &e
		if name == nil {
			if m := sentrySlug().FindStringSubmatch(*st.APIURL); m != nil {
				t := titleize(m[2])
				name = &t
			}
		}
	}
	gitlab := s.opts.FieldNames == "gitlab"
	if !s.release.atLeast(sinceIntegrated) {
		if gitlab {
			return settingsGitLabOld{st.Enabled, name, ext, st.APIURL}
		}
		return settingsSpecOld{st.Enabled, name, ext, st.APIURL}
	}
	integrated := st.Integrated && s.integratedOn(p) // masked when the feature flag is off
	if gitlab {
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

// dsn is key's DSN as this server issues it: in the scheme it serves, at the
// address it is reached on (or --dsn-host), so it can be checked against it.
// From 16.1 the ingestion form with an explicit port; before, the collector
// form on GitLab's own host, its port only when not the default.
func (s *Server) dsn(r *http.Request, p *Project, k ClientKey) string {
	scheme, port := schemeOf(r), "80"
	if scheme == "https" {
		port = "443"
	}
	host := s.opts.DSNHost
	if host == "" {
		host, _ = r.Context().Value(servedAddr{}).(string)
	}
	if host == "" { // served by another's listener, as httptest's
		host = r.Host
	}
	id := strconv.FormatInt(p.ID, 10)
	if !s.release.atLeast(sinceCurrentDSN) {
		if h, pt, err := net.SplitHostPort(host); err == nil && pt == port {
			host = h
		}
		return scheme + "://" + k.PublicKey + "@" + host + "/api/v4/error_tracking/collector/" + id
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	return scheme + "://" + k.PublicKey + "@" + host + "/errortracking/api/v1/projects/" + id
}

func (s *Server) keyBody(r *http.Request, p *Project, k ClientKey) any {
	dsn := s.dsn(r, p, k)
	if s.opts.FieldNames == "gitlab" {
		return keyGitLab{k.ID, k.Active, k.PublicKey, dsn}
	}
	return keySpec{k.ID, k.Active, k.PublicKey, dsn}
}

// settings serves GET, PUT and PATCH /projects/:id/error_tracking/settings.
func (s *Server) settings(c *call) {
	if c.method == http.MethodGet {
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
	put := c.method == http.MethodPut
	s.mu.Lock()
	p := s.project(c, true)
	if p == nil {
		s.mu.Unlock()
		return
	}
	before := len(p.Keys)
	status, body := s.changeSettings(c, p, put)
	rec := s.projectChange(p, p.Keys[before:]) // the first key, when GitLab made one
	s.mu.Unlock()
	if status == http.StatusOK && !s.saved(c.w, rec) {
		return
	}
	writeJSON(c.w, status, body)
}

// changeSettings applies a PUT or PATCH under s.mu, in GitLab's order:
// parameters, the feature flag (PUT), the setting row, the model's
// validations, then the save and its callback.
func (s *Server) changeSettings(c *call, p *Project, put bool) (int, any) {
	notFound := map[string]string{"message": "404 Error Tracking Setting Not Found"}
	if !put && p.Settings == nil && !s.release.atLeast(sinceValidateLast) {
		return http.StatusNotFound, notFound // 14.x looked the row up first
	}
	active, problems := activeParam(c.params)
	var integrated, hasIntegrated bool
	if s.release.atLeast(sinceIntegrated) { // before 14.2 PATCH ignores it
		var more []string
		integrated, hasIntegrated, more = integratedParam(c.params, put)
		problems = append(problems, more...)
	}
	if len(problems) > 0 {
		return http.StatusBadRequest, map[string]string{"error": strings.Join(problems, ", ")}
	}
	if put && !s.integratedOn(p) {
		return http.StatusNotFound, map[string]string{"message": "404 Not Found"}
	}
	if !put && p.Settings == nil {
		return http.StatusNotFound, notFound
	}
	if put && !hasIntegrated {
		// integrated= passed validation as nil; the model refuses nil.
		return http.StatusOK, map[string]string{"message": "Error tracking setting integrated is not included in the list", "status": "error"}
	}
	next := Settings{}
	if p.Settings != nil {
		next = *p.Settings
	}
	next.Enabled = active
	if hasIntegrated {
		next.Integrated = integrated
	}
	// The model's Sentry validations apply when enabled and not integrated;
	// before 14.2 there is no integrated column, so whenever enabled.
	if next.Enabled && !(next.Integrated && s.release.atLeast(sinceIntegrated)) {
		var missing []string
		if next.APIURL == nil {
			missing = append(missing, "Error tracking setting api url is a required field")
		}
		if !next.HasToken {
			missing = append(missing, "Error tracking setting token is a required field")
		}
		if len(missing) > 0 {
			return http.StatusOK, map[string]string{"message": strings.Join(missing, " and "), "status": "error"}
		}
	}
	changed := p.Settings == nil || *p.Settings != next
	p.Settings = &next
	// after_save runs only when something changed: an enabled, integrated
	// setting then gets a key if it has no active one.
	if changed && next.Enabled && next.Integrated && !p.hasActiveKey() && s.release.atLeast(sinceClientKeys) {
		s.st.addKey(p)
	}
	if changed {
		s.version++
	}
	return http.StatusOK, s.settingsBody(p)
}

// clientKeys serves GET (paginated) and POST /projects/:id/error_tracking/client_keys.
func (s *Server) clientKeys(c *call) {
	if c.method == http.MethodPost {
		s.mu.Lock()
		p := s.project(c, true)
		if p == nil {
			s.mu.Unlock()
			return
		}
		k := s.st.addKey(p)
		s.version++
		body := s.keyBody(c.r, p, k)
		rec := s.projectChange(p, []ClientKey{k})
		s.mu.Unlock()
		if !s.saved(c.w, rec) {
			return
		}
		writeJSON(c.w, http.StatusCreated, body)
		return
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.project(c, true)
	if p == nil {
		return
	}
	id, _ := url.PathUnescape(c.segs[1])
	pg, ok := paginate(c, len(p.Keys), map[string]string{"id": id})
	if !ok {
		return
	}
	writeEncoded(c.w, http.StatusOK, s.keysPage(c.r, p, pg))
}

// keysPage is a page of p's keys encoded, once per state version: a page
// is read far more often than the keys change (a client pages through
// 10,000 keys many times), and encoding was most of the answer's cost.
// Called under s.mu (read).
func (s *Server) keysPage(r *http.Request, p *Project, pg pageWindow) []byte {
	k := pageKey{project: p.ID, version: s.version, start: pg.start, end: pg.end, origin: s.dsnOrigin(r)}
	s.pagesMu.Lock()
	b, ok := s.pages[k]
	s.pagesMu.Unlock()
	if ok {
		return b
	}
	out := make([]any, 0, pg.end-pg.start)
	for _, key := range p.Keys[pg.start:pg.end] {
		out = append(out, s.keyBody(r, p, key))
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	s.pagesMu.Lock()
	if len(s.pages) >= maxCachedPages {
		clear(s.pages) // older versions' pages, mostly
	}
	s.pages[k] = b
	s.pagesMu.Unlock()
	return b
}

// pageKey names an encoded page: the DSNs in it depend on the address the
// request came to.
type pageKey struct {
	project    int64
	version    uint64
	start, end int
	origin     string
}

const maxCachedPages = 4096

// dsnOrigin is what a DSN's scheme and host depend on, for the page cache.
func (s *Server) dsnOrigin(r *http.Request) string {
	host := s.opts.DSNHost
	if host == "" {
		host, _ = r.Context().Value(servedAddr{}).(string)
	}
	if host == "" {
		host = r.Host
	}
	return schemeOf(r) + "://" + host
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
	keyDeleted(p, k)
	s.version++
	body := s.keyBody(c.r, p, k)
	rec := s.projectChange(p, nil, k.ID)
	s.mu.Unlock()
	if !s.saved(c.w, rec) {
		return
	}
	writeJSON(c.w, http.StatusOK, body)
}
