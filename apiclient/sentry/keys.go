package sentry

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// RateLimit caps the events a key accepts: Count in Window seconds.
type RateLimit struct {
	Window int `json:"window"`
	Count  int `json:"count"`
}

// MaxRateLimitWindow is the longest window Sentry takes: a day
// (RateLimitSerializer's max_value).
const MaxRateLimitWindow = 24 * 60 * 60

// Key is a Sentry project's client key, without its secret.
type Key struct {
	// ID is the key's public key: Sentry names keys by it in URLs.
	ID        string
	Name      string
	ProjectID int64
	Active    bool
	// RateLimit is nil for none.
	RateLimit *RateLimit
	// DSN is the public DSN, https://PUBLIC@HOST/PROJECT_ID.
	DSN     string
	Created time.Time
	// BrowserSDKVersion and LoaderOptions are the key's JavaScript loader
	// settings ("latest", "7.x"; hasReplay, hasDebug…): an update sends
	// them back, as Sentry's PUT resets the version when it is absent.
	BrowserSDKVersion string
	LoaderOptions     map[string]bool
}

// keyJSON is a key as ProjectKeySerializer writes it; "secret" and
// "dsn.secret" are left unread on purpose.
type keyJSON struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Label     string     `json:"label"`
	Public    string     `json:"public"`
	ProjectID flexID     `json:"projectId"`
	IsActive  *bool      `json:"isActive"`
	RateLimit *RateLimit `json:"rateLimit"`
	DSN       struct {
		Public string `json:"public"`
	} `json:"dsn"`
	DateCreated       flexTime       `json:"dateCreated"`
	BrowserSDKVersion string         `json:"browserSdkVersion"`
	LoaderOptions     map[string]any `json:"dynamicSdkLoaderOptions"`
}

// maxLoaderOptions bounds the loader options kept of a key: Sentry has
// five.
const maxLoaderOptions = 16

func (k keyJSON) key() (Key, error) {
	id := k.ID
	if id == "" {
		id = k.Public
	}
	if !validKeyID(id) {
		return Key{}, fmt.Errorf("a key's id %q is not a public key", clip(id))
	}
	name := k.Name
	if name == "" {
		name = k.Label
	}
	out := Key{ID: id, Name: name, ProjectID: int64(k.ProjectID), Active: k.IsActive == nil || *k.IsActive,
		DSN: k.DSN.Public, Created: time.Time(k.DateCreated)}
	if k.RateLimit != nil && k.RateLimit.Count > 0 && k.RateLimit.Window > 0 {
		rl := *k.RateLimit
		out.RateLimit = &rl
	}
	if validLoaderVersion(k.BrowserSDKVersion) {
		out.BrowserSDKVersion = k.BrowserSDKVersion
	}
	for name, v := range k.LoaderOptions {
		if b, ok := v.(bool); ok && validKeyID(name) && len(out.LoaderOptions) < maxLoaderOptions {
			if out.LoaderOptions == nil {
				out.LoaderOptions = map[string]bool{}
			}
			out.LoaderOptions[name] = b
		}
	}
	return out, nil
}

// validKeyID: Sentry's public keys are 32 hex digits; other servers that
// speak its API may differ, so any short run of URL-safe characters does.
func validKeyID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// validLoaderVersion: Sentry's choices are "latest" and "N.x"; anything
// short and printable is sent back as it came.
func validLoaderVersion(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func keysPath(p Project) string { return projectPath(p.Org, p.Slug) + "keys/" }

func keyPath(p Project, id string) string { return keysPath(p) + url.PathEscape(id) + "/" }

// KeyStatus filters a listing: "" (all), "active" or "inactive".
type KeyStatus string

const (
	AllKeys      KeyStatus = ""
	ActiveKeys   KeyStatus = "active"
	InactiveKeys KeyStatus = "inactive"
)

// ListKeys returns every key of the project, newest first as Sentry orders
// them, following its cursor pages (100 keys a page).
func (c *Client) ListKeys(ctx context.Context, p Project, status KeyStatus) ([]Key, error) {
	q := url.Values{}
	if status != AllKeys {
		q.Set("status", string(status))
	}
	var out []Key
	err := c.pages(ctx, keysPath(p), q, ErrProjectNotFound, func(page []keyJSON) error {
		for _, kj := range page {
			k, err := kj.key()
			if err != nil {
				return err
			}
			out = append(out, k)
		}
		return nil
	})
	return out, err
}

// GetKey reads one key. A key (or project) that is not there is ErrKeyNotFound.
func (c *Client) GetKey(ctx context.Context, p Project, id string) (*Key, error) {
	if !validKeyID(id) {
		return nil, &Error{Kind: ErrValidation, Message: fmt.Sprintf("%q is not a key's public key", clip(id))}
	}
	var kj keyJSON
	if _, err := c.get(ctx, keyPath(p, id), nil, ErrKeyNotFound, &kj); err != nil {
		return nil, err
	}
	return c.keyOf(http.MethodGet, keyPath(p, id), kj)
}

func (c *Client) keyOf(method, path string, kj keyJSON) (*Key, error) {
	k, err := kj.key()
	if err != nil {
		return nil, &Error{Base: c.base, Method: method, Path: dialect.Prefix + path, Kind: ErrBadResponse, Message: err.Error()}
	}
	return &k, nil
}

// CreateKeyOptions are a new key's settings; Sentry names a key left
// unnamed itself (two words, "Joyful Parrot").
type CreateKeyOptions struct {
	Name      string
	RateLimit *RateLimit
}

// CreateKey makes a key. It is sent once (a 429 aside, which Sentry answers
// before the request is handled): when its answer is lost the key may exist
// anyway (OutcomeUnknown), so list the keys before trying again. A rate
// limit the server did not apply (its projects:rate-limits feature off) is
// ErrNotApplied, with the key made.
func (c *Client) CreateKey(ctx context.Context, p Project, o CreateKeyOptions) (*Key, error) {
	if err := checkKeyOptions(o.Name, o.RateLimit); err != nil {
		return nil, err
	}
	body := map[string]any{}
	if o.Name != "" {
		body["name"] = o.Name
	}
	if o.RateLimit != nil {
		body["rateLimit"] = o.RateLimit
	}
	var kj keyJSON
	if _, err := c.call(ctx, apiclient.Call{Method: http.MethodPost, Path: keysPath(p), Body: body}, ErrProjectNotFound, &kj); err != nil {
		return nil, err
	}
	k, err := c.keyOf(http.MethodPost, keysPath(p), kj)
	if err != nil {
		return nil, err
	}
	if o.RateLimit != nil && (k.RateLimit == nil || *k.RateLimit != *o.RateLimit) {
		return k, notApplied(http.MethodPost, keysPath(p), "rateLimit")
	}
	return k, nil
}

// UpdateKeyOptions change a key; nil fields are left as they are.
type UpdateKeyOptions struct {
	Name   *string
	Active *bool
	// RateLimit sets a limit; ClearRateLimit removes it (Sentry's null).
	RateLimit      *RateLimit
	ClearRateLimit bool
	// BrowserSDKVersion and LoaderOptions are sent when set: Sentry's PUT
	// sets browserSdkVersion to the project's default when it is absent
	// (project_key_details.py), so a rename or a switch sends the key's
	// own back (KeepLoader).
	BrowserSDKVersion string
	LoaderOptions     map[string]bool
}

// KeepLoader is o sending back k's loader settings, which o does not set.
func (o UpdateKeyOptions) KeepLoader(k Key) UpdateKeyOptions {
	if o.BrowserSDKVersion == "" {
		o.BrowserSDKVersion = k.BrowserSDKVersion
	}
	if o.LoaderOptions == nil {
		o.LoaderOptions = k.LoaderOptions
	}
	return o
}

// UpdateKey changes a key with PUT and returns it as Sentry answered. A
// change the answer does not show (an empty name, a rate limit where the
// projects:rate-limits feature is off) is ErrNotApplied, with the key.
func (c *Client) UpdateKey(ctx context.Context, p Project, id string, o UpdateKeyOptions) (*Key, error) {
	if !validKeyID(id) {
		return nil, &Error{Kind: ErrValidation, Message: fmt.Sprintf("%q is not a key's public key", clip(id))}
	}
	name := ""
	if o.Name != nil {
		name = *o.Name
		if strings.TrimSpace(name) == "" {
			return nil, &Error{Kind: ErrValidation, Message: "a key's name cannot be empty (Sentry ignores an empty name)"}
		}
	}
	if o.RateLimit != nil && o.ClearRateLimit {
		return nil, &Error{Kind: ErrValidation, Message: "set a rate limit or remove it, not both"}
	}
	if err := checkKeyOptions(name, o.RateLimit); err != nil {
		return nil, err
	}
	body := map[string]any{}
	if o.Name != nil {
		body["name"] = name
	}
	if o.Active != nil {
		body["isActive"] = *o.Active
	}
	if o.BrowserSDKVersion != "" {
		body["browserSdkVersion"] = o.BrowserSDKVersion
	}
	if len(o.LoaderOptions) > 0 {
		body["dynamicSdkLoaderOptions"] = o.LoaderOptions
	}
	switch {
	case o.RateLimit != nil:
		body["rateLimit"] = o.RateLimit
	case o.ClearRateLimit:
		body["rateLimit"] = nil
	}
	path := keyPath(p, id)
	var kj keyJSON
	if _, err := c.call(ctx, apiclient.Call{Method: http.MethodPut, Path: path, Body: body}, ErrKeyNotFound, &kj); err != nil {
		return nil, err
	}
	k, err := c.keyOf(http.MethodPut, path, kj)
	if err != nil {
		return nil, err
	}
	var missed []string
	if o.Name != nil && k.Name != name {
		missed = append(missed, "name")
	}
	if o.Active != nil && k.Active != *o.Active {
		missed = append(missed, "isActive")
	}
	if o.RateLimit != nil && (k.RateLimit == nil || *k.RateLimit != *o.RateLimit) || o.ClearRateLimit && k.RateLimit != nil {
		missed = append(missed, "rateLimit")
	}
	if len(missed) > 0 {
		return k, notApplied(http.MethodPut, path, missed...)
	}
	return k, nil
}

func notApplied(method, path string, fields ...string) error {
	return &Error{StatusCode: http.StatusOK, Method: method, Path: dialect.Prefix + path, Kind: ErrNotApplied,
		Message: "the answer does not show the change to " + strings.Join(fields, ", ")}
}

// checkKeyOptions refuses what Sentry's serializers refuse, before asking.
func checkKeyOptions(name string, rl *RateLimit) error {
	if len([]rune(name)) > 64 {
		return &Error{Kind: ErrValidation, Message: "a key's name is at most 64 characters"}
	}
	if rl != nil && (rl.Count <= 0 || rl.Window <= 0 || rl.Window > MaxRateLimitWindow) {
		return &Error{Kind: ErrValidation, Message: fmt.Sprintf("a rate limit needs a count above 0 and a window of 1 to %d seconds", MaxRateLimitWindow)}
	}
	return nil
}

// DeleteKey deletes a key. A DELETE whose answer was lost is sent again; if
// that finds the key gone, the first one deleted it: resp.AlreadyGone is
// set and the error is nil.
func (c *Client) DeleteKey(ctx context.Context, p Project, id string) (*apiclient.Response, error) {
	if !validKeyID(id) {
		return nil, &Error{Kind: ErrValidation, Message: fmt.Sprintf("%q is not a key's public key", clip(id))}
	}
	resp, err := c.call(ctx, apiclient.Call{Method: http.MethodDelete, Path: keyPath(p, id)}, ErrKeyNotFound, nil)
	if err != nil && resp != nil && resp.Attempts > 1 && isKind(err, ErrKeyNotFound) {
		resp.AlreadyGone = true
		return resp, nil
	}
	return resp, err
}

func isKind(err error, kind error) bool {
	e, ok := err.(*Error)
	return ok && e.Kind == kind
}
