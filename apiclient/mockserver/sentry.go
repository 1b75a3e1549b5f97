package mockserver

import "strings"

// demoSentry is the Sentry host the demo seed's Sentry-backed projects
// name in their settings.
const demoSentry = "https://sentry.example.com"

// pointSentry makes the Sentry-backed projects' api_url name the Sentry at
// base (the mock Sentry) instead of the seed's placeholder host, keeping
// the organisation and project slugs.
func (st *state) pointSentry(base string) {
	if base == "" {
		return
	}
	base = strings.TrimSuffix(base, "/")
	for _, p := range st.Projects {
		if p.Settings == nil || p.Settings.APIURL == nil || !strings.HasPrefix(*p.Settings.APIURL, demoSentry+"/") {
			continue
		}
		u := base + strings.TrimPrefix(*p.Settings.APIURL, demoSentry)
		p.Settings.APIURL = &u
	}
}
