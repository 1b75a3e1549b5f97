package mocksentry

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
)

// keyJSON is ProjectKeySerializer's output
// (src/sentry/api/serializers/models/project_key.py).
func keyJSON(base string, p *Project, k *Key) map[string]any {
	name := k.Label
	if name == "" && len(k.Public) >= 14 {
		name = k.Public[:14]
	}
	var rl any
	if k.RateWindow > 0 && k.RateCount > 0 {
		rl = map[string]int{"window": k.RateWindow, "count": k.RateCount}
	}
	host := base
	scheme := "http"
	if i := bytes.Index([]byte(base), []byte("://")); i >= 0 {
		scheme, host = base[:i], base[i+3:]
	}
	pid := strconv.FormatInt(p.ID, 10)
	return map[string]any{
		"id":        k.Public,
		"name":      name,
		"label":     name,
		"public":    k.Public,
		"secret":    k.Secret,
		"projectId": p.ID,
		"isActive":  k.Active,
		"rateLimit": rl,
		"dsn": map[string]string{
			"secret":   scheme + "://" + k.Public + ":" + k.Secret + "@" + host + "/" + pid,
			"public":   scheme + "://" + k.Public + "@" + host + "/" + pid,
			"csp":      base + "/api/" + pid + "/csp-report/?sentry_key=" + k.Public,
			"security": base + "/api/" + pid + "/security/?sentry_key=" + k.Public,
			"minidump": base + "/api/" + pid + "/minidump/?sentry_key=" + k.Public,
			"nel":      base + "/api/" + pid + "/nel/?sentry_key=" + k.Public,
			"unreal":   base + "/api/" + pid + "/unreal/" + k.Public + "/",
			"cdn":      base + "/js-sdk-loader/" + k.Public + ".min.js",
		},
		"browserSdkVersion":       loaderVersion(p, k),
		"browserSdk":              map[string]any{"choices": [][]string{{"latest", "latest"}, {"7.x", "7.x"}}},
		"dateCreated":             k.Created.UTC().Format("2006-01-02T15:04:05.000000Z"),
		"dynamicSdkLoaderOptions": loaderOptions(k),
	}
}

// loaderVersion is get_selected_browser_sdk_version: the key's own, else
// the project's default (src/sentry/loader/browsersdkversion.py).
func loaderVersion(p *Project, k *Key) string {
	if k.BrowserSDK != "" {
		return k.BrowserSDK
	}
	if p.DefaultLoader != "" {
		return p.DefaultLoader
	}
	return "latest"
}

// loaderOptions are the key's dynamic loader options over the
// serializer's defaults (replay and performance on, debug off).
func loaderOptions(k *Key) map[string]bool {
	out := map[string]bool{"hasReplay": true, "hasPerformance": true, "hasDebug": false}
	for name, v := range k.Loader {
		out[name] = v
	}
	return out
}

// loaderOptionNames are DynamicSdkLoaderOptionSerializer's fields; others
// are ignored, as DRF ignores unknown fields.
var loaderOptionNames = map[string]bool{"hasReplay": true, "hasPerformance": true, "hasDebug": true, "hasFeedback": true, "hasLogsAndMetrics": true}

// project resolves the route's org and project (ProjectEndpoint.convert_args):
// a slug the project had before a rename answers ProjectMoved.
func (s *Server) projectOf(c *call) *Project {
	p := s.st.project(c.params[0], c.params[1])
	switch {
	case p != nil:
	case s.moved(c):
	default:
		notFound(c.w)
	}
	return p
}

// keys is ProjectKeysEndpoint (src/sentry/core/endpoints/project_keys.py).
func (s *Server) keys(c *call) {
	base := s.publicURL(c.r)
	switch c.r.Method {
	case http.MethodGet:
		per, cur, ok := pageParams(c.w, c.r, 10)
		if !ok {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		p := s.projectOf(c)
		if p == nil {
			return
		}
		status := c.r.URL.Query().Get("status")
		byID := map[int64]*Key{}
		var ids []int64
		for i := len(p.Keys) - 1; i >= 0; i-- {
			k := p.Keys[i]
			if status == "active" && !k.Active || status == "inactive" && k.Active || status != "" && status != "active" && status != "inactive" {
				continue
			}
			ids = append(ids, k.ID)
			byID[k.ID] = k
		}
		page, next, prev := pageByID(ids, per, cur)
		out := make([]any, 0, len(page))
		for _, id := range page {
			out = append(out, keyJSON(s.endpoint(base), p, byID[id]))
		}
		setLink(c.w, c.r, base, next, prev)
		writeJSON(c.w, http.StatusOK, out)
	case http.MethodPost:
		var in keyInput
		if !decodeInput(c, &in, false) {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		p := s.projectOf(c)
		if p == nil {
			return
		}
		k := s.st.addKey(p, in.Name.str(), s.now())
		if in.Public.set && in.Public.str() != "" {
			k.Public = in.Public.str()
		}
		if in.Secret.set && in.Secret.str() != "" {
			k.Secret = in.Secret.str()
		}
		if rl := in.RateLimit; !s.opts.NoRateLimitFeature && rl.set && rl.obj != nil && rl.obj.Count.num() > 0 && rl.obj.Window.num() > 0 {
			k.RateCount, k.RateWindow = rl.obj.Count.num(), rl.obj.Window.num()
		}
		c.w.(*statusWriter).note = "(key " + k.Public + " made)"
		writeJSON(c.w, http.StatusCreated, keyJSON(s.endpoint(base), p, k))
	}
}

// keyDetails is ProjectKeyDetailsEndpoint (project_key_details.py); the
// key is looked up by its public key (ProjectKeyEndpoint.convert_args).
func (s *Server) keyDetails(c *call) {
	base := s.publicURL(c.r)
	var in keyInput
	if c.r.Method == http.MethodPut && !decodeInput(c, &in, true) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projectOf(c)
	if p == nil {
		return
	}
	k := p.key(c.params[2])
	if k == nil {
		notFound(c.w)
		return
	}
	switch c.r.Method {
	case http.MethodGet:
		writeJSON(c.w, http.StatusOK, keyJSON(s.endpoint(base), p, k))
	case http.MethodPut:
		if in.Name.str() != "" {
			k.Label = in.Name.str()
		}
		// Sentry sets the loader's version on every PUT: the one sent,
		// else the project's default, whatever the key had
		// (project_key_details.py, put). Loader options sent are merged.
		k.BrowserSDK = in.BrowserSDK.str()
		if k.BrowserSDK == "" {
			k.BrowserSDK = p.DefaultLoader
		}
		for name, v := range in.Loader {
			if loaderOptionNames[name] && v != nil {
				if k.Loader == nil {
					k.Loader = map[string]bool{}
				}
				k.Loader[name] = *v
			}
		}
		if in.IsActive.set && in.IsActive.raw != nil {
			k.Active = *in.IsActive.raw
		}
		if rl := in.RateLimit; !s.opts.NoRateLimitFeature && rl.set {
			switch {
			case rl.obj == nil || rl.obj.Count.set && rl.obj.Count.null || rl.obj.Window.set && rl.obj.Window.null:
				k.RateCount, k.RateWindow = 0, 0
			case rl.obj.Count.set || rl.obj.Window.set:
				k.RateCount, k.RateWindow = rl.obj.Count.num(), rl.obj.Window.num()
			}
		}
		writeJSON(c.w, http.StatusOK, keyJSON(s.endpoint(base), p, k))
	case http.MethodDelete:
		for i, x := range p.Keys {
			if x == k {
				p.Keys = append(p.Keys[:i], p.Keys[i+1:]...)
				break
			}
		}
		s.st.deleted[k.Public] = true
		c.w.(*statusWriter).note = "(key " + k.Public + " deleted)"
		c.w.WriteHeader(http.StatusNoContent)
	}
}

// keyInput is what ProjectKeyPostSerializer and ProjectKeyPutSerializer
// read (src/sentry/api/serializers/rest_framework/project_key.py).
type keyInput struct {
	Name      optString    `json:"name"`
	Public    optString    `json:"public"`
	Secret    optString    `json:"secret"`
	IsActive  optBool      `json:"isActive"`
	RateLimit optRateLimit `json:"rateLimit"`
	// PUT only (ProjectKeyPutSerializer).
	BrowserSDK optString        `json:"browserSdkVersion"`
	Loader     map[string]*bool `json:"dynamicSdkLoaderOptions"`
}

type optString struct {
	set  bool
	null bool
	v    string
}

func (o *optString) UnmarshalJSON(b []byte) error {
	o.set = true
	if string(b) == "null" {
		o.null = true
		return nil
	}
	return json.Unmarshal(b, &o.v)
}

func (o optString) str() string { return o.v }

type optBool struct {
	set bool
	raw *bool
}

func (o *optBool) UnmarshalJSON(b []byte) error {
	o.set = true
	return json.Unmarshal(b, &o.raw)
}

type optInt struct {
	set, null bool
	v         int
}

func (o *optInt) UnmarshalJSON(b []byte) error {
	o.set = true
	if string(b) == "null" || string(b) == `""` {
		o.null = true // EmptyIntegerField: "" is None
		return nil
	}
	return json.Unmarshal(b, &o.v)
}

func (o optInt) num() int { return o.v }

type optRateLimit struct {
	set bool
	obj *struct {
		Count  optInt `json:"count"`
		Window optInt `json:"window"`
	}
}

func (o *optRateLimit) UnmarshalJSON(b []byte) error {
	o.set = true
	return json.Unmarshal(b, &o.obj)
}

var hex32re = regexp.MustCompile(`^[a-f0-9]{32}$`)

// decodeInput reads a key's body and answers DRF's 400s: a body that is
// not JSON, and each field's errors.
func decodeInput(c *call, in *keyInput, put bool) bool {
	if len(bytes.TrimSpace(c.body)) > 0 {
		if err := json.Unmarshal(c.body, in); err != nil {
			writeJSON(c.w, http.StatusBadRequest, map[string]string{"detail": "JSON parse error - " + err.Error()})
			return false
		}
	}
	errs := map[string]any{}
	if len([]rune(in.Name.v)) > 64 {
		errs["name"] = []string{"Ensure this field has no more than 64 characters."}
	}
	for field, o := range map[string]optString{"public": in.Public, "secret": in.Secret} {
		if !put && o.set && !o.null && !hex32re.MatchString(o.v) {
			errs[field] = []string{"This value does not match the required pattern."}
		}
	}
	if v := in.BrowserSDK.v; put && v != "" && v != "latest" && v != "7.x" {
		errs["browserSdkVersion"] = []string{`"` + v + `" is not a valid choice.`}
	}
	if put && in.IsActive.set && in.IsActive.raw == nil {
		errs["isActive"] = []string{"This field may not be null."}
	}
	if rl := in.RateLimit; rl.set {
		if rl.obj == nil && !put {
			errs["rateLimit"] = []string{"This field may not be null."}
		}
		if rl.obj != nil {
			rle := map[string][]string{}
			if rl.obj.Count.v < 0 {
				rle["count"] = []string{"Ensure this value is greater than or equal to 0."}
			}
			if rl.obj.Window.v < 0 {
				rle["window"] = []string{"Ensure this value is greater than or equal to 0."}
			} else if rl.obj.Window.v > 86400 {
				rle["window"] = []string{"Ensure this value is less than or equal to 86400."}
			}
			if len(rle) > 0 {
				errs["rateLimit"] = rle
			}
		}
	}
	if len(errs) > 0 {
		writeJSON(c.w, http.StatusBadRequest, errs)
		return false
	}
	return true
}
