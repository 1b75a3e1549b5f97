package apiclient

import (
	"errors"
	"fmt"
	"time"
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
	ErrSettingsNotFound  = errors.New("error tracking settings not configured")
	// ErrIntegratedUnavailable: PUT settings answered 404 because integrated
	// error tracking is not enabled on the instance.
	ErrIntegratedUnavailable = errors.New("integrated error tracking not available")
	ErrKeyNotFound           = errors.New("client key not found")
	ErrValidation            = errors.New("invalid parameters")
	// ErrUpdateFailed: PUT/PATCH answered 200 with {"status":"error"}.
	ErrUpdateFailed  = errors.New("update rejected by the server")
	ErrRateLimited   = errors.New("rate limited")
	ErrServer        = errors.New("server error")
	ErrBadResponse   = errors.New("unexpected response")
	ErrInsecureURL   = errors.New("refusing to send the token over plain HTTP")
	ErrCrossRedirect = errors.New("redirect to another host")
	ErrTooLarge      = errors.New("response too large")
)

// APIError is a failed request. Message is the server's own text, already
// cleaned of control characters; it never contains the token.
type APIError struct {
	StatusCode int
	Method     string
	Path       string
	Message    string
	// Kind is the most specific sentinel that describes the error.
	Kind error
	// RetryAfter is the server's requested wait on 429/503, when given.
	RetryAfter time.Duration
	// Scope is the scope the server asked for on insufficient_scope.
	Scope string
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Kind.Error()
	}
	if e.StatusCode == 0 {
		return fmt.Sprintf("%s %s: %s", e.Method, e.Path, msg)
	}
	return fmt.Sprintf("%s %s: %d: %s", e.Method, e.Path, e.StatusCode, msg)
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
		case ErrProjectNotFound, ErrSettingsNotFound, ErrIntegratedUnavailable, ErrKeyNotFound:
			return true
		}
	}
	return false
}
