package rotation

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/wording"
)

// Deletion is what the question before deleting a key names: the key as
// the server lists it, and the CI/CD variables that hold its DSN.
type Deletion struct {
	Project projectscope.Project
	Key     apiclient.ClientKey
	// Variables hold the key's DSN; Hidden cannot be read and may.
	Variables []VariableTarget
	Hidden    []string
	// VariablesErr: the variables could not be read.
	VariablesErr error
	// GroupUses are the ancestor groups' variables holding the key's DSN
	// (those the token can read). groupsLater: not read yet; the delete
	// reads them at once with itself (a delete without a question).
	GroupUses []Use
	// GroupsUnread are the ancestor groups whose variables could not be
	// read, with why: whether they hold the key's DSN is unknown.
	GroupsUnread map[string]error
	groupsLater  bool
	// store holds the key (nil: the project's GitLab keys).
	store keystore.KeyStore

	// After the run: Deleted; AlreadyGone, it was deleted elsewhere since
	// it was listed; OnRetry, a retry found it gone (the first attempt went
	// through before its answer was lost); Unknown, the answer was lost.
	Deleted, AlreadyGone, OnRetry, Unknown bool
	// Closed are the unfinished rotations the delete finished (its old key
	// deleted) or left (its new key deleted).
	Closed []ledger.Record
}

// DeleteAPI is what a delete needs: the key, and the groups' variables
// that may hold its DSN.
type DeleteAPI interface {
	keystore.KeysAPI
	projectscope.GroupVariablesAPI
}

// PlanDeletionIn plans the delete of the key keyRef names in store (nil:
// the project's GitLab keys). It reads the project, its keys and its
// variables at once (one round trip), and its ancestor groups' variables
// (in the same round trip when the project is given by path, else once its
// path is known): the key to delete must be listed, and the question names
// the variables a deploy would read a dead DSN from.
//
// unasked: no question will be asked (--yes): the groups' variables, which
// need the project's path when it is given by ID, are read with the delete
// instead, so the whole delete is two round trips.
func PlanDeletionIn(ctx context.Context, api RotationAPI, ref apiclient.ProjectRef, store keystore.KeyStore, keyRef string, unasked bool) (Deletion, error) {
	d := Deletion{store: store}
	if store == nil {
		store = keystore.GitLabKeys(api, ref)
	}
	var k *apiclient.ClientKey
	var vars []apiclient.Variable
	var perr, kerr, verr error
	var wg sync.WaitGroup
	// The groups' variables are read with the rest; they are matched with
	// the key's DSN once it is known.
	var groupVars func(dsn string) []Use
	groupsRead := make(chan struct{})
	var byGroup map[string][]apiclient.Variable
	var unreadGroups map[string]error
	readGroups := func(path string) {
		defer close(groupsRead)
		gv := projectscope.AncestorVariables(ctx, api, path)
		byGroup, unreadGroups = gv.Read, gv.Unread
	}
	groupVars = func(dsn string) []Use {
		<-groupsRead
		return matchGroupUses(byGroup, dsn)
	}
	wg.Add(3)
	go func() {
		defer wg.Done()
		d.Project, perr = projectscope.ResolveProject(ctx, api, ref)
		if ref.Path == "" && !unasked {
			readGroups(d.Project.Path)
		}
	}()
	if ref.Path != "" {
		go readGroups(ref.Path)
	}
	go func() {
		defer wg.Done()
		var read keystore.KeysRead
		read, kerr = store.Read(ctx, keyRef)
		k = read.Old
	}()
	go func() { defer wg.Done(); vars, _, verr = api.ListVariables(ctx, ref) }()
	wg.Wait()
	switch {
	case errors.Is(perr, apiclient.ErrProjectNotFound) || errors.Is(perr, apiclient.ErrUnauthorized):
		return d, perr
	case errors.Is(kerr, apiclient.ErrKeyNotFound):
		id, _ := strconv.ParseInt(keyRef, 10, 64)
		return d, &NoSuchKeyError{Project: d.Project, ID: id, Ref: keyRef}
	case kerr != nil:
		return d, kerr
	}
	d.Key = *k
	var groupHidden []string
	if ref.Path == "" && unasked {
		d.groupsLater = true
	} else {
		d.GroupUses = groupVars(strings.TrimSpace(k.DSN))
		d.GroupsUnread = unreadGroups
		groupHidden = hiddenGroupVariables(byGroup) // read by groupVars
	}
	if verr != nil {
		d.VariablesErr = verr
		d.Hidden = groupHidden
		return d, nil
	}
	p, _ := planVariables(vars, k.DSN, "", "")
	d.Variables, d.Hidden = p.targets, append(p.hidden, groupHidden...)
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
	if len(d.GroupsUnread) > 0 {
		parts = append(parts, wording.Sentence(wording.Capitalize(projectscope.GroupVariables{Unread: d.GroupsUnread}.UnreadWords())+": they may hold this key's DSN"))
	}
	if len(d.Hidden) > 0 {
		parts = append(parts, "Hidden CI/CD variables cannot be read and may hold it: "+strings.Join(d.Hidden, ", ")+".")
	}
	return strings.Join(parts, " ")
}

// Run deletes the key the user confirmed (d.Key): the one delete of every
// front end and of the rotation. A key gone meanwhile is deleted too; a
// lost answer is Unknown. Unfinished rotations in the ledger that replace
// the key are finished by it, and those that made it are left.
func (d Deletion) Run(ctx context.Context, api DeleteAPI, l *Rotations) (Deletion, error) {
	var groups map[string][]apiclient.Variable
	store := d.store
	if store == nil {
		store = keystore.GitLabKeys(api, d.Project.Ref)
	}
	var gone, onRetry bool
	err := fanout.Together(func() (err error) {
		gone, onRetry, err = store.Delete(ctx, d.Key)
		return err
	}, func() {
		if d.groupsLater {
			gv := projectscope.AncestorVariables(ctx, api, d.Project.Path)
			groups, d.GroupsUnread = gv.Read, gv.Unread
		}
	})
	if d.groupsLater {
		d.GroupUses, d.groupsLater = matchGroupUses(groups, strings.TrimSpace(d.Key.DSN)), false
		d.Hidden = append(d.Hidden, hiddenGroupVariables(groups)...)
	}
	if err != nil {
		d.Unknown = apiclient.OutcomeUnknown(err)
		return d, err
	}
	d.Deleted, d.AlreadyGone, d.OnRetry = true, gone, onRetry
	d.Closed = l.KeyDeleted(d.Project.ID, d.Key)
	return d, nil
}

// Outcome says how the delete ended, for both front ends; check says how
// the user checks what a lost answer left.
func (d Deletion) Outcome(check string) string {
	name := d.Project.Name()
	var s string
	switch {
	case d.Unknown:
		return fmt.Sprintf("Key %s may or may not have been deleted: %s.", keystore.KeyName(d.Key), check)
	case d.AlreadyGone:
		s = fmt.Sprintf("Client key %s of %s is already gone: it was deleted elsewhere after it was listed.", keystore.KeyName(d.Key), name)
	case d.OnRetry:
		s = fmt.Sprintf("Deleted client key %s of %s: the server no longer has it (the first attempt went through before its answer was lost).", keystore.KeyName(d.Key), name)
	case d.Deleted:
		s = fmt.Sprintf("Deleted client key %s of %s.", KeyLabel(d.Key), name)
	}
	for _, rec := range d.Closed {
		if rec.Phase == ledger.PhaseAbandoned {
			s += fmt.Sprintf(" The unfinished rotation that made it (to replace key %s) is closed: rotate key %s again to replace it.", keystore.KeyName(OldKeyOf(rec)), keystore.KeyName(OldKeyOf(rec)))
		} else {
			s += fmt.Sprintf(" This finishes the rotation that replaced it with key %s.", keystore.KeyName(NewKeyOf(rec)))
		}
	}
	if d.Deleted && len(d.GroupUses) > 0 {
		names := make([]string, len(d.GroupUses))
		for i, u := range d.GroupUses {
			names[i] = u.Label()
		}
		s += " Group CI/CD variables held its DSN: " + strings.Join(names, ", ") + "; point them at a live key's DSN in the group's settings."
	}
	return s
}
