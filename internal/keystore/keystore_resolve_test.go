package keystore

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// failingSettings answers the settings 500, as a GitLab in trouble would.
type failingSettings struct{ *apiclient.Client }

func (failingSettings) GetSettings(context.Context, apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error) {
	return nil, nil, &apiclient.APIError{Method: http.MethodGet, StatusCode: 500, Kind: apiclient.ErrServer, Message: "500 Internal Server Error"}
}

// A project whose settings cannot be read may be Sentry-backed: its keys'
// listing fails, naming the settings, rather than showing GitLab's keys as
// the project's.
func TestKeysOfFailsClosedOnUnreadSettings(t *testing.T) {
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(context.Context, string) (KeyStore, error) { t.Fatal("resolved a Sentry"); return nil, nil }
	store, keys, err := KeysOf(context.Background(), failingSettings{c}, apiclient.ProjectID(3), resolve)
	if !errors.Is(err, apiclient.ErrServer) || store != nil || keys != nil {
		t.Fatalf("%v, %v, %v", store, keys, err)
	}
	// No settings at all: GitLab's keys are the project's.
	if store, _, err := KeysOf(context.Background(), c, apiclient.ProjectID(4), resolve); err != nil || store.Backend() != BackendGitLab {
		t.Fatalf("%v: %v", err, store)
	}
}
