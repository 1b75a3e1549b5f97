// Package rotation is the rotation of one project's client key, run by
// both front ends once: its plan and steps (check, create, update the
// CI/CD variables, verify, disable or delete the old key), what the ledger
// means for a rotation and a migration, a key's delete and its test
// event, and the words for all of them. Each step makes the fewest round
// trips its safety checks allow (requests that do not depend on each
// other go out together), and says in one place what happened, so both
// front ends tell the same story.
package rotation
