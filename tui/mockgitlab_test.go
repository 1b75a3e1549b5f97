package tui

import (
	"net/http/httptest"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// gitlab is a mock GitLab and a client for it.
type gitlab struct {
	srv *mockserver.Server
	api *apiclient.Client
	url string
}

func newGitLab(t testing.TB, opts mockserver.Options, token string, clientOpts ...apiclient.Option) gitlab {
	t.Helper()
	srv, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, token, append([]apiclient.Option{apiclienttest.WithRetries(0, 0)}, clientOpts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return gitlab{srv: srv, api: c, url: ts.URL}
}

func demoGitLab(t testing.TB) gitlab {
	return newGitLab(t, mockserver.Options{}, mockserver.TokenMaintainer)
}

func (g gitlab) keyIDs(project int64) []int64 {
	var ids []int64
	for _, k := range g.srv.Keys(project) {
		ids = append(ids, k.ID)
	}
	return ids
}

var errServer502 = &apiclient.APIError{StatusCode: 502, Kind: apiclient.ErrServer}
