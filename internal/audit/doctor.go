package audit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/tokens"
	"github.com/errtrack/errtrack/internal/wording"
)

// The doctor runs an ordered list of checks of one project's error
// tracking, each ok, warn or fail with a one-line fix. It changes nothing
// unless asked to send a test event.

// Check statuses.
const (
	CheckOK   = "ok"
	CheckWarn = "warn"
	CheckFail = "fail"
	CheckSkip = "skip"
)

// Check is one check's outcome, with its fix: Fix as the commands word it,
// Action what it does (FixWith words it otherwise).
type Check struct {
	Name   string `json:"check"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	Action Action `json:"-"`
	fix    remedy
}

// DoctorAPI is what the doctor needs.
type DoctorAPI interface {
	AuditAPI
	tokens.TokenAPI
	testevent.API
	ProbeDSN(ctx context.Context, dsn string) (int, error)
	// BaseURL is the GitLab the client talks to: a check's fix links the
	// project's settings page there.
	BaseURL() string
}

// DoctorOptions: SendTestEvent sends one event per active key.
type DoctorOptions struct {
	SendTestEvent bool
	// TokenRotatable (the keyring's token) and TokenEnv (the variable the
	// token comes from) choose the advice for a token that expires soon.
	TokenRotatable bool
	TokenEnv       string
	// Resolve reaches a Sentry-backed project's Sentry (its token): its
	// keys and the token's scopes are checked too.
	Resolve keystore.SentryResolver
	// SendHint says how to send a test event, in the front end's words
	// ("--send-test-event sends one" when empty).
	SendHint string
	// IntegratedUnavailable: GitLab refused integrated error tracking for
	// this project already (the front end saw it), so creating integrated
	// settings is no fix.
	IntegratedUnavailable bool
	// Ledger holds the project's migration, if any: a migrated project is
	// checked on its Sentry side (doctor_migrated.go). OldKeysStep words
	// the migration's later step for the front end.
	Ledger      *rotation.Rotations
	OldKeysStep string
	// MigrateStep words how a migration under way goes on.
	MigrateStep string
}

// Failed reports a fail among checks.
func Failed(checks []Check) bool {
	return slices.ContainsFunc(checks, func(c Check) bool { return c.Status == CheckFail })
}

// Doctor checks, in order: the server, the token, the project and the role,
// the error tracking API of the release, the settings, the keys, each
// DSN's ingestion endpoint, and the CI/CD variables. explain words an error
// for the user (the front end's).
func Doctor(ctx context.Context, api DoctorAPI, ref apiclient.ProjectRef, o DoctorOptions, explain wording.Explainer, now time.Time) []Check {
	var out []Check
	add := func(name, status, detail, fix string) {
		out = append(out, Check{Name: name, Status: status, Detail: detail, Fix: fix})
	}
	// act adds a check whose fix is r, its actions worded by each front end.
	act := func(name, status, detail string, r remedy) {
		out = append(out, newCheck(name, status, detail, r))
	}
	sendHint := o.SendHint
	if sendHint == "" {
		sendHint = "--send-test-event sends one"
	}

	// The token's check reads the release too: one round trip.
	st, terr := tokens.CheckToken(ctx, api)
	switch {
	case st.Version != nil:
		add("server", CheckOK, "GitLab "+st.Version.Short()+" answers", "")
	case terr != nil && !errors.Is(terr, apiclient.ErrUnauthorized):
		add("server", CheckFail, "the server did not answer as GitLab: "+explain(terr), "check the host URL (with its path, for an instance under a relative URL root)")
		return out
	default:
		add("server", CheckWarn, "the server did not say its release", "")
	}
	switch {
	case terr != nil:
		add("token", CheckFail, explain(terr), "")
		return out
	case st.ReadOnly():
		add("token", CheckWarn, "the token has read_api only: errtrack can read but not change anything", "create a token with the api scope and log in again")
	case st.ExpiresSoon(now) && o.TokenRotatable && st.Expiry(now) != "has expired":
		act("token", CheckWarn, "the token "+st.Expiry(now), remedyOf("rotate it: %s", Action{Do: ActRotateToken}))
	case st.ExpiresSoon(now):
		add("token", CheckWarn, "the token "+st.Expiry(now), st.ExpiryAdvice(now, o.TokenRotatable, o.TokenEnv))
	default:
		detail := "valid, for @" + st.User.Username
		if e := st.Expiry(now); e != "" {
			detail += ", " + e
		}
		add("token", CheckOK, detail, "")
	}

	a, aerr := AuditProjectWith(ctx, api, ref, AuditOptions{Resolve: o.Resolve})
	switch {
	case errors.Is(aerr, apiclient.ErrProjectNotFound):
		add("project", CheckFail, explain(aerr), "")
		return out
	case errors.Is(aerr, apiclient.ErrForbidden):
		add("role", CheckFail, explain(aerr), "")
		return out
	case errors.Is(aerr, apiclient.ErrRouteMissing):
		add("error tracking API", CheckFail, explain(aerr), "")
		return out
	case aerr != nil:
		add("project", CheckFail, explain(aerr), "")
		return out
	}
	add("role", CheckOK, "Maintainer of "+a.Project.Name(), "")
	if rec, ok := o.Ledger.Migrated(a.Project.ID); ok && !keystore.SentryBacked(a.Settings) {
		return append(out, doctorMigrated(ctx, api, &a, rec, o, explain)...)
	}
	if c, ok := migrationUnderWay(o, a.Project.ID); ok {
		out = append(out, c)
	}

	s := a.Settings
	integratedOn := s != nil && s.Integrated
	sentryBacked := keystore.SentryBacked(s)
	switch {
	case s == nil:
		if o.IntegratedUnavailable {
			// GitLab refused integrated tracking here already: only a
			// Sentry can do.
			add("settings", CheckFail, "error tracking is not configured for this project, and GitLab does not offer integrated error tracking here", "configure a Sentry in Settings > Monitor > Error Tracking")
			break
		}
		act("settings", CheckFail, "error tracking is not configured for this project",
			remedyOf("%s, where GitLab offers integrated error tracking (GitLab.com; on a self-managed GitLab an administrator enables its feature flag); else configure a Sentry in Settings > Monitor > Error Tracking",
				Action{Do: ActCreateSettings, Project: a.Project.Name()}))
	case !integratedOn && !sentryBacked:
		add("settings", CheckFail, "neither integrated error tracking nor a Sentry is in use: on a self-managed GitLab the integrated_error_tracking feature flag is off by default", "ask an administrator to enable the flag, or configure a Sentry in Settings > Monitor > Error Tracking")
	case !s.Active:
		act("settings", CheckWarn, "error tracking is disabled: the project shows no errors", remedyOf("%s", Action{Do: ActEnable, Project: a.Project.Name()}))
	case sentryBacked:
		add("settings", CheckOK, "enabled, reporting to a Sentry ("+*s.APIURL+")", "")
	default:
		add("settings", CheckOK, "enabled, integrated error tracking", "")
	}
	checkKeys := true
	if sentryBacked {
		switch {
		case o.Resolve == nil:
			add("keys", CheckSkip, "a Sentry-backed project's DSNs come from Sentry, not from GitLab's client keys", "")
			checkKeys = false
		case !sentryChecks(ctx, o.Resolve, *s.APIURL, explain, act):
			checkKeys = false // the Sentry's keys could not be read
		case a.sentryUnread != nil:
			// Unknown, not "no key": named, and no key made on it.
			detail, fix := keysUnread(a.sentryUnread, sentryWhere(a), SentryBaseOf(*s.APIURL), settingsPageOf(api, a.Project), explain)
			act("keys", CheckFail, detail, fix)
			checkKeys = false
		}
	}
	if checkKeys {
		var active []apiclient.ClientKey
		for _, k := range a.Keys {
			if k.Key.Active {
				active = append(active, k.Key)
			}
		}
		if len(active) == 0 {
			act("keys", CheckFail, "no active client key: SDKs have no DSN to send with", remedyOf("%s", Action{Do: ActCreateKey, Project: a.Project.Name()}))
		} else {
			add("keys", CheckOK, wording.Plural(len(active), "active client key", "active client keys"), "")
		}
		for _, k := range active {
			name := fmt.Sprintf("ingestion (key %s)", keystore.KeyName(k))
			d, err := dsn.Parse(k.DSN)
			if err != nil {
				add(name, CheckFail, "its DSN cannot be used: "+err.Error(), "")
				continue
			}
			if o.SendTestEvent {
				check, err := testevent.Send(ctx, api, a.Project, k)
				var refused *testevent.RefusedError
				switch {
				case err == nil:
					add(name, CheckOK, fmt.Sprintf("the test event was %s at %s (HTTP %d)", testevent.AcceptedWords, d.Host, check.StatusCode), "")
				case errors.As(err, &refused) && check.Outcome() == apiclient.IngestRateLimited:
					add(name, CheckWarn, explain(err), refused.Advice())
				case errors.As(err, &refused):
					add(name, CheckFail, explain(err), refused.Advice())
				default:
					add(name, CheckFail, explain(err), testevent.RefusedAdvice)
				}
				continue
			}
			if _, err := api.ProbeDSN(ctx, k.DSN); err != nil {
				add(name, CheckFail, "the DSN's host "+d.Host+" does not answer: "+explain(err), "check the instance's error tracking ingestion address (the DSN's host) and its network path")
				continue
			}
			add(name, CheckOK, d.Host+" answers (no event sent; "+sendHint+")", "")
		}
	}
	if sentryBacked && a.sentryUnread != nil {
		// Without the keys, no variable can be told current or old.
		add("CI/CD variables", CheckSkip, "not checked: whether they hold a current DSN is unknown while the Sentry's keys cannot be read", "")
		return out
	}
	warned := false
	for _, f := range a.Findings {
		switch {
		case f.Severity == SeverityError:
			out = append(out, Check{Name: "CI/CD variables", Status: CheckFail, Detail: f.What, Fix: f.Fix, Action: f.Action, fix: f.fix})
		case f.Severity == SeverityWarning && f.ofVariables:
			// A variable handing out a disabled key's DSN is no current
			// DSN: the check says so, as the audit does.
			out = append(out, Check{Name: "CI/CD variables", Status: CheckWarn, Detail: f.What, Fix: f.Fix, Action: f.Action, fix: f.fix})
			warned = true
		}
	}
	if a.Errors() == 0 && !warned {
		used := 0
		for _, k := range a.Keys {
			used += len(k.Known())
		}
		add("CI/CD variables", CheckOK, wording.Plural(used, "variable holds", "variables hold")+" a current DSN, none an old one", "")
	}
	return out
}

// sentryChecks checks a Sentry-backed project's Sentry: the token for its
// host and what it may do; false when the Sentry cannot be reached.
func sentryChecks(ctx context.Context, resolve keystore.SentryResolver, apiURL string, explain wording.Explainer, act func(name, status, detail string, r remedy)) bool {
	add := func(name, status, detail, fix string) { act(name, status, detail, remedyOf(fix)) }
	store, err := resolve(ctx, apiURL)
	if err != nil {
		add("Sentry token", CheckFail, explain(err), "")
		return false
	}
	tc, ok := store.(keystore.TokenReader)
	if !ok {
		return true
	}
	info, err := tc.Token(ctx)
	switch {
	case err != nil:
		add("Sentry", CheckFail, "the project's Sentry ("+store.Where()+") did not answer as Sentry: "+explain(err), "check the api_url in GitLab's error tracking settings, and the network path to that host")
		return false
	case !info.ScopesKnown() && info.Kind == sentry.OrgLimitedToken:
		add("Sentry token", CheckOK, "limited to "+orgsText(info.Orgs)+": Sentry shows its scopes only on that organization's routes", "")
	case !info.ScopesKnown():
		add("Sentry token", CheckWarn, "Sentry did not describe the token's scopes", "")
	case !info.CanReadKeys():
		detail, fix := tokenCannotReadKeys(info, keystore.SentryBase(store))
		act("Sentry token", CheckFail, detail, fix)
		return false
	case !info.CanWriteKeys():
		act("Sentry token", CheckWarn, "the token reads keys but cannot make or change them (no project:write)",
			remedyOf("create a token with project:write (project:admin to delete keys) and log in again (%s)", Action{Do: ActLoginSentry, Sentry: keystore.SentryBase(store)}))
	case !info.CanDeleteKeys():
		add("Sentry token", CheckOK, "project:write: keys can be made and changed; deleting them takes project:admin", "")
	default:
		add("Sentry token", CheckOK, "project:admin: keys can be made, changed and deleted", "")
	}
	return true
}
