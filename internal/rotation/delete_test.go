package rotation

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// A delete's question names the group variables holding the key's DSN,
// found in the same round trip when the project is given by path, and
// once its path is known when given by ID.
func TestPlanDeletionNamesGroupVariables(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 2}, mockserver.TokenMaintainer)
	ctx := context.Background()
	for _, ref := range []apiclient.ProjectRef{{Path: "fleet/app-001"}, apiclient.ProjectID(2001)} {
		d, err := planDeletion(ctx, c, ref, 200001, false)
		if err != nil {
			t.Fatal(err)
		}
		w := d.Warning()
		if len(d.GroupUses) != 1 || !strings.Contains(w, "CI/CD variable FLEET_SENTRY_DSN (environment production) of group fleet holds it too") || !strings.Contains(w, "SENTRY_DSN (all environments) holds") {
			t.Fatalf("%v: %+v\n%s", ref, d.GroupUses, w)
		}
	}
	if d, _ := planDeletion(ctx, c, apiclient.ProjectRef{Path: "fleet/app-002"}, 200002, false); len(d.GroupUses) != 0 {
		t.Fatalf("%+v", d.GroupUses)
	}
}

// A rotation finds the group variables holding the old DSN with its check
// (no round trip added); the old key goes only once someone who was shown
// them confirms, or the variables were kept on purpose.
func TestRotationGroupUses(t *testing.T) {
	ctx := context.Background()
	ref := apiclient.ProjectRef{Path: "fleet/app-001"}
	for _, c := range []struct {
		name    string
		opts    RotationOptions
		confirm bool
		deleted bool
	}{
		{"confirmed up front (--yes)", RotationOptions{Confirmed: true, Variable: "SENTRY_DSN"}, false, false},
		{"kept on purpose", RotationOptions{Confirmed: true, Variable: "SENTRY_DSN", KeepVariables: true}, false, true},
		{"asked, with the warning", RotationOptions{Variable: "SENTRY_DSN"}, true, true},
	} {
		srv, api := flowtest.Mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
		r, err := NewRotation(ref, c.opts).Advance(ctx, api, nil)
		if err == nil && c.confirm {
			if r.Next() != StepConfirmDelete || !strings.Contains(r.GroupUsesWarning(), "The CI/CD variable FLEET_SENTRY_DSN (environment production) of group fleet holds the old DSN") {
				t.Fatalf("%s: step %d, %q", c.name, r.Next(), r.GroupUsesWarning())
			}
			r, err = r.ConfirmDelete(true).Advance(ctx, api, nil)
		}
		var unsafe *UnsafeDeleteError
		switch {
		case c.deleted && (err != nil || !r.Deleted || srv.KeyCount(2001) != 1):
			t.Fatalf("%s: %v, deleted %v", c.name, err, r.Deleted)
		case !c.deleted && (!errors.As(err, &unsafe) || srv.KeyCount(2001) != 2):
			t.Fatalf("%s: %v, keys %v", c.name, err, srv.Keys(2001))
		}
	}
}

// The check reads the page the new key should land on; when keys were
// deleted meanwhile and it moved to an earlier page, the whole list is
// read before anything is concluded: the rotation goes on.
func TestRotationCheckFindsAKeyThatMoved(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleKeys: 148}, mockserver.TokenMaintainer) // 150 keys, 2 pages
	ctx := context.Background()
	r := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 2, KeepVariables: true, Confirmed: true})
	var err error
	for _, s := range []Step{StepPlan, StepCreate} {
		if r, err = r.Run(ctx, c, s); err != nil {
			t.Fatal(err)
		}
	}
	// 60 keys of the first page go: the new key is now on page 1.
	for _, k := range srv.Keys(1)[2:62] {
		if _, _, err := c.DeleteClientKey(ctx, apiclient.ProjectID(1), k.ID); err != nil {
			t.Fatal(err)
		}
	}
	if r, err = r.Run(ctx, c, StepCheck); err != nil || !r.Listed {
		t.Fatalf("the moved key was not found: %v", err)
	}
}

// The words about group variables name each once, "of group fleet", with
// no parentheses inside parentheses (the scope has its own).
func TestGroupVariableWords(t *testing.T) {
	uses := []Use{{Group: "fleet", Variable: "FLEET_SENTRY_DSN", Scope: "production"}}
	r := Rotation{GroupUses: uses}
	for _, s := range []string{r.GroupUsesWarning(), (&GroupVariablesError{Uses: r.GroupUsesText()}).Error(), Deletion{GroupUses: uses}.Warning()} {
		depth, deepest := 0, 0
		for _, c := range s {
			switch c {
			case '(':
				depth++
				deepest = max(deepest, depth)
			case ')':
				depth--
			}
		}
		if strings.Contains(s, "variable group") || strings.Contains(s, "variables group") || strings.Contains(s, "group fleet/") || deepest > 1 {
			t.Errorf("%q", s)
		}
	}
}

// planDeletion plans the delete of GitLab key id.
func planDeletion(ctx context.Context, api RotationAPI, ref apiclient.ProjectRef, id int64, unasked bool) (Deletion, error) {
	return PlanDeletionIn(ctx, api, ref, nil, strconv.FormatInt(id, 10), unasked)
}

// The delete question names the variables that cannot be read and may
// hold the key's DSN: hidden ones, the group's included, and finds the
// dotenv line of a file variable.
func TestDeletionNamesHiddenAndFileVariables(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	d, err := planDeletion(ctx, c, apiclient.ProjectID(10), 911, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Variables) != 1 || d.Variables[0].Key != "APP_ENV" || !d.Variables[0].HoldsOld {
		t.Fatalf("variables %+v", d.Variables)
	}
	w := d.Warning()
	for _, want := range []string{"CI/CD variable APP_ENV (all environments) holds", "SENTRY_DSN (all environments)", "group ops/OPS_SENTRY_DSN (environment production)"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning lacks %q: %s", want, w)
		}
	}
}

// A delete names the groups whose variables could not be read.
func TestDeletionNamesUnreadGroups(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	d, err := planDeletion(context.Background(), c, apiclient.ProjectRef{Path: "demo/web-shop"}, 1, false)
	if err != nil || len(d.GroupsUnread) != 1 || !strings.Contains(d.Warning(), "group demo") {
		t.Fatalf("%v: %+v: %q", err, d.GroupsUnread, d.Warning())
	}
}
