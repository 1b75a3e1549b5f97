package apiclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/errtrack/errtrack/internal/safetext"
)

const excerptLen = 120

// decodeBody decodes a 2xx body into v. PUT/PATCH answer 200 with
// {"status":"error","message":...} when the update was refused; that is an error.
func decodeBody(method, path string, resp *http.Response, body []byte, v any) error {
	if v == nil {
		return nil // a raw call: the caller reads the body itself
	}
	// A DELETE answered 204, or 200 with nothing (a proxy that drops the
	// body): the resource is gone, which is what was asked.
	if method == http.MethodDelete && len(bytes.TrimSpace(body)) == 0 && (resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusOK) {
		return nil
	}
	if !looksJSON(resp, body) {
		return badResponse(method, path, resp, body, "the server did not answer with JSON")
	}
	if method == http.MethodPut || method == http.MethodPatch {
		var st struct {
			Status  string          `json:"status"`
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(body, &st) == nil && st.Status == "error" {
			return &APIError{StatusCode: resp.StatusCode, Method: method, Path: path, Kind: ErrUpdateFailed, Message: messageText(st.Message)}
		}
	}
	if err := unmarshal(body, v); err != nil {
		return badResponse(method, path, resp, body, "the answer could not be read ("+safetext.Excerpt(err.Error(), excerptLen)+")")
	}
	return nil
}

// unmarshal decodes body into v; a page of client keys in one pass.
func unmarshal(body []byte, v any) error {
	if keys, ok := v.(*[]ClientKey); ok {
		return decodeClientKeys(body, keys)
	}
	return json.Unmarshal(body, v)
}

func looksJSON(resp *http.Response, body []byte) bool {
	t := bytes.TrimSpace(body)
	if len(t) == 0 {
		return false
	}
	if t[0] != '{' && t[0] != '[' {
		return false
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err == nil && mt != "application/json" && !strings.HasSuffix(mt, "+json") {
			// A proxy may relabel JSON (text/plain, octet-stream): an answer
			// that is whole, valid JSON is unambiguous. An HTML page never is.
			return mt != "text/html" && json.Valid(t)
		}
	}
	return true
}

func badResponse(method, path string, resp *http.Response, body []byte, why string) error {
	msg := why
	if ex := safetext.Excerpt(string(body), excerptLen); ex != "" {
		msg += ": " + ex
	} else {
		msg += " (empty body)"
	}
	return &APIError{StatusCode: resp.StatusCode, Method: method, Path: path, Kind: ErrBadResponse, Message: msg}
}

// errorFromResponse classifies a non-2xx response.
func errorFromResponse(method, path string, resp *http.Response, body []byte) *APIError {
	e := &APIError{StatusCode: resp.StatusCode, Method: method, Path: path}
	var eb struct {
		Message          json.RawMessage `json:"message"`
		Error            string          `json:"error"`
		ErrorDescription string          `json:"error_description"`
		Scope            string          `json:"scope"`
	}
	isJSON := looksJSON(resp, body) && json.Unmarshal(body, &eb) == nil
	if isJSON {
		switch {
		case len(eb.Message) > 0:
			e.Message = messageText(eb.Message)
		case eb.ErrorDescription != "":
			e.Message = safetext.Excerpt(eb.ErrorDescription, 300)
		default:
			e.Message = safetext.Excerpt(eb.Error, 300)
		}
	} else if ex := safetext.Excerpt(string(body), excerptLen); ex != "" {
		e.Message = "non-JSON answer: " + ex
	}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized:
		e.Kind = ErrUnauthorized
		if eb.Error == "invalid_token" {
			d := strings.ToLower(eb.ErrorDescription)
			switch {
			case strings.Contains(d, "expired"):
				e.Kind = ErrTokenExpired
			case strings.Contains(d, "revoked"):
				e.Kind = ErrTokenRevoked
			}
		}
	case code == http.StatusForbidden:
		e.Kind = ErrForbidden
		if eb.Error == "insufficient_scope" {
			e.Kind = ErrInsufficientScope
			e.Scope = safetext.Excerpt(eb.Scope, 60)
		}
	case code == http.StatusNotFound && isJSON && len(eb.Message) == 0 && eb.Error == "404 Not Found":
		e.Kind = ErrRouteMissing // the catch-all route: key "error", not "message"
	case code == http.StatusNotFound:
		e.Kind = notFoundKind(method, path, e.Message)
	case code == http.StatusConflict && strings.Contains(e.Message, "multiple variables"):
		e.Kind = ErrVariableAmbiguous
	case code == http.StatusBadRequest || code == http.StatusUnprocessableEntity:
		e.Kind = ErrValidation
	case code == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
	case code >= 500:
		e.Kind = ErrServer
	default:
		e.Kind = ErrBadResponse
	}
	if now := time.Now(); e.Kind == ErrRateLimited || e.Kind == ErrServer {
		if d, ok := serverWait(resp.Header, now); ok {
			e.RetryAfter, e.RetryAt = d, now.Add(d)
		}
	}
	return e
}

// notFoundKind tells the 404s apart by their bodies (gitlab-api.md §0).
func notFoundKind(method, path, msg string) error {
	switch {
	case strings.Contains(msg, "Project Not Found"):
		return ErrProjectNotFound
	case strings.Contains(msg, "Group Not Found"):
		return ErrGroupNotFound
	case strings.Contains(msg, "Variable Not Found"):
		return ErrVariableNotFound
	case strings.Contains(msg, "Error Tracking Setting Not Found"):
		return ErrSettingsNotFound
	case strings.Contains(path, "/error_tracking/client_keys/"):
		return ErrKeyNotFound
	case method == http.MethodPut && strings.HasSuffix(path, "/error_tracking/settings") && msg == "404 Not Found":
		return ErrIntegratedUnavailable
	}
	return ErrNotFound
}

// messageText renders GitLab's "message", which is a string or an object.
func messageText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return safetext.Excerpt(s, 300)
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		parts := make([]string, 0, len(m))
		for k, v := range m {
			parts = append(parts, fmt.Sprintf("%s %v", k, v))
		}
		return safetext.Excerpt(strings.Join(parts, "; "), 300)
	}
	return safetext.Excerpt(string(raw), 300)
}
