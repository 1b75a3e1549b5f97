package mockserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestStatePersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s1, ts1 := newTest(t, Options{StatePath: path})
	do(t, ts1, "POST", keys1, TokenMaintainer)
	do(t, ts1, "DELETE", keys1+"/1", TokenMaintainer)
	want := s1.Keys(1)
	s2, err := New(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	got := s2.Keys(1)
	if len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
		t.Fatalf("reloaded %v, want %v", got, want)
	}
	if err := os.WriteFile(path, []byte("{half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{StatePath: path}); err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Fatalf("corrupt state: %v", err)
	}
}

// Start-up removes the temporary files a killed server of the same state
// file left, and only those: another live server's stay.
func TestStaleTempsOnlyOurs(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	dead := filepath.Join(dir, tempPattern(state)+"999999999-1")                   // no such process
	live := filepath.Join(dir, tempPattern(state)+strconv.Itoa(os.Getppid())+"-1") // a running process
	other := filepath.Join(dir, tempPattern(filepath.Join(dir, "other.json"))+"999999999-1")
	for _, f := range []string{dead, live, other} {
		os.WriteFile(f, []byte("{}"), 0o600)
	}
	if _, err := New(Options{StatePath: state}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Fatal("a dead server's temporary file was kept")
	}
	for _, f := range []string{live, other} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s was removed: another server's acknowledged writes would be lost", filepath.Base(f))
		}
	}
}

func post(t testing.TB, s http.Handler, method, path, body string) int {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Code
}

// snapshot is what the API says of the state the journal must keep.
func snapshot(t *testing.T, s *Server) string {
	t.Helper()
	var b strings.Builder
	for _, path := range []string{
		"/api/v4/projects/1/error_tracking/client_keys", "/api/v4/projects/5/error_tracking/settings",
		"/api/v4/projects/2/variables", "/api/v4/groups/fleet/variables", "/api/v4/projects/2001/error_tracking/client_keys",
	} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
		req.Host = "gitlab.test"
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		b.WriteString(path + " " + rec.Body.String() + "\n")
	}
	return b.String()
}

// Each write is one record appended to the journal (the state file is not
// rewritten); a restart replays them: keys created and deleted, settings,
// project and group variables come back as they were.
func TestStateJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gitlab.json")
	s, err := New(Options{StatePath: path, ScaleGroup: 1})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := os.ReadFile(path)
	for _, w := range []struct{ method, path, body string }{
		{"POST", "/api/v4/projects/1/error_tracking/client_keys", ""},
		{"DELETE", "/api/v4/projects/1/error_tracking/client_keys/2", ""},
		{"PATCH", "/api/v4/projects/5/error_tracking/settings", `{"active":true}`},
		{"POST", "/api/v4/projects/2/variables", `{"key":"RELEASE","value":"1.2.3"}`},
		{"POST", "/api/v4/groups/fleet/variables", `{"key":"FLEET_RELEASE","value":"7"}`},
		{"POST", "/api/v4/projects/2001/error_tracking/client_keys", ""},
	} {
		if code := post(t, s, w.method, w.path, w.body); code >= 300 {
			t.Fatalf("%s %s: %d", w.method, w.path, code)
		}
	}
	if now, _ := os.ReadFile(path); string(now) != string(base) {
		t.Fatal("the state file was rewritten for a write")
	}
	j, err := os.ReadFile(journalPath(path))
	if err != nil || strings.Count(string(j), "\n") != 6 {
		t.Fatalf("journal: %v\n%s", err, j)
	}
	want := snapshot(t, s)
	again, err := New(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, again); got != want {
		t.Fatalf("after a restart:\n%s\nwant:\n%s", got, want)
	}
	// A write after the restart is not taken for one the file holds.
	if code := post(t, again, "POST", "/api/v4/projects/1/error_tracking/client_keys", ""); code != 201 {
		t.Fatal(code)
	}
	want = snapshot(t, again)
	third, err := New(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, third); got != want {
		t.Fatalf("after a second restart:\n%s\nwant:\n%s", got, want)
	}
}

// A last record cut short by a crash is ignored (its write was never
// acknowledged); a broken record before others is reported.
func TestStateJournalTornAndBroken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gitlab.json")
	s, _ := New(Options{StatePath: path})
	post(t, s, "POST", "/api/v4/projects/1/error_tracking/client_keys", "")
	want := snapshot(t, s)
	f, _ := os.OpenFile(journalPath(path), os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString(`{"v":99,"next_key_id":9,"project":{"meta":{"id":1`)
	f.Close()
	again, err := New(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, again); got != want {
		t.Fatalf("a torn record changed the state:\n%s", got)
	}
	os.WriteFile(journalPath(path), []byte("not json\n{\"v\":1}\n"), 0o600)
	if _, err := New(Options{StatePath: path}); err == nil || !strings.Contains(err.Error(), "journal") {
		t.Fatalf("a broken journal was accepted: %v", err)
	}
}

// Past maxJournal records the state file is rewritten whole and the
// journal emptied; the result reloads the same.
func TestStateJournalCompacts(t *testing.T) {
	old := maxJournal
	maxJournal = 3
	t.Cleanup(func() { maxJournal = old })
	path := filepath.Join(t.TempDir(), "gitlab.json")
	s, _ := New(Options{StatePath: path})
	for range 5 {
		if code := post(t, s, "POST", "/api/v4/projects/1/error_tracking/client_keys", ""); code != 201 {
			t.Fatal(code)
		}
	}
	var st state
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &st); err != nil || st.Version < 4 {
		t.Fatalf("the state file was not compacted: version %d, %v", st.Version, err)
	}
	if j, _ := os.ReadFile(journalPath(path)); strings.Count(string(j), "\n") >= 3 {
		t.Fatalf("the journal was not emptied: %s", j)
	}
	want := snapshot(t, s)
	again, err := New(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, again); got != want {
		t.Fatalf("after compaction and a restart:\n%s\nwant:\n%s", got, want)
	}
}

// BenchmarkStateCreateKey100k creates a key on a project of 100,000 keys
// with --state: one journal record, synced, where the whole state was
// rewritten (23 ms a create).
func BenchmarkStateCreateKey100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "gitlab.json")
	s, err := New(Options{StatePath: path, ScaleKeys: 99998})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := post(b, s, "POST", "/api/v4/projects/1/error_tracking/client_keys", ""); code != 201 {
			b.Fatal(code)
		}
	}
}
