package mockserver

import (
	"net/http"
	"time"
)

func (s *Server) getTokenSelf(c *call) {
	t := c.token
	var exp any
	if t.ExpiresAt != "" {
		exp = t.ExpiresAt
	}
	writeJSON(c.w, http.StatusOK, map[string]any{
		"id": t.ID, "name": t.Name, "revoked": t.Revoked, "created_at": t.CreatedAt.Format(time.RFC3339),
		"scopes": t.Scopes, "user_id": t.UserID, "active": true, "expires_at": exp,
	})
}

// rotateToken serves POST /personal_access_tokens/self/rotate (16.10): a
// new token with the same user and scopes, the old one revoked at once.
// expires_at is a date within a year; a week when not given.
func (s *Server) rotateToken(c *call) {
	today := s.now().UTC()
	expires := today.AddDate(0, 0, 7)
	if p, ok := c.params["expires_at"]; ok && p.str != "" {
		d, err := time.Parse(time.DateOnly, p.str)
		switch {
		case err != nil:
			writeError(c.w, http.StatusBadRequest, "error", "expires_at is invalid")
			return
		case !d.After(today) || d.After(today.AddDate(1, 0, 0)):
			writeError(c.w, http.StatusBadRequest, "message", "Expiration date must be in the future and at most one year from today")
			return
		}
		expires = d
	}
	s.mu.Lock()
	raw := tokenOf(c)
	old := s.st.Tokens[raw]
	if old.Revoked {
		// Another rotation of this token got here first (both were sent at
		// once): this one is a reuse, and the family goes.
		s.revokeFamilyLocked(raw)
		s.mu.Unlock()
		s.persistQuietly()
		invalidToken(c.w, "Token was revoked. You have to re-authorize from the user.")
		return
	}
	fresh := old
	fresh.ID = s.st.nextTokenID()
	fresh.ExpiresAt = expires.Format(time.DateOnly)
	fresh.CreatedAt = s.now().UTC().Truncate(time.Second)
	fresh.Revoked, fresh.RotatedTo = false, ""
	newRaw := newSecret()
	s.st.Tokens[newRaw] = fresh
	old.Revoked, old.RotatedTo = true, newRaw
	s.st.Tokens[raw] = old
	s.version++
	s.mu.Unlock()
	if !s.persisted(c.w) {
		return
	}
	writeJSON(c.w, http.StatusOK, map[string]any{
		"id": fresh.ID, "name": fresh.Name, "revoked": false, "active": true, "created_at": fresh.CreatedAt.Format(time.RFC3339),
		"scopes": fresh.Scopes, "user_id": fresh.UserID, "expires_at": fresh.ExpiresAt, "last_used_at": nil, "token": newRaw,
	})
}

// revokeFamily revokes a rotated token's successors: GitLab's answer to a
// rotated token used again (reuse detection). It reports whether raw was one.
func (s *Server) revokeFamily(raw string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.revokeFamilyLocked(raw)
}

// revokeFamilyLocked is revokeFamily under s.mu.
func (s *Server) revokeFamilyLocked(raw string) bool {
	t, ok := s.st.Tokens[raw]
	if !ok || t.RotatedTo == "" {
		return false
	}
	for next := t.RotatedTo; next != ""; {
		n := s.st.Tokens[next]
		n.Revoked = true
		s.st.Tokens[next] = n
		next = n.RotatedTo
	}
	s.version++
	return true
}
