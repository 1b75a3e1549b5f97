package main

import (
	"reflect"
	"regexp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/tui"
)

// stopped is a console clock stopped at one instant; its timers never fire.
type stopped struct{ now time.Time }

func (c stopped) Now() time.Time                       { return c.now }
func (c stopped) After(time.Duration, tea.Msg) tea.Cmd { return nil }

// settle runs the console's commands and delivers their messages until
// none is left, as a program would.
func settle(t *testing.T, m tea.Model, cmd tea.Cmd) tea.Model {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if msg == nil || reflect.TypeOf(msg).PkgPath() == "charm.land/bubbletea/v2" {
			continue
		}
		var next tea.Cmd
		m, next = m.Update(msg)
		queue = append(queue, next)
	}
	return m
}

// The console and `errtrack status` give the same day count for the same
// token at the same instant, whatever the time zone and the hour.
func TestConsoleAndStatusAgreeOnExpiry(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["GITLAB_TOKEN"] = mockserver.TokenExpiring // expires in 3 days
	days := regexp.MustCompile(`expires (in \d+ days|tomorrow)|has expired`)
	base := time.Now().UTC().Truncate(24 * time.Hour)
	for _, now := range []time.Time{
		time.Now(),
		base.Add(30 * time.Minute).In(time.FixedZone("UTC-12", -12*3600)),             // still yesterday locally
		base.Add(23*time.Hour + 30*time.Minute).In(time.FixedZone("UTC+14", 14*3600)), // already tomorrow locally
		base.Add(24 * time.Hour),
	} {
		c.now = now
		r := c.run("", "status")
		r.must(t, 0)
		cli := days.FindString(r.stdout)

		api, err := apiclient.New(c.url, mockserver.TokenExpiring)
		if err != nil {
			t.Fatal(err)
		}
		m := tui.New(tui.Deps{API: api, Host: c.url, Clock: stopped{now}})
		m2, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
		final := settle(t, m2, m.Init())
		console := days.FindString(ansi.Strip(final.View().Content))
		if cli == "" || cli != console {
			t.Fatalf("at %v: status says %q, the console %q", now, cli, console)
		}
	}
}
