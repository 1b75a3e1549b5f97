package audit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/errtrack/errtrack/internal/rotation"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/seen"
)

// An audit says where each client key's DSN is used (the project's CI/CD
// variables and those of every ancestor group) and what is wrong, with the
// fix. It changes nothing.

// AuditAPI is what an audit needs.
type AuditAPI interface {
	keystore.ProjectAPI
	GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error)
	ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error)
	ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error)
	ListGroupVariables(ctx context.Context, g apiclient.GroupRef) ([]apiclient.Variable, *apiclient.Response, error)
}

// Severity of a finding.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Finding is something wrong (or worth knowing), with its fix: Fix as the
// commands word it, Action what it does (FixWith words it otherwise).
type Finding struct {
	Severity string `json:"severity"`
	What     string `json:"what"`
	Fix      string `json:"fix"`
	Action   Action `json:"-"`
	fix      remedy
	// ofVariables: a warning about what the variables hand out, which
	// the doctor's variables check also warns of.
	ofVariables bool
}

// AuditedKey is a key and where its DSN is used. When no variable errtrack
// can read holds it and some cannot be read, Used holds those (Unknown
// set): the key's use is unknown, never "unused".
type AuditedKey struct {
	Key  apiclient.ClientKey
	Used []rotation.Use
	// Seen is when errtrack first saw the key (exact when Seen.Created);
	// zero when unknown.
	Seen seen.Entry
}

// Audit is one project's audit.
type Audit struct {
	Project  projectscope.Project
	Settings *apiclient.Settings // nil when none are configured
	Keys     []AuditedKey
	// Unread names the groups whose variables could not be read, and why.
	Unread   map[string]error
	Findings []Finding
	// settingsUnknown: the settings could not be read; no finding about them.
	settingsUnknown bool
	// Backend is where the keys are (BackendSentry for a Sentry-backed
	// project's audit with its Sentry's keys); Where names it.
	Backend, Where string
	// sentryUnread: the project's Sentry keys could not be read.
	sentryUnread error
	// variables and groupVariables are the CI/CD variables the audit
	// read, for the policy's rules on them; unexported, so no report that
	// prints an Audit can print their values.
	variables      []apiclient.Variable
	groupVariables map[string][]apiclient.Variable
}

// VariablesRead are the CI/CD variables the audit read: the project's,
// and each ancestor group's that could be read, by path. The policy's
// rules on variables are held to them, with no second read.
func (a Audit) VariablesRead() (project []apiclient.Variable, groups map[string][]apiclient.Variable) {
	return a.variables, a.groupVariables
}

// Known are the uses read; UseUnknown says the key's use cannot be told.
func (k AuditedKey) Known() []rotation.Use {
	var out []rotation.Use
	for _, u := range k.Used {
		if u.Unknown == "" {
			out = append(out, u)
		}
	}
	return out
}

// UseUnknown reports a key no readable variable holds while some variable
// could not be read.
func (k AuditedKey) UseUnknown() bool { return len(k.Used) > 0 && len(k.Known()) == 0 }

// Errors counts error findings.
func (a Audit) Errors() int {
	n := 0
	for _, f := range a.Findings {
		if f.Severity == SeverityError {
			n++
		}
	}
	return n
}

// UnreadGroups are the groups whose variables could not be read, in
// order: a kept report reads the same run after run.
func (a Audit) UnreadGroups() []string {
	return slices.Sorted(maps.Keys(a.Unread))
}

// AuditOptions are what an audit may know beyond the project's reference.
type AuditOptions struct {
	// LastPath is the path of a project given by ID when errtrack last saw
	// it: its groups are read at once with the rest, and again, from the
	// path the server gives, only if the project has moved.
	LastPath string
	// Resolve, when set, reads a Sentry-backed project's keys from its
	// Sentry (a second round trip); a Sentry that cannot be reached is a
	// finding.
	Resolve keystore.SentryResolver
}

// AuditProjectWith reads the project, its settings, keys and variables,
// and every ancestor group's variables, all at once (the groups come from
// the project's path: a reference by path needs no first round trip; by
// ID, the groups are read once the project's path is known), with what o
// adds.
func AuditProjectWith(ctx context.Context, api AuditAPI, ref apiclient.ProjectRef, o AuditOptions) (Audit, error) {
	lastPath, resolve := o.LastPath, o.Resolve
	a := Audit{Project: projectscope.Project{Ref: ref, ID: ref.ID, Path: ref.Path}, Unread: map[string]error{}}
	var (
		mu                     sync.Mutex
		wg                     sync.WaitGroup
		keys                   []apiclient.ClientKey
		vars                   []apiclient.Variable
		groups                 projectscope.GroupVariablesReader
		perr, kerr, verr, serr error
	)
	guess := ref.Path
	if guess == "" {
		guess = lastPath
	}
	// The groups are read ahead, once each; those above the project's
	// real path count.
	readGroups := func(path string) {
		wg.Go(func() { groups.Ancestors(ctx, api, path) })
	}
	wg.Add(4)
	go func() {
		defer wg.Done()
		var p projectscope.Project
		p, perr = projectscope.ResolveProject(ctx, api, ref)
		mu.Lock()
		a.Project = p
		mu.Unlock()
		if ref.Path == "" && perr == nil && p.Path != guess {
			// Not the path last seen (or none was): read the groups it
			// names, and forget those of the guess below.
			readGroups(p.Path)
		}
	}()
	go func() { defer wg.Done(); keys, _, kerr = api.ListClientKeys(ctx, ref) }()
	go func() { defer wg.Done(); vars, _, verr = api.ListVariables(ctx, ref) }()
	go func() { defer wg.Done(); a.Settings, _, serr = api.GetSettings(ctx, ref) }()
	if guess != "" {
		readGroups(guess)
	}
	wg.Wait()
	path := guess
	if perr == nil {
		path = a.Project.Path
	}
	gv := groups.Ancestors(ctx, api, path)
	a.Unread = gv.Unread
	switch {
	case perr != nil && (errors.Is(perr, apiclient.ErrProjectNotFound) || errors.Is(perr, apiclient.ErrUnauthorized)):
		return a, perr
	case kerr != nil:
		return a, kerr
	case verr != nil:
		return a, fmt.Errorf("the project's CI/CD variables could not be read: %w", verr)
	case serr != nil && !errors.Is(serr, apiclient.ErrSettingsNotFound):
		return a, serr
	}
	if keystore.SentryBacked(a.Settings) && resolve != nil {
		a.Backend = keystore.BackendSentry
		store, err := resolve(ctx, *a.Settings.APIURL)
		if err == nil {
			a.Where = store.Where()
			keys, err = store.All(ctx)
		}
		if err != nil {
			a.sentryUnread = err
			keys = nil
		}
	}
	a.analyze(keys, vars, gv.Read)
	return a, nil
}

// UsesAPI is what KeyUses needs.
type UsesAPI interface {
	ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error)
	ListGroupVariables(ctx context.Context, g apiclient.GroupRef) ([]apiclient.Variable, *apiclient.Response, error)
}

// KeyUses is the audit of keys already read (the console's keys pane):
// it reads only the project's variables and every ancestor group's, all at
// once, so the list it annotates is never held up. p.Path must be known.
// s is the project's settings (nil: none configured) when known is true;
// unknown settings (their load failed) raise no finding of their own.
func KeyUses(ctx context.Context, api UsesAPI, p projectscope.Project, keys []apiclient.ClientKey, s *apiclient.Settings, known bool) (Audit, error) {
	a := Audit{Project: p, Settings: s, settingsUnknown: !known}
	var vars []apiclient.Variable
	var gv projectscope.GroupVariables
	verr := fanout.Together(func() (err error) {
		vars, _, err = api.ListVariables(ctx, p.Ref)
		return err
	}, func() { gv = projectscope.AncestorVariables(ctx, api, p.Path) })
	a.Unread = gv.Unread
	if verr != nil {
		return a, fmt.Errorf("the project's CI/CD variables could not be read: %w", verr)
	}
	a.analyze(keys, vars, gv.Read)
	return a, nil
}

// WithAges adds when errtrack first saw each key, and warns of a key
// referenced nowhere that is older than every key in use: most likely the
// one a rotation left behind. Keys first seen together say nothing of
// their order, so they raise nothing.
func (a *Audit) WithAges(ages map[int64]seen.Entry) {
	var newestUnused, oldestUsed time.Time
	for i := range a.Keys {
		k := &a.Keys[i]
		k.Seen = ages[k.Key.ID]
		if k.Seen.First.IsZero() {
			continue
		}
		if len(k.Known()) > 0 && (oldestUsed.IsZero() || k.Seen.First.Before(oldestUsed)) {
			oldestUsed = k.Seen.First
		}
		if len(k.Used) == 0 && k.Seen.First.After(newestUnused) {
			newestUnused = k.Seen.First
		}
	}
	if oldestUsed.IsZero() {
		return
	}
	for _, k := range a.Keys {
		if len(k.Used) > 0 || k.Seen.First.IsZero() || !k.Seen.First.Before(oldestUsed) {
			continue
		}
		info := fmt.Sprintf("key %s is referenced by no CI/CD variable", rotation.KeyLabel(k.Key))
		a.Findings = slices.DeleteFunc(a.Findings, func(f Finding) bool { return f.What == info })
		a.Findings = append(a.Findings, finding(SeverityWarning,
			fmt.Sprintf("key %s is referenced by no CI/CD variable and is older than the keys in use (first seen %s)", rotation.KeyLabel(k.Key), k.Seen.First.Format(time.DateOnly)),
			remedyOf("if no deployed client still sends with it (an app with its DSN compiled in), delete it (%s)", Action{Do: ActDeleteKey, Key: k.Key})))
	}
	sort.SliceStable(a.Findings, func(i, j int) bool { return rank(a.Findings[i].Severity) < rank(a.Findings[j].Severity) })
}
