package mockserver

import (
	"encoding/json"
	"io"
	"mime"
	"net/url"
	"strings"
)

// param is one request parameter: a string from a query or form, or a JSON value.
type param struct {
	str    string
	json   any
	isJSON bool
}

// readParams merges the query string, a form body and a JSON body, later
// sources winning, as Grape does.
func readParams(c *call) map[string]param {
	out := map[string]param{}
	for k, v := range c.r.URL.Query() {
		out[k] = param{str: v[len(v)-1]}
	}
	if c.r.Body == nil {
		return out
	}
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	body, err := io.ReadAll(io.LimitReader(c.r.Body, 1<<20))
	if err != nil || len(body) == 0 {
		return out
	}
	switch mt {
	case "application/x-www-form-urlencoded":
		if vals, err := url.ParseQuery(string(body)); err == nil {
			for k, v := range vals {
				out[k] = param{str: v[len(v)-1]}
			}
		}
	case "application/json":
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			for k, v := range m {
				if s, ok := v.(string); ok {
					out[k] = param{str: s}
				} else {
					out[k] = param{json: v, isJSON: true}
				}
			}
		}
	}
	return out
}

var (
	truthy = map[string]bool{"1": true, "on": true, "On": true, "ON": true, "t": true, "true": true, "True": true, "TRUE": true, "T": true, "y": true, "yes": true, "Yes": true, "YES": true, "Y": true}
	falsy  = map[string]bool{"0": true, "off": true, "Off": true, "OFF": true, "f": true, "false": true, "False": true, "FALSE": true, "F": true, "n": true, "no": true, "No": true, "NO": true, "N": true}
)

// boolParam coerces like dry-types Params::Bool. It returns the value, whether
// it was present, and a Grape-style problem ("active is invalid").
func boolParam(ps map[string]param, name string, required, allowBlank bool) (val, present bool, problem string) {
	p, ok := ps[name]
	if !ok || (p.isJSON && p.json == nil) {
		if required {
			return false, false, name + " is missing"
		}
		return false, false, ""
	}
	if p.isJSON {
		if b, ok := p.json.(bool); ok {
			return b, true, ""
		}
		return false, true, name + " is invalid"
	}
	s := p.str
	if strings.TrimSpace(s) == "" {
		if !allowBlank {
			return false, true, name + " is empty"
		}
		if required {
			return false, false, name + " is missing"
		}
		return false, false, ""
	}
	switch {
	case truthy[s]:
		return true, true, ""
	case falsy[s]:
		return false, true, ""
	}
	return false, true, name + " is invalid"
}
