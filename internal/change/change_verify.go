package change

import (
	"context"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/testevent"
)

// VerifyChange sends one test event per project, with the DSN of the key
// the project's variable refers to: the DSN its applications really use.
// With Resolve, a Sentry-backed project's key is found in its Sentry.
type VerifyChange struct {
	Variable, Scope string
	// ScopeHow is RotateChange's.
	ScopeHow string
	Resolve  keystore.SentryResolver
}

// Words name the change.
func (k VerifyChange) Words() ChangeWords {
	return ChangeWords{Doing: "Sending test events with the DSNs " + k.Variable + " holds",
		Ask: "Send test events with the DSNs " + k.Variable + " holds", Progress: "Test events", Before: testevent.Warning,
		Plan: "to send a test event to, with the DSN " + k.Variable + " holds"}
}

func (k VerifyChange) Plan(ctx context.Context, env *PlanEnv, p apiclient.Project) Item {
	it := Item{Project: ProjectOf(p)}
	h := readHeld(ctx, env.API, it.Project.Ref, k.Variable, k.Scope, k.ScopeHow).inSentry(ctx, env.API, it.Project.Ref, k.Variable, k.Scope, k.Resolve)
	switch {
	case h.err != nil:
		it.Skip, it.Result, it.Err = "could not be read", ResultFailed, h.err
	case h.skip != "":
		it.Skip, it.Result = h.skip, ResultSkipped
	case !h.key.Active:
		it.Detail, it.Skip, it.Result = VerifyResult{Key: h.key}, fmt.Sprintf("%s holds the DSN of key %s, which is inactive: its events are refused", k.Variable, keystore.KeyName(h.key)), ResultFailed
	default:
		it.Detail = VerifyResult{Key: h.key}
		it.Action = fmt.Sprintf("send a test event with the DSN of key %s", keystore.KeyName(h.key))
	}
	return it
}

// Run sends the event; a refusal fails the project only.
func (k VerifyChange) Run(ctx context.Context, env *RunEnv, it Item) Item {
	res, _ := it.Detail.(VerifyResult)
	res.Check, it.Err = testevent.Send(ctx, env.API, it.Project, res.Key)
	it.Detail = res
	if it.Err != nil {
		it.Result, it.Words = ResultFailed, env.Explain(it.Err)
		return it
	}
	it.Result = ResultOK
	it.Words = fmt.Sprintf("Key %s: the test event was %s (HTTP %d).", keystore.KeyName(res.Key), testevent.AcceptedWords, res.Check.StatusCode)
	return it
}

// VerifyResult is a test event's: the key whose DSN it is sent with, and
// the answer (nil until sent).
type VerifyResult struct {
	Key   apiclient.ClientKey
	Check *apiclient.DSNCheck
}

func (VerifyResult) KindResult() {}
