// Package peers runs other GitLab clients against the mock and against
// GitLab's answers (internal/contract), in a module of its own so that the
// main module does not depend on them.
package peers
