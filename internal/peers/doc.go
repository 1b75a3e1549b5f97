// Package peers holds what errtrack is measured against: go-gitlab, the
// client glab is built on, and a bare net/http and encoding/json loop as
// glab-style code writes it, each beside errtrack's own client on the same
// answers, in the same run. It is a module of its own, so the peers'
// dependencies never reach errtrack's go.mod or go.sum: run its
// benchmarks from here (make bench does).
package peers
