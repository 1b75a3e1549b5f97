package main

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	sentrycontract "github.com/errtrack/errtrack/internal/contract/sentry"
)

// Sentry answers a key's DSN on the host it builds (127.0.0.1 here) while
// SENTRY_DSN holds the same key spelled on another (localhost), as a
// deploy may after an ingest host, a region or a Relay changed its name:
// audit and doctor know it is that key, by its public key and project ID,
// and keys rotate --update-variables --yes points SENTRY_DSN at the new
// key before the old one is deleted.
func TestSentryKeyUnderAnotherHostSpellingAgainstSentrysAnswers(t *testing.T) {
	var c *cli
	var mu sync.Mutex
	var heldAtDelete []string
	c, _ = sentryContractCLIOf(t, "keys", "localhost", func(r *http.Request) {
		if r.Method != http.MethodDelete {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, v := range c.server.Variables(3) { // demo/legacy-api
			if v.Key == "SENTRY_DSN" {
				heldAtDelete = append(heldAtDelete, v.Value)
			}
		}
	})
	p := "demo/legacy-api"
	c.run("", "audit", "-p", p).must(t, 0, sentrycontract.Production+"  SENTRY_DSN (all environments)")
	r := c.run("", "doctor", "-p", p)
	r.must(t, 0, "1 variable holds a current DSN")
	if strings.Contains(r.stdout, "0 variables hold") {
		t.Fatalf("doctor does not know the key under another host:\n%s", r.stdout)
	}
	c.run("", "keys", "rotate", "-p", p, "--old", sentrycontract.Production, "--name", "New", "--update-variables", "--yes", "--delete-with-unread-groups").
		must(t, 0, "which is deleted", "SENTRY_DSN (all environments) holds the new DSN")
	mu.Lock()
	defer mu.Unlock()
	if len(heldAtDelete) != 1 || !strings.Contains(heldAtDelete[0], sentrycontract.Created+"@") {
		t.Fatalf("SENTRY_DSN when the old key was deleted: %d variables, new key's: %v", len(heldAtDelete),
			len(heldAtDelete) == 1 && strings.Contains(heldAtDelete[0], sentrycontract.Created))
	}
}

// doctor with an organisation token (sntrys_, scope org:ci, what Sentry's
// token page and sentry-wizard make): Sentry refuses it the project's
// keys (403). doctor says the token is an organisation's and which token
// to make, and never advises making a key it could not know is missing.
func TestDoctorWithAnOrganizationTokenAgainstSentrysAnswers(t *testing.T) {
	c := sentryContractCLI(t)
	c.env["SENTRY_AUTH_TOKEN"] = sentrycontract.OrgCIToken
	r := c.run("", "doctor", "-p", "demo/legacy-api")
	r.must(t, 1, "organization token", "org:ci", "/settings/account/api/auth-tokens/")
	if strings.Contains(r.stdout+r.stderr, "keys create") || strings.Contains(r.stdout+r.stderr, "no active client key") {
		t.Fatalf("doctor advises a key it cannot know is missing:\n%s%s", r.stdout, r.stderr)
	}
}

// doctor of a project whose Sentry project is gone (Sentry's 404 for a
// project that does not exist): it names the Sentry project and GitLab's
// settings page where the one it reports to is named, never keys create.
func TestDoctorOfAMissingSentryProjectAgainstSentrysAnswers(t *testing.T) {
	c, _ := sentryContractCLIOf(t, "gone", "", nil)
	r := c.run("", "doctor", "-p", "demo/legacy-api")
	r.must(t, 1, "demo/legacy-api", "does not exist", "/demo/legacy-api/-/settings/operations")
	if strings.Contains(r.stdout+r.stderr, "keys create") || strings.Contains(r.stdout+r.stderr, "no active client key") {
		t.Fatalf("doctor advises a key it cannot know is missing:\n%s%s", r.stdout, r.stderr)
	}
}
