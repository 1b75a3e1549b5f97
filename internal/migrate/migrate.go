package migrate

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/testevent"
)

// A migration carries a project off GitLab's integrated error tracking to
// a Sentry (or a server speaking Sentry's API), with the rotation's
// machinery: the plan shows what changes and what is left alone and why;
// per project, the Sentry project is taken or created, its key taken (a
// new project's "Default") or made, every project and group variable
// holding one of the project's glet_ DSNs is pointed at the Sentry DSN
// (read again right before it is written), a test event through it must be
// accepted, then GitLab's integrated tracking is switched off. The glet_
// keys stay until a later run with DeleteOldKeys, once their clients moved.
// The ledger records each step, so a run started again after any
// interruption goes on where it stopped and never makes a second Sentry
// project or key.

// MigrateAPI is what the target Sentry must answer.
type MigrateAPI interface {
	keystore.SentryAPI
	GetProject(ctx context.Context, p sentry.Project) (*sentry.SentryProject, error)
	ListTeams(ctx context.Context, org string) ([]sentry.Team, error)
	CreateProject(ctx context.Context, org, team string, o sentry.CreateProjectOptions) (*sentry.SentryProject, error)
}

// GroupVariableWriter reads and changes a group's variable.
type GroupVariableWriter interface {
	GetGroupVariable(ctx context.Context, g apiclient.GroupRef, key, scope string) (*apiclient.Variable, *apiclient.Response, error)
	UpdateGroupVariableValue(ctx context.Context, g apiclient.GroupRef, key, scope, value string) (*apiclient.Variable, *apiclient.Response, error)
}

// MigrateChange is a migration of integrated projects to a Sentry.
type MigrateChange struct {
	Sentry MigrateAPI
	// Base is the Sentry's URL; Org the organisation; Slug names each
	// project's target there (a naming rule, or a mapping).
	Base, Org string
	Slug      func(p projectscope.Project) string
	// Named reports a project whose target the user named (a mapping's
	// entry): one that differs from its migration under way is refused,
	// where a naming rule's goes on with the ledger's.
	Named func(p projectscope.Project) bool
	// AskTarget: a migration under way in another organisation of this
	// Sentry goes on there, said in the plan the user is asked (the
	// console); without it, it is refused (the command names its flags).
	AskTarget bool
	// Create makes missing Sentry projects under Team; CreateHow says
	// how the user asks for that, in the front end's words ("run with
	// --create --team TEAM").
	Create    bool
	Team      string
	CreateHow string
	// KeepIntegrated leaves GitLab's integrated tracking on.
	KeepIntegrated bool
	// DeleteOldKeys is the later step: delete the glet_ keys of projects
	// migrated, once no variable holds their DSN.
	DeleteOldKeys bool
	// Token is what the Sentry token may do, read before the plan: a
	// target it cannot write is skipped in the plan.
	Token  *sentry.TokenInfo
	Ledger *rotation.Rotations
	// site is what the plan read of the organisation, once.
	site *migrationSite
}

// Words name the change.
func (k MigrateChange) Words() change.ChangeWords {
	if k.DeleteOldKeys {
		return change.ChangeWords{Doing: "Deleting the integrated keys of migrated projects", Ask: "Delete the integrated (glet_) keys",
			Progress: "Deleting old keys", Plan: "to delete the old keys of"}
	}
	return change.ChangeWords{Doing: "Migrating to the Sentry at " + k.Base, Ask: "Migrate to the Sentry at " + k.Base, Progress: "Migrating",
		Plan: "to migrate", Before: testevent.Warning,
		Resume: "A run started again goes on where this one stopped, with the Sentry projects and keys it made: none is made twice."}
}

// migration is one project's migration plan and state.
type migration struct {
	target  sentry.Project
	exists  bool // the Sentry project exists
	oldKeys []apiclient.ClientKey
	targets []movingVariable
	rec     ledger.Record // the ledger's record, when one was begun
	key     *apiclient.ClientKey
	// hidden are variables that cannot be read and may hold one of its
	// glet_ DSNs: integrated tracking stays on for their clients.
	hidden []string
	// unread are the ancestor groups whose variables could not be read
	// (a 403 for a Maintainer who is not the group's Owner, a 500): they
	// may hand out its glet_ DSNs, so it is not switched off and its keys
	// are not deleted.
	unread map[string]error
}

// holdsOn says why integrated tracking must stay on, "" when nothing
// unseen may hold a glet_ DSN.
func (m migration) holdsOn() string {
	var why []string
	if len(m.unread) > 0 {
		why = append(why, UnreadGroupsWords(m.unread))
	}
	if len(m.hidden) > 0 {
		why = append(why, "the hidden "+strings.Join(m.hidden, ", ")+" may hold a glet_ DSN")
	}
	return strings.Join(why, "; ")
}

// UnreadGroupsWords say which groups' variables could not be read, and why.
func UnreadGroupsWords(unread map[string]error) string {
	var parts []string
	for _, g := range slices.Sorted(maps.Keys(unread)) {
		why := "they could not be read"
		if errors.Is(unread[g], apiclient.ErrForbidden) {
			why = "reading them needs the Owner role on the group"
		}
		parts = append(parts, "the variables of group "+safetext.Excerpt(g, 80)+" may hold a glet_ DSN ("+why+")")
	}
	return strings.Join(parts, "; ")
}

// movingVariable is a project's or group's variable holding one of the
// project's glet_ DSNs.
type movingVariable struct {
	rotation.VariableTarget
	group string // the group's path; "" for the project's own
	old   string // the DSN it holds
	done  bool
}

func (m movingVariable) label() string {
	if m.group != "" {
		return "group " + m.group + "/" + m.Label()
	}
	return m.Label()
}

func (k MigrateChange) target(p projectscope.Project) sentry.Project {
	return sentry.Project{Base: k.Base, Org: k.Org, Slug: k.Slug(p)}
}

func TargetName(t sentry.Project) string { return t.Org + "/" + t.Slug }

// CrossCheck stops the projects a naming rule sends to one Sentry project:
// their events would mix, and they would share one key.
func (k MigrateChange) CrossCheck(items []change.Item) {
	if k.DeleteOldKeys {
		return // the later step makes no Sentry project
	}
	crossCheckOwn(items)
	by := map[string][]int{}
	for i, it := range items {
		if m := plannedMigration(it); it.Acts() && m != nil {
			t := TargetName(m.target)
			by[t] = append(by[t], i)
		}
	}
	for t, at := range by {
		if len(at) < 2 {
			continue
		}
		for _, i := range at {
			var others []string
			for _, j := range at {
				if j != i {
					others = append(others, items[j].Project.Name())
				}
			}
			it := &items[i]
			it.Action, it.Result = "", change.ResultFailed
			withMigration(it, nil)
			it.Skip = "its Sentry project " + t + " is also the target of " + strings.Join(others, ", ") + ": give each project its own (a naming rule that tells them apart, such as {path_slug}, or a mapping)"
		}
	}
}

// ledgerTarget is the target as the ledger keeps it.
func ledgerTarget(t sentry.Project) string { return t.Base + "/" + t.Org + "/" + t.Slug }

func (k MigrateChange) Plan(ctx context.Context, env *change.PlanEnv, p apiclient.Project) change.Item {
	it := change.Item{Project: change.ProjectOf(p)}
	prev, hasPrev := k.Ledger.MigrationOf(p.ID)
	if k.DeleteOldKeys {
		return k.planDelete(ctx, env, it, prev, hasPrev)
	}
	if hasPrev && (!prev.IsOpen() || prev.Phase == ledger.PhaseMigrated) {
		it.Skip, it.Result = k.migratedWords(ctx, env, it.Project, prev), change.ResultUnchanged
		return it
	}
	var s *apiclient.Settings
	var keys []apiclient.ClientKey
	var vars []apiclient.Variable
	var serr, kerr, verr error
	fanout.Together(func() error {
		s, _, serr = env.API.GetSettings(ctx, it.Project.Ref)
		return nil
	}, func() { keys, _, kerr = env.API.ListClientKeys(ctx, it.Project.Ref) },
		func() { vars, _, verr = env.API.ListVariables(ctx, it.Project.Ref) })
	switch {
	case errors.Is(serr, apiclient.ErrSettingsNotFound):
		it.Skip, it.Result = "no error tracking set up: nothing to migrate", change.ResultSkipped
		return it
	case projectscope.FirstErr(serr, kerr, verr) != nil:
		it.Skip, it.Result, it.Err = "could not be read", change.ResultFailed, projectscope.FirstErr(serr, kerr, verr)
		return it
	case keystore.SentryBacked(s) && !hasPrev:
		it.Skip, it.Result, it.Detail = "reports to a Sentry already", change.ResultSkipped, MigrationResult{sentryOwn: ownSentry(s)}
		return it
	case len(keys) == 0 && !hasPrev:
		it.Skip, it.Result = "has no integrated client key: nothing to migrate", change.ResultSkipped
		return it
	}
	m := &migration{target: k.target(it.Project), oldKeys: keys}
	var kept string
	if hasPrev {
		var refused string
		if m.target, refused, kept = k.keptTarget(it.Project, prev, m.target); refused != "" {
			it.Skip, it.Result = refused, change.ResultFailed
			return it
		}
	}
	if by := takenBy(k.Ledger, it.Project.ID, m.target); by != "" {
		it.Skip, it.Result = "its Sentry project "+safetext.Excerpt(TargetName(m.target), 120)+" is already the target of "+by+": give it its own (a mapping)", change.ResultFailed
		return it
	}
	if m.target.Slug == "" {
		// A slug of nothing names no Sentry project: "ORG/" would be
		// made anew on every run.
		it.Skip, it.Result = "its target's slug comes to nothing: name it (lower-case letters, digits, - and _)", change.ResultFailed
		return it
	}
	if hasPrev {
		m.rec = prev
	}
	var hidden, others []string
	m.targets, hidden, others = movingVariables(vars, "", keys)
	gv := env.Groups.Ancestors(ctx, env.API, it.Project.Path)
	groupVars, unread := gv.Read, gv.Unread
	if len(unread) > 0 {
		m.unread = unread
	}
	for g, gv := range groupVars {
		t, h, _ := movingVariables(gv, g, keys)
		m.targets, hidden = append(m.targets, t...), append(hidden, h...)
	}
	sp, err := k.Sentry.GetProject(ctx, m.target)
	switch {
	case err == nil:
		m.exists = sp != nil
	case !errors.Is(err, sentry.ErrProjectNotFound):
		it.Skip, it.Result, it.Err = "its Sentry project "+TargetName(m.target)+" could not be read", change.ResultFailed, err
		return it
	case k.orgMissing() != "":
		it.Skip, it.Result = k.orgMissing(), change.ResultFailed
		return it
	case !k.Create:
		it.Skip, it.Result = "no Sentry project "+TargetName(m.target)+": create it", change.ResultSkipped
		if k.CreateHow != "" {
			it.Skip += ", or " + k.CreateHow
		}
		return it
	}
	why, note := k.cannot(m.exists)
	if why != "" {
		it.Skip, it.Result = why, change.ResultFailed
		return it
	}
	m.hidden = hidden
	res := MigrationResult{migration: m}
	it.Action = k.action(m, others)
	if note != "" {
		it.Action += "; " + note
	}
	if kept != "" {
		it.Action += "; " + kept
	}
	if hasPrev {
		res.GoesOn = true
		it.Action = "go on (begun " + prev.Started.Local().Format("2006-01-02 15:04") + "): " + it.Action
	}
	it.Detail = res
	return it
}

// action says what the plan does in a project.
func (k MigrateChange) action(m *migration, others []string) string {
	var parts []string
	if m.exists {
		parts = append(parts, "to Sentry project "+TargetName(m.target))
	} else {
		parts = append(parts, "to a new Sentry project "+TargetName(m.target)+" (team "+k.Team+")")
	}
	switch {
	case len(m.targets) == 0 && len(m.rec.Variables) > 0:
		var moved []string
		for _, v := range m.rec.Variables {
			name := rotation.VariableTarget{Key: v.Key, Scope: v.Scope}.Label()
			if v.Group != "" {
				name = "group " + safetext.Excerpt(v.Group, 80) + "/" + name
			}
			moved = append(moved, name)
		}
		parts = append(parts, strings.Join(moved, ", ")+" moved to the Sentry DSN by the run before")
	case len(m.targets) == 0:
		parts = append(parts, "no variable holds its DSNs")
	default:
		names := make([]string, len(m.targets))
		for i, t := range m.targets {
			names[i] = t.label()
		}
		parts = append(parts, "pointing "+strings.Join(names, ", ")+" at the Sentry DSN")
	}
	parts = append(parts, "a test event")
	switch {
	case m.holdsOn() != "":
		parts = append(parts, "integrated tracking left on, as "+m.holdsOn()+" and their clients would stop reporting unseen: switch it off once they are checked")
	case !k.KeepIntegrated:
		parts = append(parts, "integrated tracking switched off")
	}
	if len(others) > 0 {
		parts = append(parts, "left, holding an integrated DSN of no key of this project (another project's, or a deleted key's): "+strings.Join(others, ", "))
	}
	return strings.Join(parts, "; ")
}

// movingVariables sorts a project's or group's variables: those holding
// one of keys' DSNs move; hidden ones cannot be told; those holding an
// integrated DSN of another project stay.
func movingVariables(vars []apiclient.Variable, group string, keys []apiclient.ClientKey) (moving []movingVariable, hidden, others []string) {
	for _, v := range vars {
		t := rotation.VariableTarget{Key: v.Key, Scope: v.EnvironmentScope, Masked: v.Masked, Protected: v.Protected, Raw: v.Raw, Exists: true}
		name := t.Label()
		if group != "" {
			name = "group " + group + "/" + name
		}
		if v.Value == nil {
			hidden = append(hidden, name)
			continue
		}
		t.Was, t.WasKnown = *v.Value, true
		if v.VariableType == "file" {
			t.File = v.Value
		}
		held := ""
		for _, k := range keys {
			if rotation.HoldsDSN(v, k.DSN) {
				held = k.DSN
			}
		}
		switch {
		case held != "":
			t.HoldsOld = true
			moving = append(moving, movingVariable{VariableTarget: t, group: group, old: held})
		case group == "" && strings.Contains(*v.Value, "glet_") && dsn.Check(strings.TrimSpace(*v.Value)) == nil:
			others = append(others, name)
		}
	}
	return moving, hidden, others
}

// keyRefs are keys' refs, for the ledger.
func keyRefs(keys []apiclient.ClientKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = keystore.KeyRef(k)
	}
	slices.Sort(out)
	return out
}

// MigrationOf is a project's last migration in the ledger, if any.
func MigrationOf(l *rotation.Rotations, projectID int64) (ledger.Record, bool) {
	return l.MigrationOf(projectID)
}
