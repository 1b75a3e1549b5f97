package tui

import (
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// observed wraps the root model and publishes each new screen, so a test
// can wait on what the program shows rather than on the renderer's
// incremental byte stream (which only rewrites changed cells).
type observed struct {
	Model
	screen *atomic.Value
}

func (o observed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := o.Model.Update(msg)
	o.Model = m.(Model)
	screen := ansi.Strip(o.Model.View().Content)
	if o.Model.top().Busy() || len(o.Model.sh.pending) > 0 {
		screen += "\n<busy>" // lets waitFor wait for requests to finish
	}
	o.screen.Store(screen)
	return o, cmd
}

type program struct {
	*teatest.TestModel
	screen *atomic.Value
}

func startProgram(t *testing.T, deps Deps) program {
	t.Helper()
	screen := &atomic.Value{}
	screen.Store("")
	tm := teatest.NewTestModel(t, observed{Model: New(deps), screen: screen},
		teatest.WithInitialTermSize(100, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii), tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	return program{tm, screen}
}

func waitFor(t *testing.T, p program, text string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if s := p.screen.Load().(string); strings.Contains(s, text) && !strings.Contains(s, "<busy>") {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %q with no request in flight; last screen:\n%s", text, p.screen.Load())
}

// finalView is the last frame, with what changes from run to run (the
// mock server's port, its random public keys) replaced by placeholders.
func finalView(t *testing.T, p program, g gitlab) []byte {
	t.Helper()
	fm := p.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(observed)
	v := ansi.Strip(fm.View().Content)
	v = strings.ReplaceAll(v, strings.TrimPrefix(g.url, "http://"), "127.0.0.1:PORT")
	v = publicKey.ReplaceAllStringFunc(v, func(k string) string { return "glet_" + strings.Repeat("x", len(k)-5) })
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

var publicKey = regexp.MustCompile(`glet_[0-9a-f]{8,32}`)

// TestFlowCreateAndDeleteKey opens a project from the list, creates a key,
// cancels one delete and confirms another, through a real Bubble Tea program.
func TestFlowCreateAndDeleteKey(t *testing.T) {
	g := demoGitLab(t)
	tm := startProgram(t, Deps{API: g.api, Host: g.url})
	waitFor(t, tm, "demo/web-shop")
	tm.Type("/web")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "Client keys (2)")
	tm.Type("n")
	waitFor(t, tm, "Created client key 4")
	tm.Type("d")
	waitFor(t, tm, "Delete client key 4 of demo/web-shop?")
	time.Sleep(gracePeriod) // the question opened on the key's lookup
	tm.Type("n")
	tm.Type("k")
	tm.Type("d")
	waitFor(t, tm, "Delete client key 2 of demo/web-shop?")
	time.Sleep(gracePeriod)
	tm.Type("y")
	waitFor(t, tm, "Deleted client key 2")
	tm.Type("q")
	got := finalView(t, tm, g)
	if ids := g.keyIDs(1); len(ids) != 2 || ids[0] != 1 || ids[1] != 4 {
		t.Fatalf("server keys %v, want [1 4]", ids)
	}
	golden.RequireEqual(t, got)
}

// TestFlowSettings creates settings for a project that has none (the server
// creates its first key), then disables them.
func TestFlowSettings(t *testing.T) {
	g := demoGitLab(t)
	tm := startProgram(t, Deps{API: g.api, Host: g.url, Project: "2"})
	waitFor(t, tm, "Client keys (0)")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	waitFor(t, tm, "not configured")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "settings created")
	tm.Type("a")
	waitFor(t, tm, "Disable error tracking?")
	tm.Type("y")
	waitFor(t, tm, "settings disabled")
	tm.Type("q")
	golden.RequireEqual(t, finalView(t, tm, g))
}

// TestFlowFailureKeepsScreen shows a failed create and a retry.
func TestFlowFailureKeepsScreen(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	f.fail("CreateClientKey", errServer502)
	tm := startProgram(t, Deps{API: f, Host: g.url, Project: "1"})
	waitFor(t, tm, "Client keys (2)")
	tm.Type("n")
	waitFor(t, tm, "HTTP 502")
	tm.Type("r")
	waitFor(t, tm, "Refreshed.")
	tm.Type("n")
	waitFor(t, tm, "Created client key 4")
	tm.Type("q")
	golden.RequireEqual(t, finalView(t, tm, g))
}
