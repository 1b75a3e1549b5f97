package tui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient"
)

// fakeAPI is an in-memory GitLab for screen tests: fixed data, injectable errors.
type fakeAPI struct {
	mu       sync.Mutex
	user     apiclient.User
	token    *apiclient.TokenInfo
	projects []apiclient.Project
	settings map[int64]*apiclient.Settings
	keys     map[int64][]apiclient.ClientKey
	nextKey  int64
	// errs makes the named method fail once per entry, in order.
	errs  map[string][]error
	calls map[string]int
	// searches records ListProjects search terms.
	searches []string
}

func newFakeAPI() *fakeAPI {
	str := func(s string) *string { return &s }
	f := &fakeAPI{
		user:  apiclient.User{ID: 1, Username: "alice", Name: "Alice"},
		token: &apiclient.TokenInfo{Scopes: []string{"api"}, ExpiresAt: "2027-06-01"},
		projects: []apiclient.Project{
			{ID: 1, Name: "Web Shop", PathWithNamespace: "demo/web-shop"},
			{ID: 2, Name: "Mobile App", PathWithNamespace: "demo/mobile-app"},
			{ID: 3, Name: "Legacy API", PathWithNamespace: "demo/legacy-api"},
		},
		settings: map[int64]*apiclient.Settings{
			1: {Active: true, Integrated: true},
			3: {Active: true, Integrated: false, ProjectName: str("Legacy API"), ExternalURL: str("https://sentry.example.com/demo/legacy-api/"), APIURL: str("https://sentry.example.com/api/0/projects/demo/legacy-api/")},
		},
		keys: map[int64][]apiclient.ClientKey{
			1: {fakeKey(1, 1), fakeKey(1, 2)},
		},
		nextKey: 2,
		errs:    map[string][]error{},
		calls:   map[string]int{},
	}
	return f
}

func fakeKey(project, id int64) apiclient.ClientKey {
	pk := fmt.Sprintf("glet_%032x", id)
	return apiclient.ClientKey{ID: id, Active: true, PublicKey: pk,
		DSN: fmt.Sprintf("https://%s@errors.example.com:443/errortracking/api/v1/projects/%d", pk, project)}
}

func (f *fakeAPI) fail(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[method] = append(f.errs[method], err)
}

func (f *fakeAPI) enter(method string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[method]++
	if q := f.errs[method]; len(q) > 0 {
		f.errs[method] = q[1:]
		return q[0]
	}
	return nil
}

func (f *fakeAPI) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

func (f *fakeAPI) CurrentUser(context.Context) (*apiclient.User, *apiclient.Response, error) {
	if err := f.enter("CurrentUser"); err != nil {
		return nil, nil, err
	}
	u := f.user
	return &u, nil, nil
}

func (f *fakeAPI) TokenInfo(context.Context) (*apiclient.TokenInfo, *apiclient.Response, error) {
	if err := f.enter("TokenInfo"); err != nil {
		return nil, nil, err
	}
	return f.token, nil, nil
}

func (f *fakeAPI) ListProjects(_ context.Context, opt apiclient.ListProjectsOptions) ([]apiclient.Project, *apiclient.Response, error) {
	if err := f.enter("ListProjects"); err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var all []apiclient.Project
	for _, p := range f.projects {
		if opt.Search == "" || strings.Contains(strings.ToLower(p.PathWithNamespace), strings.ToLower(opt.Search)) {
			all = append(all, p)
		}
	}
	if opt.Search != "" {
		f.searches = append(f.searches, opt.Search)
	}
	per := opt.PerPage
	if per == 0 {
		per = 100
	}
	page := max(opt.Page, 1)
	start := min((page-1)*per, len(all))
	end := min(start+per, len(all))
	resp := &apiclient.Response{Page: page, PerPage: per}
	if end < len(all) {
		resp.NextPage = page + 1
	}
	return all[start:end], resp, nil
}

func (f *fakeAPI) GetSettings(_ context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error) {
	if err := f.enter("GetSettings"); err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.settings[p.ID]
	if !ok {
		return nil, nil, &apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrSettingsNotFound, Message: "404 Error Tracking Setting Not Found"}
	}
	c := *s
	return &c, nil, nil
}

func (f *fakeAPI) CreateSettings(_ context.Context, p apiclient.ProjectRef, active, integrated bool) (*apiclient.Settings, *apiclient.Response, error) {
	if err := f.enter("CreateSettings"); err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.settings[p.ID] = &apiclient.Settings{Active: active, Integrated: integrated}
	c := *f.settings[p.ID]
	return &c, nil, nil
}

func (f *fakeAPI) UpdateSettings(_ context.Context, p apiclient.ProjectRef, active bool, integrated *bool) (*apiclient.Settings, *apiclient.Response, error) {
	if err := f.enter("UpdateSettings"); err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.settings[p.ID]
	s.Active = active
	if integrated != nil {
		s.Integrated = *integrated
	}
	c := *s
	return &c, nil, nil
}

func (f *fakeAPI) ListClientKeys(_ context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("ListClientKeys"); err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiclient.ClientKey(nil), f.keys[p.ID]...), nil, nil
}

func (f *fakeAPI) CreateClientKey(_ context.Context, p apiclient.ProjectRef) (*apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("CreateClientKey"); err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextKey++
	k := fakeKey(p.ID, f.nextKey)
	f.keys[p.ID] = append(f.keys[p.ID], k)
	return &k, nil, nil
}

func (f *fakeAPI) DeleteClientKey(_ context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("DeleteClientKey"); err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, k := range f.keys[p.ID] {
		if k.ID == id {
			f.keys[p.ID] = append(f.keys[p.ID][:i:i], f.keys[p.ID][i+1:]...)
			return &k, nil, nil
		}
	}
	return nil, nil, &apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrKeyNotFound, Message: "404 Not found"}
}

func (f *fakeAPI) keyIDs(project int64) []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []int64
	for _, k := range f.keys[project] {
		ids = append(ids, k.ID)
	}
	return ids
}

// harness drives a root Model synchronously: it runs the commands Update
// returns and feeds their messages back, skipping timers and animations.
type harness struct {
	t    testing.TB
	m    Model
	sent []tea.Msg // every message a command produced, for assertions
}

func init() {
	// Timers (status expiry, search debounce) never fire by themselves in tests.
	after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
}

func newHarness(t testing.TB, deps Deps) *harness {
	t.Helper()
	if deps.Host == "" {
		deps.Host = "https://gitlab.example.com"
	}
	if deps.Now == nil {
		deps.Now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	}
	h := &harness{t: t, m: New(deps)}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(h.m.Init())
	return h
}

// send delivers msg and everything its commands produce.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	next, cmd := h.m.Update(msg)
	h.m = next.(Model)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	for _, msg := range h.collect(cmd, 0) {
		h.send(msg)
	}
}

// collect executes cmd, expanding batches, and drops the messages of
// animations and terminal queries, which need a real program.
func (h *harness) collect(cmd tea.Cmd, depth int) []tea.Msg {
	if cmd == nil || depth > 20 {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(100 * time.Millisecond):
		return nil // a timer or blink: not part of the flow under test
	}
	if msg == nil {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, h.collect(c, depth+1)...)
		}
		return out
	}
	name := reflect.TypeOf(msg).String()
	h.sent = append(h.sent, msg)
	if strings.Contains(name, "TickMsg") || strings.Contains(name, "Blink") || strings.Contains(name, "Clipboard") || strings.Contains(name, "backgroundColor") || strings.HasPrefix(name, "tea.") {
		return nil
	}
	return []tea.Msg{msg}
}

func (h *harness) key(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

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

// quitRequested reports whether a command returned tea.Quit.
func (h *harness) sentType(name string) bool {
	for _, m := range h.sent {
		if strings.Contains(reflect.TypeOf(m).String(), name) {
			return true
		}
	}
	return false
}

var errServer502 = &apiclient.APIError{StatusCode: 502, Kind: apiclient.ErrServer}
