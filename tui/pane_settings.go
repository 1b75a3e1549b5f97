package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// webUISettings is where GitLab configures what its API cannot.
const webUISettings = "GitLab's web UI: Settings > Monitor > Error Tracking"

// settingsPane shows a project's error tracking settings and changes them.
// It offers only what the server can do: the external tracker (Sentry) is
// configured in the web UI, so switching to it is offered only where one is
// configured, and a read-only token changes nothing.
type settingsPane struct {
	sh   *shared
	data loadable[settings]
	// newActive is the create form's choice when none are configured.
	newActive bool
	// noIntegrated: GitLab refused integrated error tracking for the
	// project (a feature flag): creating or switching to it is not offered
	// again; a Sentry, configured in the web UI, is.
	noIntegrated  bool
	width, height int
	// migration is the project's migration to a Sentry in the ledger, if
	// any (the keys pane reads it); page is GitLab's settings page, where
	// the Sentry is named.
	migration func() (ledger.Record, bool)
	page      func() string
}

// migrated is the project's migration while GitLab's settings do not name
// its Sentry: integrated tracking is not offered again.
func (p *settingsPane) migrated() (ledger.Record, bool) {
	if p.migration == nil || !p.data.has || p.data.val.missing || keystore.SentryBacked(p.data.val.s) {
		return ledger.Record{}, false
	}
	return p.migration()
}

func (p *settingsPane) setSize(w, h int) { p.width, p.height = w, h }

func (p *settingsPane) loaded(msg settingsLoadedMsg) tea.Cmd {
	if msg.err != nil {
		had := p.data.has
		p.data.fail(msg.err)
		return p.sh.failedOnce(msg.err, !had)
	}
	p.data.set(msg.val)
	return nil
}

// written takes the settings a change returned.
func (p *settingsPane) written(c changes) {
	if c.settings != nil {
		p.data.set(settings{s: c.settings})
	}
	p.noIntegrated = p.noIntegrated || c.integratedRefused
}

// integratedNote says what to do where GitLab refused integrated tracking.
const integratedNote = "GitLab does not offer integrated error tracking for this project (it refused it): an external Sentry, configured in " + webUISettings + ", is what works here."

func (p *settingsPane) badge() string {
	switch s := p.data.val; {
	case !p.data.has:
		return ""
	case s.missing:
		return " (none)"
	case s.s.Active:
		return " (active)"
	}
	return " (inactive)"
}

// canUseExternal: the project has a Sentry configured (in the web UI), so
// integrated can be switched off without the server refusing.
func (p *settingsPane) canUseExternal() bool {
	s := p.data.val.s
	return s != nil && s.APIURL != nil && *s.APIURL != ""
}

func (p *settingsPane) help() helpMap {
	k := p.sh.keys
	var acts []key.Binding
	s := p.data.val
	switch {
	case !p.data.has || p.sh.readOnly():
	case s.missing && p.noIntegrated:
		// Nothing errtrack can create here: the note says what works.
	case s.missing:
		acts = []key.Binding{k.CreateSettings, with(k.ToggleActive, "active on/off")}
	case s.s.Active:
		acts = append(acts, with(k.ToggleActive, "disable"))
	default:
		if _, migrated := p.migrated(); !migrated {
			acts = append(acts, with(k.ToggleActive, "enable"))
		}
	}
	if _, migrated := p.migrated(); p.data.has && !s.missing && !p.sh.readOnly() && !s.s.NoIntegrated && !migrated {
		switch {
		case !s.s.Integrated && p.noIntegrated:
		case !s.s.Integrated:
			acts = append(acts, with(k.ToggleIntegrated, "use integrated"))
		case p.canUseExternal():
			acts = append(acts, with(k.ToggleIntegrated, "use Sentry"))
		}
	}
	return helpMap{short: acts, full: [][]key.Binding{acts}}
}

func (p *settingsPane) update(msg tea.KeyPressMsg, project projectscope.Project, known func() ([]apiclient.ClientKey, bool)) tea.Cmd {
	if !p.data.has || p.sh.readOnly() {
		return nil
	}
	k := p.sh.keys
	// A change names the key it makes from the keys on screen; a create
	// reads them first, as the command does.
	keys, keysKnown := known()
	change := func(create bool, what string, active bool, integrated *bool) tea.Msg {
		return startWriteMsg{settingsWrite{proj: project, create: create, what: what, active: active, integrated: integrated, keysKnown: keysKnown, known: keys}}
	}
	yes, no := true, false
	if p.data.val.missing {
		switch {
		case p.noIntegrated && (key.Matches(msg, k.CreateSettings) || key.Matches(msg, k.ToggleActive)):
			return statusCmd(statusInfo, integratedNote)
		case key.Matches(msg, k.ToggleActive):
			p.newActive = !p.newActive
		case key.Matches(msg, k.CreateSettings):
			return msgCmd(change(true, "created", p.newActive, &yes))
		case key.Matches(msg, k.ToggleIntegrated):
			return statusCmd(statusInfo, "An external tracker (Sentry) is configured in "+webUISettings+"; errtrack creates integrated settings.")
		}
		return nil
	}
	cur := p.data.val.s
	if r, migrated := p.migrated(); migrated && (key.Matches(msg, k.ToggleActive) && !cur.Active || key.Matches(msg, k.ToggleIntegrated)) {
		return statusCmd(statusInfo, clean("This project was migrated to the Sentry project "+migrate.MigrationTarget(r)+": its integrated tracking is not turned on again. Name the Sentry in "+webUISettings+"."))
	}
	switch {
	case key.Matches(msg, k.ToggleActive):
		if cur.Active {
			return msgCmd(openDialogMsg{d: confirmDialog("Disable error tracking?",
				[]string{"Error tracking for " + clean(project.Name()) + " will be switched off: the project stops showing errors (the ingestion endpoint may still accept events sent with its DSNs)."},
				"Disable", change(false, "disabled", false, nil))})
		}
		return msgCmd(change(false, "enabled", true, nil))
	case key.Matches(msg, k.ToggleIntegrated):
		switch {
		case cur.NoIntegrated:
			return statusCmd(statusInfo, "This GitLab predates integrated error tracking (added in 14.2): its settings use an external Sentry, configured in "+webUISettings+".")
		case !cur.Integrated && p.noIntegrated:
			return statusCmd(statusInfo, integratedNote)
		case !cur.Integrated:
			from := "no backend"
			if p.canUseExternal() {
				from = "its external Sentry (" + orDash(cur.APIURL) + ")"
			}
			return msgCmd(openDialogMsg{d: confirmDialog("Use integrated error tracking?",
				[]string{"The project will report to GitLab's integrated backend instead of " + from + ": errors sent with its client keys' DSNs show in GitLab from now on (GitLab creates a first key if it has none). Clients still set up with the Sentry DSN keep sending to Sentry until they get a client key's DSN."},
				"Switch", change(false, "switched to integrated error tracking", cur.Active, &yes))})
		case p.canUseExternal():
			return msgCmd(openDialogMsg{d: confirmDialog("Stop using integrated error tracking?",
				[]string{"The project will report to its external Sentry (" + orDash(cur.APIURL) + ") instead of GitLab's integrated backend."},
				"Switch", change(false, "switched to the external tracker", cur.Active, &no))})
		}
		return statusCmd(statusInfo, "No external tracker is configured for this project: one is set up in "+webUISettings+".")
	}
	return nil
}

func orDash(s *string) string {
	if s == nil || *s == "" {
		return "—"
	}
	return clean(*s)
}

func checkbox(b bool) string {
	if b {
		return "[x]"
	}
	return "[ ]"
}

// view draws every field of the record the server returned.
func (p *settingsPane) view() string {
	st := p.sh.styles
	var b strings.Builder
	line := func(style func(...string) string, text string) {
		for _, l := range wrap(text, p.width-2) {
			b.WriteString(" " + style(l) + "\n")
		}
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	switch s := p.data.val; {
	case !p.data.has && p.data.err != nil:
		line(st.Error.Render, "Could not load the settings. "+p.sh.explain(p.data.err))
	case !p.data.has:
		b.WriteString(st.Subtle.Render(" Loading settings…"))
	case s.missing:
		line(plain, "Error tracking is not configured for this project yet.")
		b.WriteString("\n")
		if p.sh.readOnly() {
			line(st.Warning.Render, readOnlyNote)
			break
		}
		if p.noIntegrated {
			line(st.Warning.Render, integratedNote)
			break
		}
		line(plain, "Create the settings with:")
		b.WriteString("   " + checkbox(p.newActive) + " active       (a to change)\n")
		b.WriteString("   [x] integrated   GitLab's own error tracking backend\n\n")
		line(st.Subtle.Render, "An external tracker (Sentry) is configured in "+webUISettings+" instead.")
		b.WriteString("\n")
		line(st.Subtle.Render, "Press enter to create them.")
	default:
		set := s.s
		row := func(label, value string) {
			b.WriteString(" " + pad(label, 14) + truncate(value, max(p.width-16, 10)) + "\n")
		}
		row("Active", yesNo(set.Active))
		if set.NoIntegrated {
			row("Integrated", "— (this GitLab predates integrated error tracking, added in 14.2)")
		} else {
			row("Integrated", yesNo(set.Integrated))
		}
		row("Project name", orDash(set.ProjectName))
		row("External URL", orDash(set.ExternalURL))
		row("API URL", orDash(set.APIURL))
		b.WriteString("\n")
		r, migrated := p.migrated()
		switch {
		case migrated:
			line(st.Warning.Render, migratedSettingsNote(r, p.page()))
		case p.sh.readOnly():
			line(st.Warning.Render, readOnlyNote)
		case set.Integrated && !p.canUseExternal():
			line(st.Subtle.Render, "To report to an external Sentry instead, configure it in "+webUISettings+".")
		case explain.SettingsNote(set) != "":
			line(st.Warning.Render, explain.SettingsNote(set))
		}
	}
	return b.String()
}

const readOnlyNote = "Read-only token (read_api): changes are disabled. Log in with a token that has the api scope to change settings or keys."
