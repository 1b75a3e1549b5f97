package tui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
)

// mustKeepDecision checks, at a small terminal, that the open dialog shows
// its whole border and that the help bar holds its confirm and cancel
// keys.
func (h *harness) mustKeepDecision(confirm, cancel string) {
	h.t.Helper()
	if len(h.m.dialogs) == 0 {
		h.t.Fatalf("no dialog open:\n%s", h.view())
	}
	v := h.view()
	lines := strings.Split(v, "\n")
	top, bottom := strings.Count(v, "╭"), strings.Count(v, "╰")
	if top != 1 || bottom != 1 {
		h.t.Fatalf("the dialog's border is cut (%d tops, %d bottoms):\n%s", top, bottom, v)
	}
	bar := lines[len(lines)-2]
	for _, k := range []string{confirm, cancel} {
		if !strings.Contains(bar, k) {
			h.t.Fatalf("the help bar lacks %q:\n%s", k, v)
		}
	}
}

// At 50x15 every dialog of the rotation, delete and migration flows keeps
// its border and its confirm and cancel keys on the help bar.
func TestSmallTerminalKeepsTheDecision(t *testing.T) {
	t.Run("sentry rotation", func(t *testing.T) {
		w := newSentryWorld(t, mocksentry.Options{})
		h := w.console(t, mocksentry.TokenAdmin, Deps{})
		h.resize(50, 15)
		h.selectKey("Production")
		h.key("R")
		h.mustKeepDecision("enter rotate", "esc cancel")
		h.key("enter")
		h.mustKeepDecision("y yes", "n/esc no")
		h.key("y")
		h.mustKeepDecision("y yes", "n/esc no")
	})
	t.Run("delete", func(t *testing.T) {
		h, _ := console(t, "1")
		h.resize(50, 15)
		h.key("d")
		h.mustKeepDecision("y yes", "n/esc no")
	})
	t.Run("migration", func(t *testing.T) {
		h := migrationHarness(t)
		h.resize(50, 15)
		h.mustSee("demo/web-shop")
		h.key("ctrl+a", "ctrl+o")
		h.mustKeepDecision("m/x choose", "esc back") // every pick's key, d r v m included
		h.mustKeepDecision("e/d/r/v/m/x", "esc")
		h.key("m")
		h.mustKeepDecision("enter next", "esc cancel")
		h.key("enter")
		h.mustKeepDecision("enter plan", "esc cancel")
		h.key("enter")
		h.mustKeepDecision("y yes", "n/esc no")
	})
}

// At 200 columns the key view shows a DSN (about 90 characters) on one
// line, so it can be selected as one string; at 80 it breaks at its
// separators, whole.
func TestKeyViewShowsTheDSNOnOneLine(t *testing.T) {
	h, g := console(t, "1")
	keys, _, err := g.api.ListClientKeys(context.Background(), apiclient.ProjectID(1))
	if err != nil || len(keys) == 0 || len(keys[0].DSN) < 80 {
		t.Fatalf("%v: %+v", err, keys)
	}
	h.resize(200, 40)
	h.mustSee("Client keys")
	h.key("enter")
	h.mustSee("DSN:")
	for _, l := range strings.Split(h.view(), "\n") {
		for _, k := range keys {
			if strings.Contains(l, k.DSN) {
				return
			}
		}
	}
	t.Fatalf("no DSN on one line at 200 columns:\n%s", h.view())
}

// migrationHarness is the console on the demo group, migrating to a mock
// Sentry from the marked projects' menu.
func migrationHarness(t *testing.T) *harness {
	t.Helper()
	g := demoGitLab(t)
	ss := mocksentry.New(mocksentry.Options{})
	ts := httptest.NewServer(ss)
	t.Cleanup(ts.Close)
	migration := func(ctx context.Context, to MigrateTarget, led *rotation.Rotations) (change.Kind, error) {
		sc, err := sentry.New(to.URL, mocksentry.TokenAdmin)
		if err != nil {
			return nil, err
		}
		info, err := sc.CheckToken(ctx)
		if err != nil {
			return nil, err
		}
		rule, _ := migrate.SlugRule("")
		return migrate.MigrateChange{Sentry: sc, Base: to.URL, Org: to.Org, Team: to.Team, Create: true, Slug: rule, Token: info, Ledger: led}, nil
	}
	return newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo", Rotations: testRotations(t, g.url),
		Migration: migration, MigrateTo: MigrateTarget{URL: ts.URL, Org: "demo", Team: "backend"}})
}

// mustSayInTwoLines checks that the status line says want in at most two
// lines at 80 columns.
func (h *harness) mustSayInTwoLines(want string) {
	h.t.Helper()
	lines := statusLines(h.m.sh.styles, h.m.status, 80, 24)
	if len(lines) > 2 || !strings.Contains(strings.Join(strings.Fields(ansi.Strip(strings.Join(lines, " "))), " "), want) {
		h.t.Fatalf("the status at 80 columns, want %q in at most two lines:\n%s", want, strings.Join(lines, "\n"))
	}
}

// At 80x24 the results of the rotation, delete and migration flows take
// at most two lines.
func TestResultsInTwoLinesAt80(t *testing.T) {
	t.Run("rotation", func(t *testing.T) {
		h, _ := console(t, "1")
		h.resize(80, 24)
		h.key("R")
		h.mustSee("Update variables")
		h.mustSayInTwoLines("clipboard")
		h.key("y")
		h.mustSee("Delete old key 1?")
		h.key("y")
		h.mustSayInTwoLines("Rotated: new key 4 replaces key 1, which is deleted")
	})
	t.Run("delete", func(t *testing.T) {
		h, _ := console(t, "1")
		h.resize(80, 24)
		h.key("d")
		h.key("y")
		h.mustSayInTwoLines("Deleted client key 1")
	})
	t.Run("migration", func(t *testing.T) {
		h := migrationHarness(t)
		h.resize(80, 24)
		h.mustSee("demo/web-shop")
		h.key("ctrl+a", "ctrl+o", "m", "enter", "enter")
		h.mustSee("Migrate to the Sentry at")
		h.key("y")
		h.mustSayInTwoLines("done in")
	})
}

// At 50x15 a question's words taller than the box scroll with pgdn, the
// arrows and letters staying the field's.
func TestSmallQuestionScrollsWithPgdn(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.resize(50, 15)
	h.selectKey("Production")
	h.key("R")
	h.mustSee("more lines (pgdn)")
	h.mustNotSee("once its clients")
	for range 8 {
		h.key("pgdown")
	}
	h.mustSay("use the new DSN")
	h.typeText("j")
	if v := h.m.dialogs[len(h.m.dialogs)-1].ask.input.Value(); v != "j" {
		t.Fatalf("the field holds %q", v)
	}
}

// Boxes are never cut: their corners and buttons show down to 40x10.
func TestDialogsFitSmallTerminals(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {40, 10}} {
		h, _ := console(t, "1")
		h.resize(size[0], size[1])
		h.key("d")
		checkBox(t, h, size, "Delete")
		h.key("esc", "down", "R")
		checkBox(t, h, size, "Delete")
		h.key("n", "enter")
		checkBox(t, h, size, "OK")
		h.key("esc", "?")
		frameFits(t, h.m.View().Content, size[0], size[1])
	}
}

func checkBox(t *testing.T, h *harness, size [2]int, button string) {
	t.Helper()
	v := h.view()
	frameFits(t, h.m.View().Content, size[0], size[1])
	if !strings.Contains(v, button) || strings.Count(v, "╭") != 1 || strings.Count(v, "╯") != 1 {
		t.Fatalf("%dx%d: box cut or button %q missing:\n%s", size[0], size[1], button, v)
	}
}

// A plan or report taller than the terminal scrolls with the arrows, pgup,
// pgdn, g and G, saying how much is above and below; failures come first;
// the buttons stay in view and answer as before.
func TestLongPlanScrolls(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 30}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet"})
	h.resize(80, 24)
	h.mustSee("fleet/app-030") // newest first, as GitLab lists a group
	h.key("ctrl+a", "ctrl+o", "d")
	h.mustSee("Disable error tracking in 30 of 30 marked projects?", "more lines (↓/pgdn)", "No", "Go")
	h.mustSay("planned fleet/app-001 disable")
	h.mustNotSee("fleet/app-030", "(↑/pgup)")
	h.key("G")
	h.mustSee("more lines (↑/pgup)", "Go")
	h.mustSay("planned fleet/app-030 disable")
	h.mustNotSee("fleet/app-001 ", "(↓/pgdn)")
	h.key("pgup")
	h.mustSee("(↑/pgup)", "(↓/pgdn)")
	h.key("g")
	h.mustSay("fleet/app-001 disable")
	h.key("y")
	h.mustSay("Disabling error tracking: done in 30 projects")
	if s := settingsOf(t, g, 2030); s == nil || s.Active {
		t.Fatal("the last project of the plan was not disabled")
	}
}
