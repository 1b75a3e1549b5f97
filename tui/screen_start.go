package tui

import tea "charm.land/bubbletea/v2"

// startScreen is shown while Deps.Connect looks for the token.
type startScreen struct{ sh *shared }

func (s startScreen) Init() tea.Cmd                    { return nil }
func (s startScreen) Update(tea.Msg) (screen, tea.Cmd) { return s, nil }
func (s startScreen) SetSize(int, int)                 {}
func (s startScreen) Help() helpMap                    { return helpMap{} }
func (s startScreen) Title() string                    { return "starting" }
func (s startScreen) Busy() bool                       { return true }
func (s startScreen) Capturing() bool                  { return false }
func (s startScreen) View() string {
	return s.sh.styles.Subtle.Render(" Reading the access token (the system keyring may ask to be unlocked)…")
}
