package mockserver

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// X-Page echoes the page asked for, however large, on an empty page.
func TestHugePageEchoed(t *testing.T) {
	_, ts := newTest(t, Options{})
	for _, page := range []string{"9223372036854775807", "99999999999999999999999", "0099"} {
		r := do(t, ts, "GET", keys1+"?page="+page, TokenMaintainer)
		want := strings.TrimLeft(page, "0")
		if r.status != 200 || r.body != "[]" || r.header.Get("X-Page") != want || r.header.Get("X-Prev-Page") != "" {
			t.Errorf("page=%s: %d %s X-Page %q", page, r.status, r.body, r.header.Get("X-Page"))
		}
	}
}

// A state file whose name holds glob characters still gets its dead
// writers' temporary files removed, and only those.
func TestStaleTempsOfAGlobLikeName(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state[1].json")
	dead := filepath.Join(dir, tempPattern(state)+"999999999-1")
	lookalike := filepath.Join(dir, tempPattern(filepath.Join(dir, "state1.json"))+"999999999-1")
	for _, f := range []string{dead, lookalike} {
		if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := New(Options{StatePath: state}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("a dead writer's temporary file was kept")
	}
	if _, err := os.Stat(lookalike); err != nil {
		t.Error("another state file's temporary file was removed")
	}
}

// started starts s on loopback with short timeouts and stops it with the test.
func started(t *testing.T, s *Server, addr string) *Running {
	t.Helper()
	r, err := s.Start(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(context.Background()) })
	return r
}

// --latency longer than the read timeout still answers a request with a
// body (larger than what arrives with the headers): the body is read
// before the delay, not after it.
func TestLatencyLongerThanReadTimeout(t *testing.T) {
	s, _ := New(Options{Latency: 300 * time.Millisecond})
	s.timeouts.read = 100 * time.Millisecond
	r := started(t, s, "127.0.0.1:0")
	body := `{"active":false,"pad":"` + strings.Repeat("x", 256<<10) + `"}`
	req, _ := http.NewRequest("PATCH", r.URL+settings1, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"active":false`) {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
}

// A client that connects and never sends its request is cut off.
func TestSilentClientCutOff(t *testing.T) {
	s, _ := New(Options{})
	s.timeouts.readHeader = 100 * time.Millisecond
	r := started(t, s, "127.0.0.1:0")
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	if _, err := conn.Read(make([]byte, 1)); err == nil || time.Since(start) > 4*time.Second {
		t.Fatalf("connection still open after %v (%v)", time.Since(start), err)
	}
}

// A body above the limit is refused, not cut short and misread.
func TestBodyTooLarge(t *testing.T) {
	_, ts := newTest(t, Options{})
	big := `{"active":true,"pad":"` + strings.Repeat("x", 1<<20) + `"}`
	r := do(t, ts, "PATCH", settings1, TokenMaintainer, "Content-Type", "application/json", "body", big)
	if r.status != 413 || r.body != `{"error":"413 Request Entity Too Large"}` {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

// One server on two listeners: each DSN names the address it was asked on.
func TestDSNNamesTheListenerAsked(t *testing.T) {
	s, _ := New(Options{})
	for _, r := range []*Running{started(t, s, "127.0.0.1:0"), started(t, s, "127.0.0.1:0")} {
		resp, err := http.Get(r.URL + keys1 + "?private_token=" + TokenMaintainer)
		if err != nil {
			t.Fatal(err)
		}
		var keys []struct {
			DSN string `json:"errtracker_dsn"`
		}
		json.NewDecoder(resp.Body).Decode(&keys)
		resp.Body.Close()
		if len(keys) == 0 || !strings.Contains(keys[0].DSN, "@"+strings.TrimPrefix(r.URL, "http://")+"/") {
			t.Fatalf("%s: %v", r.URL, keys)
		}
	}
}

// --tls on a specific address: the certificate covers it, so the URL
// printed works with the CA file.
func TestTLSOnAnotherLoopbackAddress(t *testing.T) {
	s, _ := New(Options{TLS: true})
	r := started(t, s, "127.0.0.2:0")
	resp, err := tlsClient(t, r.CAFile).Get(r.URL + "/api/v4/version?private_token=" + TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
}

// Closing twice (a deferred Close after an explicit one) returns at once.
func TestCloseTwice(t *testing.T) {
	s, _ := New(Options{})
	r, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.Close(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Close(context.Background()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second Close did not return")
	}
}

// A write the state file cannot keep (a full disk, a folder gone) is not
// acknowledged: the client gets a 500, not a 201 the next start forgets.
func TestUnsavedWriteIsNotAcknowledged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	_, ts := newTest(t, Options{StatePath: filepath.Join(dir, "gitlab.json")})
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/v4/projects/1/error_tracking/client_keys", nil)
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d for a create that was not saved", resp.StatusCode)
	}
}
