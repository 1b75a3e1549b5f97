// Package peers holds tests in which other programs' clients (GitLab's and
// Sentry's) read errtrack's mock servers, and GitLab's answers
// (internal/contract), as they read the real servers. It is a module of its
// own so that their dependencies stay out of errtrack's.
package peers
