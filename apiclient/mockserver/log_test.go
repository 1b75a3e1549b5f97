package mockserver

import (
	"crypto/tls"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// syncBuilder is a log the test reads while the server writes it.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// overlapLog records whether two writes were ever in progress at once.
type overlapLog struct {
	syncBuilder
	inFlight atomic.Int32
	overlap  atomic.Bool
}

func (o *overlapLog) Write(p []byte) (int, error) {
	if o.inFlight.Add(1) > 1 {
		o.overlap.Store(true)
	}
	defer o.inFlight.Add(-1)
	time.Sleep(2 * time.Millisecond) // a slow terminal
	return o.syncBuilder.Write(p)
}

// The HTTP server's own messages (a client refusing the certificate) and
// the request lines reach --log one at a time: a plain writer, as stderr
// is, is never written from two goroutines at once.
func TestLogWritesSerialised(t *testing.T) {
	log := &overlapLog{}
	s, _ := New(Options{TLS: true, Log: log})
	r := started(t, s, "127.0.0.1:0")
	good := tlsClient(t, r.CAFile)
	untrusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{}}, Timeout: 5 * time.Second}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if resp, err := good.Get(r.URL + "/api/v4/version?private_token=" + TokenMaintainer); err == nil {
				resp.Body.Close()
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := untrusting.Get(r.URL + "/api/v4/version"); err == nil {
				t.Error("a client without the CA connected")
			}
		}()
	}
	wg.Wait()
	if err := r.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	out := log.String()
	if log.overlap.Load() || !strings.Contains(out, "TLS handshake error") || strings.Count(out, "GET    /api/v4/version") != 20 || !strings.Contains(out, "HTTP/2.0") {
		t.Fatalf("overlapping writes %v, log:\n%s", log.overlap.Load(), out)
	}
}

// A client that leaves during --latency is logged as canceled, not with
// a status it never got.
func TestLogCanceled(t *testing.T) {
	log := &syncBuilder{}
	s, _ := New(Options{Latency: 2 * time.Second, Log: log})
	r := started(t, s, "127.0.0.1:0")
	c := &http.Client{Timeout: 100 * time.Millisecond}
	if _, err := c.Get(r.URL + "/api/v4/version"); err == nil {
		t.Fatal("answered within the latency")
	}
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && log.String() == ""; {
		time.Sleep(10 * time.Millisecond)
	}
	if line := log.String(); !strings.Contains(line, "/api/v4/version canceled ") || strings.Contains(line, " 200 ") {
		t.Fatalf("log %q", line)
	}
}

// No token reaches the log, whichever query parameter carries it.
func TestLogRedactsEveryTokenParameter(t *testing.T) {
	log := &syncBuilder{}
	_, ts := newTest(t, Options{Log: log})
	for _, name := range []string{"private_token", "access_token", "bearer_token"} {
		do(t, ts, "GET", settings1+"?per_page=5&"+name+"="+TokenMaintainer, "")
	}
	do(t, ts, "POST", "/errortracking/api/v1/projects/api/1/envelope?sentry_key=glet_0123456789abcdef0123456789abcdef", "")
	out := log.String()
	if strings.Contains(out, TokenMaintainer) || strings.Contains(out, "glet_0123") || strings.Count(out, "=%5Bredacted%5D") != 4 || !strings.Contains(out, "per_page=5") {
		t.Fatalf("log:\n%s", out)
	}
}

// An accepted event is counted on its log line.
func TestLogCountsEvents(t *testing.T) {
	log := &syncBuilder{}
	s, ts := newTest(t, Options{Log: log})
	key := s.Keys(1)[0].PublicKey
	send(t, ts, envelopePath, key, anEnvelope, false)
	send(t, ts, envelopePath, key, anEnvelope, false)
	if out := log.String(); !strings.Contains(out, "/errortracking/api/v1/projects/api/1/envelope 200 ") || !strings.Contains(out, "(event 2 for project 1)") {
		t.Fatalf("log:\n%s", out)
	}
}

// --log: one line per request, without tokens.
func TestLog(t *testing.T) {
	var log strings.Builder
	_, ts := newTest(t, Options{Log: &log})
	do(t, ts, "GET", settings1+"?private_token="+TokenMaintainer, "")
	line := log.String()
	for _, want := range []string{"GET", "/api/v4/projects/1/error_tracking/settings?private_token=%5Bredacted%5D", " 200 ", "HTTP/1.1"} {
		if !strings.Contains(line, want) {
			t.Fatalf("log %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, TokenMaintainer) {
		t.Fatal("token logged")
	}
}
