package main

import (
	"regexp"
	"strings"
	"testing"
)

// The group rotation's report, as the plan did, says why each skipped
// project was left alone, on its own row.
func TestGroupReportSaysWhySkipped(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	r := c.run("", "keys", "rotate", "--group", "demo", "--include-subgroups", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups")
	r.must(t, 0, "PROJECT", "DETAIL")
	for project, why := range map[string]string{
		"demo/mobile-app":   "no CI/CD variable SENTRY_DSN",
		"demo/mobile/kiosk": "not a Maintainer",
	} {
		row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(project) + `\s.*$`).FindString(r.stdout)
		if !strings.Contains(row, "skipped") || !strings.Contains(row, why) {
			t.Fatalf("the report's row for %s is %q, want skipped and %q:\n%s", project, row, why, r.stdout)
		}
	}
}
