package mocksentry

import (
	"net/http"
	"slices"
	"sort"
	"strconv"
)

// teamJSON is TeamSerializer's output (src/sentry/api/serializers/models/team.py):
// the fields errtrack reads. isMember is the caller's membership, which
// Sentry reads from the token's user.
func teamJSON(t *Team, user string) map[string]any {
	member := slices.Contains(t.Members, user)
	return map[string]any{"id": strconv.FormatInt(t.ID, 10), "slug": t.Slug, "name": t.Name,
		"isMember": member, "hasAccess": member, "isPending": false, "memberCount": len(t.Members), "avatar": map[string]any{"avatarType": "letter_avatar", "avatarUuid": nil}}
}

func (c *call) user() string {
	if c.token == nil {
		return ""
	}
	return c.token.User
}

// teamDetails is TeamDetailsEndpoint's GET (TeamEndpoint.convert_args in
// src/sentry/api/bases/team.py): a team that is not there is 404.
func (s *Server) teamDetails(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.st.team(c.params[0], c.params[1])
	if t == nil {
		notFound(c.w)
		return
	}
	writeJSON(c.w, http.StatusOK, teamJSON(t, c.user()))
}

// orgTeams is OrganizationTeamsEndpoint's GET: an organisation's teams by
// slug, one page (the mock's organisations have few).
func (s *Server) orgTeams(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.org(c.params[0]) == nil {
		notFound(c.w)
		return
	}
	var list []*Team
	for _, t := range s.st.teams {
		if t.Org == c.params[0] {
			list = append(list, t)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Slug < list[j].Slug })
	out := make([]any, 0, len(list))
	for _, t := range list {
		out = append(out, teamJSON(t, c.user()))
	}
	writeJSON(c.w, http.StatusOK, out)
}
