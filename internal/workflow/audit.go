package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/seen"
)

// An audit says where each client key's DSN is used (the project's CI/CD
// variables and those of every ancestor group) and what is wrong, with the
// fix. It changes nothing.

// AuditAPI is what an audit needs.
type AuditAPI interface {
	ProjectAPI
	GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error)
	ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error)
	ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error)
	ListGroupVariables(ctx context.Context, g apiclient.GroupRef) ([]apiclient.Variable, *apiclient.Response, error)
}

// Use is a place a DSN is used: a variable of the project or of a group.
type Use struct {
	Group    string `json:"group,omitempty"` // "" for the project's own
	Variable string `json:"variable"`
	Scope    string `json:"environment_scope"`
}

// Label reads "SENTRY_DSN (production)" or "group web/SENTRY_DSN (all environments)".
func (u Use) Label() string {
	s := VariableTarget{Key: u.Variable, Scope: u.Scope}.Label()
	if u.Group != "" {
		s = "group " + safetext.Excerpt(u.Group, 80) + "/" + s
	}
	return s
}

// Short is Label for a narrow column: "SENTRY_DSN" (all environments),
// "SENTRY_DSN (production)", "web/SENTRY_DSN".
func (u Use) Short() string {
	s := u.Variable
	if u.Scope != "" && u.Scope != "*" {
		s += " (" + u.Scope + ")"
	}
	if u.Group != "" {
		s = safetext.Excerpt(u.Group, 40) + "/" + s
	}
	return s
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
	how      string
}

// AuditedKey is a key and where its DSN is used.
type AuditedKey struct {
	Key  apiclient.ClientKey
	Used []Use
	// Seen is when errtrack first saw the key (exact when Seen.Created);
	// zero when unknown.
	Seen seen.Entry
}

// Audit is one project's audit.
type Audit struct {
	Project  Project
	Settings *apiclient.Settings // nil when none are configured
	Keys     []AuditedKey
	// Unread names the groups whose variables could not be read, and why.
	Unread   map[string]error
	Findings []Finding
	// settingsUnknown: the settings could not be read; no finding about them.
	settingsUnknown bool
}

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

// ancestors are the groups above a project path, nearest first:
// "a/b/c" → "a/b", "a".
func ancestors(path string) []string {
	var out []string
	for i := strings.LastIndex(path, "/"); i > 0; i = strings.LastIndex(path[:i], "/") {
		out = append(out, path[:i])
	}
	return out
}

// AuditProject reads the project, its settings, keys and variables, and
// every ancestor group's variables, all at once (the groups come from the
// project's path: a reference by path needs no first round trip; by ID,
// the groups are read once the project's path is known).
func AuditProject(ctx context.Context, api AuditAPI, ref apiclient.ProjectRef) (Audit, error) {
	a := Audit{Project: Project{Ref: ref, ID: ref.ID, Path: ref.Path}, Unread: map[string]error{}}
	var (
		mu                     sync.Mutex
		wg                     sync.WaitGroup
		keys                   []apiclient.ClientKey
		vars                   []apiclient.Variable
		groupVars              = map[string][]apiclient.Variable{}
		perr, kerr, verr, serr error
	)
	readGroups := func(path string) {
		for _, g := range ancestors(path) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, _, err := api.ListGroupVariables(ctx, apiclient.GroupRef{Path: g})
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					a.Unread[g] = err
					return
				}
				groupVars[g] = v
			}()
		}
	}
	wg.Add(4)
	go func() {
		defer wg.Done()
		var p Project
		p, perr = ResolveProject(ctx, api, ref)
		mu.Lock()
		a.Project = p
		mu.Unlock()
		if ref.Path == "" && perr == nil {
			readGroups(p.Path)
		}
	}()
	go func() { defer wg.Done(); keys, _, kerr = api.ListClientKeys(ctx, ref) }()
	go func() { defer wg.Done(); vars, _, verr = api.ListVariables(ctx, ref) }()
	go func() { defer wg.Done(); a.Settings, _, serr = api.GetSettings(ctx, ref) }()
	if ref.Path != "" {
		readGroups(ref.Path)
	}
	wg.Wait()
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
	a.analyze(keys, vars, groupVars)
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
func KeyUses(ctx context.Context, api UsesAPI, p Project, keys []apiclient.ClientKey, s *apiclient.Settings, known bool) (Audit, error) {
	a := Audit{Project: p, Settings: s, Unread: map[string]error{}, settingsUnknown: !known}
	var (
		mu        sync.Mutex
		wg        sync.WaitGroup
		vars      []apiclient.Variable
		verr      error
		groupVars = map[string][]apiclient.Variable{}
	)
	for _, g := range ancestors(p.Path) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _, err := api.ListGroupVariables(ctx, apiclient.GroupRef{Path: g})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				a.Unread[g] = err
				return
			}
			groupVars[g] = v
		}()
	}
	vars, _, verr = api.ListVariables(ctx, p.Ref)
	wg.Wait()
	if verr != nil {
		return a, fmt.Errorf("the project's CI/CD variables could not be read: %w", verr)
	}
	a.analyze(keys, vars, groupVars)
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
		if len(k.Used) > 0 && (oldestUsed.IsZero() || k.Seen.First.Before(oldestUsed)) {
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
		info := fmt.Sprintf("key %s is referenced by no CI/CD variable", KeyLabel(k.Key))
		a.Findings = slices.DeleteFunc(a.Findings, func(f Finding) bool { return f.What == info })
		a.Findings = append(a.Findings, finding(SeverityWarning,
			fmt.Sprintf("key %s is referenced by no CI/CD variable and is older than the keys in use (first seen %s)", KeyLabel(k.Key), k.Seen.First.Format(time.DateOnly)),
			"if no deployed client still sends with it (an app with its DSN compiled in), delete it (%s)", Action{Do: ActDeleteKey, KeyID: k.Key.ID}))
	}
	sort.SliceStable(a.Findings, func(i, j int) bool { return rank(a.Findings[i].Severity) < rank(a.Findings[j].Severity) })
}

type placed struct {
	use   Use
	value string
}

func (a *Audit) analyze(keys []apiclient.ClientKey, vars []apiclient.Variable, groupVars map[string][]apiclient.Variable) {
	var all []placed
	for _, v := range vars {
		if v.Value != nil {
			all = append(all, placed{Use{Variable: v.Key, Scope: v.EnvironmentScope}, strings.TrimSpace(*v.Value)})
		}
	}
	groups := make([]string, 0, len(groupVars))
	for g := range groupVars {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		for _, v := range groupVars[g] {
			if v.Value != nil {
				all = append(all, placed{Use{Group: g, Variable: v.Key, Scope: v.EnvironmentScope}, strings.TrimSpace(*v.Value)})
			}
		}
	}
	byDSN := map[string]int{}
	for i, k := range keys {
		a.Keys = append(a.Keys, AuditedKey{Key: k})
		byDSN[k.DSN] = i
	}
	// The host DSNs of this instance point at: a variable's DSN there whose
	// key is not the project's is dangling, or another project's.
	hosts := map[string]bool{}
	for _, k := range keys {
		if d, err := dsn.Parse(k.DSN); err == nil {
			hosts[d.Host] = true
		}
	}
	scopesOf := map[string][]string{}
	handedOut := false
	for _, p := range all {
		if i, ok := byDSN[p.value]; ok {
			a.Keys[i].Used = append(a.Keys[i].Used, p.use)
			scopesOf[p.value] = append(scopesOf[p.value], p.use.Label())
			handedOut = true
			continue
		}
		d, err := dsn.Parse(p.value)
		if err != nil || !hosts[d.Host] {
			continue // not a DSN of this instance
		}
		handedOut = true
		if a.Project.ID != 0 && d.ProjectID != a.Project.ID {
			a.Findings = append(a.Findings, finding(SeverityError,
				fmt.Sprintf("%s holds the DSN of a key of another project (%d)", p.use.Label(), d.ProjectID),
				"set it to the DSN of one of this project's keys (%s), or remove it", Action{Do: ActListKeys}))
			continue
		}
		a.Findings = append(a.Findings, finding(SeverityError,
			fmt.Sprintf("%s holds the DSN of a key that no longer exists (public key %s)", p.use.Label(), safetext.Excerpt(d.PublicKey, 13)),
			"set it to the DSN of a current key (%s), or remove it: deploys that read it report nothing", Action{Do: ActListKeys}))
	}
	if handedOut && !a.settingsUnknown && (a.Settings == nil || !a.Settings.Active) {
		a.Findings = append(a.Findings, finding(SeverityWarning,
			"error tracking is disabled while CI/CD variables still hand out a DSN",
			"enable it (%s), or remove the variables", Action{Do: ActEnable}))
	}
	for _, labels := range scopesOf {
		if len(labels) > 1 {
			a.Findings = append(a.Findings, finding(SeverityWarning,
				"the same DSN is in "+strings.Join(labels, ", "),
				"if the environments should report apart, give each its own key (%s, then point one variable at it)", Action{Do: ActCreateKey}))
		}
	}
	for _, k := range a.Keys {
		if len(k.Used) == 0 {
			a.Findings = append(a.Findings, finding(SeverityInfo,
				fmt.Sprintf("key %s is referenced by no CI/CD variable", KeyLabel(k.Key)),
				"fine for a DSN compiled into an app; otherwise delete it once nothing uses it (%s)", Action{Do: ActDeleteKey, KeyID: k.Key.ID}))
		}
	}
	for g, err := range a.Unread {
		why := "they could not be read"
		if errors.Is(err, apiclient.ErrForbidden) {
			why = "reading them needs the Maintainer role on the group"
		}
		a.Findings = append(a.Findings, Finding{Severity: SeverityInfo,
			What: fmt.Sprintf("the CI/CD variables of group %s are not in this audit: %s", safetext.Excerpt(g, 80), why),
			Fix:  "audit with a token of a group Maintainer to include them"})
	}
	sort.SliceStable(a.Findings, func(i, j int) bool { return rank(a.Findings[i].Severity) < rank(a.Findings[j].Severity) })
}

func rank(s string) int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}
