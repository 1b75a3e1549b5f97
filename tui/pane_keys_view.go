package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/migrate"
)

// Wide terminals use the room: from wideKeys columns, the selected key's
// details (its full DSN) sit beside the list.
const (
	wideKeys   = 140
	keysDetail = 46
)

// The notes above the list take the whole width; the list and the
// selected key's details share the lines below them.
func (p *keysPane) view() string {
	notes := strings.Join(p.notes(), "")
	sel, ok := p.selected()
	if p.width < wideKeys || !ok {
		return notes + p.render(p.width)
	}
	return notes + lipgloss.JoinHorizontal(lipgloss.Top, p.render(p.width-keysDetail-1), " ", p.detail(sel, keysDetail))
}

// detail draws the selected key in full, in a box w cells wide.
func (p *keysPane) detail(k apiclient.ClientKey, w int) string {
	st := p.sh.styles
	inner := w - 4
	lines := []string{st.Title.Render(truncate("Key "+clean(keystore.KeyName(k)), inner)), ""}
	if p.sentry() {
		lines = append(lines, "Name        "+truncate(clean(k.Name), inner-12), "Active      "+onOff(k.Active), "Rate limit  "+keystore.RateLimitText(k.RateLimit))
	} else {
		lines = append(lines, "Active      "+yesNo(k.Active))
	}
	lines = append(lines, "Public key", " "+clean(k.PublicKey), "", "DSN ("+keyName(p.sh.keys.Copy)+" copies it)")
	lines = append(lines, wrap(clean(k.DSN), inner)...) // cut after its separators
	if age := p.ageText(k.ID); age != "" && !p.sentry() {
		lines = append(lines, "", "First seen")
		for _, l := range wrap(age, inner-1) {
			lines = append(lines, " "+l)
		}
	}
	lines = append(lines, "", "Used in")
	for _, l := range wrap(clean(p.usedText(k)), inner-1) {
		lines = append(lines, " "+l)
	}
	k2 := p.sh.keys
	hint := fmt.Sprintf("%s rotates it, %s deletes it, %s sends a test event.", keyName(k2.Rotate), keyName(k2.Delete), keyName(k2.Verify))
	if _, ok := p.migration(); ok && !p.sentry() {
		hint = fmt.Sprintf("%s deletes it once its clients moved, %s sends a test event.", keyName(k2.Delete), keyName(k2.Verify))
	}
	if p.sentry() {
		hint += fmt.Sprintf(" %s turns it %s, %s renames it, %s sets its rate limit.", keyName(k2.ToggleActive), onOff(!k.Active), keyName(k2.Rename), keyName(k2.RateLimit))
	}
	lines = append(lines, "")
	for _, l := range wrap(hint, inner) {
		lines = append(lines, st.Subtle.Render(l))
	}
	return st.Dialog.Width(w).Render(strings.Join(lines, "\n"))
}

// keyColumns are the columns before the public key: GitLab's keys are
// named by ID; a Sentry's by name, with their switch and rate limit.
type keyColumns struct {
	leadTitle string
	leadW     int
	lead      func(apiclient.ClientKey) string
	active    func(bool) string
	rateW     int
	keyW      int
}

func (p *keysPane) columns(keys []apiclient.ClientKey) keyColumns {
	if !p.sentry() {
		return keyColumns{leadTitle: "ID", leadW: max(2, len(strconv.FormatInt(keys[len(keys)-1].ID, 10))), // ids ascend: the last is the widest
			lead: func(k apiclient.ClientKey) string { return strconv.FormatInt(k.ID, 10) }, active: yesNo, keyW: 37}
	}
	c := keyColumns{leadTitle: "NAME", leadW: 4, lead: func(k apiclient.ClientKey) string { return clean(k.Name) }, active: onOff, rateW: 10, keyW: 32}
	for _, k := range keys {
		c.leadW = min(max(c.leadW, lipgloss.Width(clean(k.Name))), maxNameColumn)
		c.rateW = max(c.rateW, len(keystore.RateLimitText(k.RateLimit)))
		c.keyW = max(c.keyW, min(lipgloss.Width(clean(k.PublicKey)), 64))
	}
	return c
}

// maxNameColumn keeps a long Sentry key name from taking the row: the
// details (enter) show it whole. minKeyColumn is as short as a named key's
// public key is cut: what KeyName shows of it.
const (
	maxNameColumn = 24
	minKeyColumn  = 10
)

// render draws the list (or why there is none) in w cells.
func (p *keysPane) render(w int) string {
	st := p.sh.styles
	var b strings.Builder
	switch {
	case !p.data.has && p.data.err != nil:
		what := "the client keys"
		if p.reports != "" || explainsSentry(p.data.err) {
			what = "the client keys of the project's Sentry"
		}
		for _, l := range wrap("Could not load "+what+". "+p.sh.explain(p.data.err), w-2) {
			b.WriteString(" " + st.Error.Render(l) + "\n")
		}
		return b.String()
	case !p.data.has:
		return b.String() + st.Subtle.Render(" Loading client keys…")
	case p.misplaced():
		return b.String()
	case len(p.data.val) == 0:
		if p.sh.readOnly() {
			return b.String() + " No client keys."
		}
		if r, ok := p.migration(); ok && !p.sentry() {
			return b.String() + " No integrated client keys: the project reports to the Sentry project " + clean(migrate.MigrationTarget(r)) + "."
		}
		return b.String() + " No client keys yet. Press " + keyName(p.sh.keys.NewKey) + " to create one."
	}
	if p.filtering || p.query != "" {
		b.WriteString(" " + fieldView(p.filter, st) + "\n")
	}
	keys := p.data.val
	c := p.columns(keys)
	const activeW = 6
	rate := 0
	if c.rateW > 0 {
		rate = c.rateW + 2
	}
	// The public key identifies a key; where its DSN is used comes next (the
	// DSNs of one project differ only by that key); a DSN cut to less than
	// its host and project identifies nothing, so a narrow terminal leaves
	// it to enter/c.
	room := w - (2 + c.leadW + 2 + activeW + rate + 2 + c.keyW)
	if p.sentry() && room < minUsedColumn+2 {
		// A Sentry's keys have names: their public keys may be cut (enter
		// shows them whole) to say where the DSNs are used.
		give := min(c.keyW-minKeyColumn, minUsedColumn+2-room)
		c.keyW, room = c.keyW-give, room+give
	}
	usedW := 0
	if room >= minUsedColumn+2 {
		usedW = minUsedColumn
	}
	dsnW := room - usedW - 4
	start, end := p.list.window()
	if usedW > 0 {
		// Where a DSN is used, whole before the DSN (enter and c give it):
		// a cut reason ("unknown (group demo u…") says nothing.
		need := usedW
		for _, i := range p.rows[start:end] {
			need = max(need, lipgloss.Width(clean(p.usedShort(p.keys()[i]))))
		}
		if need = min(need, maxUsedColumn); p.sentry() && need > room-2 {
			// a Sentry key's public key gives way first (enter shows it)
			give := max(min(c.keyW-minKeyColumn, need-(room-2)), 0)
			c.keyW, room = c.keyW-give, room+give
		}
		usedW = min(need, room-2)
		dsnW = room - usedW - 4
	}
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
	header := "  " + pad(c.leadTitle, c.leadW) + "  " + pad("ACTIVE", activeW)
	if c.rateW > 0 {
		header += "  " + pad("RATE LIMIT", c.rateW)
	}
	header += "  " + pad("PUBLIC KEY", c.keyW)
	switch {
	case usedW > 0 && showDSN:
		header += "  " + pad("USED IN", usedW) + "  DSN"
	case usedW > 0:
		header += "  USED IN"
	case showDSN:
		header += "  DSN"
	}
	// The position ("1/2") sits at the right end, whole, where the column
	// names leave room for it.
	header = truncate(strings.TrimRight(header, " "), w)
	if pos := p.list.position(); lipgloss.Width(header)+1+lipgloss.Width(pos) <= w-1 {
		header = pad(header, w-1-lipgloss.Width(pos)) + pos
	}
	b.WriteString(st.Header.Render(header) + "\n")
	if len(p.rows) == 0 {
		b.WriteString(st.Subtle.Render(" No key matches the filter (esc clears it)."))
		return b.String()
	}
	for i := start; i < end; i++ {
		k := keys[p.rows[i]]
		active := pad(c.active(k.Active), activeW)
		rest := ""
		if c.rateW > 0 {
			rest += "  " + pad(keystore.RateLimitText(k.RateLimit), c.rateW)
		}
		rest += "  " + pad(truncate(clean(k.PublicKey), c.keyW), c.keyW)
		if usedW > 0 {
			rest += "  " + pad(truncate(clean(p.usedShort(k)), usedW), usedW)
		}
		if showDSN {
			rest += "  " + fitDSN(clean(k.DSN), clean(k.PublicKey), dsnW)
		}
		head := "  " + pad(truncate(c.lead(k), c.leadW), c.leadW) + "  "
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

// onOff is a Sentry key's switch.
func onOff(active bool) string {
	if active {
		return "on"
	}
	return "off"
}
