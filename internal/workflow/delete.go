package workflow

import (
	"context"
	"errors"
	"fmt"
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
}

// PlanDeletion reads the project, its keys and its variables at once (one
// round trip): the key to delete must be listed, and the question names
// the variables a deploy would read a dead DSN from.
func PlanDeletion(ctx context.Context, api RotationAPI, ref apiclient.ProjectRef, id int64) (Deletion, error) {
	var d Deletion
	var k *apiclient.ClientKey
	var vars []apiclient.Variable
	var perr, kerr, verr error
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); d.Project, perr = ResolveProject(ctx, api, ref) }()
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
	if d.VariablesErr != nil {
		parts = append(parts, "The CI/CD variables could not be read, so errtrack cannot tell whether one holds this key's DSN.")
	}
	if len(d.Hidden) > 0 {
		parts = append(parts, "Hidden CI/CD variables cannot be read and may hold it: "+strings.Join(d.Hidden, ", ")+".")
	}
	return strings.Join(parts, " ")
}
