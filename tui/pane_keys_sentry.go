package tui

import (
	"fmt"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A Sentry-backed project's keys are its Sentry project's: they have a
// name, a switch and a rate limit, and a rotation may disable the old key
// instead of deleting it. The questions here gather what the user wants;
// the changes are the store's (keystore.Updater) and workflow's (the
// rotation, the delete).

// maxKeyName is the longest name Sentry keeps (ProjectKey.label).
const maxKeyName = keystore.MaxKeyName

// checkName says why a key name will not do, "" when it will.
func checkName(name string) string {
	switch {
	case name == "":
		return "Give the key a name: Sentry names every key."
	case utf8.RuneCountInString(name) > maxKeyName:
		return fmt.Sprintf("A key's name is at most %d characters.", maxKeyName)
	case clean(name) != name:
		return "A key's name cannot hold control characters."
	}
	return ""
}

// newKeyName is the name offered for a new key (keystore.NewKeyName: the
// name a rotation given none gets, whichever front end runs it).
func newKeyName(old string, now time.Time) string { return keystore.NewKeyName(old, now) }

// createQuestion asks the new key's name (n).
func (p *keysPane) createQuestion(project projectscope.Project) dialog {
	store := p.store
	return suggesting(inputDialog("New client key in the "+clean(store.Where()), []string{
		"Sentry names each key: a name says which clients use it (\"Production\", \"iOS app\").",
	}, "Name: ", "", "create", func(name string, _ bool) (tea.Msg, string) {
		if why := checkName(name); why != "" {
			return nil, why
		}
		return startWriteMsg{createKeyWrite{proj: project, store: store, name: name}}, ""
	}), newKeyName("", p.sh.clock.Now()))
}

// rotateQuestion asks the new key's name, and whether the old key is
// disabled (a soft rotation: deleted later, once its clients have moved)
// or deleted at the end, as GitLab's are. A disabled key is deleted by
// default: disabling it again changes nothing.
func (p *keysPane) rotateQuestion(project projectscope.Project, sel apiclient.ClientKey) dialog {
	k := p.sh.keys
	body := []string{
		"A new key is made, its DSN copied and, as you choose, put in the CI/CD variables that hold the old key's; a test event can check it. Then the old key " + clean(keystore.KeyName(sel)) + " goes.",
		"",
		"Soft: the old key is disabled (its events refused, it can be turned on again) and deleted later, with " + keyName(k.Delete) + " once its clients use the new DSN; the rotation stays open until then. Otherwise it is deleted at the end.",
	}
	return suggesting(inputDialog(fmt.Sprintf("Rotate key %s of %s", clean(keystore.KeyName(sel)), clean(project.Name())), body,
		"New key's name: ", "", "rotate", func(name string, soft bool) (tea.Msg, string) {
			if why := checkName(name); why != "" {
				return nil, why
			}
			return startWriteMsg{p.rotation(project, sel, name, soft)}, ""
		}).withOption("soft: disable the old key, delete it later", sel.Active, k.SoftRotation), newKeyName(clean(sel.Name), p.sh.clock.Now()))
}

// sentryKey handles what only a Sentry's keys have: their switch, their
// name, their rate limit. ok false: km is none of these.
func (p *keysPane) sentryKey(km tea.KeyPressMsg, project projectscope.Project, sel apiclient.ClientKey) (tea.Cmd, bool) {
	k := p.sh.keys
	keys, ok := p.store.(keystore.Updater)
	if !ok {
		return nil, false
	}
	name := clean(keystore.KeyName(sel))
	update := func(o sentry.UpdateKeyOptions, what string) tea.Msg {
		return startWriteMsg{updateKeyWrite{proj: project, store: p.store, keys: keys, key: sel, opts: o, what: what}}
	}
	switch {
	case key.Matches(km, k.ToggleActive) && sel.Active:
		off := false
		d := confirmDialog(fmt.Sprintf("Disable key %s of %s?", name, clean(project.Name())), []string{
			"Events sent with it are refused from then on: clients that still use its DSN stop reporting.",
			"It is not deleted: " + keyName(k.ToggleActive) + " turns it on again, with the same DSN.",
		}, "Disable", update(sentry.UpdateKeyOptions{Active: &off}, "disabled"))
		return msgCmd(openDialogMsg{d: d}), true
	case key.Matches(km, k.ToggleActive):
		on := true
		return msgCmd(update(sentry.UpdateKeyOptions{Active: &on}, "enabled")), true
	case key.Matches(km, k.Rename):
		return msgCmd(openDialogMsg{d: inputDialog("Rename key "+name, nil, "Name: ", clean(sel.Name), "rename",
			func(text string, _ bool) (tea.Msg, string) {
				if why := checkName(text); why != "" {
					return nil, why
				}
				return update(sentry.UpdateKeyOptions{Name: &text}, "renamed"), ""
			})}), true
	case key.Matches(km, k.RateLimit):
		return msgCmd(openDialogMsg{d: suggesting(inputDialog("Rate limit of key "+name, []string{
			"Events the key accepts per window, COUNT/WINDOW: 1000/1h (or 1000/3600, in seconds) is 1000 an hour; s, min, h and d name the unit; a window of at most a day. none removes the limit.",
		}, "Limit: ", "", "set", func(text string, _ bool) (tea.Msg, string) {
			rl, clear, err := keystore.ParseRateLimit(text)
			if err != nil {
				return nil, "Not a rate limit: " + clean(err.Error()) + "."
			}
			return update(sentry.UpdateKeyOptions{RateLimit: rl, ClearRateLimit: clear}, "rate-limited"), ""
		}), keystore.RateLimitText(sel.RateLimit))}), true
	}
	return nil, false
}

// misplacedNote says why the keys GitLab listed are not shown: the
// project reports to a Sentry, whose keys are its own.
func (p *keysPane) misplacedNote() string {
	where, base := "a Sentry", ""
	if sp, err := sentry.ParseAPIURL(p.reports); err == nil {
		where, base = fmt.Sprintf("the Sentry project %s/%s on %s", sp.Org, sp.Slug, sp.Base), sp.Base
	}
	where = clean(where)
	if p.sh.deps.Sentry == nil || base == "" {
		login := "errtrack login --sentry " + base
		if base == "" {
			login = "errtrack login --sentry URL"
		}
		return clean(fmt.Sprintf("This project reports to %s: its client keys are that Sentry project's, not GitLab's. errtrack reaches them with a Sentry token: run '%s', or set SENTRY_AUTH_TOKEN with SENTRY_URL=%s, and start the console again.", where, login, base))
	}
	return fmt.Sprintf("This project reports to %s, but its settings could not be read with the keys: press %s to read them again.", where, keyName(p.sh.keys.Refresh))
}

// rotation is the write that rotates key sel, where the keys are: a
// Sentry key's with the new key's name and soft or not.
func (p *keysPane) rotation(project projectscope.Project, sel apiclient.ClientKey, name string, soft bool) rotationWrite {
	o := rotation.RotationOptions{OldID: sel.ID, Ledger: p.sh.rotations()}
	if p.sentry() {
		o = rotation.RotationOptions{Keys: p.store, OldRef: keystore.KeyRef(sel), NewName: name, Soft: soft, Ledger: p.sh.rotations()}
	}
	r := rotation.NewRotation(project.Ref, o)
	r.Project = project // named by its path until the plan reads it
	return rotationWrite{r: r, old: keystore.KeyRef(sel), store: p.store, reached: new(atomic.Int32)}
}
