// Package peers holds errtrack beside other programs' clients, in a module of
// its own so that their dependencies never reach errtrack's go.mod or go.sum:
//
//   - what errtrack is measured against: go-gitlab, the client glab is built
//     on, and a bare net/http and encoding/json loop as glab-style code writes
//     it, each beside errtrack's own client on the same answers, in the same
//     run (make bench runs them from here), and a script's group rotation
//     without errtrack's checks (cmd/scriptrotate) beside errtrack's under a
//     rate limit;
//   - tests in which GitLab's and Sentry's own clients read errtrack's mock
//     servers, and GitLab's answers (internal/contract), as they read the real
//     servers.
package peers
