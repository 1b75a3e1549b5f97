package apiclient

import (
	"net/http"
	"strings"
	"time"
)

// maxObservedBody caps the bodies an Exchange keeps.
const maxObservedBody = 64 << 10

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
}

// WithObserver calls f after every exchange, retries included. f runs on
// the request's goroutine and must not block.
func WithObserver(f func(Exchange)) Option { return func(c *Client) { c.observer = f } }

func (c *Client) observe(req *http.Request, reqBody []byte, start time.Time, attempt int, resp *http.Response, body []byte, err error) {
	if c.observer == nil {
		return
	}
	e := Exchange{
		Start: start, Duration: time.Since(start), Method: req.Method, URL: req.URL.String(), Attempt: attempt, Err: err,
		RequestHeader: req.Header.Clone(), RequestBody: capBody(reqBody), CAFile: c.caFile,
	}
	if e.RequestHeader.Get("PRIVATE-TOKEN") != "" {
		e.RequestHeader.Set("PRIVATE-TOKEN", "[redacted]")
	}
	if resp != nil {
		e.Status = resp.StatusCode
		e.ResponseHeader = resp.Header.Clone()
		e.ResponseBody = capBody(body)
	}
	c.observer(e)
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
	if e.RequestHeader.Get("PRIVATE-TOKEN") != "" {
		parts = append(parts, `--header "PRIVATE-TOKEN: $GITLAB_TOKEN"`)
	}
	if auth := e.RequestHeader.Get("X-Sentry-Auth"); auth != "" {
		parts = append(parts, "--header", shellQuote("X-Sentry-Auth: "+auth))
	}
	if ct := e.RequestHeader.Get("Content-Type"); ct != "" {
		parts = append(parts, "--header", shellQuote("Content-Type: "+ct))
	}
	if len(e.RequestBody) > 0 {
		parts = append(parts, "--data-binary", shellQuote(string(e.RequestBody)))
	}
	return strings.Join(append(parts, shellQuote(e.URL)), " ")
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
