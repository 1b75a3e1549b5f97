package tui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// keysView draws the key table; only the rows that fit are rendered, so a
// project with 10,000 keys draws as fast as one with ten.
func (s *projectScreen) keysView(width, height int) string {
	st := s.sh.styles
	switch {
	case !s.keysLoaded && s.keysErr == nil:
		return st.Subtle.Render(" Loading client keys…")
	case !s.keysLoaded && s.keysErr != nil:
		return st.Error.Width(width - 1).Render(" Could not load the client keys. " + s.sh.explain(s.keysErr))
	case len(s.keys) == 0:
		out := " No client keys yet. Press n to create one."
		if note := s.trackingNote(); note != "" {
			out = st.Warning.Render(" "+note) + "\n" + out
		}
		return out
	}
	idW := 2
	for _, k := range s.keys[max(len(s.keys)-1, 0):] { // ids ascend: the last is the widest
		idW = max(idW, len(strconv.FormatInt(k.ID, 10)))
	}
	const activeW, keyW = 6, 37
	dsnW := max(width-(2+idW+2+activeW+2+keyW+2), 8)
	var b strings.Builder
	if note := s.trackingNote(); note != "" {
		b.WriteString(st.Warning.Render(" "+note) + "\n")
		height--
	}
	b.WriteString(st.Header.Render("  "+pad("ID", idW)+"  "+pad("ACTIVE", activeW)+"  "+pad("PUBLIC KEY", keyW)+"  "+"DSN") + "\n")
	listH := max(height-1, 1)
	s.height = listH
	s.offset = scrollWindow(s.cursor, s.offset, listH, len(s.keys))
	end := min(s.offset+listH, len(s.keys))
	for i := s.offset; i < end; i++ {
		k := s.keys[i]
		line := "  " + pad(strconv.FormatInt(k.ID, 10), idW) + "  " + pad(yesNo(k.Active), activeW) + "  " +
			pad(clean(k.PublicKey), keyW) + "  " + fitDSN(clean(k.DSN), clean(k.PublicKey), dsnW)
		line = pad(line, width)
		if i == s.cursor {
			line = st.Selected.Render(line)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// trackingNote warns that keys collect nothing while error tracking is off.
func (s *projectScreen) trackingNote() string {
	switch {
	case s.settings != nil && !s.settings.Active:
		return "Error tracking is disabled for this project: events sent with these keys are not collected (tab, then a)."
	case s.settingsMissing:
		return "Error tracking is not configured for this project yet (tab to set it up)."
	}
	return ""
}

// fitDSN fits a DSN in width cells. The public key inside it repeats the
// column beside it, so when the DSN is too long that part is elided first,
// keeping the host and project in view; then the end is cut.
func fitDSN(dsn, publicKey string, width int) string {
	if lipgloss.Width(dsn) <= width {
		return dsn
	}
	if len(publicKey) > 8 {
		dsn = strings.Replace(dsn, publicKey+"@", publicKey[:5]+"…@", 1)
	}
	return truncate(dsn, width)
}
