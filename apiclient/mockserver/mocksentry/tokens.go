package mocksentry

import (
	"net/http"
	"strconv"
	"strings"
)

// Token kinds beyond a user's token, as Sentry's authentication tells them
// apart (src/sentry/api/authentication.py).
const (
	// TokenOrgCI is an organisation auth token of demo, as Sentry's token
	// page and sentry-wizard make them: sntrys_…, scope org:ci only, no
	// user. It cannot read a project's keys (403).
	TokenOrgCI = "sntrys_demo-org-ci-token"
	// TokenOrgScoped is a user token limited to the organisation demo
	// (scoping_organization_id): 401 on any route without that
	// organisation in its URL, GET /api/0/ included.
	TokenOrgScoped = "demo-sentry-org-scoped-token"
)

// orgTokenPrefix is SENTRY_ORG_AUTH_TOKEN_PREFIX: such a token is an
// organisation's (OrgAuthTokenAuthentication), never a user's.
const orgTokenPrefix = "sntrys_"

// tokenRefusal is why Sentry refuses token t (raw) on this call, "" when
// it does not: an unknown organisation token, or a user token limited to
// one organisation used on a route without it or with another in the URL
// (UserAuthTokenAuthentication.authenticate_token). The organisations
// index is the one route without an organisation such a token may use.
func tokenRefusal(c *call, t Token, known bool, raw string) string {
	switch {
	case strings.HasPrefix(raw, orgTokenPrefix) && !known:
		return "Invalid org token"
	case !known || t.Org == "" || t.OrgToken:
		return ""
	case c.route.name == "OrganizationIndexEndpoint":
		return ""
	case c.route.name == "IndexEndpoint":
		return "This token access is limited to organization endpoints."
	case len(c.params) > 0 && c.params[0] != t.Org:
		return "Unauthorized organization access."
	}
	return ""
}

// organizations is OrganizationIndexEndpoint's GET: the organisations the
// token's user is a member of, only the token's own when it is limited to
// one or is an organisation's (src/sentry/core/endpoints/organization_index.py).
func (s *Server) organizations(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []map[string]any{}
	for _, o := range s.st.orgs {
		if c.token.Org != "" && o.Slug != c.token.Org {
			continue
		}
		out = append(out, map[string]any{"id": strconv.FormatInt(o.ID, 10), "slug": o.Slug, "name": o.Name})
	}
	writeJSON(c.w, http.StatusOK, out)
}
