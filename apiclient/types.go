package apiclient

import (
	"encoding/json"
	"time"
)

// Settings is a project's error tracking configuration. It encodes with the
// specification's field names and decodes both those and GitLab's sentry_* ones.
type Settings struct {
	Active      bool    `json:"active"`
	ProjectName *string `json:"project_name"`
	ExternalURL *string `json:"errtracker_external_url"`
	APIURL      *string `json:"api_url"`
	Integrated  bool    `json:"integrated"`
	// NoIntegrated: the server sent no integrated field (GitLab before 14.2,
	// which predates integrated error tracking); Integrated is then false.
	NoIntegrated bool `json:"-"`
}

// MarshalJSON leaves out integrated when the server did not send it.
func (s Settings) MarshalJSON() ([]byte, error) {
	type plain Settings
	if !s.NoIntegrated {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		Active      bool    `json:"active"`
		ProjectName *string `json:"project_name"`
		ExternalURL *string `json:"errtracker_external_url"`
		APIURL      *string `json:"api_url"`
	}{s.Active, s.ProjectName, s.ExternalURL, s.APIURL})
}

// UnmarshalJSON accepts errtracker_external_url or sentry_external_url.
func (s *Settings) UnmarshalJSON(b []byte) error {
	var w struct {
		Active      *bool   `json:"active"`
		ProjectName *string `json:"project_name"`
		ExternalURL *string `json:"errtracker_external_url"`
		SentryURL   *string `json:"sentry_external_url"`
		APIURL      *string `json:"api_url"`
		Integrated  *bool   `json:"integrated"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Active == nil {
		return errMissingField("settings", "active")
	}
	*s = Settings{Active: *w.Active, ProjectName: w.ProjectName, ExternalURL: w.ExternalURL, APIURL: w.APIURL}
	if w.Integrated != nil {
		s.Integrated = *w.Integrated
	} else {
		s.NoIntegrated = true
	}
	if s.ExternalURL == nil {
		s.ExternalURL = w.SentryURL
	}
	return nil
}

// ClientKey is a credential error-reporting clients use to send events.
type ClientKey struct {
	ID        int64  `json:"id"`
	Active    bool   `json:"active"`
	PublicKey string `json:"public_key"`
	DSN       string `json:"errtracker_dsn"`
	// Name and RateLimit are a Sentry project's key's (GitLab's keys have
	// neither). A Sentry key has no numeric ID (ID 0): its public key
	// names it.
	Name      string        `json:"-"`
	RateLimit *KeyRateLimit `json:"-"`
	// CreatedAt is a Sentry key's dateCreated; zero for GitLab's keys,
	// which carry no date.
	CreatedAt time.Time `json:"-"`
}

// KeyRateLimit caps the events a key accepts: Count in Window seconds.
type KeyRateLimit struct {
	Window int `json:"window"`
	Count  int `json:"count"`
}

// UnmarshalJSON accepts errtracker_dsn or sentry_dsn.
func (k *ClientKey) UnmarshalJSON(b []byte) error {
	var w struct {
		ID        *int64  `json:"id"`
		Active    bool    `json:"active"`
		PublicKey string  `json:"public_key"`
		DSN       *string `json:"errtracker_dsn"`
		SentryDSN *string `json:"sentry_dsn"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.ID == nil {
		return errMissingField("client key", "id")
	}
	*k = ClientKey{ID: *w.ID, Active: w.Active, PublicKey: w.PublicKey}
	switch {
	case w.DSN != nil:
		k.DSN = *w.DSN
	case w.SentryDSN != nil:
		k.DSN = *w.SentryDSN
	}
	return nil
}

// clientKeyWire is a key as either naming sends it. A page of keys is
// decoded into these, with no UnmarshalJSON per key: encoding/json then
// reads the page once instead of re-scanning every key (at 100,000 keys
// that second pass was a third of the CPU). A key with no ID, or ID 0,
// is refused, as a missing ID is by ClientKey.UnmarshalJSON.
type clientKeyWire struct {
	ID        int64  `json:"id"`
	Active    bool   `json:"active"`
	PublicKey string `json:"public_key"`
	DSN       string `json:"errtracker_dsn"`
	SentryDSN string `json:"sentry_dsn"`
}

func decodeClientKeys(body []byte, out *[]ClientKey) error {
	wire := make([]clientKeyWire, 0, perPage)
	if err := json.Unmarshal(body, &wire); err != nil {
		return err
	}
	keys := make([]ClientKey, len(wire))
	for i, w := range wire {
		if w.ID == 0 {
			return errMissingField("client key", "id")
		}
		dsn := w.DSN
		if dsn == "" {
			dsn = w.SentryDSN
		}
		keys[i] = ClientKey{ID: w.ID, Active: w.Active, PublicKey: w.PublicKey, DSN: dsn}
	}
	*out = keys
	return nil
}

// User is the authenticated user (GET /user).
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
	Name     string `json:"name"`
	State    string `json:"state,omitempty"`
	WebURL   string `json:"web_url,omitempty"`
}

// TokenInfo describes the token in use (GET /personal_access_tokens/self).
type TokenInfo struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Revoked   bool      `json:"revoked"`
	Active    bool      `json:"active"`
	Scopes    []string  `json:"scopes"`
	UserID    int64     `json:"user_id"`
	CreatedAt time.Time `json:"created_at"`
	// ExpiresAt is a date (YYYY-MM-DD) or empty when the token never expires.
	ExpiresAt string `json:"expires_at"`
}

// HasScope reports whether the token carries scope s.
func (t TokenInfo) HasScope(s string) bool {
	for _, x := range t.Scopes {
		if x == s {
			return true
		}
	}
	return false
}

// Expiry returns the end of the token's last valid day, and false when it
// has no expiry or the date cannot be read.
func (t TokenInfo) Expiry() (time.Time, bool) {
	if t.ExpiresAt == "" {
		return time.Time{}, false
	}
	d, err := time.Parse(time.DateOnly, t.ExpiresAt)
	if err != nil {
		return time.Time{}, false
	}
	return d, true
}

// Project is the part of a project record the console uses.
type Project struct {
	ID                int64  `json:"id"`
	Name              string `json:"name"`
	Path              string `json:"path"`
	PathWithNamespace string `json:"path_with_namespace"`
	NameWithNamespace string `json:"name_with_namespace"`
	Description       string `json:"description"`
	WebURL            string `json:"web_url"`
	// Archived is sent in Entities::Project (group listings, a project's
	// own record), not in the simple listing of GET /projects.
	Archived bool `json:"archived"`
	// Namespace is where the project lives: a project shared into a group
	// lives outside it.
	Namespace *Namespace `json:"namespace,omitempty"`
	// SharedWithGroups are the groups the project is shared with (Entities::Project).
	SharedWithGroups []SharedGroup `json:"shared_with_groups,omitempty"`
	// Permissions come only with a project's own record (GET /projects/:id,
	// and GET /projects without simple): ProjectWithAccess. Both levels are
	// null where the user's role comes through a share into a group.
	Permissions *Permissions `json:"permissions,omitempty"`
}

// Permissions are the user's direct membership of a project and of its
// namespace's group, as ProjectWithAccess sends them.
type Permissions struct {
	ProjectAccess *AccessLevel `json:"project_access"`
	GroupAccess   *AccessLevel `json:"group_access"`
}

// Namespace is a project's namespace (NamespaceBasic).
type Namespace struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	FullPath string `json:"full_path"`
	ParentID *int64 `json:"parent_id"`
}

// SharedGroup is a group a project is shared with, and the highest role
// the share gives its members (SharedGroupWithProject).
type SharedGroup struct {
	GroupID          int64  `json:"group_id"`
	GroupName        string `json:"group_name"`
	GroupFullPath    string `json:"group_full_path"`
	GroupAccessLevel int    `json:"group_access_level"`
}

// AccessLevel is a membership level (40 = Maintainer).
type AccessLevel struct {
	AccessLevel int `json:"access_level"`
}

// Access levels, as GitLab numbers them.
const (
	GuestAccess      = 10
	ReporterAccess   = 20
	DeveloperAccess  = 30
	MaintainerAccess = 40 // what the error tracking endpoints need
	OwnerAccess      = 50
)

// AccessLevel returns the highest of the project and group access levels.
func (p Project) AccessLevel() int {
	if p.Permissions == nil {
		return 0
	}
	lvl := 0
	if a := p.Permissions.ProjectAccess; a != nil && a.AccessLevel > lvl {
		lvl = a.AccessLevel
	}
	if a := p.Permissions.GroupAccess; a != nil && a.AccessLevel > lvl {
		lvl = a.AccessLevel
	}
	return lvl
}

type missingFieldError struct{ what, field string }

func (e missingFieldError) Error() string { return e.what + " object has no " + e.field }

func errMissingField(what, field string) error { return missingFieldError{what, field} }
