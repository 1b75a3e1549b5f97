package main

// A rotation as JSON, shared by keys rotate, the rotations list and group
// reports.

import (
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/rotation"
)

// rotateJSON is what `keys rotate --json` prints. The new DSN is printed once,
// in "created"; variables are named with what happened to each, never with
// their values.
type rotateJSON struct {
	Created   *apiclient.ClientKey `json:"created"`
	Deleted   *apiclient.ClientKey `json:"deleted"`
	Variables []variableJSON       `json:"variables"`
	Verified  *verifiedJSON        `json:"verified,omitempty"`
	// Unknown names the steps whose answer was lost: "create", "delete".
	Unknown []string `json:"unknown,omitempty"`
}

type variableJSON struct {
	Key       string `json:"key"`
	Scope     string `json:"environment_scope"`
	HeldOld   bool   `json:"held_old_dsn"`
	Result    string `json:"result"`
	Masked    bool   `json:"masked"`
	Protected bool   `json:"protected"`
}

type verifiedJSON struct {
	Accepted bool `json:"accepted"`
	Status   int  `json:"status"`
}

// printRotation prints the outcome on stdout: the JSON record, or the new
// DSN alone so `DSN=$(errtrack keys rotate …)` works.
func (a *app) printRotation(g *globalFlags, r rotation.Rotation) {
	if !g.jsonOut {
		fmt.Fprintln(a.stdout, explain.Text(r.New.DSN))
		return
	}
	out := rotateJSON{Created: r.New, Variables: []variableJSON{}}
	if r.Deleted {
		old := r.Old
		out.Deleted = &old
	}
	for _, v := range r.Variables {
		out.Variables = append(out.Variables, variableJSON{Key: v.Key, Scope: v.Scope, HeldOld: v.HoldsOld,
			Result: v.Result(), Masked: v.Masked, Protected: v.Protected})
	}
	if r.Verified != nil {
		out.Verified = &verifiedJSON{Accepted: r.Verified.Accepted, Status: r.Verified.StatusCode}
	}
	if r.DeleteUnknown {
		out.Unknown = append(out.Unknown, "delete")
	}
	_ = writeJSON(a.stdout, out)
}

type keyRefJSON struct {
	ID        int64  `json:"id,omitempty"`
	PublicKey string `json:"public_key,omitempty"`
	Name      string `json:"name,omitempty"`
}
