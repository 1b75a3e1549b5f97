package workflow

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
)

// Deletion is what the question before deleting a key names: the key as
// the server lists it, and the CI/CD variables that hold its DSN.
type Deletion struct {
	Project Project
	Key     apiclient.ClientKey
	// Variables hold the key's DSN; Hidden cannot be read and may.
	Variables []VariableTarget
	Hidden    []string
	// VariablesErr: the variables could not be read.
	VariablesErr error
	// GroupUses are the ancestor groups' variables holding the key's DSN
	// (those the token can read).
	GroupUses []Use
}

// groupVariablesAPI reads a group's CI/CD variables; a client without it
// plans a deletion from the project's variables only.
type groupVariablesAPI interface {
	ListGroupVariables(ctx context.Context, g apiclient.GroupRef) ([]apiclient.Variable, *apiclient.Response, error)
}

// groupVariables reads every ancestor group's variables of path at once;
// a group the token cannot read is left out (the audit says so).
func groupVariables(ctx context.Context, api any, path string) map[string][]apiclient.Variable {
	ga, ok := api.(groupVariablesAPI)
	if !ok || path == "" {
		return nil
	}
	out := map[string][]apiclient.Variable{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, g := range ancestors(path) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vars, _, err := ga.ListGroupVariables(ctx, apiclient.GroupRef{Path: g})
			if err == nil {
				mu.Lock()
				out[g] = vars
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
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
			if v.Value != nil && strings.TrimSpace(*v.Value) == dsn {
				out = append(out, Use{Group: g, Variable: v.Key, Scope: v.EnvironmentScope})
			}
		}
	}
	return out
}

// PlanDeletion reads the project, its keys and its variables at once (one
// round trip), and its ancestor groups' variables (in the same round trip
// when the project is given by path, else once its path is known): the key
// to delete must be listed, and the question names the variables a deploy
// would read a dead DSN from.
func PlanDeletion(ctx context.Context, api RotationAPI, ref apiclient.ProjectRef, id int64) (Deletion, error) {
	var d Deletion
	var k *apiclient.ClientKey
	var vars []apiclient.Variable
	var perr, kerr, verr error
	var wg sync.WaitGroup
	// The groups' variables are read with the rest; they are matched with
	// the key's DSN once it is known.
	var groupVars func(dsn string) []Use
	groupsRead := make(chan struct{})
	var byGroup map[string][]apiclient.Variable
	readGroups := func(path string) {
		defer close(groupsRead)
		byGroup = groupVariables(ctx, api, path)
	}
	groupVars = func(dsn string) []Use {
		<-groupsRead
		return matchGroupUses(byGroup, dsn)
	}
	wg.Add(3)
	go func() {
		defer wg.Done()
		d.Project, perr = ResolveProject(ctx, api, ref)
		if ref.Path == "" {
			readGroups(d.Project.Path)
		}
	}()
	if ref.Path != "" {
		go readGroups(ref.Path)
	}
	go func() { defer wg.Done(); k, _, _, kerr = api.FindClientKey(ctx, ref, id) }()
	go func() { defer wg.Done(); vars, _, verr = api.ListVariables(ctx, ref) }()
	wg.Wait()
	switch {
	case errors.Is(perr, apiclient.ErrProjectNotFound) || errors.Is(perr, apiclient.ErrUnauthorized):
		return d, perr
	case errors.Is(kerr, apiclient.ErrKeyNotFound):
		return d, &NoSuchKeyError{d.Project, id}
	case kerr != nil:
		return d, kerr
	}
	d.Key = *k
	d.GroupUses = groupVars(strings.TrimSpace(k.DSN))
	if verr != nil {
		d.VariablesErr = verr
		return d, nil
	}
	p, _ := planVariables(vars, k.DSN, "", "")
	d.Variables, d.Hidden = p.targets, p.hidden
	return d, nil
}

// Warning says what deleting the key breaks, beyond its SDK clients: the
// variables holding its DSN, or that they could not be checked.
func (d Deletion) Warning() string {
	var parts []string
	if len(d.Variables) > 0 {
		names := make([]string, len(d.Variables))
		for i, v := range d.Variables {
			names[i] = v.Label()
		}
		noun := "CI/CD variable " + names[0] + " holds"
		if len(names) > 1 {
			noun = "CI/CD variables " + strings.Join(names, ", ") + " hold"
		}
		parts = append(parts, fmt.Sprintf("%s this key's DSN: deploys that read it stop reporting once the key is deleted (rotate the key instead to update it).", noun))
	}
	if len(d.GroupUses) > 0 {
		holds, it := "holds", "it"
		if len(d.GroupUses) > 1 {
			holds, it = "hold", "them"
		}
		parts = append(parts, fmt.Sprintf("The %s %s it too: every project there that reads %s stops reporting; change %s in the group's settings.", groupUsesText(d.GroupUses), holds, it, it))
	}
	if d.VariablesErr != nil {
		parts = append(parts, "The CI/CD variables could not be read, so errtrack cannot tell whether one holds this key's DSN.")
	}
	if len(d.Hidden) > 0 {
		parts = append(parts, "Hidden CI/CD variables cannot be read and may hold it: "+strings.Join(d.Hidden, ", ")+".")
	}
	return strings.Join(parts, " ")
}
