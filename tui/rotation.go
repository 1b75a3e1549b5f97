package tui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
)

// rotationWrite runs the rotation plan (rotation.Rotation) up to its next
// question; the answer starts the next rotationWrite with the rotation
// answered. The console has no order of steps of its own.
type rotationWrite struct {
	r rotation.Rotation
	// old is the key rotated, as keystore.KeyRef names it: one rotation of
	// a key at a time. store is where the keys are (nil: GitLab's).
	old   string
	store keystore.KeyStore
	// copied: the new DSN was copied already, once the server listed it.
	copied bool
	// answered: this run follows an answer; the new key was added to the
	// screens by the first run's result, not again (a list loaded since
	// may have dropped it for good reason: deleted meanwhile).
	answered bool
	// reached is the step the run is at, once it started (the step + 1:
	// the run moves on off the UI goroutine), for the note on quitting.
	reached *atomic.Int32
	err     error
}

func (w rotationWrite) project() projectscope.Project { return w.r.Project }
func (w rotationWrite) failure() error                { return w.err }

// at is the step the rotation is at: where its run has reached.
func (w rotationWrite) at() rotation.Step {
	if w.reached != nil {
		if s := w.reached.Load(); s > 0 {
			return rotation.Step(s - 1)
		}
	}
	return w.r.Next()
}

// reading: the run still reads its plan; nothing was changed yet.
func (w rotationWrite) reading() bool {
	return w.at() == rotation.StepPlan || w.at() == rotation.StepResume
}

func (w rotationWrite) pending() string {
	name, old := w.r.Project.Name(), w.oldName()
	switch w.at() {
	case rotation.StepPlan, rotation.StepResume:
		return fmt.Sprintf("a rotation of key %s in %s was reading its plan", old, name)
	case rotation.StepCreate, rotation.StepCheck:
		return fmt.Sprintf("a rotation of key %s in %s was creating the new key", old, name)
	case rotation.StepUpdateVariables:
		return fmt.Sprintf("a rotation in %s was updating the CI/CD variables %s", name, w.r.Updating())
	case rotation.StepVerify:
		return "a test event was being sent with the new DSN of " + name
	case rotation.StepDisable:
		return fmt.Sprintf("a rotation in %s was disabling the old key %s", name, old)
	}
	return fmt.Sprintf("a rotation in %s was deleting the old key %s", name, old)
}

// oldName names the key rotated: as the plan read it, or as asked.
func (w rotationWrite) oldName() string {
	if w.r.Old.ID != 0 || w.r.Old.PublicKey != "" {
		return keystore.KeyName(w.r.Old)
	}
	if w.old != "" {
		return w.old
	}
	return fmt.Sprint(w.r.OldKeyID())
}

func (w rotationWrite) conflicts(o write) bool {
	switch o := o.(type) {
	case rotationWrite:
		return sameProject(o.r.Project, w.r.Project) && o.old == w.old
	case createKeyWrite:
		return sameProject(o.proj, w.r.Project) && w.r.New == nil
	}
	return false
}

func (w rotationWrite) run(ctx context.Context, api API, d Deps) write {
	created := w.r.New != nil
	var after func(rotation.Step, rotation.Rotation)
	if w.reached != nil {
		w.reached.Store(int32(w.r.Next()) + 1)
		after = func(_ rotation.Step, r rotation.Rotation) { w.reached.Store(int32(r.Next()) + 1) }
	}
	w.r, w.err = w.r.Advance(ctx, api, after)
	if !created && w.r.New != nil {
		d.keyCreated(w.r.Project, w.r.New.ID)
	}
	return w
}

func (w rotationWrite) changed() changes {
	var c changes
	if w.r.New != nil && !w.answered {
		c.added = []apiclient.ClientKey{*w.r.New}
	}
	switch {
	case w.r.Deleted:
		c.removed = []apiclient.ClientKey{w.r.Old}
	case w.r.Disabled:
		c.updated = []apiclient.ClientKey{w.r.Old}
	}
	c.stale = w.r.CreateUnknown || w.r.DeleteUnknown
	return c
}

// outcome copies the new DSN as soon as the server lists it, whatever the
// user answers afterwards, then asks the plan's next question or says how
// the rotation ended.
func (w rotationWrite) outcome(v voice) outcome {
	var out outcome
	if w.r.Listed && !w.copied {
		out = append(out, w.copyNewDSN())
		w.copied = true
	}
	r := w.r
	switch step := r.Next(); {
	case w.err != nil:
		explainStep := func(err error) string {
			if w.store != nil && explainsSentry(err) {
				err = atSentry(w.store, err)
			}
			return v.explain(err)
		}
		return append(out, say(w.r.Project, statusError, r.Failure(explainStep, consoleChecks(v.keys)))...)
	case step == rotation.StepResume:
		return append(out, openDialogMsg{d: w.resumeQuestion(v.keys), async: true})
	case step == rotation.StepChooseVariables && r.VariablesErr != nil:
		// Nothing to choose: the delete question says they were not read.
		w.r = r.KeepVariables()
		return append(out, w.outcome(v)...)
	case step == rotation.StepChooseVariables:
		return append(out, openDialogMsg{d: w.variablesQuestion(), async: true})
	case step == rotation.StepConfirmDelete:
		return append(out, openDialogMsg{d: w.deleteQuestion(v.keys), async: true})
	case r.Kept():
		if s, ok := rotatedWords(r, v.keys); ok {
			return append(out, say(w.r.Project, statusInfo, s)...)
		}
		return append(out, say(w.r.Project, statusInfo, r.State(consoleChecks(v.keys))+" Delete the old key with "+keyName(v.keys.Delete)+" once its clients use the new DSN.")...)
	case r.Disabled:
		if s, ok := rotatedWords(r, v.keys); ok {
			return append(out, say(w.r.Project, statusSuccess, s)...)
		}
		return append(out, say(w.r.Project, statusSuccess, r.State(consoleChecks(v.keys))+" "+keyName(v.keys.Delete)+" on it deletes it.")...)
	}
	if s, ok := rotatedWords(r, v.keys); ok {
		return append(out, say(w.r.Project, statusSuccess, s)...)
	}
	return append(out, say(w.r.Project, statusSuccess, r.State(consoleChecks(v.keys)))...)
}

// rotatedWords say a rotation that went as planned in two lines at 80
// columns: the keys, the variables now holding the new DSN, and what the
// old key waits for; ok false where something needs the whole words (a
// variable not changed, hidden or unread ones, an answer lost).
func rotatedWords(r rotation.Rotation, k KeyMap) (string, bool) {
	if r.New == nil || r.VariablesErr != nil || len(r.Hidden) > 0 || r.DeleteUnknown || r.OldGone || r.DeletedOnRetry || len(r.StillOld()) > 0 {
		return "", false
	}
	var held []string
	for _, v := range r.Variables {
		if !v.Done {
			return "", false
		}
		held = append(held, v.Key)
	}
	nk, old := clean(keystore.KeyName(*r.New)), clean(keystore.KeyName(r.Old))
	in, holds := "", ""
	if len(held) > 0 {
		in = " (in " + clean(strings.Join(held, ", ")) + ")"
		holds = "; " + clean(strings.Join(held, ", ")) + map[bool]string{true: " holds", false: " hold"}[len(held) == 1] + " the new DSN"
	}
	switch {
	case r.Disabled:
		return "Rotated softly: new key " + nk + in + "; old key " + old + " disabled until you delete it (" + keyName(k.Delete) + ").", true
	case r.Deleted:
		return "Rotated: new key " + nk + " replaces key " + old + ", which is deleted" + holds + ".", true
	case r.Kept():
		return "Both keys exist: new key " + nk + in + ", old key " + old + " kept: " + keyName(k.Delete) + " deletes it once its clients moved.", true
	}
	return "", false
}

// copyNewDSN copies the new DSN, when it is safe to paste, and says where.
func (w rotationWrite) copyNewDSN() tea.Msg {
	name := keystore.KeyName(*w.r.New)
	if err := dsn.Check(w.r.New.DSN); err != nil {
		return copyTextMsg{refused: fmt.Sprintf("The DSN of the new key %s was not copied (%s): it is shown cleaned in the key's details (enter).", clean(name), err)}
	}
	return copyTextMsg{text: w.r.New.DSN, what: "the DSN of the new key " + clean(name)}
}

// answer is the next rotationWrite, carrying the rotation as answered.
func (w rotationWrite) answer(r rotation.Rotation) startWriteMsg {
	w.r, w.err, w.answered, w.reached = r, nil, true, new(atomic.Int32)
	return startWriteMsg{w}
}

// resumeQuestion asks whether to go on with the key an unfinished
// rotation of the same key made (the ledger's), or make a new one.
func (w rotationWrite) resumeQuestion(k KeyMap) dialog {
	e := *w.r.Earlier
	nk, old := clean(keystore.KeyName(rotation.NewKeyOf(e))), clean(keystore.KeyName(rotation.OldKeyOf(e)))
	body := []string{clean(rotation.EarlierWords(e))}
	if left := rotation.LeftToDo(e, consoleChecks(k)); left != "" {
		body = append(body, "Left to do: "+clean(left)+".")
	}
	body = append(body, "", "Going on makes no new key: the rotation checks key "+nk+", points the variables at its DSN and deletes key "+old+" as you choose. "+
		keyName(k.Restart)+" leaves key "+nk+" as it is and makes another.")
	d := confirmDialog(fmt.Sprintf("Go on with key %s, made by an unfinished rotation of key %s?", nk, old), body,
		"Go on with key "+nk, w.answer(w.r.GoOn()))
	d.onNo = statusMsg{text: fmt.Sprintf("Rotation of key %s not started: nothing was changed; the unfinished rotation stays open.", old), kind: statusInfo}
	return d.withAlt("Make a new key", k.Restart, w.answer(w.r.Restart()))
}

// variablesQuestion names the CI/CD variables that hold the old key's DSN
// and asks, once, whether to point them all at the new one.
func (w rotationWrite) variablesQuestion() dialog {
	r := w.r
	it := "them"
	if len(r.StillOld()) == 1 {
		it = "it"
	}
	d := confirmDialog(fmt.Sprintf("New key %s created in %s. Update its CI/CD variables?", clean(keystore.KeyName(*r.New)), r.Project.Name()), []string{
		clean(r.HoldsOldDSN()) + " the old key's DSN.",
		"",
		"Point " + it + " at the new DSN (masked, protected and raw stay as they are)? The next deploy that reads " + it + " uses the new key. The new DSN is copied either way; the old key is deleted only after this, if you choose to.",
	}, "Update variables", w.answer(r.UpdateVariables()))
	d.onNo = w.answer(r.KeepVariables())
	return d
}

// deleteQuestion asks whether to delete the old key now, offering a test
// event with the new DSN first.
func (w rotationWrite) deleteQuestion(k KeyMap) dialog {
	r := w.r
	body := []string{"The new DSN, copied to the clipboard when the server listed it (" + keyName(k.Copy) + " on the new key copies it again):", clean(r.New.DSN), ""}
	if err := dsn.Check(r.New.DSN); err != nil {
		body[0] = "The new DSN was not copied (" + err.Error() + "); it is shown cleaned:"
	}
	if r.Verified != nil {
		body = append(body, fmt.Sprintf("The test event through the new DSN was %s (HTTP %d).", testevent.AcceptedWords, r.Verified.StatusCode))
	}
	if v := r.VariablesState(consoleChecks(k)); v != "" {
		body = append(body, clean(v))
	}
	if still := r.StillOld(); len(still) > 0 {
		body = append(body, clean("Deploys that read "+strings.Join(still, ", ")+" stop reporting once the old key is gone."))
	}
	if g := r.GroupUsesWarning(); g != "" {
		body = append(body, clean(g))
	}
	title, yes := "Delete old key", fmt.Sprintf("New key %s created in %s. Delete old key %s?", clean(keystore.KeyName(*r.New)), r.Project.Name(), clean(keystore.KeyName(r.Old)))
	if r.Soft() {
		title, yes = "Disable old key", fmt.Sprintf("New key %s created in %s. Disable old key %s?", clean(keystore.KeyName(*r.New)), r.Project.Name(), clean(keystore.KeyName(r.Old)))
		body = append(body, "Disable the old key "+clean(r.Old.PublicKey)+" once your clients use the new DSN: its events are refused from then on, and it can be turned on again ("+keyName(k.ToggleActive)+"). The rotation stays open until you delete it ("+keyName(k.Delete)+").")
	} else {
		body = append(body, "Delete the old key "+clean(r.Old.PublicKey)+" once your clients use the new DSN; clients still using it will stop reporting.")
	}
	if r.Verified == nil {
		body = append(body, keyName(k.Verify)+" sends a test event with the new DSN first (it is recorded in the project).")
	}
	d := confirmDialog(yes, body, title, w.answer(r.ConfirmDelete(true)))
	d.onNo = w.answer(r.ConfirmDelete(false))
	if r.Verified == nil {
		d = d.withAlt("Send test event", k.Verify, w.answer(r.WantVerify()))
	}
	return d
}
