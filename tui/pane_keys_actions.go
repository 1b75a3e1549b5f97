package tui

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/testevent"
)

// The keys pane's keys: what acts in its state (the help bar lists only
// those), and the actions on the selected key.

func (p *keysPane) help() helpMap {
	k := p.sh.keys
	if p.filtering {
		done := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done"))
		return helpMap{short: []key.Binding{done, k.ClearFilter, k.Move}}
	}
	var acts []key.Binding
	// A migrated project's glet_ keys are not made or rotated any more.
	_, migrated := p.migration()
	migrated = migrated && !p.sentry()
	if !p.sh.readOnly() && p.usable() && !migrated {
		acts = append(acts, k.NewKey)
	}
	var sentryOnly []key.Binding
	if sel, ok := p.selected(); ok {
		switch {
		case p.sh.readOnly():
		case migrated:
			acts = append(acts, k.Delete)
		default:
			acts = append(acts, k.Delete, k.Rotate)
		}
		if p.sentry() && !p.sh.readOnly() {
			// What only a Sentry's keys have, on the bar too.
			active := with(k.ToggleActive, "disable key")
			if !sel.Active {
				active = with(k.ToggleActive, "enable key")
			}
			sentryOnly = []key.Binding{active, k.Rename, k.RateLimit}
		}
		acts = append(acts, sentryOnly...)
		acts = append(acts, k.Copy, k.Show, k.Verify)
	}
	if p.usable() && len(p.data.val) > 0 {
		acts = append(acts, k.FilterKeys)
	}
	// The one-line bar keeps to what fits (helpBar drops from its end);
	// ? lists the rest.
	short := acts[:min(len(acts), 4+len(sentryOnly))]
	nav := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	return helpMap{short: short, full: [][]key.Binding{acts, nav}}
}

func (p *keysPane) update(msg tea.Msg, project projectscope.Project) tea.Cmd {
	k := p.sh.keys
	if p.filtering {
		if km, ok := msg.(tea.KeyPressMsg); ok {
			switch {
			case key.Matches(km, k.ClearFilter):
				p.filtering = false
				p.filter.Blur()
				p.clearFilter()
				return nil
			case key.Matches(km, k.Show): // enter: keep the filter, act on the list
				p.filtering = false
				p.filter.Blur()
				p.layout()
				return nil
			case p.list.move(km, k.textNav()):
				return nil
			}
		}
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		if q := strings.TrimSpace(p.filter.Value()); q != p.query {
			p.query = q
			p.refilter()
			p.list.selectIndex(0)
		}
		return cmd
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case p.list.move(km, k.nav()):
		return nil
	case key.Matches(km, k.FilterKeys) && p.usable():
		p.filtering = true
		p.layout()
		return p.filter.Focus()
	case key.Matches(km, k.ClearFilter) && p.query != "":
		p.clearFilter()
		return nil
	case key.Matches(km, k.NewKey) && !p.sh.readOnly() && p.usable():
		if _, ok := p.migration(); ok && !p.sentry() {
			return statusCmd(statusInfo, p.integratedStays())
		}
		if p.sentry() {
			return msgCmd(openDialogMsg{d: p.createQuestion(project)})
		}
		return msgCmd(startWriteMsg{createKeyWrite{proj: project}})
	}
	sel, ok := p.selected()
	if !ok {
		return nil
	}
	if p.sentry() && !p.sh.readOnly() {
		if cmd, ok := p.sentryKey(km, project, sel); ok {
			return cmd
		}
	}
	_, disables := p.store.(keystore.Disabler)
	switch {
	case key.Matches(km, k.ToggleActive) && !p.sh.readOnly() && !disables:
		return statusCmd(statusInfo, fmt.Sprintf("Key %s cannot be disabled: GitLab's integrated client keys can only be deleted (%s).", clean(keystore.KeyName(sel)), keyName(k.Delete)))
	case key.Matches(km, k.Delete) && !p.sh.readOnly():
		// The question opens once the key and the variables holding its
		// DSN are read: it names them.
		return msgCmd(startWriteMsg{deleteKeyWrite{proj: project, key: sel, store: p.store}})
	case key.Matches(km, k.Rotate) && !p.sh.readOnly():
		if _, ok := p.migration(); ok && !p.sentry() {
			return statusCmd(statusInfo, p.integratedStays())
		}
		if p.sentry() && p.rotationOf(sel) == nil {
			// A Sentry key's rotation asks the new key's name, and whether
			// to disable the old key rather than delete it.
			return msgCmd(openDialogMsg{d: p.rotateQuestion(project, sel)})
		}
		return msgCmd(startWriteMsg{p.rotation(project, sel, "", false)})
	case key.Matches(km, k.Verify):
		return msgCmd(openDialogMsg{d: confirmDialog(fmt.Sprintf("Send a test event with key %s of %s?", clean(keystore.KeyName(sel)), clean(project.Name())),
			[]string{testevent.Warning, "", "DSN: " + clean(sel.DSN)},
			"Send test event", startWriteMsg{verifyKeyWrite{proj: project, key: sel}})})
	case key.Matches(km, k.Show):
		return msgCmd(openDialogMsg{d: p.showKey(project, sel)})
	case key.Matches(km, k.Copy):
		return copyDSN(p.sh, sel)
	}
	return nil
}

// showKey is the selected key's details (enter).
func (p *keysPane) showKey(project projectscope.Project, sel apiclient.ClientKey) dialog {
	// The labels in one column, the values beside them; wrapped values go
	// on under the value.
	field := func(label, value string) string { return pad(label+":", 12) + value }
	title := fmt.Sprintf("Client key %s of %s", clean(keystore.KeyName(sel)), clean(project.Name()))
	var body []string
	if p.sentry() {
		body = append(body, field("Name", clean(sel.Name)), field("Active", onOff(sel.Active)), field("Rate limit", keystore.RateLimitText(sel.RateLimit)))
	} else {
		body = append(body, field("Active", yesNo(sel.Active)))
	}
	body = append(body, field("Public key", clean(sel.PublicKey)), "DSN:", clean(sel.DSN), "", field("Used in", clean(p.usedText(sel))))
	if !p.sentry() {
		body = append(body, field("First seen", cmp.Or(p.ageText(sel.ID), "not known yet")))
	}
	return infoDialog(title, body).withAlt("copy DSN", p.sh.keys.Copy, copyDSNMsg{sel})
}

// copyDSN puts a key's DSN on the clipboard, but only a DSN that is a plain
// http(s) URL: the screen shows a cleaned DSN, and a server could make the
// raw one a URL, a newline and a shell command (ending bracketed paste).
func copyDSN(sh *shared, k apiclient.ClientKey) tea.Cmd {
	if err := dsn.Check(k.DSN); err != nil {
		return statusCmd(statusError, fmt.Sprintf("Not copied: the DSN of key %s is not safe to paste (%s). Check the server's answer before using it.", clean(keystore.KeyName(k)), err))
	}
	return sh.copyText(k.DSN, "the DSN of key "+clean(keystore.KeyName(k)))
}

func (p *keysPane) mouse(ev tea.Mouse, wheel bool, project projectscope.Project) tea.Cmd {
	if !p.usable() {
		return nil
	}
	if wheel {
		p.list.scroll(wheelDelta(ev))
		return nil
	}
	if again, ok := p.list.click(ev.Y - p.top()); ok && again {
		return p.update(tea.KeyPressMsg{Code: tea.KeyEnter}, project)
	}
	return nil
}
