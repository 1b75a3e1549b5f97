package sentry

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// The token kinds as Sentry tells them: an organization token has scopes
// and no user; a user token limited to one organization is 401 on GET
// /api/0/, which refuses the route and not the token: it is described as
// limited, with the organizations it reaches; on another organization's
// route it is ErrOtherOrganization.
func TestCheckTokenKinds(t *testing.T) {
	ctx := context.Background()
	_, c := mock(t, mocksentry.Options{}, mocksentry.TokenOrgCI)
	info, err := c.CheckToken(ctx)
	if err != nil || info.Kind != OrgToken || !slices.Equal(info.Scopes, []string{"org:ci"}) || info.CanReadKeys() {
		t.Fatalf("%v %+v", err, info)
	}
	var se *Error
	if _, err := c.ListKeys(ctx, Project{Org: "demo", Slug: "legacy-api"}, AllKeys); !errors.Is(err, ErrForbidden) || !errors.As(err, &se) || !se.OrgToken {
		t.Fatalf("an organization token's 403 does not say so: %v", err)
	}
	_, c = mock(t, mocksentry.Options{}, mocksentry.TokenOrgScoped)
	info, err = c.CheckToken(ctx)
	if err != nil || info.Kind != OrgLimitedToken || info.ScopesKnown() || !slices.Equal(info.Orgs, []string{"demo"}) {
		t.Fatalf("%v %+v", err, info)
	}
	if _, err := c.ListKeys(ctx, Project{Org: "other", Slug: "x"}, AllKeys); !errors.Is(err, ErrOtherOrganization) || !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("%v", err)
	}
	_, c = mock(t, mocksentry.Options{}, "sntrys_unknown")
	if _, err := c.CheckToken(ctx); !errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrOrgLimitedRoute) {
		t.Fatalf("%v", err)
	}
}
