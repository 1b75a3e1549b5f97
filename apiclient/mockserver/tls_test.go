package mockserver

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TLS: HTTPS with HTTP/2, a CA file the client can trust, removed on close.
func TestTLS(t *testing.T) {
	s, err := New(Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.URL, "https://127.0.0.1:") || r.CAFile == "" {
		t.Fatal(r.URL, r.CAFile)
	}
	client := tlsClient(t, r.CAFile)
	resp, err := client.Get(r.URL + "/api/v4/projects/1/error_tracking/client_keys?private_token=" + TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	var keys []map[string]any
	json.NewDecoder(resp.Body).Decode(&keys)
	resp.Body.Close()
	if resp.ProtoMajor != 2 || len(keys) != 2 || !strings.HasPrefix(keys[0]["errtracker_dsn"].(string), "https://glet_") {
		t.Fatalf("%s %v", resp.Proto, keys)
	}
	ca := r.CAFile
	r.Close(t.Context())
	if _, err := os.Stat(ca); err == nil {
		t.Fatal("the CA file outlived the server")
	}
}

// tlsClient trusts only the mock server's own certificate, as a user passing
// --ca-file would.
func tlsClient(t *testing.T, caFile string) *http.Client {
	t.Helper()
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("no certificate in %s", caFile)
	}
	return &http.Client{Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: pool},
		ForceAttemptHTTP2: true,
	}, Timeout: 10 * time.Second}
}
