package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/seen"
	"github.com/errtrack/errtrack/internal/workflow"
)

// keysPane lists a project's client keys and acts on the selected one.
// Only the rows that fit are drawn, so 10,000 keys draw as fast as ten.
type keysPane struct {
	sh   *shared
	data loadable[[]apiclient.ClientKey]
	// createdDuringLoad holds keys created while a list was in flight: that
	// list may have been read before they existed.
	createdDuringLoad []apiclient.ClientKey

	filter    textinput.Model
	filtering bool
	query     string
	rows      []int // indices into data.val of the keys shown
	list      listView

	// uses: where each key's DSN is used (CI/CD variables of the project
	// and its groups) and the project's findings, loaded after the list.
	uses   loadable[workflow.Audit]
	usedIn map[int64][]workflow.Use
	ages   map[int64]seen.Entry

	// tracking warns that keys collect nothing while error tracking is off.
	tracking      string
	width, height int
}

func newKeysPane(sh *shared) *keysPane {
	p := &keysPane{sh: sh, filter: newTextInput("/ ", "filter by id, public key or DSN")}
	p.filter.CharLimit = 200
	return p
}

func (p *keysPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.filter.SetWidth(max(w-4, 10))
	p.layout()
}

// layout sizes the list to the lines the table has.
func (p *keysPane) layout() {
	h := p.height - 1 // header
	if p.tracking != "" {
		h -= len(wrap(p.tracking, p.width-2))
	}
	if p.filtering || p.query != "" {
		h--
	}
	if p.sh.readOnly() {
		h--
	}
	p.list.setHeight(h)
}

func (p *keysPane) keys() []apiclient.ClientKey { return p.data.val }

func (p *keysPane) ids() []int64 {
	ids := make([]int64, len(p.data.val))
	for i, k := range p.data.val {
		ids[i] = k.ID
	}
	return ids
}

func (p *keysPane) loaded(msg keysLoadedMsg) tea.Cmd {
	created := p.createdDuringLoad
	p.createdDuringLoad = nil // they are on screen; a later list has them
	if msg.err != nil {
		had := p.data.has
		p.data.fail(msg.err)
		return p.sh.failedOnce(msg.err, !had)
	}
	p.setKeys(mergeCreated(msg.keys, created))
	return nil
}

// written applies a write's changes to the list.
func (p *keysPane) written(c changes) {
	switch {
	case c.keys != nil:
		p.setKeys(c.keys)
	default:
		for _, k := range c.added {
			p.added(k)
		}
		for _, id := range c.removed {
			p.removed(id)
		}
	}
}

func (p *keysPane) added(k apiclient.ClientKey) {
	p.setKeys(mergeCreated(p.data.val, []apiclient.ClientKey{k}))
	p.selectKey(k.ID)
	if p.data.loading() {
		p.createdDuringLoad = append(p.createdDuringLoad, k)
	}
}

func (p *keysPane) removed(id int64) {
	gone := func(k apiclient.ClientKey) bool { return k.ID == id }
	p.createdDuringLoad = slices.DeleteFunc(p.createdDuringLoad, gone)
	p.setKeys(slices.DeleteFunc(slices.Clone(p.data.val), gone))
}

// mergeCreated adds the keys created while the list was loading that the
// list does not have, keeping ascending id order.
func mergeCreated(list, created []apiclient.ClientKey) []apiclient.ClientKey {
	for _, c := range created {
		if !slices.ContainsFunc(list, func(k apiclient.ClientKey) bool { return k.ID == c.ID }) {
			list = append(list, c)
		}
	}
	slices.SortStableFunc(list, func(a, b apiclient.ClientKey) int { return cmp.Compare(a.ID, b.ID) })
	return list
}

// setKeys replaces the list, keeping the cursor on the same key when it is
// still there.
func (p *keysPane) setKeys(keys []apiclient.ClientKey) {
	cur, had := p.selected()
	p.data.set(keys)
	p.refilter()
	if had {
		p.selectKey(cur.ID)
	}
}

// clearFilter shows every key again, keeping the selected one selected.
func (p *keysPane) clearFilter() {
	cur, had := p.selected()
	p.query = ""
	p.filter.SetValue("")
	p.refilter()
	if had {
		p.selectKey(cur.ID)
	}
	p.layout()
}

func (p *keysPane) selectKey(id int64) {
	for i, idx := range p.rows {
		if p.data.val[idx].ID == id {
			p.list.selectIndex(i)
			return
		}
	}
}

func (p *keysPane) refilter() {
	p.rows = p.rows[:0]
	q := strings.ToLower(p.query)
	for i, k := range p.data.val {
		if q == "" || strings.Contains(strconv.FormatInt(k.ID, 10), q) || strings.Contains(strings.ToLower(k.PublicKey), q) || strings.Contains(strings.ToLower(k.DSN), q) {
			p.rows = append(p.rows, i)
		}
	}
	p.list.setTotal(len(p.rows))
}

func (p *keysPane) selected() (apiclient.ClientKey, bool) {
	if len(p.rows) == 0 || p.list.cursor >= len(p.rows) {
		return apiclient.ClientKey{}, false
	}
	return p.data.val[p.rows[p.list.cursor]], true
}

// setTracking follows the settings: keys collect nothing while error
// tracking is off or not set up.
func (p *keysPane) setTracking(s loadable[settings]) {
	p.tracking = ""
	switch {
	case !s.has:
	case s.val.missing:
		p.tracking = "Error tracking is not configured for this project yet (tab to set it up)."
	case !s.val.s.Active:
		p.tracking = "Error tracking is disabled for this project: the ingestion endpoint may still accept events sent with these keys, but the project shows no errors until it is enabled (tab, then a)."
	}
	p.layout()
}

func (p *keysPane) badge() string {
	if !p.data.has {
		return ""
	}
	return fmt.Sprintf(" (%d)", len(p.data.val))
}

func (p *keysPane) help() helpMap {
	k := p.sh.keys
	if p.filtering {
		done := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done"))
		return helpMap{short: []key.Binding{done, k.ClearFilter, k.Move}}
	}
	var acts []key.Binding
	if !p.sh.readOnly() && p.data.has {
		acts = append(acts, k.NewKey)
	}
	if _, ok := p.selected(); ok {
		if !p.sh.readOnly() {
			acts = append(acts, k.Delete, k.Rotate)
		}
		acts = append(acts, k.Copy, k.Show, k.Verify)
	}
	if p.data.has && len(p.data.val) > 0 {
		acts = append(acts, k.FilterKeys)
	}
	// The one-line bar keeps to what fits; ? lists the rest.
	short := acts[:min(len(acts), 4)]
	nav := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	return helpMap{short: short, full: [][]key.Binding{acts, nav}}
}

func (p *keysPane) update(msg tea.Msg, project workflow.Project) tea.Cmd {
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
	case key.Matches(km, k.FilterKeys) && p.data.has:
		p.filtering = true
		p.layout()
		return p.filter.Focus()
	case key.Matches(km, k.ClearFilter) && p.query != "":
		p.clearFilter()
		return nil
	case key.Matches(km, k.NewKey) && !p.sh.readOnly() && p.data.has:
		return msgCmd(startWriteMsg{createKeyWrite{proj: project}})
	}
	sel, ok := p.selected()
	if !ok {
		return nil
	}
	switch {
	case key.Matches(km, k.Delete) && !p.sh.readOnly():
		// The question opens once the key and the variables holding its
		// DSN are read: it names them.
		return msgCmd(startWriteMsg{deleteKeyWrite{proj: project, key: sel}})
	case key.Matches(km, k.Rotate) && !p.sh.readOnly():
		r := workflow.NewRotation(project.Ref, workflow.RotationOptions{OldID: sel.ID, Ledger: p.sh.rotations()})
		r.Project = project // named by its path until the plan reads it
		return msgCmd(startWriteMsg{rotationWrite{r: r, reached: new(atomic.Int32)}})
	case key.Matches(km, k.Verify):
		return msgCmd(openDialogMsg{d: confirmDialog(fmt.Sprintf("Send a test event with key %d of %s?", sel.ID, clean(project.Name())),
			[]string{workflow.VerifyWarning, "", "DSN: " + clean(sel.DSN)},
			"Send test event", startWriteMsg{verifyKeyWrite{proj: project, key: sel}})})
	case key.Matches(km, k.Show):
		// The labels in one column, the values beside them; wrapped
		// values go on under the value.
		field := func(label, value string) string { return pad(label+":", 12) + value }
		d := infoDialog(fmt.Sprintf("Client key %d of %s", sel.ID, clean(project.Name())), []string{
			field("Active", yesNo(sel.Active)),
			field("Public key", clean(sel.PublicKey)),
			"DSN:",
			clean(sel.DSN),
			"",
			field("Used in", clean(p.usedText(sel.ID))),
			field("First seen", cmp.Or(p.ageText(sel.ID), "not known yet")),
		})
		return msgCmd(openDialogMsg{d: d.withAlt("copy DSN", k.Copy, copyDSNMsg{sel})})
	case key.Matches(km, k.Copy):
		return copyDSN(p.sh, sel)
	}
	return nil
}

// top is the lines drawn above the rows: notes, the filter, the header.
func (p *keysPane) top() int {
	n := 1
	if p.tracking != "" {
		n += len(wrap(p.tracking, p.width-2))
	}
	if p.sh.readOnly() {
		n++
	}
	if p.filtering || p.query != "" {
		n++
	}
	return n
}

func (p *keysPane) mouse(ev tea.Mouse, wheel bool, project workflow.Project) tea.Cmd {
	if !p.data.has {
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

// copyDSN puts a key's DSN on the clipboard, but only a DSN that is a plain
// http(s) URL: the screen shows a cleaned DSN, and a server could make the
// raw one a URL, a newline and a shell command (ending bracketed paste).
func copyDSN(sh *shared, k apiclient.ClientKey) tea.Cmd {
	if err := dsn.Check(k.DSN); err != nil {
		return statusCmd(statusError, fmt.Sprintf("Not copied: the DSN of key %d is not safe to paste (%s). Check the server's answer before using it.", k.ID, err))
	}
	return sh.copyText(k.DSN, fmt.Sprintf("the DSN of key %d", k.ID))
}
