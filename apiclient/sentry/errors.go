package sentry

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
)

// Sentinels for errors.Is. Where a class means what it means for GitLab the
// value is apiclient's, so words chosen for apiclient's errors fit these.
var (
	ErrUnauthorized      = apiclient.ErrUnauthorized
	ErrTokenExpired      = apiclient.ErrTokenExpired
	ErrForbidden         = apiclient.ErrForbidden
	ErrInsufficientScope = apiclient.ErrInsufficientScope
	ErrNotFound          = apiclient.ErrNotFound
	ErrProjectNotFound   = apiclient.ErrProjectNotFound
	ErrKeyNotFound       = apiclient.ErrKeyNotFound
	// ErrOrganizationNotFound: the organisation, or the caller's access to it.
	ErrOrganizationNotFound = errors.New("organization not found in Sentry")
	ErrTeamNotFound         = errors.New("team not found in Sentry")
	ErrValidation           = apiclient.ErrValidation
	// ErrConflict: 409, a project with that slug exists.
	ErrConflict    = errors.New("already exists")
	ErrRateLimited = apiclient.ErrRateLimited
	ErrServer      = apiclient.ErrServer
	ErrBadResponse = apiclient.ErrBadResponse
	// ErrNotApplied: the server answered 2xx but the object it returned
	// does not hold the change asked for (Sentry ignores rateLimit where
	// the projects:rate-limits feature is off, and an empty name).
	ErrNotApplied = errors.New("the server did not apply the change")
	// ErrBadAPIURL: a GitLab settings api_url errtrack cannot use.
	ErrBadAPIURL = errors.New("not a usable Sentry project API URL")
	// ErrNoToken: no Sentry token for that host (see Tokens).
	ErrNoToken = errors.New("no Sentry token for this host")
	// ErrProjectMoved: the project was renamed (Sentry's ProjectMoved, a
	// 302 to its new slug); a write is not sent again there. The Error's
	// Moved names the slugs.
	ErrProjectMoved = errors.New("the Sentry project was renamed")
	// ErrOrgLimitedRoute: a user token limited to one organisation, on a
	// route without an organisation in its URL (401 "This token access is
	// limited to organization endpoints."): the token is valid there.
	ErrOrgLimitedRoute = errors.New("the token is limited to one organization's routes")
	// ErrOtherOrganization: such a token on another organisation's route
	// (401 "Unauthorized organization access.").
	ErrOtherOrganization = errors.New("the token is limited to another organization")

	// Failures with no answer are apiclient's, unchanged.
	ErrNetwork         = apiclient.ErrNetwork
	ErrTimeout         = apiclient.ErrTimeout
	ErrTLS             = apiclient.ErrTLS
	ErrCanceled        = apiclient.ErrCanceled
	ErrInsecureURL     = apiclient.ErrInsecureURL
	ErrCrossRedirect   = apiclient.ErrCrossRedirect
	ErrRedirectedWrite = apiclient.ErrRedirectedWrite
	ErrTooLarge        = apiclient.ErrTooLarge
)

// Error is an answer of Sentry's other than 2xx, or a 2xx errtrack cannot
// use. A request that got no answer is an *apiclient.APIError instead.
type Error struct {
	// Base is the Sentry the answer came from (its base URL), so that words
	// for people name it without the caller keeping track.
	Base       string
	StatusCode int
	Method     string
	Path       string
	// Message is Sentry's "detail" (or its field errors), cleaned of
	// control characters and the token, and cut short.
	Message string
	// Kind is the most specific sentinel.
	Kind error
	// RetryAfter is how long a 429 asks to wait (X-Sentry-Rate-Limit-Reset).
	RetryAfter time.Duration
	// Scopes are those the endpoint accepts, any one of them, when Sentry
	// names them (WWW-Authenticate: Bearer error="insufficient_scope").
	Scopes []string
	// Moved is a renamed project's slugs (Kind ErrProjectMoved).
	Moved *ProjectMoved
	// OrgToken: the request was made with an organization auth token
	// (sntrys_…), whose org:ci scope reads no keys.
	OrgToken bool
}

// ProjectMoved is a Sentry project renamed from Slug to NewSlug.
type ProjectMoved struct{ Org, Slug, NewSlug string }

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" && e.Kind != nil {
		msg = e.Kind.Error()
	}
	if len(e.Scopes) > 0 {
		msg += " (needs one of the scopes " + strings.Join(e.Scopes, ", ") + ")"
	}
	var s string
	switch {
	case e.Method == "":
		s = msg
	case e.StatusCode == 0:
		s = fmt.Sprintf("%s %s: %s", e.Method, e.Path, msg)
	default:
		s = fmt.Sprintf("%s %s: %d: %s", e.Method, e.Path, e.StatusCode, msg)
	}
	return safetext.Clean(s)
}

// Is matches the specific kind and the broad class it belongs to.
func (e *Error) Is(target error) bool {
	if target == e.Kind {
		return true
	}
	switch target {
	case ErrRedirectedWrite:
		return e.Kind == ErrProjectMoved
	case ErrUnauthorized:
		return e.Kind == ErrTokenExpired || e.Kind == ErrOrgLimitedRoute || e.Kind == ErrOtherOrganization
	case ErrForbidden:
		return e.Kind == ErrInsufficientScope
	case ErrNotFound:
		switch e.Kind {
		case ErrProjectNotFound, ErrKeyNotFound, ErrOrganizationNotFound, ErrTeamNotFound:
			return true
		}
	}
	return false
}

// OutcomeUnknown reports whether a failed write may have been applied: the
// request may have reached Sentry and only its answer was lost. After a
// create, list the keys before trying again.
func OutcomeUnknown(err error) bool { return apiclient.OutcomeUnknown(err) }

// notFound names what a 404 of a route means: Sentry answers every missing
// object alike ("The requested resource does not exist").
type notFound error

// classify turns an answer other than 2xx into an *Error. It needs the
// answer's status, headers and body; nf is what a 404 of this route is.
func classify(method, path string, resp *apiclient.Response, body []byte, nf notFound) *Error {
	e := &Error{StatusCode: resp.StatusCode, Method: method, Path: path, Message: detail(body)}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized:
		// UserAuthTokenAuthentication's texts (api/authentication.py).
		switch msg := strings.ToLower(e.Message); {
		case strings.Contains(msg, "expired"):
			e.Kind = ErrTokenExpired
		case strings.Contains(msg, "limited to organization endpoints"):
			e.Kind = ErrOrgLimitedRoute
		case strings.Contains(msg, "unauthorized organization access"):
			e.Kind = ErrOtherOrganization
		default:
			e.Kind = ErrUnauthorized
		}
	case code == http.StatusForbidden:
		e.Kind = ErrForbidden
		if scopes, ok := insufficientScope(resp.Header.Values("WWW-Authenticate")); ok {
			e.Kind, e.Scopes = ErrInsufficientScope, scopes
		}
	case code == http.StatusNotFound:
		e.Kind = nf
	case code == http.StatusBadRequest:
		e.Kind = ErrValidation
	case code == http.StatusConflict:
		e.Kind = ErrConflict
	case code == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
		if d, ok := apiclient.SentryReset(resp.Header, time.Now()); ok {
			e.RetryAfter = d
		}
	case code >= 500:
		e.Kind = ErrServer
	default:
		e.Kind = ErrBadResponse
	}
	return e
}

// answerError makes Send's error an *Error when an answer came, and leaves
// a transport failure as apiclient made it.
func answerError(method, path string, resp *apiclient.Response, body []byte, err error, nf notFound) error {
	if err == nil {
		return nil
	}
	var ae *apiclient.APIError
	if resp == nil || !errors.As(err, &ae) || ae.StatusCode == 0 || resp.StatusCode < 300 {
		return err
	}
	return classify(method, path, resp, body, nf)
}

// detail is the text of an error body: {"detail": "..."}, {"detail":
// {"code", "message"}}, a JSON string (the rate limit's) or a field's
// errors ({"name": ["This field is required."]}).
func detail(body []byte) string {
	var s string
	if json.Unmarshal(body, &s) == nil {
		return safetext.Excerpt(s, 300)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		if ex := safetext.Excerpt(string(body), 120); ex != "" {
			return "non-JSON answer: " + ex
		}
		return ""
	}
	if d, ok := m["detail"]; ok {
		if json.Unmarshal(d, &s) == nil {
			return safetext.Excerpt(s, 300)
		}
		var obj struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(d, &obj) == nil && obj.Message != "" {
			return safetext.Excerpt(obj.Message, 300)
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		var msgs []string
		if json.Unmarshal(m[k], &msgs) == nil {
			parts = append(parts, k+": "+strings.Join(msgs, " "))
		}
	}
	return safetext.Excerpt(strings.Join(parts, "; "), 300)
}

// insufficientScope reads an RFC 6750 challenge: Bearer
// error="insufficient_scope", scope="project:admin project:write".
func insufficientScope(challenges []string) ([]string, bool) {
	for _, c := range challenges {
		rest, ok := strings.CutPrefix(strings.TrimSpace(c), "Bearer")
		if !ok {
			continue
		}
		params := map[string]string{}
		for _, p := range splitParams(rest) {
			k, v, ok := strings.Cut(p, "=")
			if !ok {
				continue
			}
			params[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"`)
		}
		if params["error"] != "insufficient_scope" {
			continue
		}
		var scopes []string
		for _, s := range strings.Fields(params["scope"]) {
			if len(scopes) < 10 {
				scopes = append(scopes, safetext.Excerpt(s, 40))
			}
		}
		return scopes, true
	}
	return nil, false
}

// splitParams splits auth-params on commas outside quotes.
func splitParams(s string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
