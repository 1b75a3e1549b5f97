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

// statusLines is the status message, wrapped between words to at most 3
// lines above the help bar: error advice is often longer than one line.
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
	lines := wrap(clean(msg.text), w-2)
	if len(lines) > 3 {
		lines = lines[:3]
		lines[2] = truncate(lines[2]+" …", w-2)
	}
	for i, l := range lines {
		lines[i] = " " + style.Render(l)
	}
	return lines
}

// statusBar names the screen, the user and the host (the most specific
// first, so a narrow bar cuts the host rather than the project), with the
// spinner, the demo's mark and the token's expiry on the right.
func statusBar(sh *shared, title string, busy bool, spin string, w int) string {
	st := sh.styles
	var parts []string
	if title != "" {
		parts = append(parts, clean(title))
	}
	if u := sh.token.User; u != nil {
		parts = append(parts, "@"+clean(u.Username))
	}
	host := sh.deps.Host
	if v := sh.token.Version; v != nil {
		host += " (GitLab " + clean(v.Short()) + ")"
	}
	parts = append(parts, host)
	left := strings.Join(parts, " │ ")
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
	line := " " + left
	gap := w - lipgloss.Width(r) - 1
	line = pad(truncate(line, max(gap-1, 1)), max(gap, 1)) + r + " "
	return st.StatusBar.Render(pad(line, w))
}

// tokenWarning is set when the token expires within workflow.WarnDays; the
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
