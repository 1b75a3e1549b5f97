package mockserver

import (
	"net/http"
	"strings"
	"time"
)

// tokenOf finds the token where GitLab looks, in its order: the
// private_token parameter, the PRIVATE-TOKEN header, a Bearer header, then
// the access_token and bearer_token parameters (Doorkeeper reads them from
// the query or the body). A body's parameter wins over the query's.
func tokenOf(c *call) string {
	r := c.r
	if p, ok := c.params["private_token"]; ok && p.str != "" {
		return p.str
	}
	if t := r.Header.Get("PRIVATE-TOKEN"); t != "" {
		return t
	}
	if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
		return strings.TrimSpace(a[7:])
	}
	for _, name := range []string{"access_token", "bearer_token"} {
		if p, ok := c.params[name]; ok && p.str != "" {
			return p.str
		}
	}
	return ""
}

// authenticate finds the token and checks it, and its scope.
func (s *Server) authenticate(c *call, rt route) bool {
	raw := tokenOf(c)
	s.mu.RLock()
	tok, ok := s.st.Tokens[raw]
	user, uok := s.st.users[tok.UserID]
	s.mu.RUnlock()
	if raw == "" || !ok || !uok {
		writeError(c.w, http.StatusUnauthorized, "message", "401 Unauthorized")
		return false
	}
	if tok.Revoked {
		invalidToken(c.w, "Token was revoked. You have to re-authorize from the user.")
		return false
	}
	if tok.ExpiresAt != "" && tok.ExpiresAt <= s.now().UTC().Format(time.DateOnly) {
		invalidToken(c.w, "Token is expired. You can either do re-authorization or token refresh.")
		return false
	}
	if scopes := rt.scopes(c.method); scopes != nil && !hasAny(tok.Scopes, scopes) {
		writeJSON(c.w, http.StatusForbidden, map[string]string{
			"error":             "insufficient_scope",
			"error_description": "The request requires higher privileges than provided by the access token.",
			"scope":             strings.Join(rt.scopes(http.MethodGet), " "), // every scope the endpoint accepts
		})
		return false
	}
	c.token, c.user = tok, user
	return true
}

// sudo: a sudo parameter or Sudo header, even empty, from a user who is
// not an administrator (none of the demo users is).
func (c *call) sudo() bool {
	_, param := c.params["sudo"]
	_, header := c.r.Header["Sudo"]
	return param || header
}

func invalidToken(w http.ResponseWriter, desc string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="`+desc+`"`)
	writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token", "error_description": desc})
}

func hasAny(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}
