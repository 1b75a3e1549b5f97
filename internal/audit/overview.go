package audit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/wording"
)

// OverviewAPI is what a project's overview needs.
type OverviewAPI interface {
	GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error)
	CountClientKeys(ctx context.Context, p apiclient.ProjectRef) (int, bool, error)
}

// Overview is how a project's error tracking is set up.
type Overview struct {
	Settings  *apiclient.Settings // nil when none are configured (Missing) or on error
	Missing   bool
	Keys      int
	KeysKnown bool // false above 10,000 keys, where GitLab stops counting
	Err       error
	// SentryProject and SentryURL name the Sentry project a migration in
	// the ledger carried it to (WithMigration); "" for none.
	SentryProject, SentryURL string
}

// WithMigration notes the project's migration in the ledger: a migrated
// project reports to its Sentry project, whatever GitLab's own settings
// (integrated, off) still say.
func (o Overview) WithMigration(l *rotation.Rotations, projectID int64) Overview {
	if rec, ok := l.Migrated(projectID); ok {
		if t, ok := migrate.ParseLedgerTarget(rec.Target); ok {
			o.SentryProject, o.SentryURL = migrate.TargetName(t), t.Base
		}
	}
	return o
}

// Migrated reports a project a migration carried to a Sentry whose GitLab
// settings do not name that Sentry yet.
func (o Overview) Migrated() bool { return o.SentryProject != "" && !keystore.SentryBacked(o.Settings) }

// ProjectOverview reads a project's settings and counts its keys, at once:
// one round trip.
func ProjectOverview(ctx context.Context, api OverviewAPI, ref apiclient.ProjectRef) Overview {
	var o Overview
	var kerr error
	serr, _ := fanout.Both(func() (err error) {
		o.Settings, _, err = api.GetSettings(ctx, ref)
		return err
	}, func() error {
		o.Keys, o.KeysKnown, kerr = api.CountClientKeys(ctx, ref)
		return nil
	})
	switch {
	case errors.Is(serr, apiclient.ErrSettingsNotFound):
		o.Missing = true
	case serr != nil:
		o.Err = serr
	}
	if kerr != nil && o.Err == nil && !errors.Is(kerr, apiclient.ErrRouteMissing) {
		o.Err = kerr
	}
	return o
}

// Integrated reports settings on GitLab's integrated backend.
func (o Overview) Integrated() bool {
	return o.Settings != nil && o.Settings.Integrated
}

// Summary words the overview in a few words: "integrated · on · 2 keys",
// "Sentry · off", "not set up", or why it is unknown.
func (o Overview) Summary() string {
	switch {
	case errors.Is(o.Err, apiclient.ErrForbidden):
		return "no access (Maintainer role needed)"
	case errors.Is(o.Err, apiclient.ErrProjectNotFound):
		return "not found"
	case errors.Is(o.Err, apiclient.ErrRouteMissing):
		return "not available on this GitLab"
	case o.Err != nil:
		var e *apiclient.APIError
		if errors.As(o.Err, &e) && e.StatusCode != 0 {
			return fmt.Sprintf("unknown (HTTP %d)", e.StatusCode)
		}
		if errors.As(o.Err, &e) && e.Kind != nil {
			return "unknown (" + e.Kind.Error() + ")"
		}
		return "unknown"
	case o.Migrated():
		s := "Sentry " + safetext.Excerpt(o.SentryProject, 80) + " (migrated)"
		if o.Settings != nil && o.Settings.Integrated && o.Settings.Active {
			s += " · integrated still on"
		}
		if o.Keys > 0 {
			s += " · " + wording.Plural(o.Keys, "glet_ key left", "glet_ keys left")
		}
		return s
	case o.Missing:
		return "not set up"
	}
	state := "off"
	if o.Settings.Active {
		state = "on"
	}
	switch {
	case !o.Settings.Integrated && o.Settings.APIURL == nil:
		// Integrated off (or unknown to an old release) and no Sentry: what
		// a flag-off instance reports. Nothing collects errors.
		return "no backend · " + state
	case !o.Settings.Integrated:
		return "Sentry · " + state
	}
	keys := fmt.Sprintf("%d keys", o.Keys)
	switch {
	case !o.KeysKnown:
		keys = fmt.Sprintf("%d+ keys", o.Keys)
	case o.Keys == 1:
		keys = "1 key"
	}
	return "integrated · " + state + " · " + keys
}

// Compact is Summary for a narrow column: the state first, so that a cut
// keeps on or off ("on · integrated · 2 keys" cut to "on · integr…").
func (o Overview) Compact() string {
	if o.Migrated() && o.Err == nil {
		return "Sentry " + safetext.Excerpt(o.SentryProject, 80) // where it reports, first
	}
	full := o.Summary()
	for _, state := range []string{"on", "off"} {
		for _, backend := range []string{"integrated", "Sentry", "no backend"} {
			if rest, ok := strings.CutPrefix(full, backend+" · "+state); ok {
				return state + " · " + backend + rest
			}
		}
	}
	return full
}

// Unknown reports an overview that could not be read for a reason that
// may pass (a server error, a rate limit the client could not wait out):
// not a lack of access, a missing project or a release without the API.
func (o Overview) Unknown() bool {
	return o.Err != nil && !errors.Is(o.Err, apiclient.ErrForbidden) && !errors.Is(o.Err, apiclient.ErrProjectNotFound) && !errors.Is(o.Err, apiclient.ErrRouteMissing)
}
