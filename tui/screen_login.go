package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/internal/tokens"
)

// loginScreen asks for a host and a token. The token field is masked and
// its value is never drawn, logged or kept after the attempt.
type loginScreen struct {
	sh            *shared
	host, token   textinput.Model
	focus         int    // 0 host, 1 token
	hostBefore    string // the host field's text when it took focus
	reason        string
	checking      bool
	err           string
	width, height int
}

func newLoginScreen(sh *shared, reason string) *loginScreen {
	h := newTextInput("Host:  ", hosturl.Default)
	h.CharLimit = 255
	h.SetValue(sh.deps.Host)
	t := newTextInput("Token: ", "personal access token with the api scope")
	t.EchoMode = textinput.EchoPassword
	t.EchoCharacter = '•'
	t.CharLimit = 4096
	s := &loginScreen{sh: sh, host: h, token: t, reason: reason, focus: 1, hostBefore: sh.deps.Host}
	if sh.deps.Host == "" {
		s.focus = 0
	}
	return s
}

// tokenFirst: the host was known when the screen opened, so the token is
// the field to fill, drawn first.
func (s *loginScreen) tokenFirst() bool { return s.sh.deps.Host != "" }

// tokenPage is where the user creates a token on the host typed.
func (s *loginScreen) tokenPage() string {
	host, err := hosturl.Normalize(s.host.Value())
	if err != nil || s.host.Value() == "" {
		return "<your GitLab>/-/user_settings/personal_access_tokens"
	}
	return clean(tokens.TokenPage(host))
}

func (s *loginScreen) Init() tea.Cmd {
	if s.focus == 0 {
		return s.host.Focus()
	}
	return s.token.Focus()
}

func (s *loginScreen) Title() string { return "log in" }

func (s *loginScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.host.SetWidth(max(w-12, 10))
	s.token.SetWidth(max(w-12, 10))
}

func (s *loginScreen) Busy() bool      { return s.checking }
func (s *loginScreen) Capturing() bool { return true }

func (s *loginScreen) Help() helpMap {
	k := s.sh.keys
	return helpMap{short: []key.Binding{k.Submit, k.NextField}, full: [][]key.Binding{{k.Submit, k.NextField}}}
}

func (s *loginScreen) Update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loginDoneMsg:
		// Only failures reach here; the root takes successes.
		s.checking = false
		s.err = s.sh.explainRetry(msg.err, "press enter to try again")
		// A token the server never judged (it was not reached) stays for
		// the next try, masked; a refused one goes.
		s.token.SetValue(msg.retry)
		if msg.retry != "" {
			return s, s.setFocus(0) // the host is what to check
		}
		return s, nil
	case tea.KeyPressMsg:
		k := s.sh.keys
		switch {
		case key.Matches(msg, k.NextField):
			return s, s.setFocus(1 - s.focus)
		case key.Matches(msg, k.Submit):
			return s, s.submit()
		}
	}
	var cmd tea.Cmd
	if s.focus == 0 {
		s.host, cmd = s.host.Update(msg)
		// A token typed or pasted into the clear-text host field, alone or
		// after the host it held, goes to the masked one instead, before
		// it is ever drawn.
		v := s.host.Value()
		for _, base := range []string{"", s.hostBefore} {
			if added, ok := strings.CutPrefix(v, base); ok && looksLikeToken(added) {
				s.host.SetValue(base)
				s.token.SetValue(strings.TrimSpace(added))
				s.err = "That looked like a token: it went into the Token field, which is masked."
				return s, s.setFocus(1)
			}
		}
	} else {
		s.token, cmd = s.token.Update(msg)
	}
	return s, cmd
}

// looksLikeToken: GitLab's token prefixes, or a long word without the dots,
// colons or slashes of a host.
func looksLikeToken(v string) bool {
	v = strings.TrimSpace(v)
	for _, p := range []string{"glpat-", "gloas-", "glrt-", "glptt-", "gldt-", "glft-", "glcbt-", "glimt-", "glagent-", "glsoat-"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return len(v) >= 20 && !strings.ContainsAny(v, ".:/")
}

func (s *loginScreen) setFocus(f int) tea.Cmd {
	s.focus = f
	if f == 0 {
		s.hostBefore = s.host.Value()
		s.token.Blur()
		return s.host.Focus()
	}
	s.host.Blur()
	return s.token.Focus()
}

func (s *loginScreen) submit() tea.Cmd {
	if s.checking {
		return nil
	}
	host, err := hosturl.Normalize(s.host.Value())
	if err != nil {
		s.err = clean(err.Error())
		return s.setFocus(0)
	}
	tok := strings.TrimSpace(s.token.Value())
	if tok == "" {
		s.err = "Type or paste a personal access token with the api scope."
		return s.setFocus(1)
	}
	if s.sh.deps.Login == nil {
		s.err = "Logging in is not available here; set GITLAB_TOKEN instead."
		return nil
	}
	s.host.SetValue(host)
	s.err = ""
	s.checking = true
	// The token leaves the field at once; only the Cmd holds it.
	s.token.SetValue("")
	return loginCmd(s.sh.ctx(), s.sh.deps.Login, s.sh.deps.RequestTimeout, host, tok)
}

func (s *loginScreen) View() string {
	st := s.sh.styles
	var b strings.Builder
	b.WriteString(st.Title.Render(" Log in to GitLab") + "\n\n")
	if s.reason != "" {
		for _, l := range wrap(s.reason, s.width-2) {
			b.WriteString(" " + st.Warning.Render(l) + "\n")
		}
		b.WriteString("\n")
	}
	para := func(text string) {
		for _, l := range wrap(text, max(s.width-2, 20)) {
			b.WriteString(" " + l + "\n")
		}
	}
	para("errtrack needs a personal access token with the api scope. Create one at")
	// The page's address whole, never cut with "…": indented where it
	// fits, else from the first column, broken only at its separators.
	page := s.tokenPage()
	indent := "   "
	if lipgloss.Width(page)+len(indent) > s.width {
		indent = ""
	}
	for _, l := range wrap(page, max(s.width-len(indent), 20)) {
		b.WriteString(st.Subtle.Render(indent+l) + "\n")
	}
	para("It is checked with the server, then kept in the system keyring, never in a file.")
	b.WriteString("\n")
	// The focused field is drawn first: with the host known, the token.
	if s.tokenFirst() {
		b.WriteString(" " + fieldView(s.token, st) + "\n")
		b.WriteString(" " + fieldView(s.host, st) + "\n\n")
	} else {
		b.WriteString(" " + fieldView(s.host, st) + "\n")
		b.WriteString(" " + fieldView(s.token, st) + "\n\n")
	}
	switch {
	case s.checking:
		b.WriteString(st.Subtle.Render(" Checking the token…"))
	case s.err != "":
		for _, l := range wrap(s.err, s.width-2) {
			b.WriteString(" " + st.Error.Render(l) + "\n")
		}
	}
	return b.String()
}
