package tui

import "testing"

// A group rotation left open over the group (two projects failed), then
// run from a subgroup that no longer reaches demo/web-shop: the report
// names the project the open rotation recorded and this run does not
// reach, even though the run failed too.
func TestBulkReportNamesProjectsNotReached(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	led := testRotations(t, g.url)
	f.fail("DeleteClientKey", errServer502)
	f.fail("DeleteClientKey", errServer502)
	whole := newHarness(t, Deps{API: f, Host: g.url, Group: "demo", Subgroups: true, Rotations: led})
	whole.key("ctrl+a", "ctrl+o", "r", "enter", "y", "y")
	whole.mustSay("2 of 7 projects failed")
	f.fail("DeleteClientKey", errServer502)
	sub := newHarness(t, Deps{API: f, Host: g.url, Group: "demo/mobile", Rotations: led})
	sub.key("ctrl+a", "ctrl+o", "r", "enter", "y", "y")
	sub.mustSay("1 of 2 projects failed")
	sub.dialogSays("this run does not reach (project ID 1)")
}
