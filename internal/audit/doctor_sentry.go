package audit

import (
	"errors"
	"strings"

	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/wording"
)

// A Sentry-backed project's keys that could not be read are an unknown,
// not "no key": doctor names why (the token's kind and the scope it
// lacks, a Sentry project that is gone) and what to do, and never advises
// making a key it cannot know is missing.

// SentryTokenPage is where a Sentry user makes a personal auth token.
func SentryTokenPage(base string) string {
	return strings.TrimSuffix(base, "/") + "/settings/account/api/auth-tokens/"
}

// tokenCannotReadKeys is the check of a token Sentry described that cannot
// read a project's keys, "" when it can (or its scopes are unknown).
func tokenCannotReadKeys(info *sentry.TokenInfo, base string) (detail string, fix remedy) {
	if info == nil || !info.ScopesKnown() || info.CanReadKeys() {
		return "", remedy{}
	}
	scopes := safetext.Excerpt(strings.Join(info.Scopes, ", "), 80)
	if scopes == "" {
		scopes = "none"
	}
	fix = remedyOf("create a personal auth token with project:read and project:write (project:admin to delete keys) at "+SentryTokenPage(base)+", then log in with it (%s)", Action{Do: ActLoginSentry, Sentry: base})
	if info.Kind == sentry.OrgToken {
		return "the Sentry token is an organization token (scopes " + scopes + "): it cannot read a project's keys, which takes project:read", fix
	}
	return "the Sentry token cannot read a project's keys: it has " + scopes + ", and keys take project:read", fix
}

// keysUnread words why a Sentry project's keys could not be read. page is
// the GitLab project's error tracking settings page ("" when unknown).
func keysUnread(err error, where, base, page string, explain wording.Explainer) (detail string, fix remedy) {
	settings := "the project's Settings > Monitor > Error Tracking page in GitLab"
	if page != "" {
		settings += " (" + page + ")"
	}
	login := Action{Do: ActLoginSentry, Sentry: base}
	var se *sentry.Error
	switch {
	case errors.Is(err, sentry.ErrProjectNotFound):
		return "the keys could not be read: " + where + " does not exist, or the token cannot see it (Sentry answers 404 to both)",
			remedyOf("if the Sentry project was deleted or moved, name the one the project reports to in "+settings+"; else log in to that Sentry with a token of a member of the project's team (%s)", login)
	case errors.Is(err, sentry.ErrOtherOrganization):
		return "the keys could not be read: the Sentry token is limited to another organization than " + where,
			remedyOf("log in to that Sentry with a token for the project's organization (%s)", login)
	case errors.Is(err, sentry.ErrForbidden) && errors.As(err, &se) && len(se.Scopes) > 0:
		return "the keys could not be read: the Sentry token lacks the scope they take (one of " + strings.Join(se.Scopes, ", ") + ")",
			remedyOf("create a personal auth token with project:read and project:write at "+SentryTokenPage(base)+", then log in with it (%s)", login)
	case errors.Is(err, sentry.ErrForbidden):
		return "the keys could not be read: Sentry refused the token (403; it lacks project:read, or its user is not in the project's team)",
			remedyOf("log in with a token of a member of the project's team holding project:read and project:write ("+SentryTokenPage(base)+"; %s)", login)
	}
	return "the keys could not be read: " + explain(err), remedyOf("check them in Sentry, then run the doctor again")
}

// sentryWhere names the audit's Sentry project ("Sentry project acme/web
// on https://sentry.example"), or the api_url GitLab names.
func sentryWhere(a Audit) string {
	if a.Where != "" {
		return a.Where
	}
	if a.Settings != nil && a.Settings.APIURL != nil {
		if p, err := sentry.ParseAPIURL(*a.Settings.APIURL); err == nil {
			return "Sentry project " + p.Org + "/" + p.Slug + " on " + p.Base
		}
	}
	return "the project's Sentry"
}

// SentryBaseOf is the Sentry address an api_url names, "" when it names none.
func SentryBaseOf(apiURL string) string {
	p, err := sentry.ParseAPIURL(apiURL)
	if err != nil {
		return ""
	}
	return p.Base
}

// settingsPageOf is the GitLab project's error tracking settings page, ""
// for a project not yet known by ID.
func settingsPageOf(api DoctorAPI, p projectscope.Project) string {
	if p.ID == 0 {
		return ""
	}
	return projectscope.SettingsPage(api.BaseURL(), p)
}

// orgsText names the organisations a limited token reaches.
func orgsText(orgs []string) string {
	switch len(orgs) {
	case 0:
		return "one organization"
	case 1:
		return "the organization " + safetext.Excerpt(orgs[0], 60)
	}
	return "the organizations " + safetext.Excerpt(strings.Join(orgs, ", "), 120)
}
