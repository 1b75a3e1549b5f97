package main

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
	"github.com/errtrack/errtrack/internal/wording"
)

// A group change's report: a table, or --json one object per project,
// each row from the result of its kind of change.

// groupItemJSON is one project of a group change's --json report: never a
// DSN nor a variable's value. Keys are objects (a GitLab key by its id, a
// Sentry key by its public key and name); the integer *_key_id fields stay
// for GitLab's keys, as before.
type groupItemJSON struct {
	Project   string         `json:"project"`
	ProjectID int64          `json:"project_id"`
	Action    string         `json:"action"`
	Result    string         `json:"result"`
	Reason    string         `json:"reason,omitempty"`
	OldKeyID  int64          `json:"old_key_id,omitempty"`
	NewKeyID  int64          `json:"new_key_id,omitempty"`
	KeyID     int64          `json:"key_id,omitempty"`
	OldKey    *keyRefJSON    `json:"old_key,omitempty"`
	NewKey    *keyRefJSON    `json:"new_key,omitempty"`
	Key       *keyRefJSON    `json:"key,omitempty"`
	Variables []variableJSON `json:"variables,omitempty"`
	Accepted  *bool          `json:"accepted,omitempty"`
	Status    int            `json:"status,omitempty"`
	Words     string         `json:"words,omitempty"`
	Error     string         `json:"error,omitempty"`
	// A migration's: the Sentry key the variables now hold.
	SentryKey *keyRefJSON `json:"sentry_key,omitempty"`

	keys, detail string // the table's
}

// keyJSON names a key in --json: a GitLab key by its id, a Sentry key by
// its public key and name; nil for no key.
func keyJSON(k apiclient.ClientKey) *keyRefJSON {
	switch {
	case k.ID != 0:
		return &keyRefJSON{ID: k.ID}
	case k.PublicKey != "":
		return &keyRefJSON{PublicKey: k.PublicKey, Name: k.Name}
	}
	return nil
}

// known reports a key that has a ref.
func known(k apiclient.ClientKey) bool { return k.ID != 0 || k.PublicKey != "" }

// madeKey reports a rotation that made its new key.
func madeKey(it change.Item) bool {
	r, ok := it.Detail.(change.RotationResult)
	return ok && known(r.New)
}

// testedKey is the key a project's test event went with, if any.
func testedKey(it change.Item) *apiclient.ClientKey {
	switch d := it.Detail.(type) {
	case change.VerifyResult:
		if known(d.Key) {
			return &d.Key
		}
	case migrate.MigrationResult:
		if known(d.Key) {
			return &d.Key
		}
	}
	return nil
}

// groupItem is one project's report, by the kind of its change.
func (a *app) groupItem(it change.Item) groupItemJSON {
	x := groupItemJSON{Project: it.Project.Name(), ProjectID: it.Project.ID, Action: it.Action, Result: it.Result, keys: "-"}
	if x.Result == "" {
		x.Result = change.ResultPlanned
	}
	if !it.Acts() {
		x.Action, x.Reason = "none", it.Skip
	}
	x.detail = x.Reason
	var check *apiclient.DSNCheck
	switch d := it.Detail.(type) {
	case change.RotationResult:
		x.OldKeyID, x.NewKeyID = d.Old.ID, d.New.ID
		x.OldKey, x.NewKey = keyJSON(d.Old), keyJSON(d.New)
		switch {
		case known(d.Old) && known(d.New):
			x.keys = keystore.KeyName(d.Old) + " → " + keystore.KeyName(d.New)
		case known(d.Old):
			x.keys = keystore.KeyName(d.Old)
		}
		if r := d.Rotation; r != nil {
			for _, v := range r.Variables {
				x.Variables = append(x.Variables, variableJSON{Key: v.Key, Scope: v.Scope, HeldOld: v.HoldsOld, Result: v.Result(), Masked: v.Masked, Protected: v.Protected})
			}
		}
	case change.VerifyResult:
		x.KeyID, x.Key, check = d.Key.ID, keyJSON(d.Key), d.Check
		if known(d.Key) {
			x.keys = keystore.KeyName(d.Key)
		}
	case migrate.MigrationResult:
		check = d.Check
		if it.Result == change.ResultChanged {
			// What was made: the Sentry project and key (the words name
			// them), not only that a test event went through.
			x.Words, x.SentryKey, x.keys, x.detail = it.Words, keyJSON(d.Key), keystore.KeyName(d.Key), it.Words
		}
	}
	if check != nil {
		x.Accepted, x.Status = &check.Accepted, check.StatusCode
	}
	switch {
	case it.Result == change.ResultFailed || it.Result == change.ResultUnderWay:
		x.Error = a.groupWords(it)
		x.detail = x.Error
	case it.Result == change.ResultNotReached:
		x.Words = it.Words
	}
	switch {
	case x.Error != "" || x.SentryKey != nil:
	case len(x.Variables) > 0:
		var vars []string
		for _, v := range x.Variables {
			vars = append(vars, v.Key+" "+v.Result)
		}
		x.detail = strings.Join(vars, ", ")
	case check != nil:
		x.detail = fmt.Sprintf("test event %s (HTTP %d)", testevent.Words(check.Accepted, check.StatusCode), check.StatusCode)
	case x.detail == "" && it.Acts() && x.Result == change.ResultPlanned:
		x.detail = it.Action
	case x.detail == "" && it.Words != "":
		x.detail = it.Words
	}
	return x
}

// printGroupReport prints the report: a table, or --json one object per
// project.
func (a *app) printGroupReport(g *globalFlags, p change.Plan) error {
	items := make([]groupItemJSON, len(p.Items))
	for i, it := range p.Items {
		items[i] = a.groupItem(it)
	}
	if g.jsonOut {
		return writeJSON(a.stdout, items)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECT\tRESULT\tKEYS\tDETAIL")
	for _, x := range items {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", explain.Text(x.Project), x.Result, explain.Text(x.keys), explain.Text(firstSentence(x.detail)))
	}
	return tw.Flush()
}

// firstSentence keeps a table's detail to what fits a row: the first
// Sentence (the --json report and the progress lines say the rest).
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i > 0 && i < len(s)-2 {
		return s[:i+1]
	}
	return s
}

// groupWords say why a project is skipped or how it ended, with what to
// do where the command's flags decide.
func (a *app) groupWords(it change.Item) string {
	var groups *rotation.GroupVariablesError
	var others *change.OtherVariablesError
	var refused *testevent.RefusedError
	switch {
	case errors.As(it.Err, &groups) && madeKey(it):
		return it.Words + " Point them at the new DSN in the group's Settings > CI/CD > Variables and run the same command again (it goes on with key " + keystore.KeyName(it.Detail.(change.RotationResult).New) + ")."
	case errors.As(it.Err, &groups):
		return it.Skip + ": " + groups.Advice(fmt.Sprintf("'errtrack keys rotate -p %s --yes'", it.Project.Path)) + "; nothing was changed here"
	case errors.As(it.Err, &others):
		return it.Skip + ": pass --update-variables to point them at the new DSN too, or --keep-variables to leave them; nothing was changed here"
	case errors.As(it.Err, &refused):
		if k := testedKey(it); k != nil {
			return fmt.Sprintf("key %s: %s. %s", keystore.KeyName(*k), refused, refused.Advice())
		}
		return fmt.Sprintf("%s. %s", wording.Capitalize(refused.Error()), refused.Advice())
	case it.Words != "":
		return it.Words
	case it.Skip != "" && it.Err != nil:
		return it.Skip + ": " + a.explain(it.Err, "run the command again")
	case it.Skip != "":
		return it.Skip
	}
	return it.Action
}
