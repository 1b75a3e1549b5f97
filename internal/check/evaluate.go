package check

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
)

// Project is one project's audit and the variables it was made from (the
// same reads: none of its own).
type Project struct {
	Audit audit.Audit
	// Variables are the project's own; GroupVariables each ancestor
	// group's that could be read.
	Variables      []apiclient.Variable
	GroupVariables map[string][]apiclient.Variable
	// TestEvents are the test events sent through the keys in use (by
	// keystore.KeyRef), for the test-event rule.
	TestEvents map[string]TestEvent
	// KeysUnread says why the keys (a Sentry's) could not be read: the
	// rules on keys are then not checked, never taken as holding.
	KeysUnread string
}

// ProjectOf is the project an audit read, with the CI/CD variables it read.
func ProjectOf(a audit.Audit) Project {
	vars, groups := a.VariablesRead()
	return Project{Audit: a, Variables: vars, GroupVariables: groups}
}

// TestEvent is a test event's answer; Err, it could not be sent.
type TestEvent struct {
	Accepted bool
	Status   int
	Err      error
}

// InUse are the keys the test-event rule sends an event through: active,
// and held by a variable errtrack can read.
func InUse(a audit.Audit) []apiclient.ClientKey {
	var out []apiclient.ClientKey
	for _, k := range a.Keys {
		if k.Key.Active && len(k.Known()) > 0 {
			out = append(out, k.Key)
		}
	}
	return out
}

// Finding is a rule a project breaks, with what fixes it.
type Finding struct {
	Rule     string `json:"rule"`
	Project  string `json:"project"`
	Key      string `json:"key,omitempty"`
	Variable string `json:"variable,omitempty"`
	What     string `json:"what"`
	// Fix is Action as errtrack's command line.
	Fix    string    `json:"fix"`
	Action FixAction `json:"-"`
	// Mendable: check --fix mends it.
	Mendable bool `json:"mendable"`
	// Evidence: what the finding was read from (never a value).
	Evidence map[string]any `json:"evidence,omitempty"`

	key apiclient.ClientKey
	// variable the key is held by (a rotation repoints it).
	holder *rotation.Use
	// rateLimit is the policy's limit, COUNT/WINDOW.
	rateLimit string
}

// RateLimitWant is the rate limit the policy gives a key, COUNT/WINDOW.
func (f Finding) RateLimitWant() string { return f.rateLimit }

// ClientKey is the key a finding is about (zero for none).
func (f Finding) ClientKey() apiclient.ClientKey { return f.key }

// Holder is the variable holding the finding's key, if any.
func (f Finding) Holder() *rotation.Use { return f.holder }

// Unchecked is a rule errtrack could not check in a project, and why.
type Unchecked struct {
	Project string   `json:"project"`
	Rules   []string `json:"rules,omitempty"`
	Group   string   `json:"group,omitempty"`
	Why     string   `json:"why"`
}

// Result is a project's rules and what they found.
type Result struct {
	Project   string      `json:"project"`
	Backend   string      `json:"backend"`
	Rules     []string    `json:"rules"`
	Findings  []Finding   `json:"findings"`
	Unchecked []Unchecked `json:"unchecked,omitempty"`
	// Audit is the audit it was read from (for --fix).
	Audit audit.Audit `json:"-"`
}

// Evaluate holds one project to the policy's rules for it.
func Evaluate(p *Policy, pr Project, now time.Time) Result {
	a := pr.Audit
	path := a.Project.Path
	rules := p.For(path)
	r := Result{Project: a.Project.Name(), Backend: keystore.BackendGitLab, Rules: rules.Set(), Findings: []Finding{}, Audit: a}
	if r.Rules == nil {
		r.Rules = []string{}
	}
	if a.Backend != "" {
		r.Backend = a.Backend
	}
	e := evaluation{r: &r, pr: pr, rules: rules, now: now}
	for _, rule := range r.Rules {
		switch rule {
		case RuleKeyMaxAge:
			e.keyAge()
		case RuleRateLimit:
			e.rateLimit()
		case RuleIntegrated:
			e.integrated()
		case RuleDSNVariables:
			e.variables()
		case RuleDanglingDSN:
			e.dangling()
		case RuleUnusedKeys:
			e.unused()
		case RuleTestEvent:
			e.testEvents()
		}
	}
	// Rules that read variables cannot be held where some could not be
	// read: each such group is named, never taken as empty.
	if pr.KeysUnread != "" {
		var onKeys []string
		for _, rule := range r.Rules {
			if rule != RuleIntegrated && rule != RuleDSNVariables {
				onKeys = append(onKeys, rule)
			}
		}
		if len(onKeys) > 0 {
			r.Unchecked = append(r.Unchecked, Unchecked{Project: r.Project, Rules: onKeys, Why: "the keys could not be read: " + pr.KeysUnread})
		}
	}
	var needVars []string
	for _, rule := range r.Rules {
		if rule == RuleDSNVariables || rule == RuleDanglingDSN || rule == RuleUnusedKeys {
			needVars = append(needVars, rule)
		}
	}
	for _, g := range a.UnreadGroups() {
		if len(needVars) > 0 {
			r.Unchecked = append(r.Unchecked, Unchecked{Project: r.Project, Rules: needVars, Group: g,
				Why: unreadGroupWhy(g, a.Unread[g])})
		}
	}
	return r
}

type evaluation struct {
	r     *Result
	pr    Project
	rules Rules
	now   time.Time
}

func (e *evaluation) add(f Finding) {
	f.Project = e.r.Project
	if f.key.PublicKey != "" && f.Key == "" {
		f.Key = keystore.KeyName(f.key)
	}
	f.Action.Project = e.pr.Audit.Project.Path
	f.Fix = f.Action.Command()
	e.r.Findings = append(e.r.Findings, f)
}

// keyArg names a key on a command line: a GitLab key's ID, a Sentry key's
// public key.
func keyArg(k apiclient.ClientKey) string {
	if k.ID != 0 {
		return fmt.Sprint(k.ID)
	}
	return k.PublicKey
}

func (e *evaluation) keyAge() {
	limit := e.rules.KeyMaxAge.Days
	var ageless []string
	defer func() {
		// A key whose age errtrack does not know (neither errtrack nor
		// its Sentry says when it was made) is named, not taken as young.
		if len(ageless) > 0 {
			e.r.Unchecked = append(e.r.Unchecked, Unchecked{Project: e.r.Project, Rules: []string{RuleKeyMaxAge},
				Why: "errtrack does not know the age of key " + strings.Join(ageless, ", key ")})
		}
	}()
	for _, k := range e.pr.Audit.Keys {
		if !k.Key.Active {
			continue
		}
		if k.Seen.First.IsZero() {
			ageless = append(ageless, keystore.KeyName(k.Key))
			continue
		}
		days := int(e.now.Sub(k.Seen.First).Hours() / 24)
		if days <= limit {
			continue
		}
		by := "first seen by errtrack"
		switch {
		case e.pr.Audit.Backend == keystore.BackendSentry:
			by = "created in Sentry" // its dateCreated
		case k.Seen.Created:
			by = "created by errtrack"
		}
		fix := FixAction{Kind: FixRotateKey, Key: k.Key}
		var holder *rotation.Use
		known := k.Known()
		if len(known) > 0 {
			u := known[0]
			holder = &u
			fix.Variable, fix.Group = u.Variable, u.Group
		}
		e.add(Finding{Rule: RuleKeyMaxAge, key: k.Key, holder: holder, Variable: labels(known),
			What:   fmt.Sprintf("key %s is %d days old (%s %s); the policy allows %d", keystore.KeyName(k.Key), days, by, k.Seen.First.Format(time.DateOnly), limit),
			Action: fix, Mendable: len(known) == 1 && known[0].Group == "" && known[0].Line == "" && !k.UseUnknown(),
			Evidence: map[string]any{"age_days": days, "since": k.Seen.First, "age_from": by}})
	}
}

func (e *evaluation) rateLimit() {
	if e.pr.Audit.Backend != keystore.BackendSentry {
		return // GitLab's integrated keys have no rate limit
	}
	rl := e.rules.RateLimit
	want := "COUNT/WINDOW"
	if rl.Count > 0 {
		want = fmt.Sprintf("%d/%d", rl.Count, rl.Window)
	}
	for _, k := range e.pr.Audit.Keys {
		got := k.Key.RateLimit
		var what string
		switch {
		case got == nil || got.Count == 0:
			what = "key " + keystore.KeyName(k.Key) + " has no rate limit"
		case rl.Count > 0 && (got.Count != rl.Count || got.Window != rl.Window):
			what = fmt.Sprintf("key %s has the rate limit %d/%ds, not the policy's %s", keystore.KeyName(k.Key), got.Count, got.Window, want)
		default:
			continue
		}
		ev := map[string]any{"rate_limit": got}
		e.add(Finding{Rule: RuleRateLimit, key: k.Key, What: what, Mendable: rl.Count > 0, Evidence: ev, rateLimit: want,
			Action: FixAction{Kind: FixSetRateLimit, Key: k.Key, RateLimit: want}})
	}
}

func (e *evaluation) integrated() {
	s := e.pr.Audit.Settings
	if s == nil || !s.Integrated {
		return
	}
	switch *e.rules.Integrated {
	case IntegratedNone:
		e.add(Finding{Rule: RuleIntegrated, What: fmt.Sprintf("integrated error tracking is still configured (%s)", onOff(s.Active)),
			Action: FixAction{Kind: FixMigrate}, Evidence: map[string]any{"active": s.Active, "integrated": true}})
	case IntegratedOff:
		if s.Active {
			e.add(Finding{Rule: RuleIntegrated, What: "integrated error tracking is enabled",
				Action: FixAction{Kind: FixDisableIntegrated}, Evidence: map[string]any{"active": true, "integrated": true}})
		}
	}
}

func onOff(b bool) string {
	if b {
		return "enabled"
	}
	return "disabled"
}

func (e *evaluation) unused() {
	limit := e.rules.UnusedKeys.Days
	for _, k := range e.pr.Audit.Keys {
		if len(k.Used) > 0 || k.Seen.First.IsZero() {
			continue // used, its use unknown, or its age unknown: never "unused"
		}
		days := int(e.now.Sub(k.Seen.First).Hours() / 24)
		if days <= limit {
			continue
		}
		e.add(Finding{Rule: RuleUnusedKeys, key: k.Key, Mendable: true,
			What:     fmt.Sprintf("key %s is referenced by no CI/CD variable and was first seen %d days ago; the policy allows %d", keystore.KeyName(k.Key), days, limit),
			Action:   FixAction{Kind: FixDeleteKey, Key: k.Key},
			Evidence: map[string]any{"first_seen": k.Seen.First, "used_in": []string{}}})
	}
}

// shellArg quotes a project path for a command line when it needs it.
func shellArg(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (e *evaluation) testEvents() {
	for _, k := range InUse(e.pr.Audit) {
		te, sent := e.pr.TestEvents[keystore.KeyRef(k)]
		switch {
		case !sent:
			e.r.Unchecked = append(e.r.Unchecked, Unchecked{Project: e.r.Project, Rules: []string{RuleTestEvent},
				Why: "no test event was sent through key " + keystore.KeyName(k)})
		case te.Err != nil:
			e.r.Unchecked = append(e.r.Unchecked, Unchecked{Project: e.r.Project, Rules: []string{RuleTestEvent},
				Why: "the test event through key " + keystore.KeyName(k) + " could not be sent: " + te.Err.Error()})
		case !te.Accepted:
			e.add(Finding{Rule: RuleTestEvent, key: k,
				What:     fmt.Sprintf("a test event through key %s was not accepted (HTTP %d): its clients' events are lost", keystore.KeyName(k), te.Status),
				Action:   FixAction{Kind: FixDoctor, Key: k},
				Evidence: map[string]any{"status": te.Status, "accepted": false}})
		}
	}
}

// unreadGroupWhy says why a group's variables are not in the check: a 403
// is the Owner role GitLab asks for them; anything else is the failure.
func unreadGroupWhy(g string, err error) string {
	why := "the CI/CD variables of group " + g + " could not be read"
	if errors.Is(err, apiclient.ErrForbidden) {
		return why + ": reading them needs the Owner role on the group"
	}
	return why + " (" + err.Error() + ")"
}
