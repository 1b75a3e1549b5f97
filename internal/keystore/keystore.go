// Package keystore holds the two places a project's client keys live, GitLab's
// integrated keys and a Sentry project's keys, behind one KeyStore with
// small capability interfaces for what only some stores can do, and which
// of them a project uses.
package keystore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/safetext"
)

// A project's client keys live in GitLab (integrated error tracking) or in
// the Sentry project its settings name. A rotation reads, makes and
// retires keys through a KeyStore, whichever it is: the steps, the guards,
// the variables and the ledger are the same.

// Backends, as the ledger and the reports name them.
const (
	BackendGitLab = "gitlab"
	BackendSentry = "sentry"
)

// A store's abilities are small interfaces, one per capability (as k9s's
// dao types): every store is a KeyStore; what only some stores can do
// (turn a key off, make it with a rate limit, change it, read the token
// it acts with) a caller asks for by its interface, and a store without
// it simply does not have it. A wrapper that embeds only a KeyStore hides
// them: it wraps the capabilities it must keep too.

// KeyReader reads a project's keys.
type KeyReader interface {
	// Backend is BackendGitLab or BackendSentry; Where names the store for
	// people ("Sentry project acme/web on https://sentry.example").
	Backend() string
	Where() string
	// Read reads the key ref names ("" for the project's only key) and
	// what the new key's check needs: the keys seen and their count.
	Read(ctx context.Context, ref string) (KeysRead, error)
	// Listed reads where the new key is listed (the page after the keys
	// read, on GitLab); All reads every key.
	Listed(ctx context.Context, read KeysRead) ([]apiclient.ClientKey, error)
	All(ctx context.Context) ([]apiclient.ClientKey, error)
}

// Creator makes a key (name: Sentry's; GitLab's keys have none). It is
// never sent twice: a lost answer may hide a key.
type Creator interface {
	Create(ctx context.Context, name string) (*apiclient.ClientKey, error)
}

// Deleter deletes a key: gone reports it was not there (deleted
// elsewhere), onRetry that a retry found the first attempt had worked.
type Deleter interface {
	Delete(ctx context.Context, k apiclient.ClientKey) (gone, onRetry bool, err error)
}

// KeyStore holds one project's client keys: what every store does.
type KeyStore interface {
	KeyReader
	Creator
	Deleter
}

// Disabler turns a key off or on without deleting it (a Sentry's keys).
// GitLab's integrated keys cannot be: its store is no Disabler.
type Disabler interface {
	SetActive(ctx context.Context, k apiclient.ClientKey, active bool) (*apiclient.ClientKey, error)
}

// LimitedCreator is a store whose keys carry a rate limit (a Sentry's):
// a rotation makes the new key with the old key's limit, so replacing a
// key never lifts its cap.
type LimitedCreator interface {
	CreateLimited(ctx context.Context, name string, rl *apiclient.KeyRateLimit) (*apiclient.ClientKey, error)
}

// Updater changes a key's name, switch or rate limit (a Sentry's; GitLab's
// keys have none of these). A change the server did not make (its
// rate-limit feature off) is an error with the key as it is.
type Updater interface {
	UpdateKey(ctx context.Context, ref string, o sentry.UpdateKeyOptions) (*apiclient.ClientKey, error)
}

// TokenReader reads what the token the store acts with may do (a
// Sentry's; GitLab's token is checked on its own).
type TokenReader interface {
	Token(ctx context.Context) (*sentry.TokenInfo, error)
}

// What each store can do, checked by the compiler.
var (
	_ KeyStore       = gitlabKeys{}
	_ KeyStore       = sentryKeys{}
	_ Disabler       = sentryKeys{}
	_ LimitedCreator = sentryKeys{}
	_ Updater        = sentryKeys{}
	_ TokenReader    = sentryKeys{}
)

// KeysRead is what a rotation's plan read of the keys.
type KeysRead struct {
	// Old is the key asked for; Seen the keys read with it.
	Old  *apiclient.ClientKey
	Seen []apiclient.ClientKey
	// Count is how many keys there are; Counted that it is exact.
	Count   int
	Counted bool
}

// KeyRef names a key in its store: GitLab's numeric ID, or a Sentry key's
// public key.
func KeyRef(k apiclient.ClientKey) string {
	if k.ID != 0 {
		return strconv.FormatInt(k.ID, 10)
	}
	return k.PublicKey
}

// SameKey reports two keys that are one.
func SameKey(a, b apiclient.ClientKey) bool {
	if a.ID != 0 || b.ID != 0 {
		return a.ID == b.ID
	}
	return a.PublicKey != "" && a.PublicKey == b.PublicKey
}

// KeyName names a key in a sentence: "12" for GitLab's, `"Default"
// (a1b2c3d4…)` for a Sentry key.
func KeyName(k apiclient.ClientKey) string {
	if k.ID != 0 {
		return strconv.FormatInt(k.ID, 10)
	}
	short := safetext.Excerpt(k.PublicKey, 9)
	if k.Name == "" {
		return short
	}
	return fmt.Sprintf("%q (%s)", safetext.Excerpt(k.Name, 40), short)
}

// gitlabKeys are a project's integrated keys.
type gitlabKeys struct {
	api KeysAPI
	ref apiclient.ProjectRef
}

// GitLabKeys is the KeyStore of project ref's integrated keys.
func GitLabKeys(api KeysAPI, ref apiclient.ProjectRef) KeyStore { return gitlabKeys{api, ref} }

func (g gitlabKeys) Backend() string { return BackendGitLab }
func (g gitlabKeys) Where() string   { return "GitLab" }

// Read reads the list only up to the key asked for (one request when it is
// on the first page), or its first page.
func (g gitlabKeys) Read(ctx context.Context, ref string) (KeysRead, error) {
	var r KeysRead
	var resp *apiclient.Response
	var err error
	if ref != "" {
		id, perr := strconv.ParseInt(ref, 10, 64)
		if perr != nil || id <= 0 {
			return r, fmt.Errorf("%q is not a GitLab client key's ID", ref)
		}
		r.Old, r.Seen, resp, err = g.api.FindClientKey(ctx, g.ref, id)
	} else {
		r.Seen, resp, err = g.api.FirstClientKeys(ctx, g.ref)
	}
	r.Count, r.Counted = len(r.Seen), len(r.Seen) < apiclient.KeysPerPage
	if resp != nil && resp.HasTotal {
		r.Count, r.Counted = resp.Total, true
	}
	return r, err
}

func (g gitlabKeys) Create(ctx context.Context, _ string) (*apiclient.ClientKey, error) {
	k, _, err := g.api.CreateClientKey(ctx, g.ref)
	return k, err
}

// Listed reads the page the new key is on, after every key there was, and
// any after it; without an exact count, the last page.
func (g gitlabKeys) Listed(ctx context.Context, read KeysRead) ([]apiclient.ClientKey, error) {
	if read.Counted {
		keys, _, err := g.api.ListClientKeysFrom(ctx, g.ref, apiclient.KeysPage(read.Count))
		return keys, err
	}
	return g.api.LastClientKeys(ctx, g.ref)
}

func (g gitlabKeys) All(ctx context.Context) ([]apiclient.ClientKey, error) {
	keys, _, err := g.api.ListClientKeys(ctx, g.ref)
	return keys, err
}

func (g gitlabKeys) Delete(ctx context.Context, k apiclient.ClientKey) (bool, bool, error) {
	_, resp, err := g.api.DeleteClientKey(ctx, g.ref, k.ID)
	ok, gone, retry := deleted(resp, err)
	if !ok {
		return false, false, err
	}
	return gone, retry, nil
}

// SentryAPI is what a Sentry project's keys need of a Sentry client.
type SentryAPI interface {
	ListKeys(ctx context.Context, p sentry.Project, status sentry.KeyStatus) ([]sentry.Key, error)
	GetKey(ctx context.Context, p sentry.Project, id string) (*sentry.Key, error)
	CreateKey(ctx context.Context, p sentry.Project, o sentry.CreateKeyOptions) (*sentry.Key, error)
	UpdateKey(ctx context.Context, p sentry.Project, id string, o sentry.UpdateKeyOptions) (*sentry.Key, error)
	DeleteKey(ctx context.Context, p sentry.Project, id string) (*apiclient.Response, error)
	SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error)
	CheckToken(ctx context.Context) (*sentry.TokenInfo, error)
}

// sentryKeys are the keys of the Sentry project a GitLab project reports to.
type sentryKeys struct {
	api     SentryAPI
	project sentry.Project
}

// SentryKeys is the KeyStore of a Sentry project's keys.
func SentryKeys(api SentryAPI, p sentry.Project) KeyStore { return sentryKeys{api, p} }

func (s sentryKeys) Backend() string { return BackendSentry }
func (s sentryKeys) Where() string {
	return fmt.Sprintf("Sentry project %s/%s on %s", s.project.Org, s.project.Slug, s.project.Base)
}

// FromSentry is a Sentry key as a client key: no numeric ID.
func FromSentry(k sentry.Key) apiclient.ClientKey {
	out := apiclient.ClientKey{PublicKey: k.ID, DSN: k.DSN, Active: k.Active, Name: k.Name, CreatedAt: k.Created}
	if k.RateLimit != nil {
		out.RateLimit = &apiclient.KeyRateLimit{Window: k.RateLimit.Window, Count: k.RateLimit.Count}
	}
	return out
}

func fromSentry(keys []sentry.Key) []apiclient.ClientKey {
	out := make([]apiclient.ClientKey, len(keys))
	for i, k := range keys {
		out[i] = FromSentry(k)
	}
	return out
}

// Read reads every key: Sentry pages by cursor, so a key is found by
// reading until it, and a project's keys are few.
func (s sentryKeys) Read(ctx context.Context, ref string) (KeysRead, error) {
	keys, err := s.api.ListKeys(ctx, s.project, sentry.AllKeys)
	if err != nil {
		return KeysRead{}, err
	}
	r := KeysRead{Seen: fromSentry(keys), Count: len(keys), Counted: true}
	for i := range r.Seen {
		if ref != "" && r.Seen[i].PublicKey == ref {
			r.Old = &r.Seen[i]
		}
	}
	if ref != "" && r.Old == nil {
		return r, apiclient.ErrKeyNotFound
	}
	return r, nil
}

func (s sentryKeys) Create(ctx context.Context, name string) (*apiclient.ClientKey, error) {
	return s.CreateLimited(ctx, name, nil)
}

// CreateLimited makes a key with rl (nil: none). A limit the server did not
// apply (its rate-limits feature off, so no key there has one) leaves the
// key made, as asked otherwise.
func (s sentryKeys) CreateLimited(ctx context.Context, name string, rl *apiclient.KeyRateLimit) (*apiclient.ClientKey, error) {
	o := sentry.CreateKeyOptions{Name: name}
	if rl != nil {
		o.RateLimit = &sentry.RateLimit{Count: rl.Count, Window: rl.Window}
	}
	k, err := s.api.CreateKey(ctx, s.project, o)
	if k == nil {
		return nil, err
	}
	if rl != nil && errors.Is(err, sentry.ErrNotApplied) {
		err = nil
	}
	out := FromSentry(*k)
	return &out, err
}

func (s sentryKeys) Listed(ctx context.Context, _ KeysRead) ([]apiclient.ClientKey, error) {
	return s.All(ctx)
}

func (s sentryKeys) All(ctx context.Context) ([]apiclient.ClientKey, error) {
	keys, err := s.api.ListKeys(ctx, s.project, sentry.AllKeys)
	return fromSentry(keys), err
}

func (s sentryKeys) Delete(ctx context.Context, k apiclient.ClientKey) (bool, bool, error) {
	resp, err := s.api.DeleteKey(ctx, s.project, k.PublicKey)
	switch {
	case errors.Is(err, sentry.ErrKeyNotFound):
		return true, false, nil
	case err != nil:
		return false, false, err
	}
	return false, resp != nil && resp.AlreadyGone, nil
}

func (s sentryKeys) SetActive(ctx context.Context, k apiclient.ClientKey, active bool) (*apiclient.ClientKey, error) {
	return s.UpdateKey(ctx, k.PublicKey, sentry.UpdateKeyOptions{Active: &active})
}

// UpdateKey changes a Sentry key's name, switch or rate limit.
func (s sentryKeys) UpdateKey(ctx context.Context, ref string, o sentry.UpdateKeyOptions) (*apiclient.ClientKey, error) {
	k, err := s.update(ctx, ref, o)
	if k == nil {
		return nil, err
	}
	out := FromSentry(*k)
	return &out, err
}

// update changes a key with its loader settings as they are: Sentry's PUT
// resets the JavaScript loader's version to the project's default when it
// is not sent, so the key is read first and its own sent back. A key that
// cannot be read is not changed.
func (s sentryKeys) update(ctx context.Context, ref string, o sentry.UpdateKeyOptions) (*sentry.Key, error) {
	now, err := s.api.GetKey(ctx, s.project, ref)
	if err != nil {
		return nil, err
	}
	return s.api.UpdateKey(ctx, s.project, ref, o.KeepLoader(*now))
}

// Token reads what the Sentry token may do.
func (s sentryKeys) Token(ctx context.Context) (*sentry.TokenInfo, error) {
	return s.api.CheckToken(ctx)
}

// ProjectAPI is what resolving a project needs.
type ProjectAPI interface {
	GetProject(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error)
}

// KeysAPI is what the key workflows need.
type KeysAPI interface {
	ProjectAPI
	ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error)
	CreateClientKey(ctx context.Context, p apiclient.ProjectRef) (*apiclient.ClientKey, *apiclient.Response, error)
	DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error)
	// What a rotation and a delete read of a big list: up to the key in
	// question, the first page, or the pages from one on.
	FindClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, []apiclient.ClientKey, *apiclient.Response, error)
	FirstClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error)
	ListClientKeysFrom(ctx context.Context, p apiclient.ProjectRef, page int) ([]apiclient.ClientKey, *apiclient.Response, error)
	LastClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, error)
}

// deleted reads a delete's answer: a key not found is gone all the same.
func deleted(resp *apiclient.Response, err error) (ok, alreadyGone, onRetry bool) {
	switch {
	case errors.Is(err, apiclient.ErrKeyNotFound):
		return true, true, false
	case err != nil:
		return false, false, false
	}
	return true, false, resp != nil && resp.AlreadyGone
}
