package change

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A rotation whose ancestor groups' variables could not be read (403: a
// project Maintainer is no Owner of the group; 500: GitLab in trouble)
// does not know whether they hold the old DSN: the old key stays unless
// the user, shown the group, says to delete it, or DeleteWithUnreadGroups
// says so beforehand. Never silently.
func TestRotationKeepsTheOldKeyWhileAGroupIsUnread(t *testing.T) {
	ctx := context.Background()
	for _, status := range []int{403, 500} {
		world := func(t *testing.T) (*mockserver.Server, rotation.RotationAPI) {
			srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
			if status == 403 {
				return srv, c // the demo user is no Owner of group demo
			}
			srv.MakeGroupOwner("demo", 1)
			fail := new(atomic.Bool)
			fail.Store(true)
			return srv, flowtest.UnreadableGroups{Client: c, Fail: fail}
		}
		t.Run("confirmed beforehand", func(t *testing.T) {
			srv, api := world(t)
			r, err := rotation.NewRotation(apiclient.ProjectID(1), rotation.RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true}).Advance(ctx, api, nil)
			var unsafe *rotation.UnsafeDeleteError
			if !errors.As(err, &unsafe) || !slices.Equal(unsafe.UnreadGroups(), []string{"demo"}) || r.Deleted {
				t.Fatalf("%d: %v, deleted %v", status, err, r.Deleted)
			}
			if !strings.Contains(err.Error(), "group demo") || !slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v; keys %v", status, err, flowtest.KeyIDs(srv.Keys(1)))
			}
		})
		t.Run("with DeleteWithUnreadGroups", func(t *testing.T) {
			srv, api := world(t)
			r, err := rotation.NewRotation(apiclient.ProjectID(1), rotation.RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true, DeleteWithUnreadGroups: true}).Advance(ctx, api, nil)
			if err != nil || !r.Deleted || slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v", status, err)
			}
		})
		t.Run("asked", func(t *testing.T) {
			srv, api := world(t)
			r, err := rotation.NewRotation(apiclient.ProjectID(1), rotation.RotationOptions{OldID: 1, UpdateVariables: true}).Advance(ctx, api, nil)
			if err != nil || r.Next() != rotation.StepConfirmDelete {
				t.Fatalf("%d: %v at %v", status, err, r.Next())
			}
			if w := r.GroupUsesWarning(); !strings.Contains(w, "group demo") {
				t.Fatalf("%d: the question does not name the group: %q", status, w)
			}
			r, err = r.ConfirmDelete(true).Advance(ctx, api, nil)
			if err != nil || !r.Deleted || slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v", status, err)
			}
		})
	}
}

// A group rotation leaves a project whose groups' variables could not be
// read alone, naming the group, unless the user said to rotate anyway;
// the plan changes nothing either way.
func TestGroupRotationLeavesAProjectWhoseGroupIsUnread(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	before := srv.KeyCount(1)
	p := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	it := byPath(p)["demo/web-shop"]
	var unsafe *rotation.UnsafeDeleteError
	if it.Acts() || it.Result != ResultFailed || !errors.As(it.Err, &unsafe) || !strings.Contains(it.Err.Error(), "group demo") {
		t.Fatalf("%+v", it)
	}
	done := runPlan(t, context.Background(), p, c, nil)
	if done.Count(ResultChanged) != 0 || srv.KeyCount(1) != before {
		t.Fatalf("%+v", done.Items)
	}
	k := rotateSentryDSN(l)
	k.DeleteWithUnreadGroups = true
	if it := byPath(plan(t, c, flowtest.DemoGroup(t), true, k))["demo/web-shop"]; !it.Acts() {
		t.Fatalf("%+v", it)
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
