package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
)

// param is one request parameter: a string from a query or form, or a JSON value.
type param struct {
	str    string
	json   any // bool, json.Number, string, nil, []any or map[string]any
	isJSON bool
	array  bool // name[]=… in a query or form
}

// malformedJSON is Grape's answer to a JSON body it cannot parse.
const malformedJSON = "\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying application/json as content-type, you must pass valid application/json in the request's body"

// maxBody is the largest request body read; a larger one is refused, as
// GitLab's proxy refuses one above its limit, rather than cut short.
const maxBody = 1 << 20

// readBody reads the request's body in full; it reports false when it
// answered instead.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return nil, true
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	switch {
	case err != nil:
		writeError(w, http.StatusBadRequest, "error", "the request body could not be read")
		return nil, false
	case len(b) > maxBody:
		writeError(w, http.StatusRequestEntityTooLarge, "error", "413 Request Entity Too Large")
		return nil, false
	}
	return b, true
}

// readParams merges the query string and a form or JSON body, the body
// winning, as Grape does. Grape's formatter runs before authentication, so
// a body of an unsupported type (415) or malformed JSON (400) is refused
// here; it reports false when it answered. As Grape, it reads the body of
// writes only, and a body of blanks is a body.
func readParams(c *call) bool {
	out := map[string]param{}
	c.params = out
	addValues := func(vals url.Values) {
		for k, v := range vals {
			name, arr := strings.CutSuffix(k, "[]")
			out[name] = param{str: v[len(v)-1], array: arr}
		}
	}
	addValues(c.r.URL.Query())
	body := c.body
	switch c.r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return true
	}
	if len(body) == 0 {
		return true
	}
	ct := c.r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = ct
	}
	switch mt {
	case "application/json":
		v, ok := parseJSON(body)
		if !ok {
			writeError(c.w, http.StatusBadRequest, "error", malformedJSON)
			return false
		}
		m, _ := v.(map[string]any) // another value parses, and is ignored
		for k, v := range m {
			if s, ok := v.(string); ok {
				out[k] = param{str: s}
			} else {
				out[k] = param{json: v, isJSON: true}
			}
		}
	case "application/x-www-form-urlencoded":
		vals, err := url.ParseQuery(string(body))
		if err == nil {
			addValues(vals)
		}
	case "multipart/form-data":
		_, mp, _ := mime.ParseMediaType(ct)
		form, err := multipart.NewReader(bytes.NewReader(body), mp["boundary"]).ReadForm(maxBody)
		if err != nil {
			writeError(c.w, http.StatusBadRequest, "error", "the multipart form cannot be read")
			return false
		}
		addValues(form.Value)
	default:
		writeError(c.w, http.StatusUnsupportedMediaType, "error", "The provided content-type '"+mt+"' is not supported.")
		return false
	}
	return true
}

// parseJSON reads exactly one JSON value, as Ruby's JSON.parse: nothing
// but blanks may follow it.
func parseJSON(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

var (
	truthy = map[string]bool{"1": true, "on": true, "On": true, "ON": true, "t": true, "true": true, "True": true, "TRUE": true, "T": true, "y": true, "yes": true, "Yes": true, "YES": true, "Y": true}
	falsy  = map[string]bool{"0": true, "off": true, "Off": true, "OFF": true, "f": true, "false": true, "False": true, "FALSE": true, "F": true, "n": true, "no": true, "No": true, "NO": true, "N": true}
)

// coerceBool coerces like dry-types Params::Bool, Grape having turned an
// empty string into nil: blank for nil or "", valid false for anything that
// is not a boolean (JSON 1 and 0 are; 1.0 is not).
func coerceBool(p param) (val, blank, valid bool) {
	switch {
	case p.array:
		return false, false, false
	case p.isJSON:
		switch v := p.json.(type) {
		case nil:
			return false, true, true
		case bool:
			return v, false, true
		case json.Number:
			switch v.String() {
			case "1":
				return true, false, true
			case "0":
				return false, false, true
			}
		}
		return false, false, false
	case p.str == "":
		return false, true, true
	case truthy[p.str]:
		return true, false, true
	case falsy[p.str]:
		return false, false, true
	}
	return false, false, false
}

// activeParam is `requires :active, type: Boolean, allow_blank: false`:
// presence, then coercion, then blankness, each with its sentence.
func activeParam(ps map[string]param) (val bool, problems []string) {
	p, ok := ps["active"]
	if !ok {
		return false, []string{"active is missing", "active is empty"}
	}
	v, blank, valid := coerceBool(p)
	switch {
	case !valid:
		return false, []string{"active is invalid"}
	case blank:
		return false, []string{"active is empty"}
	}
	return v, nil
}

// integratedParam is integrated, required on PUT and optional on PATCH. A
// blank value passes validation as nil: set is then false.
func integratedParam(ps map[string]param, required bool) (val, set bool, problems []string) {
	p, ok := ps["integrated"]
	if !ok {
		if required {
			return false, false, []string{"integrated is missing"}
		}
		return false, false, nil
	}
	v, blank, valid := coerceBool(p)
	switch {
	case !valid:
		return false, false, []string{"integrated is invalid"}
	case blank:
		return false, false, nil
	}
	return v, true, nil
}
