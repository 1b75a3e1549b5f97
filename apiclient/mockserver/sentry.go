package mockserver

import (
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// demoSentry is the Sentry host the demo seed's Sentry-backed projects
// name in their settings.
const demoSentry = "https://sentry.example.com"

// pointSentry makes the Sentry-backed projects' api_url name the Sentry at
// base (the mock Sentry) instead of the seed's placeholder host, keeping
// the organisation and project slugs.
func (st *state) pointSentry(base, dsn string) {
	if base == "" {
		return
	}
	defer st.sentryDSN(base, dsn)
	base = strings.TrimSuffix(base, "/")
	for _, p := range st.Projects {
		if p.Settings == nil || p.Settings.APIURL == nil || !strings.HasPrefix(*p.Settings.APIURL, demoSentry+"/") {
			continue
		}
		u := base + strings.TrimPrefix(*p.Settings.APIURL, demoSentry)
		p.Settings.APIURL = &u
	}
}

// sentryDSN gives the Sentry-backed projects that report to base a
// SENTRY_DSN holding dsn, as a deploy of them would have.
func (st *state) sentryDSN(base, dsn string) {
	if dsn == "" {
		return
	}
	for _, p := range st.Projects {
		if p.Settings == nil || p.Settings.APIURL == nil || !strings.HasPrefix(*p.Settings.APIURL, base+"/") {
			continue
		}
		p.Variables = append(p.Variables, Variable{Key: "SENTRY_DSN", Value: dsn, VariableType: "env_var",
			Masked: true, Raw: true, EnvironmentScope: "*", Description: "Error tracking DSN (Sentry, demo)"})
	}
}

// addSentryFleet adds the group sentry-fleet with n projects, each
// Sentry-backed as GitLab stores it (ErrorTracking::
// ProjectErrorTrackingSetting: integrated false, api_url
// BASE/api/0/projects/ORG/PROJECT/, project_name, a token), each naming
// its own project of the Sentry at base, and a SENTRY_DSN holding
// dsnOf(that project's slug).
func (st *state) addSentryFleet(n int, base string, dsnOf func(string) string) {
	base = strings.TrimSuffix(base, "/")
	created := st.Projects[0].CreatedAt
	st.Groups = append(st.Groups, &Group{ID: 201, Path: "sentry-fleet", Name: "Sentry Fleet", Members: map[int64]int{1: owner}, CreatedAt: created})
	for i := 1; i <= n; i++ {
		slug := mocksentry.FleetSlug(i)
		p := &Project{ID: int64(2100 + i), Path: fmt.Sprintf("sentry-fleet/app-%03d", i), Name: fmt.Sprintf("App %03d", i),
			Description: "Sentry fleet: reports to its own Sentry project", Members: map[int64]int{1: maintainer, 2: developer},
			CreatedAt: created, Keys: []ClientKey{},
			Settings: &Settings{Enabled: true, Integrated: false, ProjectName: strp(fmt.Sprintf("Fleet App %03d", i)),
				APIURL: strp(base + "/api/0/projects/demo/" + slug + "/"), HasToken: true},
			Variables: []Variable{{Key: "SENTRY_DSN", Value: dsnOf(slug), VariableType: "env_var",
				Masked: true, Raw: true, EnvironmentScope: "*", Description: "Error tracking DSN (Sentry fleet)"}}}
		st.Projects = append(st.Projects, p)
	}
	st.index()
}
