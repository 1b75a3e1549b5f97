package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/jsonview"
	"github.com/errtrack/errtrack/internal/safetext"
)

// maxShownBody caps the body lines the detail view draws.
const maxShownBody = 400

// logPane shows the requests the console made, newest last, and one in
// full. It is drawn over the screens, like the help page.
type logPane struct {
	sh      *shared
	entries []apiclient.Exchange
	total   int
	list    listView
	// detail, when set, is the selected exchange drawn in full.
	detail        []string
	detailView    viewport.Model
	width, height int
}

func newLogPane(sh *shared, w, h int) *logPane {
	p := &logPane{sh: sh}
	p.setSize(w, h)
	p.refresh()
	p.list.selectIndex(len(p.entries) - 1)
	return p
}

func (p *logPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.list.setHeight(h - 2)
	p.detailView.SetWidth(max(w-1, 1))
	p.detailView.SetHeight(max(h-2, 1))
}

// refresh copies the log; the cursor follows new requests when it was on
// the newest.
func (p *logPane) refresh() {
	if p.sh.deps.Log == nil {
		return
	}
	follow := p.list.cursor >= len(p.entries)-1
	before := p.total
	p.entries, p.total = p.sh.deps.Log.snapshot()
	p.list.setTotal(len(p.entries))
	if follow || before == 0 {
		p.list.selectIndex(len(p.entries) - 1)
	}
}

func (p *logPane) help() helpMap {
	k := p.sh.keys
	if p.detail != nil {
		return helpMap{short: []key.Binding{k.Move, with(k.Copy, "copy as curl"), with(k.Back, "list")}}
	}
	return helpMap{short: []key.Binding{k.Move, with(k.Show, "details"), with(k.Copy, "copy as curl"), with(k.Back, "close")}}
}

// update handles a key; done reports the pane closed.
func (p *logPane) update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.sh.keys
	sel, ok := p.selected()
	switch {
	case key.Matches(msg, k.RequestLog):
		return nil, true
	case key.Matches(msg, k.Back):
		if p.detail != nil {
			p.detail = nil
			return nil, false
		}
		return nil, true
	case key.Matches(msg, k.Copy) && ok:
		return copyCurl(p.sh, sel), false
	case p.detail != nil && key.Matches(msg, k.Top):
		p.detailView.GotoTop()
	case p.detail != nil && key.Matches(msg, k.Bottom):
		p.detailView.GotoBottom()
	case p.detail != nil:
		// The viewport scrolls from the first key: no cursor moves unseen.
		p.detailView, _ = p.detailView.Update(msg)
	case key.Matches(msg, k.Show) && ok:
		p.detail = detailLines(sel)
		p.detailView = viewport.New(viewport.WithWidth(max(p.width-1, 1)), viewport.WithHeight(max(p.height-2, 1)))
		lines := make([]string, len(p.detail))
		for i, l := range p.detail {
			lines[i] = " " + truncate(l, p.width-2)
		}
		p.detailView.SetContentLines(lines)
	default:
		p.list.move(msg, k.nav())
	}
	return nil, false
}

func (p *logPane) mouse(ev tea.Mouse, wheel bool) tea.Cmd {
	if p.detail != nil {
		if d := wheelDelta(ev); d > 0 {
			p.detailView.ScrollDown(d)
		} else if d < 0 {
			p.detailView.ScrollUp(-d)
		}
		return nil
	}
	if wheel {
		p.list.scroll(wheelDelta(ev))
		return nil
	}
	if p.detail == nil {
		if again, ok := p.list.click(ev.Y - 2); ok && again {
			cmd, _ := p.update(tea.KeyPressMsg{Code: tea.KeyEnter})
			return cmd
		}
	}
	return nil
}

func (p *logPane) selected() (apiclient.Exchange, bool) {
	if len(p.entries) == 0 {
		return apiclient.Exchange{}, false
	}
	return p.entries[p.list.cursor], true
}

// copyCurl copies a curl command that repeats the request; the token is
// always a variable ($GITLAB_TOKEN, a Sentry's $SENTRY_AUTH_TOKEN), never
// its value, and the status names it.
func copyCurl(sh *shared, e apiclient.Exchange) tea.Cmd {
	c := e.Curl()
	if safetext.Clean(c) != c {
		return statusCmd(statusError, "Not copied: the request holds characters that are not safe to paste.")
	}
	what := "the request as a curl command"
	if v := e.CurlTokenVariable(); v != "" {
		what += " that reads the token from $" + v
	}
	return sh.copyFromLog(c, what)
}

func (p *logPane) view() string {
	st := p.sh.styles
	var b strings.Builder
	if p.detail != nil {
		pos := fmt.Sprintf(" %d%%", int(p.detailView.ScrollPercent()*100))
		b.WriteString(st.Title.Render(" Request") + st.Subtle.Render(" (esc: back to the log)"+pos) + "\n")
		b.WriteString(p.detailView.View())
		return b.String()
	}
	count := fmt.Sprintf(" (%d)", p.total)
	if p.total > len(p.entries) {
		count = fmt.Sprintf(" (last %d of %d)", len(p.entries), p.total)
	}
	b.WriteString(st.Title.Render(" Request log") + st.Subtle.Render(count+"  newest last") + "\n")
	if len(p.entries) == 0 {
		b.WriteString(st.Subtle.Render(" No requests yet."))
		return b.String()
	}
	b.WriteString(st.Header.Render(pad("  TIME      METHOD  STATUS  TIME MS  PATH", p.width)) + "\n")
	start, end := p.list.window()
	if end-start > p.height-2 {
		end = start + p.height - 2
	}
	for i := start; i < end; i++ {
		line := pad(logLine(p.entries[i], p.width), p.width)
		if i == p.list.cursor {
			line = st.Selected.Render(line)
		} else if p.entries[i].Err != nil {
			line = st.Error.Render(line)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// logLine is one request: time, method, status, duration, path with query
// as sent, the attempt when retried, and the error kind when it failed.
func logLine(e apiclient.Exchange, width int) string {
	status := "—"
	if e.Status != 0 {
		status = strconv.Itoa(e.Status)
	}
	head := fmt.Sprintf("  %s  %-6s  %-6s  %7d  ", e.Start.Format("15:04:05"), e.Method, status, e.Duration.Milliseconds())
	var tail string
	if e.Attempt > 1 {
		tail += fmt.Sprintf("  (retry %d)", e.Attempt-1)
	}
	if kind := errorKind(e.Err); kind != "" {
		tail += "  [" + kind + "]"
	}
	// The path keeps at least 30 cells; a long error kind is cut instead.
	pathW := max(width-len(head)-len(tail), min(30, width-len(head)))
	return clean(head + fitPath(clean(pathOf(e.URL)), pathW) + tail)
}

// fitPath fits a request path in width cells keeping its end, the
// endpoint: the query goes first, then the start of the path.
func fitPath(p string, width int) string {
	if lipgloss.Width(p) <= width {
		return p
	}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i] + "?…"
		if lipgloss.Width(p) <= width {
			return p
		}
	}
	r := []rune(p)
	if width <= 1 || len(r) <= 1 {
		return "…"
	}
	return "…" + string(r[max(len(r)-(width-1), 0):])
}

// pathOf is a URL without its scheme and host: the path as sent, with the query.
func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	p := u.EscapedPath()
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

func errorKind(err error) string {
	var e *apiclient.APIError
	if errors.As(err, &e) && e.Kind != nil {
		return e.Kind.Error()
	}
	if err != nil {
		return "failed"
	}
	return ""
}

// detailLines draws an exchange in full: the request line, headers and
// body, then the answer; bodies pretty-printed, capped and cleaned.
func detailLines(e apiclient.Exchange) []string {
	var out []string
	add := func(s string) { out = append(out, clean(s)) }
	add(e.Method + " " + e.URL)
	out = append(out, headerLines(e.RequestHeader)...)
	out = append(out, bodyLines(e.RequestBody)...)
	out = append(out, "")
	switch {
	case e.Status != 0:
		add(fmt.Sprintf("%d %s · %s · attempt %d", e.Status, http.StatusText(e.Status), millis(e.Duration), e.Attempt))
	default:
		add(fmt.Sprintf("no answer · %s · attempt %d", millis(e.Duration), e.Attempt))
	}
	if e.Err != nil {
		add("error: " + e.Err.Error())
	}
	out = append(out, headerLines(e.ResponseHeader)...)
	out = append(out, bodyLines(e.ResponseBody)...)
	return out
}

func millis(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

func headerLines(h http.Header) []string {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		out = append(out, clean(n+": "+strings.Join(h[n], ", ")))
	}
	return out
}

func bodyLines(b []byte) []string {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var pretty bytes.Buffer
	if jsonview.Indentable(b) && json.Indent(&pretty, b, "", "  ") == nil {
		b = pretty.Bytes()
	}
	lines := strings.Split(string(b), "\n")
	out := []string{""}
	for i, l := range lines {
		if i == maxShownBody {
			out = append(out, fmt.Sprintf("… %d more lines", len(lines)-i))
			break
		}
		out = append(out, clean(l))
	}
	return out
}
