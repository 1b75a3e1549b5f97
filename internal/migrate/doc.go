// Package migrate carries GitLab projects with integrated error tracking
// to Sentry, a kind of group change: each project gets a Sentry project
// and key, its CI/CD variables the Sentry DSN, a test event, and then
// integrated error tracking off and its old keys deleted, every step in
// the ledger so a run started again goes on where one stopped.
package migrate
