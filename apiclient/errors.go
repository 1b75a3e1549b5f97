package apiclient

import (
	"errors"
	"fmt"
	"time"

	"github.com/errtrack/errtrack/internal/safetext"
)

// Sentinels for errors.Is. An *APIError matches its broad class (ErrNotFound)
// and, where the body tells, its specific kind (ErrSettingsNotFound).
var (
	ErrUnauthorized      = errors.New("unauthorized")
	ErrTokenExpired      = errors.New("token expired")
	ErrTokenRevoked      = errors.New("token revoked")
	ErrForbidden         = errors.New("forbidden")
	ErrInsufficientScope = errors.New("token lacks the required scope")
	ErrNotFound          = errors.New("not found")
	ErrProjectNotFound   = errors.New("project not found")
	ErrGroupNotFound     = errors.New("group not found")
	ErrSettingsNotFound  = errors.New("error tracking settings not configured")
	// ErrIntegratedUnavailable: PUT settings answered 404 because integrated
	// error tracking is not enabled on the instance.
	ErrIntegratedUnavailable = errors.New("integrated error tracking not available")
	ErrKeyNotFound           = errors.New("client key not found")
	ErrVariableNotFound      = errors.New("CI/CD variable not found")
	// ErrVariableAmbiguous: several variables have that key, in different
	// environment scopes, and none was chosen (409).
	ErrVariableAmbiguous = errors.New("several CI/CD variables have that key")
	ErrValidation        = errors.New("invalid parameters")
	// ErrUpdateFailed: PUT/PATCH answered 200 with {"status":"error"}.
	ErrUpdateFailed  = errors.New("update rejected by the server")
	ErrRateLimited   = errors.New("rate limited")
	ErrServer        = errors.New("server error")
	ErrBadResponse   = errors.New("unexpected response")
	ErrInsecureURL   = errors.New("refusing to send the token over plain HTTP")
	ErrCrossRedirect = errors.New("redirect to another host")
	ErrTooLarge      = errors.New("response too large")
	// ErrRedirectedWrite: a POST, PUT, PATCH or DELETE met a redirect; it
	// was not re-sent.
	ErrRedirectedWrite = errors.New("write redirected")
	// Failures with no HTTP answer.
	ErrNetwork  = errors.New("network failure")
	ErrTimeout  = errors.New("timed out")
	ErrTLS      = errors.New("TLS certificate not accepted")
	ErrCanceled = errors.New("cancelled")
	// ErrPlainHTTP: an https:// request met a server speaking plain HTTP.
	ErrPlainHTTP = errors.New("server speaks plain HTTP")
	// ErrBadToken: the token cannot be sent in a header (a stray newline).
	ErrBadToken = errors.New("malformed token")
	// ErrRouteMissing: GitLab's catch-all 404 ({"error":"404 Not Found"}),
	// the answer of a release that does not have the endpoint.
	ErrRouteMissing = errors.New("no such API route")
)

// APIError is a failed request. Message is the server's own text (or the
// network's), cleaned of control characters and of the token.
type APIError struct {
	StatusCode int
	Method     string
	Path       string
	Message    string
	// Kind is the most specific sentinel that describes the error.
	Kind error
	// RetryAfter is the server's requested wait on 429/503, when given,
	// and RetryAt when it ends.
	RetryAfter time.Duration
	RetryAt    time.Time
	// ExchangeLimit is the client's bound on one exchange (WithTimeout)
	// when that bound is what ran out (ErrTimeout); 0 when the caller's
	// context ended the request or the error is not a timeout.
	ExchangeLimit time.Duration
	// Scope is the scope the server asked for on insufficient_scope.
	Scope string
	// ServerVersion is the GitLab release, looked up when the endpoint
	// answered ErrRouteMissing ("" when it could not be read).
	ServerVersion string
}

// Error is cleaned once more, so an APIError printed with %v anywhere is
// safe on a terminal.
func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" && e.Kind != nil {
		msg = e.Kind.Error()
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

// OutcomeUnknown reports whether a failed write may have been applied anyway:
// the request may have reached the server and only its answer was lost or
// unreadable. After a create, the caller must list before trying again.
func OutcomeUnknown(err error) bool {
	for _, k := range []error{ErrServer, ErrBadResponse, ErrNetwork, ErrTimeout, ErrCanceled} {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

// Is matches the specific kind and the broad class it belongs to.
func (e *APIError) Is(target error) bool {
	if target == e.Kind {
		return true
	}
	switch target {
	case ErrUnauthorized:
		return e.Kind == ErrTokenExpired || e.Kind == ErrTokenRevoked
	case ErrForbidden:
		return e.Kind == ErrInsufficientScope
	case ErrNotFound:
		switch e.Kind {
		case ErrProjectNotFound, ErrGroupNotFound, ErrSettingsNotFound, ErrIntegratedUnavailable, ErrKeyNotFound, ErrVariableNotFound, ErrRouteMissing:
			return true
		}
	}
	return false
}
