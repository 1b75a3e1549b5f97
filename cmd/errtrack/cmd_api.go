package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/jsonview"
	"github.com/errtrack/errtrack/internal/safetext"
)

type apiFlags struct {
	raw, typed, headers []string
	method, jq, input   string
	paginate, include   bool
}

func (a *app) apiCmd() *cobra.Command {
	g := &globalFlags{}
	var f apiFlags
	cmd := &cobra.Command{
		Use:   "api [METHOD] PATH [-X METHOD] [-f key=value]... [-H 'Key: Value']... [--paginate] [--jq EXPR] [--input FILE] [-i]",
		Short: "Call any GitLab API path with the stored credentials",
		Long: `Sends METHOD (GET when left out, as gh api does) to PATH below /api/v4
with the token errtrack uses, and prints
the answer's body (JSON pretty-printed) on stdout. For what the typed commands
do not cover. Every rule of errtrack holds: the token never goes to another
host or over plain HTTP, a write is never re-sent on a redirect, and the
token is removed from what the server answers.

The method is the first argument or -X/--method (not two different ones).

-f key=value adds a string field, -F key=value a typed one (true, false, null,
a number, else a string): in the query of a GET, HEAD or DELETE, in a JSON body
otherwise. --input FILE sends the JSON in FILE (- for stdin) as the body
instead of fields; the method is then POST unless given. --timeout bounds
reading it too (a FIFO nobody writes to).

-H 'Key: Value' adds a request header (repeatable). Headers that carry
credentials or decide where the request goes are refused: PRIVATE-TOKEN,
JOB-TOKEN, Authorization, Proxy-Authorization, Cookie, Host, Content-Length,
Transfer-Encoding, Connection (in any case, and with underscores for dashes,
as GitLab reads them), and any value with CR or LF.

--paginate (GET only) follows the list's pages (the Link header's next page on
the same host, or X-Next-Page), 100 a page unless per_page is given, and
prints one JSON array of every page's elements; at most 2,000 pages.

--jq EXPR filters the JSON answer with a jq expression (gojq): each result on
its own line, strings as they are (no quotes), anything else as JSON. Control
characters in the server's text are never printed raw. The environment is
not visible to the expression ($ENV is empty). The filter runs in a process
of its own, stopped when it uses more than 512 MiB of memory or runs past
--timeout.

-i/--include prints the HTTP status line and the response headers (the token
removed from them) before the body.

The exit status is 0 on success, 1 when the server answers an error (its body
is still printed, unfiltered) or the request fails, and 2 for a usage error
(a bad flag, a refused header, a jq expression that does not parse).`,
		Example: `  errtrack api GET projects/42/error_tracking/settings
  errtrack api PATCH projects/group%2Fweb-shop/error_tracking/settings -F active=false
  errtrack api projects/42/error_tracking/client_keys --paginate --jq length
  errtrack api projects/42/error_tracking/client_keys --paginate --jq '.[] | select(.active) | .public_key'
  echo '{"active":false}' | errtrack api -X PATCH projects/42/error_tracking/settings --input -
  errtrack api -i user -H 'Accept-Language: en'
  errtrack api GET projects/42/variables --debug`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("api takes a PATH, and a METHOD before it to send other than GET: 'errtrack api projects/42', 'errtrack api PATCH projects/42/error_tracking/settings -F active=false'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runAPI(cmd.Context(), g, &f, args)
		},
	}
	addHostFlags(cmd.Flags(), g)
	fs := cmd.Flags()
	fs.StringArrayVarP(&f.raw, "field", "f", nil, "a string field key=value (repeatable)")
	fs.StringArrayVarP(&f.typed, "typed-field", "F", nil, "a typed field key=value: true, false, null or a number become JSON values (repeatable)")
	fs.StringVarP(&f.method, "method", "X", "", "the HTTP method, instead of the METHOD argument (default GET, POST with --input)")
	fs.StringArrayVarP(&f.headers, "header", "H", nil, "an extra request header 'Key: Value' (repeatable); credential and routing headers are refused")
	fs.BoolVar(&f.paginate, "paginate", false, "GET every page of a list and print one JSON array")
	fs.StringVarP(&f.jq, "jq", "q", "", "filter the JSON answer with a jq expression; strings print without quotes")
	fs.StringVar(&f.input, "input", "", "send the JSON in this file (- for stdin) as the request body, instead of -f/-F")
	fs.BoolVarP(&f.include, "include", "i", false, "print the HTTP status line and response headers before the body")
	return cmd
}

func (a *app) runAPI(ctx context.Context, g *globalFlags, f *apiFlags, args []string) error {
	path := args[len(args)-1]
	method := ""
	if len(args) == 2 {
		method = strings.ToUpper(args[0])
	}
	if f.method != "" {
		m := strings.ToUpper(f.method)
		if method != "" && method != m {
			return usagef("the method is given twice, %s as an argument and %s with -X: give one", explain.Text(method), explain.Text(m))
		}
		method = m
	}
	switch {
	case method != "":
	case f.input != "":
		method = "POST" // as gh api: a body means POST unless told
	default:
		method = "GET"
	}
	// Refused here, before any request: a usage error, not the server's.
	switch method {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE":
	default:
		return usagef("%q is not an HTTP method errtrack sends: use GET, HEAD, POST, PUT, PATCH or DELETE", explain.Text(method))
	}
	if strings.Contains(path, "://") {
		return usagef("api takes a path below /api/v4 (such as projects/42), not a URL: the host comes from --host or the login, so the token never goes elsewhere")
	}
	if f.paginate && method != "GET" {
		return usagef("--paginate follows the pages of a GET, not a %s", method)
	}
	fields := map[string]any{}
	for _, kv := range f.raw {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("-f takes key=value, got %q", explain.Text(kv))
		}
		fields[k] = v
	}
	for _, kv := range f.typed {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("-F takes key=value, got %q", explain.Text(kv))
		}
		fields[k] = typedValue(v)
	}
	if f.input != "" && len(fields) > 0 {
		return usagef("--input is the whole body: give it or -f/-F fields, not both")
	}
	if f.input != "" && (method == "GET" || method == "HEAD") {
		return usagef("--input sends a body, which a %s does not carry: add -X POST, PUT, PATCH or DELETE", method)
	}
	header, err := parseHeaders(f.headers)
	if err != nil {
		return err
	}
	// Whatever the client would refuse to send is refused here, as a
	// usage error, before the token is even read.
	if err := apiclient.CheckRawRequest(apiclient.RawRequest{Method: method, Path: path, Header: header}); err != nil {
		var apiErr *apiclient.APIError
		if errors.As(err, &apiErr) {
			return usagef("%s: %s", explain.Text(path), apiErr.Message)
		}
		return usageError{err: err}
	}
	if f.jq != "" {
		if _, err := compileJQ(f.jq); err != nil {
			return err
		}
	}
	// --timeout bounds reading --input too: a FIFO no program writes to
	// must not hold the command.
	ctx, cancel := a.deadline(ctx, g)
	defer cancel()
	var body any
	if f.input != "" {
		in, err := a.readAPIInput(ctx, f.input)
		if err != nil {
			return err
		}
		body = in
	}
	c, host, err := a.hostClient(ctx, g)
	if err != nil {
		return err
	}
	var query url.Values
	switch {
	case len(fields) == 0:
	case method == "GET" || method == "HEAD" || method == "DELETE":
		query = url.Values{}
		for k, v := range fields {
			query.Set(k, fmt.Sprint(v))
		}
	default:
		body = fields
	}
	req := apiclient.RawRequest{Method: method, Path: path, Query: query, Body: body, Header: header}
	var resp *apiclient.Response
	var out []byte
	if f.paginate {
		resp, out, err = c.RawPaginate(ctx, req)
	} else {
		resp, out, err = c.RawCall(ctx, req)
	}
	if f.include && resp != nil && resp.Response != nil {
		a.printResponseHead(resp)
	}
	// A server's error is printed as sent, unfiltered, as gh api does.
	if f.jq != "" && err == nil {
		if jerr := a.filterJQ(ctx, f.jq, out); jerr != nil {
			return jerr
		}
	} else {
		a.printBody(out)
	}
	var pages *apiclient.PagesError
	if errors.As(err, &pages) {
		return a.paginateStopped(pages)
	}
	if err != nil {
		return err
	}
	a.rememberHost(host)
	return nil
}

// paginateStopped words a --paginate that failed part-way: how far it got,
// that nothing of it is printed, and what to do.
func (a *app) paginateStopped(e *apiclient.PagesError) error {
	read := fmt.Sprintf("%s pages (%s elements)", thousands(e.Read), thousands(e.Items))
	if errors.Is(e.Err, apiclient.ErrTimeout) && a.timeoutRanOut() {
		return reportedf(a, "--paginate read %s, then --timeout (%s) ran out on page %s; nothing is printed. Raise --timeout, or ask for less (a narrower query, -f search=...).",
			read, a.timeout, thousands(e.Read+1))
	}
	return reportedf(a, "--paginate read %s, then page %s failed; nothing is printed. %s", read, thousands(e.Read+1), a.explain(e.Err, "run the command again"))
}

// thousands writes n with thousands separators: 134,100.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// printResponseHead prints the status line and the headers, sorted, as
// -i does; the client already removed the token from them, and every
// value is cleaned of control characters.
func (a *app) printResponseHead(resp *apiclient.Response) {
	w := bufio.NewWriter(a.stdout)
	defer w.Flush()
	proto := resp.Proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	status := strconv.Itoa(resp.StatusCode)
	if text := http.StatusText(resp.StatusCode); text != "" {
		status += " " + text
	}
	fmt.Fprintf(w, "%s %s\n", safetext.Clean(proto), status)
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			fmt.Fprintf(w, "%s: %s\n", safetext.Clean(k), safetext.Clean(v))
		}
	}
	w.WriteByte('\n')
}

// printBody prints an answer: JSON indented and escaped like --json output,
// anything else cleaned of control characters.
func (a *app) printBody(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if json.Valid(b) {
		if !jsonview.Indentable(b) {
			// Too deep or too big to indent (that would grow with the
			// square of the depth): as received, escaped.
			_ = writeEscaped(a.stdout, b)
			return
		}
		_ = writeJSON(a.stdout, json.RawMessage(b))
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		fmt.Fprintln(a.stdout, explain.Text(line))
	}
}
