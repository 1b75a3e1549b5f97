package apiclient

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// slowUser answers GET /user after delay.
func slowUser(delay time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
			jsonReply(w, 200, `{"id":1,"username":"slow"}`)
		case <-r.Context().Done():
		}
	}
}

// WithTimeout sets the bound of one exchange both ways: longer than the
// answer takes, the answer is read; shorter, the error names that bound.
func TestWithTimeoutBoundsOneExchange(t *testing.T) {
	c := setup(t, slowUser(300*time.Millisecond), WithTimeout(2*time.Second), WithRetries(0, 0))
	if u, _, err := c.CurrentUser(context.Background()); err != nil || u.Username != "slow" {
		t.Fatalf("a 300ms answer within a 2s exchange limit: %v, %v", u, err)
	}
	c = setup(t, slowUser(2*time.Second), WithTimeout(100*time.Millisecond), WithRetries(0, 0))
	start := time.Now()
	_, _, err := c.CurrentUser(context.Background())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrTimeout) || apiErr.ExchangeLimit != 100*time.Millisecond ||
		!strings.Contains(err.Error(), "no complete answer within 100ms") {
		t.Fatalf("err = %v (%+v)", err, apiErr)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("took %v", d)
	}
}

// The caller's deadline ending first is not the exchange limit: the error
// says the time allowed ran out and carries no ExchangeLimit, so a front
// end does not blame (or advise raising) the wrong bound.
func TestCallerDeadlineIsNotTheExchangeLimit(t *testing.T) {
	c := setup(t, slowUser(2*time.Second), WithTimeout(5*time.Second), WithRetries(0, 0))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, _, err := c.CurrentUser(ctx)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrTimeout) || apiErr.ExchangeLimit != 0 ||
		!strings.Contains(err.Error(), "the time allowed for this request ran out") {
		t.Fatalf("err = %v (%+v)", err, apiErr)
	}
}

// A timeout of the network's own (a dial's) is not "no complete answer
// within" the exchange limit, which did not fire.
func TestNetworkTimeoutIsNotTheExchangeLimit(t *testing.T) {
	dialTimeout := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	})
	c := setup(t, slowUser(0), WithHTTPClient(&http.Client{Transport: dialTimeout}), WithTimeout(time.Minute), WithRetries(0, 0))
	_, _, err := c.CurrentUser(context.Background())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrTimeout) || apiErr.ExchangeLimit != 0 ||
		strings.Contains(err.Error(), "no complete answer within") || !strings.Contains(err.Error(), "the connection timed out") {
		t.Fatalf("err = %v (%+v)", err, apiErr)
	}
}

// A DSN probe is one exchange under the same bound.
func TestProbeDSNWithinTheExchangeLimit(t *testing.T) {
	ts := httptest.NewServer(slowUser(2 * time.Second))
	t.Cleanup(ts.Close)
	c, err := New(ts.URL, fakeToken, WithTimeout(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	dsnText := strings.Replace(ts.URL, "http://", "http://public@", 1) + "/1"
	_, err = c.ProbeDSN(context.Background(), dsnText)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.ExchangeLimit != 100*time.Millisecond {
		t.Fatalf("err = %v (%+v)", err, apiErr)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
