package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestErrorKinds(t *testing.T) {
	cases := []struct {
		name, method string
		status       int
		body         string
		want         []error
		wantMsg      string
	}{
		{"401", "GET", 401, `{"message":"401 Unauthorized"}`, []error{ErrUnauthorized}, "401 Unauthorized"},
		{"expired", "GET", 401, `{"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."}`, []error{ErrUnauthorized, ErrTokenExpired}, "Token is expired"},
		{"revoked", "GET", 401, `{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}`, []error{ErrUnauthorized, ErrTokenRevoked}, "revoked"},
		{"scope", "PUT", 403, `{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api"}`, []error{ErrForbidden, ErrInsufficientScope}, "higher privileges"},
		{"forbidden", "GET", 403, `{"message":"403 Forbidden"}`, []error{ErrForbidden}, "403 Forbidden"},
		{"project", "GET", 404, `{"message":"404 Project Not Found"}`, []error{ErrNotFound, ErrProjectNotFound}, ""},
		{"settings", "GET", 404, `{"message":"404 Error Tracking Setting Not Found"}`, []error{ErrNotFound, ErrSettingsNotFound}, ""},
		{"integrated unavailable", "PUT", 404, `{"message":"404 Not Found"}`, []error{ErrNotFound, ErrIntegratedUnavailable}, ""},
		{"validation", "PATCH", 400, `{"error":"active is invalid"}`, []error{ErrValidation}, "active is invalid"},
		{"update refused", "PATCH", 200, `{"message":"Error tracking setting api url is a required field","status":"error"}`, []error{ErrUpdateFailed}, "api url is a required field"},
		{"server", "GET", 500, `{"message":"500 Internal Server Error"}`, []error{ErrServer}, ""},
		{"html proxy page", "GET", 502, "<html><body><h1>502 Bad Gateway</h1></body></html>", []error{ErrServer}, "non-JSON answer: <html><body><h1>502 Bad Gateway"},
		{"html on 200", "GET", 200, "<html>login page</html>", []error{ErrBadResponse}, "did not answer with JSON"},
		{"empty 200", "GET", 200, "", []error{ErrBadResponse}, "empty body"},
		{"wrong types", "GET", 200, `{"active":"yes","integrated":1}`, []error{ErrBadResponse}, "could not be read"},
		{"escape in message", "GET", 403, "{\"message\":\"\\u001b]0;pwned\\u0007403 Forbidden\"}", []error{ErrForbidden}, "403 Forbidden"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := setup(t, func(w http.ResponseWriter, r *http.Request) {
				ct := "application/json"
				if strings.HasPrefix(tc.body, "<") {
					ct = "text/html"
				}
				w.Header().Set("Content-Type", ct)
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			}, WithRetries(0, 0))
			var err error
			switch tc.method {
			case "PUT":
				_, _, err = c.CreateSettings(context.Background(), ProjectID(1), true, true)
			case "PATCH":
				_, _, err = c.UpdateSettings(context.Background(), ProjectID(1), true, nil)
			default:
				_, _, err = c.GetSettings(context.Background(), ProjectID(1))
			}
			var apiErr *APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err %v is not an *APIError", err)
			}
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("errors.Is(%v, %v) false", err, w)
				}
			}
			if !strings.Contains(apiErr.Message, tc.wantMsg) {
				t.Errorf("message %q lacks %q", apiErr.Message, tc.wantMsg)
			}
			if strings.ContainsRune(err.Error(), 0x1b) || strings.Contains(err.Error(), fakeToken) {
				t.Errorf("unsafe error text %q", err)
			}
		})
	}
}

func TestKeyNotFound(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 404, `{"message":"404 Not found"}`) })
	_, _, err := c.DeleteClientKey(context.Background(), ProjectID(1), 5)
	if !errors.Is(err, ErrKeyNotFound) || !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}
