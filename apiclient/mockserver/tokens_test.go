package mockserver

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rotateDirect runs the rotation endpoint itself for raw, as a request that
// passed authentication does.
func rotateDirect(s *Server, raw string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/api/v4/personal_access_tokens/self/rotate", nil)
	r.Header.Set("PRIVATE-TOKEN", raw)
	s.rotateToken(&call{w: w, r: r, method: "POST", segs: []string{"personal_access_tokens", "self", "rotate"}, params: map[string]param{}})
	return w
}

// Two rotations of one token that both passed authentication (sent at
// once): the second finds the token rotated, which is reuse, so the whole
// family goes, the first's new token included; never two live tokens.
func TestConcurrentRotationIsReuse(t *testing.T) {
	s, _ := New(Options{})
	first := rotateDirect(s, TokenMaintainer)
	var got struct{ Token string }
	if first.Code != 200 || json.Unmarshal(first.Body.Bytes(), &got) != nil {
		t.Fatalf("first: %d %s", first.Code, first.Body)
	}
	second := rotateDirect(s, TokenMaintainer)
	if second.Code != 401 || !strings.Contains(second.Body.String(), "revoked") {
		t.Fatalf("second: %d %s", second.Code, second.Body)
	}
	if tok, _ := s.Token(got.Token); !tok.Revoked {
		t.Fatal("the first rotation's token survived the reuse")
	}
	live := 0
	s.mu.RLock()
	for raw, tok := range s.st.Tokens {
		if tok.UserID == 1 && tok.Name == "demo" && !tok.Revoked {
			live++
			t.Logf("live: %s", raw)
		}
	}
	s.mu.RUnlock()
	if live != 0 {
		t.Fatalf("%d live tokens of the family", live)
	}
}

// A rotation is kept in --state: after a restart the old token is revoked,
// the new one works, and reusing the old one still revokes the new one.
func TestRotationPersists(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	_, ts := newTest(t, Options{StatePath: state})
	r := do(t, ts, "POST", "/api/v4/personal_access_tokens/self/rotate", TokenMaintainer)
	var got struct{ Token string }
	if r.status != 200 || json.Unmarshal([]byte(r.body), &got) != nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
	_, ts2 := newTest(t, Options{StatePath: state})
	if r := do(t, ts2, "GET", "/api/v4/user", TokenMaintainer); r.status != 401 {
		t.Fatalf("old token after a restart: %d", r.status)
	}
	if r := do(t, ts2, "GET", "/api/v4/user", got.Token); r.status != 200 {
		t.Fatalf("new token after a restart: %d", r.status)
	}
	do(t, ts2, "POST", "/api/v4/personal_access_tokens/self/rotate", TokenMaintainer)
	_, ts3 := newTest(t, Options{StatePath: state})
	if r := do(t, ts3, "GET", "/api/v4/user", got.Token); r.status != 401 {
		t.Fatalf("the family's revocation was not kept: %d", r.status)
	}
}

// A token with only the self_rotate scope may rotate itself and nothing else.
func TestSelfRotateScope(t *testing.T) {
	s, ts := newTest(t, Options{})
	s.mu.Lock()
	s.st.Tokens["self-rotate-token"] = Token{ID: 99, Name: "rotator", UserID: 1, Scopes: []string{"self_rotate"}}
	s.mu.Unlock()
	if r := do(t, ts, "GET", settings1, "self-rotate-token"); r.status != 403 || !strings.Contains(r.body, "insufficient_scope") {
		t.Fatalf("settings: %d %s", r.status, r.body)
	}
	r := do(t, ts, "POST", "/api/v4/personal_access_tokens/self/rotate", "self-rotate-token")
	if r.status != 200 || !strings.Contains(r.body, `"scopes":["self_rotate"]`) {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "POST", "/api/v4/personal_access_tokens/self/rotate", TokenReadOnly); r.status != 403 || !strings.Contains(r.body, `"scope":"api self_rotate"`) {
		t.Fatalf("read_api: %d %s", r.status, r.body)
	}
}

// §13: rotating the token in use: a new token, the old one revoked; a
// rotated token used again revokes the whole family.
func TestTokenRotation(t *testing.T) {
	s, ts := newTest(t, Options{})
	rot := "/api/v4/personal_access_tokens/self/rotate"
	exp := time.Now().UTC().AddDate(0, 0, 30).Format(time.DateOnly)
	r := do(t, ts, "POST", rot, TokenMaintainer, "Content-Type", "application/json", "body", `{"expires_at":"`+exp+`"}`)
	var got struct {
		Token     string   `json:"token"`
		ExpiresAt string   `json:"expires_at"`
		Scopes    []string `json:"scopes"`
	}
	if json.Unmarshal([]byte(r.body), &got); r.status != 200 || got.Token == "" || got.ExpiresAt != exp || len(got.Scopes) != 1 || got.Scopes[0] != "api" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/api/v4/user", TokenMaintainer); r.status != 401 || !strings.Contains(r.body, "revoked") {
		t.Fatalf("old token: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/api/v4/user", got.Token); r.status != 200 {
		t.Fatalf("new token: %d", r.status)
	}
	// A week by default.
	r2 := do(t, ts, "POST", rot, got.Token)
	var second struct {
		Token     string `json:"token"`
		ExpiresAt string `json:"expires_at"`
	}
	json.Unmarshal([]byte(r2.body), &second)
	if second.ExpiresAt != time.Now().UTC().AddDate(0, 0, 7).Format(time.DateOnly) {
		t.Fatalf("default expiry %s", second.ExpiresAt)
	}
	// Reuse: the first token rotated again revokes its successors.
	if r := do(t, ts, "POST", rot, TokenMaintainer); r.status != 401 {
		t.Fatalf("reuse: %d", r.status)
	}
	for _, tok := range []string{got.Token, second.Token} {
		if tt, _ := s.Token(tok); !tt.Revoked {
			t.Fatalf("%s survived the reuse", tok)
		}
	}
	if r := do(t, ts, "POST", rot, TokenReadOnly); r.status != 403 {
		t.Fatalf("read_api: %d", r.status)
	}
	if r := do(t, ts, "POST", rot, TokenExpiring, "Content-Type", "application/json", "body", `{"expires_at":"2099-01-01"}`); r.status != 400 {
		t.Fatalf("beyond a year: %d", r.status)
	}
}
