package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

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

func (p *keysPane) usesLoaded(msg usesLoadedMsg) {
	if msg.err != nil {
		p.uses.fail(msg.err)
		return
	}
	p.uses.set(msg.audit)
	p.usedIn = make(map[int64][]workflow.Use, len(msg.audit.Keys))
	p.ages = make(map[int64]seen.Entry, len(msg.audit.Keys))
	for _, k := range msg.audit.Keys {
		p.usedIn[k.Key.ID] = k.Used
		if !k.Seen.First.IsZero() {
			p.ages[k.Key.ID] = k.Seen
		}
	}
}

// usedText says where key id's DSN is used: "SENTRY_DSN (all
// environments), group web/SENTRY_DSN (production)", "nowhere", "…" while
// it is being found, "?" when the variables could not be read.
// ageText says when errtrack first saw key id: "3 days ago (created by
// errtrack)", "" when unknown.
func (p *keysPane) ageText(id int64) string {
	e, ok := p.ages[id]
	if !ok {
		return ""
	}
	s := ago(p.sh.clock.Now().Sub(e.First)) + ", " + e.First.Local().Format(time.DateOnly)
	if e.Created {
		s += " (created by errtrack)"
	}
	return s
}

// ago words a duration as people read an age.
func ago(d time.Duration) string {
	switch days := int(d.Hours() / 24); {
	case d < time.Hour:
		return "less than an hour ago"
	case d < 2*time.Hour:
		return "an hour ago"
	case days < 1:
		return fmt.Sprintf("%d hours ago", int(d.Hours()))
	case days == 1:
		return "a day ago"
	default:
		return fmt.Sprintf("%d days ago", days)
	}
}

func (p *keysPane) usedText(id int64) string { return p.usedWords(id, workflow.Use.Label) }

// usedShort is usedText for the USED IN column.
func (p *keysPane) usedShort(id int64) string { return p.usedWords(id, workflow.Use.Short) }

func (p *keysPane) usedWords(id int64, label func(workflow.Use) string) string {
	used, ok := p.usedIn[id]
	switch {
	case ok && len(used) == 0:
		return "nowhere"
	case ok:
		labels := make([]string, len(used))
		for i, u := range used {
			labels[i] = label(u)
		}
		return strings.Join(labels, ", ")
	case p.uses.loading():
		return "…"
	case p.uses.err != nil:
		return "?"
	}
	return "…"
}

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
		return msgCmd(startWriteMsg{rotationWrite{r: r}})
	case key.Matches(km, k.Verify):
		return msgCmd(openDialogMsg{d: confirmDialog(fmt.Sprintf("Send a test event with key %d of %s?", sel.ID, clean(project.Name())),
			[]string{workflow.VerifyWarning, "", "DSN: " + clean(sel.DSN)},
			"Send test event", startWriteMsg{verifyKeyWrite{proj: project, key: sel}})})
	case key.Matches(km, k.Show):
		d := infoDialog(fmt.Sprintf("Client key %d of %s", sel.ID, clean(project.Name())), []string{
			"Active:     " + yesNo(sel.Active),
			"Public key: " + clean(sel.PublicKey),
			"DSN:",
			clean(sel.DSN),
			"",
			"Used in:   " + clean(p.usedText(sel.ID)),
			"First seen: " + cmp.Or(p.ageText(sel.ID), "not known yet"),
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

// Wide terminals use the room: from wideKeys columns, the selected key's
// details (its full DSN) sit beside the list.
const (
	wideKeys   = 140
	keysDetail = 46
)

func (p *keysPane) view() string {
	sel, ok := p.selected()
	if p.width < wideKeys || !ok {
		return p.render(p.width)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, p.render(p.width-keysDetail-1), " ", p.detail(sel, keysDetail))
}

// detail draws the selected key in full, in a box w cells wide.
func (p *keysPane) detail(k apiclient.ClientKey, w int) string {
	st := p.sh.styles
	inner := w - 4
	lines := []string{st.Title.Render(fmt.Sprintf("Key %d", k.ID)), "", "Active      " + yesNo(k.Active), "Public key", " " + clean(k.PublicKey), "", "DSN (" + keyName(p.sh.keys.Copy) + " copies it)"}
	lines = append(lines, wrap(clean(k.DSN), inner)...) // cut after its separators
	if age := p.ageText(k.ID); age != "" {
		lines = append(lines, "", "First seen")
		for _, l := range wrap(age, inner-1) {
			lines = append(lines, " "+l)
		}
	}
	lines = append(lines, "", "Used in")
	for _, l := range wrap(clean(p.usedText(k.ID)), inner-1) {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "", st.Subtle.Render(fmt.Sprintf("%s rotates it, %s deletes it, %s sends a test event.", keyName(p.sh.keys.Rotate), keyName(p.sh.keys.Delete), keyName(p.sh.keys.Verify))))
	return st.Dialog.Width(w).Render(strings.Join(lines, "\n"))
}

func (p *keysPane) render(w int) string {
	st := p.sh.styles
	var b strings.Builder
	if p.tracking != "" {
		for _, l := range wrap(p.tracking, w-2) {
			b.WriteString(" " + st.Warning.Render(l) + "\n")
		}
	}
	if p.sh.readOnly() {
		b.WriteString(" " + st.Warning.Render(truncate("Read-only token (read_api): keys cannot be created or deleted.", w-2)) + "\n")
	}
	switch {
	case !p.data.has && p.data.err != nil:
		for _, l := range wrap("Could not load the client keys. "+p.sh.explain(p.data.err), w-2) {
			b.WriteString(" " + st.Error.Render(l) + "\n")
		}
		return b.String()
	case !p.data.has:
		return b.String() + st.Subtle.Render(" Loading client keys…")
	case len(p.data.val) == 0:
		if p.sh.readOnly() {
			return b.String() + " No client keys."
		}
		return b.String() + " No client keys yet. Press " + keyName(p.sh.keys.NewKey) + " to create one."
	}
	if p.filtering || p.query != "" {
		b.WriteString(" " + p.filter.View() + "\n")
	}
	keys := p.data.val
	idW := max(2, len(strconv.FormatInt(keys[len(keys)-1].ID, 10))) // ids ascend: the last is the widest
	const activeW, keyW = 6, 37
	// The public key identifies a key; where its DSN is used comes next (the
	// DSNs of one project differ only by that key); a DSN cut to less than
	// its host and project identifies nothing, so a narrow terminal leaves
	// it to enter/c.
	room := w - (2 + idW + 2 + activeW + 2 + keyW)
	usedW := 0
	if room >= minUsedColumn+2 {
		usedW = minUsedColumn
	}
	dsnW := room - usedW - 4
	start, end := p.list.window()
	if longest := p.longestDSN(start, end); dsnW > longest {
		// The DSNs are whole: the rest of the room says where they are used.
		usedW = min(usedW+dsnW-longest, maxUsedColumn)
		dsnW = room - usedW - 4
	}
	if usedW == 0 {
		dsnW = room - 2
	} else if dsnW < minDSNColumn {
		usedW = min(room-2, maxUsedColumn) // no DSN column: its room says where
	}
	showDSN := dsnW >= minDSNColumn
	header := "  " + pad("ID", idW) + "  " + pad("ACTIVE", activeW) + "  " + pad("PUBLIC KEY", keyW)
	switch {
	case usedW > 0 && showDSN:
		header += "  " + pad("USED IN", usedW) + "  DSN"
	case usedW > 0:
		header += "  USED IN"
	case showDSN:
		header += "  DSN"
	}
	pos := p.list.position()
	b.WriteString(st.Header.Render(pad(header, max(w-lipgloss.Width(pos)-1, 0))+pos) + "\n")
	if len(p.rows) == 0 {
		b.WriteString(st.Subtle.Render(" No key matches the filter (esc clears it)."))
		return b.String()
	}
	for i := start; i < end; i++ {
		k := keys[p.rows[i]]
		active := pad(yesNo(k.Active), activeW)
		rest := "  " + pad(clean(k.PublicKey), keyW)
		if usedW > 0 {
			rest += "  " + pad(truncate(clean(p.usedShort(k.ID)), usedW), usedW)
		}
		if showDSN {
			rest += "  " + fitDSN(clean(k.DSN), clean(k.PublicKey), dsnW)
		}
		head := "  " + pad(strconv.FormatInt(k.ID, 10), idW) + "  "
		var line string
		if i == p.list.cursor {
			line = st.Selected.Render(pad(head+active+rest, w))
		} else {
			state := st.StateOn
			if !k.Active {
				state = st.StateNone
			}
			line = head + state.Render(active) + pad(rest, max(w-lipgloss.Width(head)-activeW, 0))
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// longestDSN is the width of the longest DSN among rows start..end.
func (p *keysPane) longestDSN(start, end int) int {
	n := 0
	for i := start; i < end && i < len(p.rows); i++ {
		n = max(n, lipgloss.Width(clean(p.data.val[p.rows[i]].DSN)))
	}
	return n
}

// minDSNColumn is the narrowest DSN column worth drawing: room for the
// scheme, an elided key, the host and the project's number.
const minDSNColumn = 40

// The USED IN column: room for one variable and its scope at least; at
// most two or three.
const (
	minUsedColumn = 22
	maxUsedColumn = 48
)

// fitDSN fits a DSN in width cells. The public key inside it repeats the
// column beside it, so when the DSN is too long that part is elided first,
// keeping the host and project in view; then the end is cut.
func fitDSN(dsn, publicKey string, width int) string {
	if lipgloss.Width(dsn) <= width {
		return dsn
	}
	if r := []rune(publicKey); len(r) > 8 {
		dsn = strings.Replace(dsn, publicKey+"@", string(r[:5])+"…@", 1)
	}
	return truncate(dsn, width)
}
