package rotation

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
)

// A rotation whose ancestor groups' variables could not be read (403: a
// project Maintainer is no Owner of the group; 500: GitLab in trouble)
// does not know whether they hold the old DSN: the old key stays unless
// the user, shown the group, says to delete it, or DeleteWithUnreadGroups
// says so beforehand. Never silently.
func TestRotationKeepsTheOldKeyWhileAGroupIsUnread(t *testing.T) {
	ctx := context.Background()
	for _, status := range []int{403, 500} {
		world := func(t *testing.T) (*mockserver.Server, RotationAPI) {
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
			r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true}).Advance(ctx, api, nil)
			var unsafe *UnsafeDeleteError
			if !errors.As(err, &unsafe) || !slices.Equal(unsafe.UnreadGroups(), []string{"demo"}) || r.Deleted {
				t.Fatalf("%d: %v, deleted %v", status, err, r.Deleted)
			}
			if !strings.Contains(err.Error(), "group demo") || !slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v; keys %v", status, err, flowtest.KeyIDs(srv.Keys(1)))
			}
		})
		t.Run("with DeleteWithUnreadGroups", func(t *testing.T) {
			srv, api := world(t)
			r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true, DeleteWithUnreadGroups: true}).Advance(ctx, api, nil)
			if err != nil || !r.Deleted || slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v", status, err)
			}
		})
		t.Run("asked", func(t *testing.T) {
			srv, api := world(t)
			r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, UpdateVariables: true}).Advance(ctx, api, nil)
			if err != nil || r.Next() != StepConfirmDelete {
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

// A delete names the groups whose variables could not be read.
func TestDeletionNamesUnreadGroups(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	d, err := planDeletion(context.Background(), c, apiclient.ProjectRef{Path: "demo/web-shop"}, 1, false)
	if err != nil || len(d.GroupsUnread) != 1 || !strings.Contains(d.Warning(), "group demo") {
		t.Fatalf("%v: %+v: %q", err, d.GroupsUnread, d.Warning())
	}
}
