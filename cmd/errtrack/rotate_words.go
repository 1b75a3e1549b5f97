package main

// What keys rotate says: its progress, its questions, how it stopped or
// failed, and how to finish by hand.

import (
	"errors"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
	"github.com/errtrack/errtrack/internal/wording"
)

// goingOn says that the rotation goes on with an unfinished one's key.
func (a *app) goingOn(r rotation.Rotation) {
	if !r.GoingOn() {
		return
	}
	fmt.Fprintf(a.stderr, "%s Going on with it (--restart leaves it and makes a new key).\n", explain.Text(rotation.EarlierWords(*r.Earlier)))
}

// cliChecks say how to check, from a shell, what a lost answer left.
func cliChecks(ref apiclient.ProjectRef) rotation.Checks {
	return rotation.Checks{
		Keys:        fmt.Sprintf("check with 'errtrack keys list -p %s'", ref),
		Variables:   "check in GitLab, under the project's Settings > CI/CD > Variables",
		Settings:    fmt.Sprintf("check with 'errtrack settings get -p %s'", ref),
		OldKeysStep: "errtrack migrate with --delete-old-keys",
		Restart:     "run the same command with --restart: the unfinished rotation is closed and one new key is made",
		SwitchOff:   "errtrack settings disable",
	}
}

// deleteLater is how to finish by hand when the old key stays.
func deleteLater(ref apiclient.ProjectRef, r rotation.Rotation) string {
	old := keystore.KeyRef(r.Old) // a Sentry key's public key: it has no ID
	return fmt.Sprintf("The rotation stays open in the ledger ('errtrack rotations -p %s'): delete the old key once its clients use the new DSN, with 'errtrack keys rotate -p %s --old %s' (it goes on with key %s) or 'errtrack keys delete -p %s %s'.",
		ref, ref, old, keystore.KeyName(*r.New), ref, old)
}

// rotationProgress says what a step did, on stderr.
func (a *app) rotationProgress(step rotation.Step, r rotation.Rotation, host string) {
	switch step {
	case rotation.StepPlan:
		a.goingOn(r)
	case rotation.StepCreate:
		a.rememberHost(host)
		a.keyCreated(host, apiclient.ProjectRef{ID: r.Project.ID, Path: r.Project.Path}, r.New.ID)
		fmt.Fprintf(a.stderr, "Created client key %s in %s.\nNew DSN: %s\n", rotation.KeyLabel(*r.New), r.Project.Name(), explain.Text(r.New.DSN))
	case rotation.StepUpdateVariables:
		fmt.Fprintf(a.stderr, "CI/CD variables now holding the new DSN: %s.\n", r.Updating())
	case rotation.StepVerify:
		fmt.Fprintf(a.stderr, "The test event through the new DSN was %s (HTTP %d).\n", testevent.AcceptedWords, r.Verified.StatusCode)
	}
}

func itOrThem(r rotation.Rotation) string {
	if len(r.StillOld()) == 1 {
		return "it"
	}
	return "them"
}

func itIsOrTheyAre(r rotation.Rotation) string {
	if len(r.StillOld()) == 1 {
		return "it is"
	}
	return "they are"
}

// deleteQuestion names the old key and, when the user kept them, the
// variables that still hold its DSN.
func deleteQuestion(r rotation.Rotation) string {
	q := fmt.Sprintf("Delete the old client key %s of %s? Clients still using its DSN will stop reporting.", rotation.KeyLabel(r.Old), r.Project.Name())
	if r.Soft() {
		q = fmt.Sprintf("Disable the old client key %s of %s? Its clients' events are refused from then on (it can be turned on again); delete it later by running the rotation again.", rotation.KeyLabel(r.Old), r.Project.Name())
	}
	if len(r.StillOld()) > 0 {
		q += fmt.Sprintf(" %s it still: deploys that read %s will stop reporting.", r.HoldsOldDSN(), itOrThem(r))
	}
	if r.VariablesErr != nil {
		q += " The CI/CD variables could not be checked."
	}
	if w := r.GroupUsesWarning(); w != "" {
		q += " " + w
	}
	return explain.Text(q) + " [y/N] "
}

// rotationStopped reports a rotation that stopped at a question it could
// not ask: what exists, and the new DSN, so nothing is lost.
func (a *app) rotationStopped(g *globalFlags, r rotation.Rotation, checks rotation.Checks, why string) {
	fmt.Fprintf(a.stderr, "errtrack: %s\n", explain.Text(why))
	if r.New == nil {
		return
	}
	fmt.Fprintf(a.stderr, "%s %s\n", r.State(checks), deleteLater(r.Project.Ref, r))
	a.printRotation(g, r)
}

// rotationFailed reports a failed step: the plan's errors as usage errors
// where the user named something wrong, else what exists now.
func (a *app) rotationFailed(g *globalFlags, r rotation.Rotation, checks rotation.Checks, explainStep wording.Explainer) error {
	step, err := r.Failed()
	var amb *rotation.AmbiguousError
	var ambVar *rotation.AmbiguousVariableError
	switch {
	case step == rotation.StepPlan && errors.As(err, &amb) && amb.Count > 1:
		return usagef("%s with --old KEY_ID (see 'errtrack keys list -p %s')", err, r.Project.Ref)
	case step == rotation.StepPlan && errors.As(err, &ambVar):
		return usagef("%s: choose one with --environment-scope; nothing was changed", ambVar)
	}
	fmt.Fprintf(a.stderr, "errtrack: %s\n", explain.Text(r.Failure(explainStep, checks)))
	switch {
	case r.DeleteUnknown:
		fmt.Fprintf(a.stderr, "If key %s is still listed, delete it with 'errtrack keys delete --project %s %s'.\n", keystore.KeyName(r.Old), r.Project.Ref, keystore.KeyRef(r.Old))
	case r.Kept():
		fmt.Fprintln(a.stderr, deleteLater(r.Project.Ref, r))
	}
	if r.New != nil && !r.NewGone { // a key gone has no DSN to print
		a.printRotation(g, r)
	}
	return reported{err}
}
