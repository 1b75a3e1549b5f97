package projectscope

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
)

// GroupVariablesAPI reads a group's CI/CD variables.
type GroupVariablesAPI interface {
	ListGroupVariables(ctx context.Context, g apiclient.GroupRef) ([]apiclient.Variable, *apiclient.Response, error)
}

// GroupVariables are a project's ancestor groups' CI/CD variables as read:
// those read, by group path, and the groups that could not be read, with
// why. A guard takes an unread group for one that may hold what it looks
// for: a failed read is unknown, never empty.
type GroupVariables struct {
	Read   map[string][]apiclient.Variable
	Unread map[string]error
}

// UnreadGroups are the paths of the groups that could not be read, sorted.
func (g GroupVariables) UnreadGroups() []string {
	return slices.Sorted(maps.Keys(g.Unread))
}

// UnreadWords say which groups' variables could not be read and why, for
// what: "the variables of group web could not be read (reading them needs
// the Owner role on the group)"; "" when every group was read.
func (g GroupVariables) UnreadWords() string {
	var parts []string
	for _, path := range g.UnreadGroups() {
		why := "they could not be read"
		if errors.Is(g.Unread[path], apiclient.ErrForbidden) {
			why = "reading them needs the Owner role on the group"
		}
		parts = append(parts, "the variables of group "+safetext.Excerpt(path, 80)+" are unknown ("+why+")")
	}
	return strings.Join(parts, "; ")
}

// GroupVariablesReader reads each ancestor group's variables once however
// many projects ask (a group change's plan); safe for concurrent use. Its
// zero value is ready.
type GroupVariablesReader struct {
	mu sync.Mutex
	m  map[string]*groupVarsOnce
}

type groupVarsOnce struct {
	once sync.Once
	vars []apiclient.Variable
	err  error
}

// Ancestors reads every ancestor group's variables of the project at path,
// at once.
func (c *GroupVariablesReader) Ancestors(ctx context.Context, api GroupVariablesAPI, path string) GroupVariables {
	out := GroupVariables{Read: map[string][]apiclient.Variable{}, Unread: map[string]error{}}
	groups := Ancestors(path)
	entries := make([]*groupVarsOnce, len(groups))
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*groupVarsOnce{}
	}
	for i, g := range groups {
		if c.m[g] == nil {
			c.m[g] = &groupVarsOnce{}
		}
		entries[i] = c.m[g]
	}
	c.mu.Unlock()
	var wg sync.WaitGroup
	for i, e := range entries {
		wg.Go(func() {
			e.once.Do(func() { e.vars, _, e.err = api.ListGroupVariables(ctx, apiclient.GroupRef{Path: groups[i]}) })
		})
	}
	wg.Wait()
	for i, e := range entries {
		if e.err != nil {
			out.Unread[groups[i]] = e.err
		} else {
			out.Read[groups[i]] = e.vars
		}
	}
	return out
}

// AncestorVariables reads every ancestor group's variables of the project
// at path, at once.
func AncestorVariables(ctx context.Context, api GroupVariablesAPI, path string) GroupVariables {
	return new(GroupVariablesReader).Ancestors(ctx, api, path)
}
