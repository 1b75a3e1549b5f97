package sentry

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/errtrack/errtrack/internal/safetext"
)

// decode reads a 2xx JSON answer into v.
func decode(body []byte, v any) error {
	t := bytes.TrimSpace(body)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return errors.New("the answer is not JSON: " + safetext.Excerpt(string(body), 120))
	}
	if err := json.Unmarshal(t, v); err != nil {
		return errors.New("the answer could not be read (" + safetext.Excerpt(err.Error(), 120) + ")")
	}
	return nil
}

// flexID reads an ID Sentry sends as a number (a key's projectId) or as a
// string (a project's id).
type flexID int64

func (f *flexID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		*f = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return errors.New("an ID is not a whole number")
	}
	*f = flexID(n)
	return nil
}

// flexTime reads an ISO 8601 date, or null.
type flexTime time.Time

func (f *flexTime) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil || *s == "" {
		*f = flexTime{}
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return errors.New("a date is not ISO 8601")
	}
	*f = flexTime(t)
	return nil
}

// secretFields are the names under which Sentry's key answers hold the
// key's secret: "secret" and the DSN's "secret" (the legacy secret DSN).
// hideSecrets removes them from what observers (the request log) see.
func hideSecrets(body []byte) []byte {
	if !bytes.Contains(body, []byte(`"secret"`)) {
		return body
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return []byte("[answer not shown: it may hold a key's secret]")
	}
	redact(v)
	out, err := json.Marshal(v)
	if err != nil {
		return []byte("[answer not shown: it may hold a key's secret]")
	}
	return out
}

func redact(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if k == "secret" {
				if _, ok := x.(string); ok {
					t[k] = "[redacted]"
					continue
				}
			}
			redact(x)
		}
	case []any:
		for _, x := range t {
			redact(x)
		}
	}
}
