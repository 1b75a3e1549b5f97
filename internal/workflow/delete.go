package workflow

import (
	"context"
	"fmt"
	"strings"

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
	var keys []apiclient.ClientKey
	var vars []apiclient.Variable
	kerr, verr := both(func() (err error) {
		d.Project, keys, err = ProjectKeys(ctx, api, ref)
		return err
	}, func() (err error) {
		vars, _, err = api.ListVariables(ctx, ref)
		return err
	})
	if kerr != nil {
		return d, kerr
	}
	k, ok := FindKey(keys, id)
	if !ok {
		return d, &NoSuchKeyError{d.Project, id}
	}
	d.Key = k
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
