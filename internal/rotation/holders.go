package rotation

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// Right before a key goes (a rotation's delete or disable, a migration's
// last step), the variables that may hold its DSN are read again: a plan
// can be minutes old, and a variable that took the DSN since then would
// be left pointing at a key that no longer exists.

// HoldersAPI reads a project's and its ancestor groups' variables.
type HoldersAPI interface {
	ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error)
	projectscope.GroupVariablesAPI
}

// Holders are where a DSN is held as read right now: the variables of the
// project (Group "") and of its ancestor groups that hold it, nearest
// first, and the groups whose variables could not be read, with why.
type Holders struct {
	Uses   []Use
	Unread map[string]error
}

// ReadHolders reads the variables of project p and of its ancestor groups
// (through groups when given, so a run reads each group once; afresh when
// nil) and says which hold dsn. err: the project's own could not be read,
// so whether they hold it is unknown.
func ReadHolders(ctx context.Context, api HoldersAPI, p projectscope.Project, dsn string, groups *projectscope.GroupVariablesReader) (Holders, error) {
	var vars []apiclient.Variable
	var gv projectscope.GroupVariables
	err := fanout.Together(func() (err error) {
		vars, _, err = api.ListVariables(ctx, p.Ref)
		return err
	}, func() {
		if groups == nil {
			groups = new(projectscope.GroupVariablesReader)
		}
		gv = groups.Ancestors(ctx, api, p.Path)
	})
	if err != nil {
		return Holders{}, err
	}
	h := Holders{Uses: matchGroupUses(map[string][]apiclient.Variable{"": vars}, dsn), Unread: gv.Unread}
	h.Uses = append(h.Uses, matchGroupUses(gv.Read, dsn)...)
	return h, nil
}

// UnreadGroups are the groups whose variables could not be read, sorted.
func (h Holders) UnreadGroups() []string { return slices.Sorted(maps.Keys(h.Unread)) }

// heldSincePlan refuses the delete of the old key when a variable holds
// its DSN now that the plan did not see hold it, or when a group's
// variables could not be read now that were read then (unless the user
// let the key go whatever those hold). A rotation whose user chose to leave
// the variables as they are (decidedKeep) does not read them again.
func (r Rotation) heldSincePlan(ctx context.Context, api HoldersAPI) error {
	if r.variables == decidedKeep {
		return nil
	}
	h, err := ReadHolders(ctx, api, r.Project, r.Old.DSN, r.groups)
	if err != nil {
		return &UnsafeDeleteError{Reason: "the CI/CD variables could not be read again right before the delete, so whether one took its DSN since the plan is unknown"}
	}
	seen := func(u Use) bool {
		return slices.ContainsFunc(r.GroupUses, func(g Use) bool { return g.Group == u.Group && g.Variable == u.Variable && g.Scope == u.Scope })
	}
	var since []string
	for _, u := range h.Uses {
		if u.Group == "" || !seen(u) {
			since = append(since, u.Label())
		}
	}
	if len(since) > 0 {
		return &UnsafeDeleteError{Reason: strings.Join(since, ", ") + " " + map[bool]string{true: "holds", false: "hold"}[len(since) == 1] + " its DSN since the plan: point " +
			map[bool]string{true: "it", false: "them"}[len(since) == 1] + " at the new DSN, then delete the old key"}
	}
	var unread []string
	for _, g := range h.UnreadGroups() {
		if _, before := r.GroupsUnread[g]; !before {
			unread = append(unread, g)
		}
	}
	if len(unread) > 0 && !r.opts.DeleteWithUnreadGroups {
		gv := projectscope.GroupVariables{Unread: map[string]error{}}
		for _, g := range unread {
			gv.Unread[g] = h.Unread[g]
		}
		return &UnsafeDeleteError{Reason: gv.UnreadWords() + " right before the delete, so whether they hold its DSN is unknown", unread: gv.UnreadGroups()}
	}
	return nil
}

// matchGroupUses are the group variables whose value is dsn, nearest group
// first.
func matchGroupUses(byGroup map[string][]apiclient.Variable, dsn string) []Use {
	if dsn == "" {
		return nil
	}
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool { return len(groups[i]) > len(groups[j]) })
	var out []Use
	for _, g := range groups {
		for _, v := range byGroup[g] {
			if HoldsDSN(v, dsn) {
				out = append(out, Use{Group: g, Variable: v.Key, Scope: v.EnvironmentScope})
			}
		}
	}
	return out
}

// hiddenGroupVariables names the groups' hidden variables, nearest group
// first: they cannot be read and may hold the DSN.
func hiddenGroupVariables(byGroup map[string][]apiclient.Variable) []string {
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool { return len(groups[i]) > len(groups[j]) })
	var out []string
	for _, g := range groups {
		for _, v := range byGroup[g] {
			if v.Value == nil {
				out = append(out, Use{Group: g, Variable: v.Key, Scope: v.EnvironmentScope}.Label())
			}
		}
	}
	return out
}
