package tui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
)

// The root's chrome at the bottom: the status line (what the console said
// last, above the bars) and the status bar (where you are, as whom, on
// which GitLab, and whether something is under way).

const statusTTL = 5 * time.Second

// statusRoom is how many lines the status message takes at most: four
// where the terminal has 24 rows or more, three below.
func statusRoom(h int) int {
	if h >= 24 {
		return 4
	}
	return 3
}

// statusLines is the status message, wrapped between words to at most 3
// lines above the help bar: error advice is often longer than one line.
// A longer one loses its middle, not its end, which says what to do.
func statusLines(st Styles, msg statusMsg, w, h int) []string {
	if msg.text == "" || h < 8 {
		return nil
	}
	style := st.Info
	switch msg.kind {
	case statusError:
		style = st.Error
	case statusSuccess:
		style = st.Success
	}
	lines := fitStatus(clean(msg.text), w-2, statusRoom(h))
	for i, l := range lines {
		lines[i] = " " + style.Render(l)
	}
	return lines
}

// fitStatus wraps text in at most room lines of width: where it is longer,
// its first half of the lines, then "…" and as much of its end as fits in
// the others: the end says what to do.
func fitStatus(text string, width, room int) []string {
	lines := wrap(text, width)
	if len(lines) <= room {
		return lines
	}
	head := max(room/2, 1)
	words := strings.Fields(text)
	tail := []string{"…"}
	for k := 1; k < len(words); k++ {
		try := wrap("… "+strings.Join(words[len(words)-k:], " "), width)
		if len(try) > room-head {
			break
		}
		tail = try
	}
	return append(lines[:head:head], tail...)
}

// statusBar names the screen, the user and the host (the most specific
// first, so a narrow bar cuts the host rather than the project), with the
// spinner, the demo's mark and the token's expiry on the right.
func statusBar(sh *shared, title string, busy bool, spin string, w int) string {
	st := sh.styles
	var right []string
	if busy && sh.deps.Accessible {
		right = append(right, "working…")
	} else if busy {
		right = append(right, spin)
	}
	if sh.deps.Demo {
		right = append(right, st.StatusDemo.Render("DEMO (mock server)"))
	}
	if warn := tokenWarning(sh); warn != "" {
		right = append(right, st.Warning.Render(warn))
	}
	r := strings.Join(right, "  ")
	gap := w - lipgloss.Width(r) - 1
	line := pad(truncate(" "+barLeft(sh, title, gap-1), max(gap-1, 1)), max(gap, 1)) + r + " "
	return st.StatusBar.Render(pad(line, w))
}

// barLeft is the left of the status bar in room cells: the screen, the user
// and the host with its GitLab version; where they do not fit, the version
// goes first, then the user, then the host is cut, never a word in half
// but the last.
func barLeft(sh *shared, title string, room int) string {
	var user, version string
	if u := sh.token.User; u != nil {
		user = "@" + clean(u.Username)
	}
	if v := sh.token.Version; v != nil {
		version = " (GitLab " + clean(v.Short()) + ")"
	}
	join := func(user, version string) string {
		var parts []string
		if title != "" {
			parts = append(parts, clean(title))
		}
		if user != "" {
			parts = append(parts, user)
		}
		return strings.Join(append(parts, sh.deps.Host+version), " │ ")
	}
	for _, s := range []string{join(user, version), join(user, ""), join("", "")} {
		if lipgloss.Width(s) <= room {
			return s
		}
	}
	return join("", "")
}

// tokenWarning is set when the token expires within tokens.WarnDays; the
// words are the ones `errtrack status` uses.
func tokenWarning(sh *shared) string {
	now := sh.clock.Now()
	if !sh.token.ExpiresSoon(now) {
		return ""
	}
	warn := "⚠ token " + sh.token.Expiry(now)
	if sh.deps.RotateToken != nil {
		warn += " · ctrl+t rotate"
	}
	return warn
}

func retryText(n RetryNotice) string {
	secs := int(math.Ceil(n.Wait.Seconds()))
	switch {
	case n.RateLimited:
		return fmt.Sprintf("Rate limited by the server; retrying in %d s…", secs)
	case n.StatusCode == 0:
		return fmt.Sprintf("Could not reach the server; retrying in %d s…", secs)
	}
	return fmt.Sprintf("The server answered HTTP %d; retrying in %d s…", n.StatusCode, secs)
}
