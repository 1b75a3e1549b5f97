package tui

import (
	"context"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The console's tests run against the mock server in process, through a
// real API client. faultAPI wraps the client only to inject failures or
// hold a call; it never answers by itself.

// testNow is the clock's start: the demo tokens' expiry dates are relative
// to the real date, so the manual clock starts at the real time.
var testNow = time.Now()

// gitlab is a mock GitLab and a client for it.
type gitlab struct {
	srv *mockserver.Server
	api *apiclient.Client
	url string
}

func newGitLab(t testing.TB, opts mockserver.Options, token string, clientOpts ...apiclient.Option) gitlab {
	t.Helper()
	srv, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, token, append([]apiclient.Option{apiclient.WithRetries(0, 0)}, clientOpts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return gitlab{srv: srv, api: c, url: ts.URL}
}

func demoGitLab(t testing.TB) gitlab {
	return newGitLab(t, mockserver.Options{}, mockserver.TokenMaintainer)
}

func (g gitlab) keyIDs(project int64) []int64 {
	var ids []int64
	for _, k := range g.srv.Keys(project) {
		ids = append(ids, k.ID)
	}
	return ids
}

// faultAPI passes every call to the mock server unless a failure was queued
// for it, and can hold a call until the test releases it.
type faultAPI struct {
	API
	mu    sync.Mutex
	errs  map[string][]error
	holds map[string]chan struct{}
	calls map[string]int
	// eventStatus, when set, is the answer to every test event.
	eventStatus int
}

func faulty(api API) *faultAPI {
	return &faultAPI{API: api, errs: map[string][]error{}, holds: map[string]chan struct{}{}, calls: map[string]int{}}
}

// fail makes the next call of method fail with err, before it reaches the server.
func (f *faultAPI) fail(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[method] = append(f.errs[method], err)
}

func (f *faultAPI) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

func (f *faultAPI) enter(method string) error {
	f.mu.Lock()
	f.calls[method]++
	hold := f.holds[method]
	var err error
	if q := f.errs[method]; len(q) > 0 {
		f.errs[method], err = q[1:], q[0]
	}
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	return err
}

func (f *faultAPI) CurrentUser(ctx context.Context) (*apiclient.User, *apiclient.Response, error) {
	if err := f.enter("CurrentUser"); err != nil {
		return nil, nil, err
	}
	return f.API.CurrentUser(ctx)
}

func (f *faultAPI) ListProjects(ctx context.Context, o apiclient.ListProjectsOptions) ([]apiclient.Project, *apiclient.Response, error) {
	if err := f.enter("ListProjects"); err != nil {
		return nil, nil, err
	}
	return f.API.ListProjects(ctx, o)
}

func (f *faultAPI) GetProject(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error) {
	if err := f.enter("GetProject"); err != nil {
		return nil, nil, err
	}
	return f.API.GetProject(ctx, p)
}

func (f *faultAPI) GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error) {
	if err := f.enter("GetSettings"); err != nil {
		return nil, nil, err
	}
	return f.API.GetSettings(ctx, p)
}

func (f *faultAPI) CountClientKeys(ctx context.Context, p apiclient.ProjectRef) (int, bool, error) {
	if err := f.enter("CountClientKeys"); err != nil {
		return 0, false, err
	}
	return f.API.CountClientKeys(ctx, p)
}

func (f *faultAPI) UpdateSettings(ctx context.Context, p apiclient.ProjectRef, active bool, integrated *bool) (*apiclient.Settings, *apiclient.Response, error) {
	if err := f.enter("UpdateSettings"); err != nil {
		return nil, nil, err
	}
	return f.API.UpdateSettings(ctx, p, active, integrated)
}

func (f *faultAPI) ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("ListClientKeys"); err != nil {
		return nil, nil, err
	}
	return f.API.ListClientKeys(ctx, p)
}

func (f *faultAPI) CreateClientKey(ctx context.Context, p apiclient.ProjectRef) (*apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("CreateClientKey"); err != nil {
		return nil, nil, err
	}
	return f.API.CreateClientKey(ctx, p)
}

func (f *faultAPI) DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("DeleteClientKey"); err != nil {
		return nil, nil, err
	}
	return f.API.DeleteClientKey(ctx, p, id)
}

func (f *faultAPI) UpdateVariableValue(ctx context.Context, p apiclient.ProjectRef, key, scope, value string) (*apiclient.Variable, *apiclient.Response, error) {
	if err := f.enter("UpdateVariableValue"); err != nil {
		return nil, nil, err
	}
	return f.API.UpdateVariableValue(ctx, p, key, scope, value)
}

// refuseEvents makes the ingestion endpoint's answer to test events status,
// as a backend that does not know the key would.
func (f *faultAPI) ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error) {
	if err := f.enter("ListVariables"); err != nil {
		return nil, nil, err
	}
	return f.API.ListVariables(ctx, p)
}

func (f *faultAPI) refuseEvents(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.eventStatus = status
}

func (f *faultAPI) SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error) {
	if err := f.enter("SendTestEvent"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	status := f.eventStatus
	f.mu.Unlock()
	if status != 0 {
		return &apiclient.DSNCheck{StatusCode: status, Message: "injected"}, nil
	}
	return f.API.SendTestEvent(ctx, dsn, message)
}

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

var errServer502 = &apiclient.APIError{StatusCode: 502, Kind: apiclient.ErrServer}

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
