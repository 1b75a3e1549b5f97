package mocksentry

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// Demo tokens, documented in the README. They are not secrets.
const (
	// TokenAdmin holds project:admin: it may delete keys too.
	TokenAdmin = "demo-sentry-token"
	// TokenWrite holds project:write: keys may be made and changed, not
	// deleted (deleting takes project:admin).
	TokenWrite = "demo-sentry-write-token"
	// TokenRead holds project:read: reads only.
	TokenRead = "demo-sentry-readonly-token"
	// TokenExpired is refused: 401 "Token expired".
	TokenExpired = "demo-sentry-expired-token"
)

// Organization is a Sentry organisation.
type Organization struct {
	ID   int64
	Slug string
	Name string
}

// Team is a team of an organisation.
type Team struct {
	ID   int64
	Org  string
	Slug string
	Name string
	// Members are the users in the team (a token's user).
	Members []string
}

// Project is a Sentry project with its keys, newest last here (Sentry
// lists them newest first).
type Project struct {
	ID       int64
	Org      string
	Slug     string
	Name     string
	Platform string
	Teams    []string
	Created  time.Time
	Keys     []*Key
	// OldSlugs are the slugs it had before a rename (ProjectRedirect).
	OldSlugs []string
	// DefaultLoader is the project's sentry:default_loader_version, what
	// a key without its own browserSdkVersion uses.
	DefaultLoader string
}

// Key is a project's client key (ProjectKey).
type Key struct {
	ID         int64 // the row's id: Sentry orders keys by it
	Public     string
	Secret     string
	Label      string
	Active     bool
	RateCount  int
	RateWindow int
	Created    time.Time
	// BrowserSDK is the key's data["browserSdkVersion"] ("" for the
	// project's default); Loader its dynamicSdkLoaderOptions as set.
	BrowserSDK string
	Loader     map[string]bool
	// rateSlot and rateUsed count the events ingestion accepted in the
	// key's current rate limit window.
	rateSlot, rateUsed int64
}

// Token is an auth token and what it may do.
type Token struct {
	Scopes  []string
	User    string
	Expired bool
	// Org: the organisation an organisation token belongs to (OrgToken),
	// or a user token is limited to; "" for none.
	Org      string
	OrgToken bool
}

type state struct {
	orgs     []*Organization
	teams    []*Team
	projects []*Project
	tokens   map[string]Token
	nextID   int64           // projects, teams
	nextKey  int64           // keys
	deleted  map[string]bool // public keys deleted, for the ingestion's answer
}

func hex32() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// petnames makes the two-word names Sentry gives unnamed keys
// (petname.generate(2, " ", letters=10).title()).
var (
	adjectives = []string{"Joyful", "Brave", "Quiet", "Rapid", "Gentle", "Lucky", "Calm", "Bold"}
	animals    = []string{"Parrot", "Otter", "Falcon", "Badger", "Heron", "Lynx", "Marten", "Wren"}
)

func (st *state) petname() string {
	n := st.nextKey
	return adjectives[int(n)%len(adjectives)] + " " + animals[int(n/int64(len(adjectives)))%len(animals)]
}

func (st *state) addKey(p *Project, label string, now time.Time) *Key {
	st.nextKey++
	if label == "" {
		label = st.petname()
	}
	k := &Key{ID: st.nextKey, Public: hex32(), Secret: hex32(), Label: label, Active: true, Created: now.UTC().Truncate(time.Millisecond)}
	p.Keys = append(p.Keys, k)
	return k
}

func (st *state) org(slug string) *Organization {
	for _, o := range st.orgs {
		if o.Slug == slug {
			return o
		}
	}
	return nil
}

func (st *state) team(org, slug string) *Team {
	for _, t := range st.teams {
		if t.Org == org && t.Slug == slug {
			return t
		}
	}
	return nil
}

func (st *state) project(org, slug string) *Project {
	for _, p := range st.projects {
		if p.Org == org && p.Slug == slug {
			return p
		}
	}
	return nil
}

func (st *state) projectByID(id int64) *Project {
	for _, p := range st.projects {
		if p.ID == id {
			return p
		}
	}
	return nil
}

func (p *Project) key(public string) *Key {
	for _, k := range p.Keys {
		if k.Public == public {
			return k
		}
	}
	return nil
}

// seed is the demo: the organisation demo with the team backend, the
// project legacy-api (id 2: GitLab's demo/legacy-api reports to it) with
// two named keys, one rate-limited, and web-shop with Sentry's "Default"
// key. scaleKeys adds keys to legacy-api.
func seed(now time.Time, scaleKeys int) *state {
	created := now.AddDate(0, -3, 0).UTC().Truncate(time.Second)
	st := &state{tokens: map[string]Token{}, nextID: 10, deleted: map[string]bool{}}
	st.orgs = []*Organization{{ID: 1, Slug: "demo", Name: "Demo"}}
	st.teams = []*Team{{ID: 1, Org: "demo", Slug: "backend", Name: "Backend", Members: []string{"demo-maintainer"}},
		{ID: 2, Org: "demo", Slug: "frontend", Name: "Frontend"}}
	web := &Project{ID: 1, Org: "demo", Slug: "web-shop", Name: "Web Shop", Platform: "javascript", Teams: []string{"backend"}, Created: created, DefaultLoader: "latest"}
	legacy := &Project{ID: 2, Org: "demo", Slug: "legacy-api", Name: "Legacy API", Platform: "python", Teams: []string{"backend"}, Created: created, DefaultLoader: "latest"}
	st.projects = []*Project{web, legacy}
	st.addKey(web, "Default", created)
	// Production's loader is pinned to 7.x, replay off: what a PUT without
	// them would reset.
	prod := st.addKey(legacy, "Production", created)
	prod.BrowserSDK, prod.Loader = "7.x", map[string]bool{"hasReplay": false}
	staging := st.addKey(legacy, "Staging", created.AddDate(0, 1, 0))
	staging.RateCount, staging.RateWindow = 1000, 3600
	for i := 0; i < scaleKeys; i++ {
		st.addKey(legacy, fmt.Sprintf("Scale %05d", i+1), created)
	}
	all := []string{"org:read", "project:read", "project:write", "project:admin", "project:releases", "team:read", "team:write", "event:read"}
	st.tokens[TokenAdmin] = Token{Scopes: all, User: "demo-maintainer"}
	st.tokens[TokenWrite] = Token{Scopes: []string{"org:read", "project:read", "project:write", "team:read"}, User: "demo-maintainer"}
	st.tokens[TokenRead] = Token{Scopes: []string{"org:read", "project:read"}, User: "demo-maintainer"}
	st.tokens[TokenExpired] = Token{Scopes: all, User: "demo-maintainer", Expired: true}
	st.tokens[TokenOrgCI] = Token{Scopes: []string{"org:ci"}, Org: "demo", OrgToken: true}
	st.tokens[TokenOrgScoped] = Token{Scopes: all, User: "demo-maintainer", Org: "demo"}
	return st
}

// FleetSlug is the slug of the i-th project ScaleProjects adds (from 1).
func FleetSlug(i int) string { return fmt.Sprintf("fleet-app-%03d", i) }

// addFleet adds n projects to the organisation demo, each with the key
// "Default" (Sentry's create_keys_for_project receiver gives every new
// project one).
func (st *state) addFleet(n int, now time.Time) {
	created := now.AddDate(0, -3, 0).UTC().Truncate(time.Second)
	for i := 1; i <= n; i++ {
		st.nextID++
		p := &Project{ID: st.nextID, Org: "demo", Slug: FleetSlug(i), Name: fmt.Sprintf("Fleet App %03d", i), Platform: "python",
			Teams: []string{"backend"}, Created: created, DefaultLoader: "latest"}
		st.projects = append(st.projects, p)
		st.addKey(p, "Default", created)
	}
}
