package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/jsonview"
)

func (a *app) apiCmd() *cobra.Command {
	g := &globalFlags{}
	var raw, typed []string
	cmd := &cobra.Command{
		Use:   "api [METHOD] PATH [-f key=value]...",
		Short: "Call any GitLab API path with the stored credentials",
		Long: `Sends METHOD (GET when left out, as gh api does) to PATH below /api/v4
with the token errtrack uses, and prints
the answer's body (JSON pretty-printed) on stdout. For what the typed commands
do not cover. Every rule of errtrack holds: the token never goes to another
host or over plain HTTP, a write is never re-sent on a redirect, and the
token is removed from what the server answers.

-f key=value adds a string field, -F key=value a typed one (true, false, null,
a number, else a string): in the query of a GET, HEAD or DELETE, in a JSON body
otherwise. The exit status is 1 when the server answers an error.`,
		Example: `  errtrack api GET projects/42/error_tracking/settings
  errtrack api PATCH projects/group%2Fweb-shop/error_tracking/settings -F active=false
  errtrack api GET projects/42/variables --debug`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("api takes a PATH, and a METHOD before it to send other than GET: 'errtrack api projects/42', 'errtrack api PATCH projects/42/error_tracking/settings -F active=false'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			method, path := "GET", args[0]
			if len(args) == 2 {
				method, path = strings.ToUpper(args[0]), args[1]
			}
			// Refused here, before any request: a usage error, not the
			// server's.
			switch method {
			case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE":
			default:
				return usagef("%q is not an HTTP method errtrack sends: use GET, HEAD, POST, PUT, PATCH or DELETE", explain.Text(args[0]))
			}
			if strings.Contains(path, "://") {
				return usagef("api takes a path below /api/v4 (such as projects/42), not a URL: the host comes from --host or the login, so the token never goes elsewhere")
			}
			fields := map[string]any{}
			for _, f := range raw {
				k, v, ok := strings.Cut(f, "=")
				if !ok || k == "" {
					return usagef("-f takes key=value, got %q", f)
				}
				fields[k] = v
			}
			for _, f := range typed {
				k, v, ok := strings.Cut(f, "=")
				if !ok || k == "" {
					return usagef("-F takes key=value, got %q", f)
				}
				fields[k] = typedValue(v)
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			c, host, err := a.hostClient(ctx, g)
			if err != nil {
				return err
			}
			var query url.Values
			var body any
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
			_, out, err := c.Raw(ctx, method, path, query, body)
			a.printBody(out)
			if err != nil {
				return err
			}
			a.rememberHost(host)
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	cmd.Flags().StringArrayVarP(&raw, "field", "f", nil, "a string field key=value (repeatable)")
	cmd.Flags().StringArrayVarP(&typed, "typed-field", "F", nil, "a typed field key=value: true, false, null or a number become JSON values (repeatable)")
	return cmd
}

// typedValue reads true, false, null and numbers as JSON values.
func typedValue(v string) any {
	switch v {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
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
