package apiclient

import (
	"net/http"
)

// The token header is a RoundTripper around an http.Transport (Go's, or
// a test's, WithHTTPClient), as in go-github's and gh's clients: added
// only to the client's API requests for its own scheme and host. The host's
// pace and the retries stay in Client.do, outside the http.Client: a wait
// for a rate limit's reset may be longer than an exchange's timeout, and
// whether a request may be sent twice is known there.

// tokenTransport adds the credential header (PRIVATE-TOKEN, or a dialect's:
// Authorization: Bearer for Sentry) to the client's API requests, for the
// client's host only: a request anywhere else (a redirect, whatever let it
// through) goes without, and so does a test event to a DSN's ingestion
// endpoint on the same host (it authenticates with the DSN's key).
type tokenTransport struct {
	base          http.RoundTripper
	header, value string // the header and its value; value empty: no token
	scheme, host  string
}

// apiCall marks a request's context as one of the client's API calls.
type apiCall struct{}

func (t *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.value == "" || req.URL.Scheme != t.scheme || req.URL.Host != t.host || req.Context().Value(apiCall{}) == nil {
		return t.base.RoundTrip(req)
	}
	r := req.Clone(req.Context()) // a RoundTripper must not change the request it is given
	r.Header.Set(t.header, t.value)
	return t.base.RoundTrip(r)
}
