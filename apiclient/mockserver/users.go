package mockserver

import (
	"net/http"
)

func (s *Server) webURL(r *http.Request, path string) string {
	return schemeOf(r) + "://" + r.Host + "/" + path
}

func (s *Server) getUser(c *call) {
	writeJSON(c.w, http.StatusOK, map[string]any{
		"id": c.user.ID, "username": c.user.Username, "name": c.user.Name, "state": "active",
		"web_url": s.webURL(c.r, c.user.Username),
	})
}

// getVersion serves /version and /metadata (15.2+) with the release the
// server behaves as.
func (s *Server) getVersion(c *call) {
	v := s.release.String()
	if c.segs[0] == "metadata" {
		writeJSON(c.w, http.StatusOK, map[string]any{"version": v, "revision": "mock", "enterprise": false,
			"kas": map[string]any{"enabled": false, "externalUrl": nil, "version": nil}})
		return
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"version": v, "revision": "mock"})
}
