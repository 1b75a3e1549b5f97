package tui

import (
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The console's tests run against the mock server in process, through a
// real API client. faultAPI wraps the client only to inject failures or
// hold a call; it never answers by itself.

// testNow is the clock's start: the demo tokens' expiry dates are relative
// to the real date, so the manual clock starts at the real time.
var testNow = time.Now()

// manualClock runs the console's timers when the test says time has passed.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []timer
}

type timer struct {
	at  time.Time
	seq int
	msg tea.Msg
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) After(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.timers = append(c.timers, timer{at: c.now.Add(d), seq: len(c.timers), msg: msg})
		return nil
	}
}

// next pops the earliest timer due by until, moving the clock to it.
func (c *manualClock) next(until time.Time) (tea.Msg, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].at.Before(c.timers[j].at) })
	if len(c.timers) == 0 || c.timers[0].at.After(until) {
		c.now = until
		return nil, false
	}
	t := c.timers[0]
	c.timers = c.timers[1:]
	c.now = t.at
	return t.msg, true
}

// harness drives a root Model as a program would, one message at a time:
// every command runs to its end and its messages are delivered. A command
// that does not finish fails the test; none is dropped.
type harness struct {
	t     testing.TB
	m     Model
	clock *manualClock
	sent  []tea.Msg // every message a command produced, for assertions
}

// cmdLimit is how long one command may take before the test fails.
const cmdLimit = 20 * time.Second

func newHarness(t testing.TB, deps Deps) *harness {
	t.Helper()
	if deps.Host == "" {
		deps.Host = "https://gitlab.example.com"
	}
	clock := &manualClock{now: testNow}
	if deps.Clock == nil {
		deps.Clock = clock
	}
	h := &harness{t: t, m: New(deps), clock: clock}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(h.m.Init())
	return h
}

// console is a harness on the mock server's demo data, logged in as the
// maintainer, optionally opened on a project.
func console(t testing.TB, project string) (*harness, gitlab) {
	t.Helper()
	g := demoGitLab(t)
	return newHarness(t, Deps{API: g.api, Host: g.url, Project: project}), g
}

// send delivers msg and everything its commands produce.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	next, cmd := h.m.Update(msg)
	h.m = next.(Model)
	h.run(cmd)
}

// sendOnly delivers msg and returns its command without running it: the
// request stays "in flight" until the test runs it.
func (h *harness) sendOnly(msg tea.Msg) tea.Cmd {
	next, cmd := h.m.Update(msg)
	h.m = next.(Model)
	return cmd
}

func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	for _, msg := range h.collect(cmd) {
		h.send(msg)
	}
}

// collect runs cmd and returns the messages to deliver. Bubble Tea's own
// messages (quit, clipboard, terminal queries) are recorded, not delivered.
func (h *harness) collect(cmd tea.Cmd) []tea.Msg {
	h.t.Helper()
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(cmdLimit):
		h.t.Fatalf("a command did not finish within %v", cmdLimit)
	}
	if msg == nil {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, h.collect(c)...)
		}
		return out
	}
	h.sent = append(h.sent, msg)
	if reflect.TypeOf(msg).PkgPath() == "charm.land/bubbletea/v2" {
		return nil
	}
	return []tea.Msg{msg}
}

// advance lets d pass on the console's clock, delivering the timers due.
func (h *harness) advance(d time.Duration) {
	h.t.Helper()
	until := h.clock.Now().Add(d)
	for {
		msg, ok := h.clock.next(until)
		if !ok {
			return
		}
		h.send(msg)
	}
}

// key presses keys as a user who reads what is drawn: a question that
// opened on a result is answered once its grace period has passed.
func (h *harness) key(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		if n := len(h.m.dialogs); n > 0 && !h.m.dialogs[n-1].armed(h.clock.Now()) {
			h.advance(gracePeriod)
		}
		h.send(keyMsg(k))
	}
}

// keyNow presses keys at once, as a user typing ahead of the screen.
func (h *harness) keyNow(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

// filter types s in the projects list's filter, opening it with / first
// when its keys are the list's.
func (h *harness) filter(s string) {
	h.t.Helper()
	if ps, ok := h.m.top().(*projectsScreen); ok && !ps.Capturing() {
		h.key("/")
	}
	h.typeText(s)
}

// typeText types s one key at a time.
func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (h *harness) resize(w, ht int) { h.send(tea.WindowSizeMsg{Width: w, Height: ht}) }

// namedKeys are the non-printing keys tests press by name.
var namedKeys = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"tab":       {Code: tea.KeyTab},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"pgup":      {Code: tea.KeyPgUp},
	"pgdown":    {Code: tea.KeyPgDown},
	"home":      {Code: tea.KeyHome},
	"end":       {Code: tea.KeyEnd},
	"backspace": {Code: tea.KeyBackspace},
	"space":     {Code: tea.KeySpace, Text: " "},
	"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
	"ctrl+u":    {Code: 'u', Mod: tea.ModCtrl},
	"ctrl+r":    {Code: 'r', Mod: tea.ModCtrl},
	"ctrl+x":    {Code: 'x', Mod: tea.ModCtrl},
	"ctrl+l":    {Code: 'l', Mod: tea.ModCtrl},
	"ctrl+t":    {Code: 't', Mod: tea.ModCtrl},
	"ctrl+a":    {Code: 'a', Mod: tea.ModCtrl},
	"ctrl+o":    {Code: 'o', Mod: tea.ModCtrl},
	"ctrl+g":    {Code: 'g', Mod: tea.ModCtrl},
}

func keyMsg(k string) tea.KeyPressMsg {
	if m, ok := namedKeys[k]; ok {
		return m
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func (h *harness) view() string { return ansi.Strip(h.m.View().Content) }

func (h *harness) mustSee(want ...string) {
	h.t.Helper()
	v := h.view()
	for _, w := range want {
		if !strings.Contains(v, w) {
			h.t.Fatalf("screen lacks %q:\n%s", w, v)
		}
	}
}

func (h *harness) mustNotSee(bad ...string) {
	h.t.Helper()
	v := h.view()
	for _, b := range bad {
		if strings.Contains(v, b) {
			h.t.Fatalf("screen shows %q:\n%s", b, v)
		}
	}
}

// mustSay checks for sentences that may wrap over lines, in a box or not:
// spaces, line breaks and a box's sides count as one space on both sides.
func (h *harness) mustSay(want ...string) {
	h.t.Helper()
	v := strings.Join(strings.Fields(strings.ReplaceAll(h.view(), "│", " ")), " ")
	for _, w := range want {
		if !strings.Contains(v, strings.Join(strings.Fields(w), " ")) {
			h.t.Fatalf("screen does not say %q:\n%s", w, h.view())
		}
	}
}

// holdWrite presses k, which starts a write (a create, a delete confirmed
// with y, a settings change), and returns the write's request without
// running it: the write is in flight until the test runs the command.
func (h *harness) holdWrite(k string) tea.Cmd {
	h.t.Helper()
	if n := len(h.m.dialogs); n > 0 && !h.m.dialogs[n-1].armed(h.clock.Now()) {
		h.advance(gracePeriod)
	}
	start := h.sendOnly(keyMsg(k))
	if start == nil {
		h.t.Fatalf("%s started nothing", k)
	}
	msg, ok := start().(startWriteMsg)
	if !ok {
		h.t.Fatalf("%s did not start a write", k)
	}
	return h.sendOnly(msg)
}

// count is how many times text shows on the screen.
func (h *harness) count(text string) int { return strings.Count(h.view(), text) }

// sentType reports whether a command produced a message of that type.
func (h *harness) sentType(name string) bool {
	for _, m := range h.sent {
		if strings.Contains(reflect.TypeOf(m).String(), name) {
			return true
		}
	}
	return false
}

// copied returns what the commands put on the clipboard.
func (h *harness) copied() []string {
	var out []string
	for _, m := range h.sent {
		if strings.Contains(reflect.TypeOf(m).String(), "setClipboardMsg") {
			out = append(out, reflect.ValueOf(m).String())
		}
	}
	return out
}

// testRotations is a fresh rotation ledger for the console on host.
func testRotations(t testing.TB, host string) *rotation.Rotations {
	t.Helper()
	store, err := ledger.OpenLedger(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return rotation.NewRotations(store, host, rotation.FrontEndConsole)
}

// dialogText is the open dialog's title and lines, unwrapped.
func (h *harness) dialogText() string {
	h.t.Helper()
	if len(h.m.dialogs) == 0 {
		h.t.Fatalf("no dialog open:\n%s", h.view())
	}
	d := h.m.dialogs[len(h.m.dialogs)-1]
	table, _ := reportTable(NewStyles(true, true), d.table, 200, 0) // wide: a row a line
	for i, l := range table {
		table[i] = ansi.Strip(l)
	}
	// and each row whole, as enter on it shows it
	for _, r := range d.table {
		table = append(table, r.result+" "+r.project+" "+r.what)
	}
	return d.title + "\n" + strings.Join(append(table, d.body...), "\n")
}

// dialogSays checks the open dialog's own lines (its box wraps them), a
// table's columns read as one space apart.
func (h *harness) dialogSays(want ...string) {
	h.t.Helper()
	text := strings.Join(strings.Fields(h.dialogText()), " ")
	for _, w := range want {
		if !strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
			h.t.Fatalf("the dialog does not say %q:\n%s", w, text)
		}
	}
}

func (h *harness) dialogLacks(bad string) {
	h.t.Helper()
	if text := h.dialogText(); strings.Contains(text, bad) {
		h.t.Fatalf("the dialog says %q:\n%s", bad, text)
	}
}
