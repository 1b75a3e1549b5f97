package projectscope_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// scopeServer answers the two listings and the project records the way
// GitLab does: the maintained listing is the server's decision, no listing
// carries permissions, a project's own record does.
type scopeServer struct {
	maintained, all []apiclient.Project
	own             map[int64]*apiclient.Project
	ownErr          map[int64]error
	lookups         atomic.Int32
}

func (s *scopeServer) ListGroupProjectsWith(_ context.Context, _ apiclient.GroupRef, o apiclient.GroupProjectsOptions) ([]apiclient.Project, *apiclient.Response, error) {
	if o.MinAccessLevel == apiclient.MaintainerAccess {
		return s.maintained, nil, nil
	}
	return s.all, nil, nil
}

func (s *scopeServer) GetProject(_ context.Context, p apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error) {
	s.lookups.Add(1)
	if err := s.ownErr[p.ID]; err != nil {
		return nil, nil, err
	}
	return s.own[p.ID], nil, nil
}

func access(lvl int) *apiclient.AccessLevel { return &apiclient.AccessLevel{AccessLevel: lvl} }

func TestGroupProjectsDecidesOnce(t *testing.T) {
	web := apiclient.Project{ID: 1, PathWithNamespace: "ops/web"}
	shared := apiclient.Project{ID: 2, PathWithNamespace: "partner/sdk"}
	old := apiclient.Project{ID: 3, PathWithNamespace: "ops/old", Archived: true}
	dev := apiclient.Project{ID: 4, PathWithNamespace: "ops/mobile/kiosk"}
	viaShare := apiclient.Project{ID: 5, PathWithNamespace: "partner/docs"}
	gone := apiclient.Project{ID: 6, PathWithNamespace: "ops/gone"}
	s := &scopeServer{
		maintained: []apiclient.Project{web, shared, old},
		all:        []apiclient.Project{dev, web, gone, shared, viaShare, old},
		own: map[int64]*apiclient.Project{
			4: {ID: 4, PathWithNamespace: "ops/mobile/kiosk", Permissions: &apiclient.Permissions{ProjectAccess: access(30)}},
			5: {ID: 5, PathWithNamespace: "partner/docs", Permissions: &apiclient.Permissions{}},
		},
		ownErr: map[int64]error{6: &apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrProjectNotFound}},
	}
	ps, err := projectscope.GroupProjects(context.Background(), s, apiclient.GroupRef{Path: "ops"}, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.PathWithNamespace+"="+projectscope.SkipReason(p))
	}
	want := []string{
		"ops/mobile/kiosk=you are a Developer here, not a Maintainer",
		"ops/web=",
		"partner/sdk=", // maintained through the share: acted on
		"partner/docs=your role here is below Maintainer (it comes through a group: a share or a parent group)",
		"ops/old=archived: errtrack leaves archived projects alone (unarchive it in GitLab to change it)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Only the projects below Maintainer are read whole (a deleted one is
	// dropped): never the maintained ones.
	if n := s.lookups.Load(); n != 3 {
		t.Errorf("%d project records read, want 3", n)
	}
	if !projectscope.SharedInto("ops", "partner/sdk") || projectscope.SharedInto("ops", "ops/mobile/kiosk") || projectscope.SharedInto("ops", "OPS/web") || projectscope.SharedInto("", "x/y") || !projectscope.SharedInto("ops", "opsx/y") {
		t.Error("SharedInto")
	}
}

// A role that cannot be read stops the plan: acting on a project whose
// role is unknown would be a guess.
func TestGroupProjectsRoleUnreadable(t *testing.T) {
	s := &scopeServer{all: []apiclient.Project{{ID: 4, PathWithNamespace: "ops/kiosk"}},
		ownErr: map[int64]error{4: &apiclient.APIError{StatusCode: 500, Kind: apiclient.ErrServer}}}
	_, err := projectscope.GroupProjects(context.Background(), s, apiclient.GroupRef{Path: "ops"}, false)
	if err == nil || !strings.Contains(err.Error(), "your role in project ops/kiosk could not be read") || !errors.Is(err, apiclient.ErrServer) {
		t.Fatalf("err = %v", err)
	}
}

func TestSkipReason(t *testing.T) {
	for _, tc := range []struct {
		p    apiclient.Project
		want string
	}{
		{apiclient.Project{}, ""}, // a listing's record: the listing decided
		{apiclient.Project{Permissions: &apiclient.Permissions{GroupAccess: access(50)}}, ""},
		{apiclient.Project{Permissions: &apiclient.Permissions{ProjectAccess: access(20)}}, "you are a Reporter here, not a Maintainer"},
		{apiclient.Project{Permissions: &apiclient.Permissions{ProjectAccess: access(15)}}, "you are a Planner here, not a Maintainer"},
		{apiclient.Project{Archived: true, Permissions: &apiclient.Permissions{ProjectAccess: access(40)}}, "archived: "},
	} {
		if got := projectscope.SkipReason(tc.p); tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("SkipReason(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
