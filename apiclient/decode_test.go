package apiclient

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode"
)

func FuzzDecodeResponse(f *testing.F) {
	f.Add(200, "application/json", `{"active":true,"integrated":false,"sentry_external_url":"x"}`)
	f.Add(200, "application/json", `[{"id":1,"active":true,"public_key":"glet_0","sentry_dsn":"https://d"}]`)
	f.Add(404, "application/json", `{"message":"404 Project Not Found"}`)
	f.Add(401, "application/json", `{"error":"invalid_token","error_description":"Token is expired."}`)
	f.Add(502, "text/html", "<html>\x1b]0;t\x07</html>")
	f.Add(200, "application/json", `{"message":{"error":"x"},"status":"error"}`)
	f.Add(200, "application/json", `{"id":1e400}`)
	f.Fuzz(func(t *testing.T, status int, ct, body string) {
		if status < 100 || status > 599 {
			return
		}
		resp := &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {ct}}}
		var err error
		if status >= 200 && status < 300 {
			var s Settings
			err = decodeBody("PATCH", "/api/v4/projects/1/error_tracking/settings", resp, []byte(body), &s)
			var keys []ClientKey
			if e := decodeBody("GET", "/p", resp, []byte(body), &keys); e != nil {
				err = e
			}
		} else {
			err = errorFromResponse("GET", "/p", resp, []byte(body))
		}
		if err == nil {
			return
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.Kind == nil {
			t.Fatalf("untyped error %v", err)
		}
		for _, r := range apiErr.Message {
			if unicode.IsControl(r) {
				t.Fatalf("control character in message %q", apiErr.Message)
			}
		}
		if strings.ContainsRune(err.Error(), 0x1b) {
			t.Fatal("escape in error text")
		}
	})
}
