package workflow

import (
	"context"
	"fmt"
	"slices"

	"github.com/errtrack/errtrack/apiclient"
)

// VerifyGroupAPI is what a group-wide verify needs.
type VerifyGroupAPI interface {
	GroupAPI
	CheckAPI
}

// VerifyItem is one project of a group-wide verify: the key its variable
// refers to, and what the test event met.
type VerifyItem struct {
	Project Project
	Key     apiclient.ClientKey
	Skip    string
	Result  string
	Check   *apiclient.DSNCheck
	Err     error
}

// Action says what the plan does to the project.
func (it VerifyItem) Action() string {
	if it.Skip != "" {
		return "skip: " + it.Skip
	}
	return fmt.Sprintf("send a test event with the DSN of key %d", it.Key.ID)
}

// VerifyPlan sends one test event per project, with the DSN of the key the
// project's variable refers to: the DSN its applications really use.
type VerifyPlan struct {
	Group    apiclient.Group
	Variable string
	Items    []VerifyItem
}

// Acting counts the projects an event goes to.
func (p VerifyPlan) Acting() int {
	n := 0
	for _, it := range p.Items {
		if it.Skip == "" {
			n++
		}
	}
	return n
}

// Failed counts the projects whose event failed or was refused.
func (p VerifyPlan) Failed() int {
	n := 0
	for _, it := range p.Items {
		if it.Result == ResultFailed {
			n++
		}
	}
	return n
}

// PlanGroupVerify finds, in each maintained project of the group, the key
// whose DSN the variable holds (the same search as a group rotation's);
// nothing is sent.
func PlanGroupVerify(ctx context.Context, api GroupAPI, ref apiclient.GroupRef, subgroups bool, variable, scope string) (VerifyPlan, error) {
	g, _, err := api.GetGroup(ctx, ref)
	if err != nil {
		return VerifyPlan{}, err
	}
	projects, err := GroupProjects(ctx, api, ref, subgroups)
	if err != nil {
		return VerifyPlan{Group: *g}, err
	}
	plan := PlanVerifyFor(ctx, api, projects, variable, scope)
	plan.Group = *g
	return plan, nil
}

// PlanVerifyFor plans test events for the given projects.
func PlanVerifyFor(ctx context.Context, api RotationAPI, projects []apiclient.Project, variable, scope string) VerifyPlan {
	plan := VerifyPlan{Variable: variable, Items: make([]VerifyItem, len(projects))}
	forEach(len(projects), func(i int) {
		p := projects[i]
		it := VerifyItem{Project: Project{Ref: apiclient.ProjectID(p.ID), ID: p.ID, Path: p.PathWithNamespace}}
		defer func() { plan.Items[i] = it }()
		if skip := SkipReason(p); skip != "" {
			it.Skip, it.Result = skip, ResultSkipped
			return
		}
		k, _, skip, err := heldKey(ctx, api, it.Project.Ref, variable, scope)
		switch {
		case err != nil:
			it.Skip, it.Result, it.Err = "could not be read", ResultFailed, err
		case skip != "":
			it.Skip, it.Result = skip, ResultSkipped
		case !k.Active:
			it.Key, it.Skip, it.Result = k, fmt.Sprintf("%s holds the DSN of key %d, which is inactive: GitLab refuses its events", variable, k.ID), ResultFailed
		default:
			it.Key = k
		}
	})
	return plan
}

// Run sends the planned test events, a few projects at a time; an event
// refused is a failure of that project only.
func (p VerifyPlan) Run(ctx context.Context, api CheckAPI, progress func(VerifyItem)) VerifyPlan {
	p.Items = slices.Clone(p.Items)
	done := make(chan VerifyItem)
	go func() {
		forEach(len(p.Items), func(i int) {
			it := p.Items[i]
			if it.Skip == "" {
				it.Check, it.Err = VerifyKey(ctx, api, it.Project, it.Key)
				// Refused (a *RefusedError) or not sent, the project failed.
				it.Result = ResultOK
				if it.Err != nil {
					it.Result = ResultFailed
				}
				p.Items[i] = it
			}
			done <- it
		})
		close(done)
	}()
	for it := range done {
		if progress != nil {
			progress(it)
		}
	}
	return p
}
