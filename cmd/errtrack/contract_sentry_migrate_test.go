package main

import (
	"strings"
	"testing"

	sentrycontract "github.com/errtrack/errtrack/internal/contract/sentry"
)

// migrate of demo/web-shop against Sentry's answers: the plan reads the
// organisation's teams (a team that is not there is said before anything
// is made), the run makes the Sentry project under the team, takes the
// "Default" key Sentry gave it from the listing, sends a test event
// through its DSN to /api/ID/envelope/, points SENTRY_DSN at it and
// switches integrated tracking off; doctor the day after names the Sentry
// project and never advises turning integrated tracking on or a glet_ key.
func TestMigrateAgainstSentrysAnswers(t *testing.T) {
	c, _ := sentryContractCLIOf(t, "migrate", "", nil)
	c.server.MakeGroupOwner("demo", 1)
	to := c.env["SENTRY_URL"]
	args := []string{"migrate", "--to", to, "--org", "demo", "-p", "demo/web-shop", "--create", "--yes"}

	c.run("", append(args, "--team", "no-such-team", "--dry-run")...).
		must(t, 1, "the team no-such-team does not exist in the Sentry organisation demo (its teams: backend)", "Dry run: nothing was changed")
	c.run("", append(args, "--team", "backend", "--dry-run")...).must(t, 0, "Dry run")
	c.run("", append(args, "--team", "backend")...).must(t, 0)

	var held []string
	for _, v := range c.server.Variables(1) { // demo/web-shop
		if v.Key == "SENTRY_DSN" {
			held = append(held, v.Value)
		}
	}
	if len(held) != 1 || !strings.HasPrefix(held[0], "http://"+sentrycontract.Default+"@") || !strings.HasSuffix(held[0], "/4") {
		t.Fatalf("SENTRY_DSN does not hold the Default key's DSN of the new project (%d variables)", len(held))
	}
	dayAfterAgainstSentrysAnswers(t, c)
	c.run("", append(args, "--team", "backend", "--delete-old-keys")...).must(t, 0)
	if n := c.server.KeyCount(1); n != 0 {
		t.Fatalf("demo/web-shop keeps %d glet_ keys after --delete-old-keys", n)
	}
	dayAfterAgainstSentrysAnswers(t, c)
}

// dayAfterAgainstSentrysAnswers: doctor names the Sentry project
// demo/web-shop reports to, its key and variable, GitLab's settings page,
// and a test event through the Sentry DSN; it never advises turning
// integrated tracking on or making a glet_ key; projects list names it.
func dayAfterAgainstSentrysAnswers(t *testing.T, c *cli) {
	t.Helper()
	r := c.run("", "doctor", "-p", "demo/web-shop", "--send-test-event")
	r.must(t, 0, "migrated to Sentry project demo/demo-web-shop", c.url+"/demo/web-shop/-/settings/operations",
		"1 variable holds the Sentry DSN", "accepted a test event")
	for _, bad := range []string{"settings enable", "keys create", "keys rotate"} {
		if strings.Contains(r.stdout+r.stderr, bad) {
			t.Fatalf("doctor advises %q:\n%s", bad, r.stdout)
		}
	}
	c.run("", "projects", "list", "--group", "demo").must(t, 0, "Sentry demo/demo-web-shop (migrated)")
}
