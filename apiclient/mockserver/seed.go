package mockserver

import (
	"fmt"
	"time"
)

// Demo tokens, documented in the README. They are not secrets.
const (
	TokenMaintainer = "demo-maintainer-token"
	TokenExpiring   = "demo-expiring-token"
	TokenReadOnly   = "demo-readonly-token"
	TokenDeveloper  = "demo-developer-token"
	TokenExpired    = "demo-expired-token"
	TokenRevoked    = "demo-revoked-token"
)

func strp(s string) *string { return &s }

// seedState builds the named seed: "demo" or "empty".
func seedState(name string, now time.Time, scaleProjects, scaleKeys int) (*state, error) {
	maint := User{ID: 1, Username: "demo-maintainer", Name: "Demo Maintainer"}
	dev := User{ID: 2, Username: "demo-developer", Name: "Demo Developer"}
	st := &state{Users: []User{maint, dev}, Tokens: map[string]Token{}}
	day := func(d int) string { return now.AddDate(0, 0, d).Format(time.DateOnly) }
	created := now.AddDate(0, -2, 0).UTC().Truncate(time.Second)
	st.Tokens[TokenMaintainer] = Token{ID: 1, Name: "demo", UserID: 1, Scopes: []string{"api"}, ExpiresAt: day(300), CreatedAt: created}
	st.Tokens[TokenExpiring] = Token{ID: 2, Name: "demo-expiring", UserID: 1, Scopes: []string{"api"}, ExpiresAt: day(3), CreatedAt: created}
	st.Tokens[TokenReadOnly] = Token{ID: 3, Name: "demo-readonly", UserID: 1, Scopes: []string{"read_api"}, ExpiresAt: day(300), CreatedAt: created}
	st.Tokens[TokenDeveloper] = Token{ID: 4, Name: "demo-developer", UserID: 2, Scopes: []string{"api"}, ExpiresAt: day(300), CreatedAt: created}
	st.Tokens[TokenExpired] = Token{ID: 5, Name: "demo-expired", UserID: 1, Scopes: []string{"api"}, ExpiresAt: day(-1), CreatedAt: created}
	st.Tokens[TokenRevoked] = Token{ID: 6, Name: "demo-revoked", UserID: 1, Scopes: []string{"api"}, ExpiresAt: day(300), Revoked: true, CreatedAt: created}

	switch name {
	case "empty":
		if scaleProjects > 0 || scaleKeys > 0 {
			return nil, fmt.Errorf("--scale-projects and --scale-keys add to the demo seed: use --seed demo")
		}
		st.index()
		return st, nil
	case "demo", "":
	default:
		return nil, fmt.Errorf("unknown seed %q: use demo or empty", name)
	}
	members := func() map[int64]int { return map[int64]int{1: maintainer, 2: developer} }
	mk := func(id int64, path, name, desc string) *Project {
		return &Project{ID: id, Path: path, Name: name, Description: desc, Members: members(), Keys: []ClientKey{}, CreatedAt: created}
	}
	p1 := mk(1, "demo/web-shop", "Web Shop", "Storefront; integrated error tracking with two keys")
	p1.Settings = &Settings{Enabled: true, Integrated: true}
	p2 := mk(2, "demo/mobile-app", "Mobile App", "No error tracking yet")
	p3 := mk(3, "demo/legacy-api", "Legacy API", "Reports to an external Sentry")
	p3.Settings = &Settings{Enabled: true, Integrated: false, ProjectName: strp("Legacy API"),
		APIURL: strp("https://sentry.example.com/api/0/projects/demo/legacy-api/"), HasToken: true}
	p4 := mk(4, "demo/on-prem", "On Prem", "Integrated error tracking is not available here")
	p4.NoIntegrated = true
	p5 := mk(5, "demo/paused", "Paused", "Error tracking configured but switched off")
	p5.Settings = &Settings{Enabled: false, Integrated: true}
	p6 := mk(6, "private/secret", "Secret", "Not visible to the demo users")
	p6.Members = map[int64]int{}
	// The subgroup demo/mobile: two projects the demo user maintains, one
	// where SENTRY_DSN holds its key's DSN (a group rotation rotates it)
	// and one without the variable (skipped), and one the demo user only
	// develops in (skipped: not a maintainer). Their keys are numbered
	// apart, so the demo projects' next key stays 4.
	p7 := mk(7, "demo/mobile/ios", "iOS", "Mobile: SENTRY_DSN holds its key's DSN")
	p7.Settings = &Settings{Enabled: true, Integrated: true}
	p7.Keys = []ClientKey{{ID: 901, Active: true, PublicKey: newPublicKey()}}
	p7.Variables = []Variable{{Key: "SENTRY_DSN", Value: placeholderFor(901), VariableType: "env_var",
		Masked: true, Raw: true, EnvironmentScope: "*", Description: "Error tracking DSN (demo)"},
		// A variable left behind on a key deleted long ago: what an audit
		// finds (dangling).
		{Key: "OLD_SENTRY_DSN", Value: placeholderFor(900), VariableType: "env_var",
			Masked: true, Raw: true, EnvironmentScope: "staging", Description: "Error tracking DSN (demo, stale)"}}
	p7.Retired = []ClientKey{{ID: 900, Active: true, PublicKey: newPublicKey()}}
	p8 := mk(8, "demo/mobile/android", "Android", "Mobile: a key no variable holds")
	p8.Settings = &Settings{Enabled: false, Integrated: true}
	p8.Keys = []ClientKey{{ID: 902, Active: true, PublicKey: newPublicKey()}}
	p9 := mk(9, "demo/mobile/kiosk", "Kiosk", "Mobile: the demo user is a Developer here")
	p9.Members = map[int64]int{1: developer, 2: developer}
	// The demo user is a Developer of the subgroup demo/mobile: its role in
	// kiosk comes from there; ios and android add a Maintainer membership.
	st.Groups = []*Group{{ID: 100, Path: "demo", Name: "Demo", CreatedAt: created},
		{ID: 101, Path: "demo/mobile", Name: "Mobile", ParentID: 100, Members: map[int64]int{1: developer}, CreatedAt: created}}
	st.Projects = []*Project{p1, p2, p3, p4, p5, p6, p7, p8, p9}
	st.addOps(created)
	st.addKey(p1)
	st.addKey(p1)
	st.addKey(p5)
	// The DSN of key 1 as a CI/CD variable, so that a rotation has a
	// variable to update (gitlab-api.md §13).
	p1.Variables = []Variable{{Key: "SENTRY_DSN", Value: placeholderFor(1), VariableType: "env_var",
		Masked: true, Raw: true, EnvironmentScope: "*", Description: "Error tracking DSN (demo)"}}
	for i := 0; i < scaleKeys; i++ {
		st.addKey(p1)
	}
	for i := 1; i <= scaleProjects; i++ {
		p := mk(int64(1000+i), fmt.Sprintf("scale/project-%05d", i), fmt.Sprintf("Project %05d", i), "Generated for scale tests")
		st.Projects = append(st.Projects, p)
	}
	st.index()
	return st, nil
}

// addOps adds the group ops, which the demo user owns whole (a Maintainer
// and more, so it reads the group's variables, which need the Owner role),
// and the group partner, whose projects are shared into ops: sdk with the
// Maintainer role at most (the demo user maintains it through the share),
// docs with Developer (skipped). ops/api's DSNs are held by a hidden
// variable, a hidden group variable and a dotenv file variable; ops holds
// an archived project. Keys are numbered apart (910…) so the demo
// projects' next key stays 4.
func (st *state) addOps(created time.Time) {
	mk := func(id int64, path, name, desc string, keys ...int64) *Project {
		p := &Project{ID: id, Path: path, Name: name, Description: desc, Members: map[int64]int{}, CreatedAt: created,
			Settings: &Settings{Enabled: true, Integrated: true}}
		for _, k := range keys {
			p.Keys = append(p.Keys, ClientKey{ID: k, Active: true, PublicKey: newPublicKey()})
		}
		return p
	}
	api := mk(10, "ops/api", "API", "Ops: a hidden variable and a dotenv file hold its DSNs", 910, 911)
	api.Variables = []Variable{
		{Key: "SENTRY_DSN", Value: placeholderFor(910), VariableType: "env_var", Masked: true, Hidden: true, Raw: true,
			EnvironmentScope: "*", Description: "Error tracking DSN (hidden)"},
		{Key: "APP_ENV", Value: "APP_ENV=production\nSENTRY_DSN=\"" + placeholderFor(911) + "\"\nLOG_LEVEL=info\n", VariableType: "file",
			Raw: true, EnvironmentScope: "*", Description: "The app's dotenv file"},
	}
	old := mk(11, "ops/old-dashboard", "Old Dashboard", "Ops: archived", 912)
	old.Archived = true
	old.Variables = []Variable{{Key: "SENTRY_DSN", Value: placeholderFor(912), VariableType: "env_var", Masked: true, Raw: true, EnvironmentScope: "*"}}
	sdk := mk(12, "partner/sdk", "SDK", "Partner: shared into ops with the Maintainer role", 913)
	sdk.SharedWith = []GroupLink{{GroupID: 102, Access: maintainer}}
	sdk.Variables = []Variable{{Key: "SENTRY_DSN", Value: placeholderFor(913), VariableType: "env_var", Masked: true, Raw: true, EnvironmentScope: "*"}}
	docs := mk(13, "partner/docs", "Docs", "Partner: shared into ops with the Developer role")
	docs.Settings = nil
	docs.SharedWith = []GroupLink{{GroupID: 102, Access: developer}}
	st.Groups = append(st.Groups,
		&Group{ID: 102, Path: "ops", Name: "Ops", Members: map[int64]int{1: owner, 2: developer}, CreatedAt: created,
			Variables: []Variable{{Key: "OPS_SENTRY_DSN", Value: placeholderFor(910), VariableType: "env_var", Masked: true, Hidden: true,
				Raw: true, EnvironmentScope: "production", Description: "The API's DSN for every ops job (hidden)"}}},
		&Group{ID: 103, Path: "partner", Name: "Partner", CreatedAt: created})
	st.Projects = append(st.Projects, api, old, sdk, docs)
}

// addFleet adds the group fleet (ID 200) with n projects (IDs 2001…), each
// with integrated tracking on and one key (IDs 200001…) whose DSN its
// SENTRY_DSN variable holds.
func (st *state) addFleet(n int) {
	// A group variable holding the first app's DSN for production: a use
	// an audit and a delete question find at group level.
	st.Groups = append(st.Groups, &Group{ID: 200, Path: "fleet", Name: "Fleet", Members: map[int64]int{1: owner}, CreatedAt: st.Projects[0].CreatedAt,
		Variables: []Variable{{Key: "FLEET_SENTRY_DSN", Value: placeholderFor(200001), VariableType: "env_var",
			Masked: true, Raw: true, EnvironmentScope: "production", Description: "Fleet-wide DSN (demo)"}}})
	created := st.Projects[0].CreatedAt
	for i := 1; i <= n; i++ {
		id := int64(2000 + i)
		key := int64(200000 + i)
		p := &Project{ID: id, Path: fmt.Sprintf("fleet/app-%03d", i), Name: fmt.Sprintf("App %03d", i), Description: "Fleet: SENTRY_DSN holds its key's DSN",
			Members: map[int64]int{1: maintainer, 2: developer}, CreatedAt: created,
			Settings: &Settings{Enabled: true, Integrated: true},
			Keys:     []ClientKey{{ID: key, Active: true, PublicKey: newPublicKey()}},
			Variables: []Variable{{Key: "SENTRY_DSN", Value: placeholderFor(key), VariableType: "env_var",
				Masked: true, Raw: true, EnvironmentScope: "*", Description: "Error tracking DSN (fleet)"}}}
		st.Projects = append(st.Projects, p)
	}
	st.index()
}
