package main

import (
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// A timed-out request's words name the bound that fired and advise a
// longer --timeout only where one would let the request finish.
func TestTimeoutWordsNameTheBoundThatFired(t *testing.T) {
	cut := func(limit time.Duration) error {
		return &apiclient.APIError{Kind: apiclient.ErrTimeout, Method: "GET", Path: "/api/v4/user", ExchangeLimit: limit,
			Message: "no complete answer within " + limit.String()}
	}
	network := &apiclient.APIError{Kind: apiclient.ErrTimeout, Method: "GET", Path: "/api/v4/user",
		Message: "the connection timed out: dial tcp 192.0.2.1:443: i/o timeout"}
	ranOut := &apiclient.APIError{Kind: apiclient.ErrTimeout, Method: "GET", Path: "/api/v4/user",
		Message: "the time allowed for this request ran out"}
	for _, tc := range []struct {
		name      string
		timeout   time.Duration
		left      time.Duration // until --timeout's bound ends
		err       error
		want, not string
	}{
		{"exchange limit under a longer --timeout", 5 * time.Minute, time.Minute, cut(30 * time.Second),
			"One answer may take at most 30s, whatever --timeout (5m0s) says, so a longer --timeout would not help.", "raise"},
		{"exchange limit with no --timeout", 0, 0, cut(30 * time.Second),
			"One answer may take at most 30s; a --timeout longer than that lets it take as long.", "ran out:"},
		{"--timeout ran out", time.Second, -time.Millisecond, ranOut,
			"--timeout (1s) ran out: for a slow server, raise it.", "One answer"},
		{"the network's own timeout", 5 * time.Minute, time.Minute, network,
			"Check your network", "--timeout"},
	} {
		a := newApp()
		a.timeout = tc.timeout
		if tc.timeout > 0 {
			a.deadlineAt = time.Now().Add(tc.left)
		}
		got := a.explain(tc.err, "run the command again")
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
			t.Errorf("%s: %q\nwant %q, without %q", tc.name, got, tc.want, tc.not)
		}
	}
}
