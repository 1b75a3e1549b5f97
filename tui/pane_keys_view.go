package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/apiclient"
)

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
		b.WriteString(" " + fieldView(p.filter, st) + "\n")
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
