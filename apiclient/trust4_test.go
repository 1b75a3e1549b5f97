package apiclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// Rack turns every dash and underscore of a header's name into an
// underscore (HTTP_PRIVATE_TOKEN): Private_Token is PRIVATE-TOKEN to
// GitLab, and is refused as it is, in any case.
func TestCheckHeaderUnderscores(t *testing.T) {
	sent := false
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sent = true }))
	defer ts.Close()
	c, err := New(ts.URL, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Private_Token", "PRIVATE_TOKEN", "private_token", "Job_Token", "Proxy_Authorization", "Content_Length", "Transfer_Encoding"} {
		if err := CheckHeader(name, "x"); !errors.Is(err, ErrValidation) {
			t.Errorf("%s accepted: %v", name, err)
		}
		if _, _, err := c.RawCall(context.Background(), RawRequest{Path: "user", Header: http.Header{name: {"x"}}}); !errors.Is(err, ErrValidation) {
			t.Errorf("%s sent: %v", name, err)
		}
	}
	if sent {
		t.Fatal("a refused header's request was sent")
	}
	if err := CheckHeader("X_Custom", "x"); err != nil {
		t.Fatalf("an ordinary underscore name refused: %v", err)
	}
}
