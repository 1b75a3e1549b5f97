package apiclient

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxObservedBody caps the bodies an Exchange keeps; maxObservedHeaders
// the header bytes.
const (
	maxObservedBody    = 64 << 10
	maxObservedHeaders = 16 << 10
	// maxResponseHeaderBytes is what the transport reads of an answer's
	// headers before it refuses the answer.
	maxResponseHeaderBytes = 256 << 10
)

// Exchange is one HTTP exchange, for a front end that shows the API at work
// (a request log, --debug). The token is not in it: the PRIVATE-TOKEN header
// reads [redacted], and bodies have the token removed and are capped.
type Exchange struct {
	Start    time.Time
	Duration time.Duration
	Method   string
	// URL is the request as sent: the path escaped as on the wire (a project
	// path's slashes as %2F), with the query.
	URL     string
	Attempt int // 1, then 2… for retries
	Status  int // 0 when no answer came
	// Err is the failure of this exchange (an *APIError), nil on success.
	Err                           error
	RequestHeader, ResponseHeader http.Header
	RequestBody, ResponseBody     []byte
	// CAFile is the client's --ca-file, which a repeated request needs too.
	CAFile string
	// TokenVariable is the shell variable a repeated request reads the
	// token from: GITLAB_TOKEN, or a dialect's (SENTRY_AUTH_TOKEN).
	TokenVariable string
}

// WithObserver calls f after every exchange, retries included. f runs on
// the request's goroutine and must not block.
func WithObserver(f func(Exchange)) Option { return func(c *Client) { c.observer = f } }

func (c *Client) observe(req *http.Request, reqBody []byte, start time.Time, attempt int, resp *http.Response, body []byte, err error) {
	if c.observer == nil {
		return
	}
	// CI/CD variables' values are secrets (masked ones included): what an
	// observer gets of a variables request never holds them.
	variables := isVariablesPath(req.URL.Path)
	e := Exchange{
		Start: start, Duration: time.Since(start), Method: req.Method, URL: req.URL.String(), Attempt: attempt, Err: err,
		RequestHeader: c.scrubHeader(req.Header), RequestBody: capBody(c.scrubBody(reqBody, variables)), CAFile: c.caFile,
		TokenVariable: c.tokenVariable(),
	}
	// The token transport adds the header to requests for the client's
	// host; what an observer sees says it went, never what it is.
	if c.token != "" && req.URL.Scheme == c.base.Scheme && req.URL.Host == c.base.Host && req.Context().Value(apiCall{}) != nil {
		e.RequestHeader.Set(c.tokenHeader(), c.tokenValue("[redacted]"))
	}
	if resp != nil {
		e.Status = resp.StatusCode
		e.ResponseHeader = c.scrubHeader(resp.Header)
		e.ResponseBody = capBody(c.scrubBody(body, variables))
	}
	c.observer(e)
}

// scrubHeader copies h with the token removed from every value (a server
// may echo it in any header), keeping at most maxObservedHeaders bytes.
func (c *Client) scrubHeader(h http.Header) http.Header {
	out := make(http.Header, len(h))
	size := 0
	for k, vs := range h {
		for _, v := range vs {
			if size += len(k) + len(v); size > maxObservedHeaders {
				out.Set("X-Errtrack-Note", "further headers not kept")
				return out
			}
			out[k] = append(out[k], c.redact(v))
		}
	}
	return out
}

// scrubBody removes the token, and for a variables request every "value".
func (c *Client) scrubBody(b []byte, variables bool) []byte {
	if len(b) == 0 {
		return b
	}
	if len(c.token) >= 8 && bytes.Contains(b, []byte(c.token)) {
		b = bytes.ReplaceAll(b, []byte(c.token), []byte("[redacted]"))
	}
	if variables {
		b = redactValues(b)
	}
	return b
}

// isVariablesPath: a project's or group's CI/CD variables, or one of them.
func isVariablesPath(p string) bool {
	return strings.Contains(p, "/variables")
}

// redactValues replaces the "value" of each object in a JSON object or
// array (a variable, a list of them, a create or update) with [redacted];
// a form body's value too. Anything else is not shown.
func redactValues(b []byte) []byte {
	var one map[string]json.RawMessage
	if json.Unmarshal(b, &one) == nil {
		if _, ok := one["value"]; ok {
			one["value"] = json.RawMessage(`"[redacted]"`)
		}
		out, _ := json.Marshal(one)
		return out
	}
	var many []map[string]json.RawMessage
	if json.Unmarshal(b, &many) == nil {
		for _, m := range many {
			if _, ok := m["value"]; ok {
				m["value"] = json.RawMessage(`"[redacted]"`)
			}
		}
		out, _ := json.Marshal(many)
		return out
	}
	if q, err := url.ParseQuery(string(b)); err == nil && q.Has("value") {
		q.Set("value", "[redacted]")
		return []byte(q.Encode())
	}
	return []byte("[not shown: it may hold CI/CD variable values]")
}

func capBody(b []byte) []byte {
	if len(b) > maxObservedBody {
		b = b[:maxObservedBody]
	}
	return append([]byte(nil), b...)
}

// Curl is a curl command that repeats the request, with the token as the
// $GITLAB_TOKEN variable, never its value.
func (e Exchange) Curl() string {
	parts := []string{"curl", "--request", e.Method}
	if e.CAFile != "" && strings.HasPrefix(e.URL, "https:") {
		parts = append(parts, "--cacert", shellQuote(e.CAFile))
	}
	variable := e.tokenVariable()
	if e.RequestHeader.Get("PRIVATE-TOKEN") != "" {
		parts = append(parts, `--header "PRIVATE-TOKEN: $`+variable+`"`)
	}
	if a := e.RequestHeader.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		parts = append(parts, `--header "Authorization: Bearer $`+variable+`"`)
	}
	if auth := e.RequestHeader.Get("X-Sentry-Auth"); auth != "" {
		parts = append(parts, "--header", shellQuote("X-Sentry-Auth: "+auth))
	}
	if ct := e.RequestHeader.Get("Content-Type"); ct != "" {
		parts = append(parts, "--header", shellQuote("Content-Type: "+ct))
	}
	if len(e.RequestBody) > 0 {
		body := shellQuote(string(e.RequestBody))
		if isVariablesPath(e.URL) {
			// The value was never kept: the command reads it from
			// $VARIABLE_VALUE (JSON-escaped), set by whoever runs it.
			body = strings.ReplaceAll(body, `"[redacted]"`, `"'"$VARIABLE_VALUE"'"`)
		}
		parts = append(parts, "--data-binary", body)
	}
	return strings.Join(append(parts, shellQuote(e.URL)), " ")
}

// CurlTokenVariable is the shell variable Curl's command reads the token
// from (SENTRY_AUTH_TOKEN for a Sentry's request), "" when the request
// sent none.
func (e Exchange) CurlTokenVariable() string {
	if e.RequestHeader.Get("PRIVATE-TOKEN") == "" && !strings.HasPrefix(e.RequestHeader.Get("Authorization"), "Bearer ") {
		return ""
	}
	return e.tokenVariable()
}

func (e Exchange) tokenVariable() string {
	if e.TokenVariable == "" {
		return "GITLAB_TOKEN"
	}
	return e.TokenVariable
}

// shellQuote quotes s for a POSIX shell: single quotes, with any single
// quote inside closed, escaped and reopened. Text with line breaks (a
// Sentry envelope) is quoted $'…' with \n escapes instead, as bash and zsh
// read it, so the command stays one line that is safe to paste.
func shellQuote(s string) string {
	if strings.ContainsAny(s, "\n\r") {
		r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`)
		return "$'" + r.Replace(s) + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
