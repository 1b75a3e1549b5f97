package mockserver

import "strings"

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
