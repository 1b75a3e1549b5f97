// Package change is the one shape of a change to many projects (a
// group's, or the console's marked ones): a plan that only reads, a run a
// few projects at a time with progress, a report, and for rotations a
// campaign in the ledger that a run started again goes on with. Its kinds
// are the rotation of the keys a variable holds, the settings write and
// the test event; the migration (package migrate) is another kind.
package change
