package check

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/seen"
)

func strp(s string) *string { return &s }

var now = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

func policy(t *testing.T, src string) *Policy {
	t.Helper()
	p, err := Parse("p", []byte("version: 1\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const dsnOld = "https://glet_aaaa@gitlab.example.com/api/v4/error_tracking/collector/7"

func project() Project {
	k1 := apiclient.ClientKey{ID: 1, Active: true, PublicKey: "glet_1111", DSN: "https://glet_1111@gitlab.example.com/api/v4/error_tracking/collector/7"}
	k2 := apiclient.ClientKey{ID: 2, Active: true, PublicKey: "glet_2222", DSN: "https://glet_2222@gitlab.example.com/api/v4/error_tracking/collector/7"}
	k3 := apiclient.ClientKey{ID: 3, Active: false, PublicKey: "glet_3333", DSN: "https://glet_3333@gitlab.example.com/api/v4/error_tracking/collector/7"}
	use := rotation.Use{Variable: "SENTRY_DSN", Scope: "*"}
	return Project{
		Audit: audit.Audit{Project: projectscope.Project{ID: 7, Path: "g/app"}, Settings: &apiclient.Settings{Active: true, Integrated: true},
			Keys: []audit.AuditedKey{
				{Key: k1, Used: []rotation.Use{use}, Seen: seen.Entry{First: now.AddDate(0, 0, -100)}},
				{Key: k2, Seen: seen.Entry{First: now.AddDate(0, 0, -40), Created: true}},
				{Key: k3, Used: []rotation.Use{{Variable: "OLD_DSN", Scope: "staging"}}, Seen: seen.Entry{First: now.AddDate(0, 0, -5)}},
			}},
		Variables: []apiclient.Variable{
			{Key: "SENTRY_DSN", Value: strp(k1.DSN), EnvironmentScope: "*", Masked: false},
			{Key: "OLD_DSN", Value: strp(k3.DSN), EnvironmentScope: "staging", Masked: true, Protected: true},
			{Key: "GONE_DSN", Value: strp(dsnOld), EnvironmentScope: "production", Masked: true},
		},
	}
}

func rulesOf(fs []Finding) map[string]int {
	m := map[string]int{}
	for _, f := range fs {
		m[f.Rule]++
	}
	return m
}

func TestEvaluateEachRule(t *testing.T) {
	p := policy(t, `rules:
  key_max_age: {days: 90}
  unused_keys: {days: 30}
  no_dangling_dsn: true
  integrated_error_tracking: off
  dsn_variables: {masked: true, environment_scopes: [production, staging]}
`)
	r := Evaluate(p, project(), now)
	got := rulesOf(r.Findings)
	want := map[string]int{RuleKeyMaxAge: 1, RuleUnusedKeys: 1, RuleDanglingDSN: 2, RuleIntegrated: 1, RuleDSNVariables: 1}
	for rule, n := range want {
		if got[rule] != n {
			t.Errorf("%s: %d findings, want %d: %+v", rule, got[rule], n, r.Findings)
		}
	}
	for _, f := range r.Findings {
		switch f.Rule {
		case RuleKeyMaxAge:
			if !strings.Contains(f.What, "100 days old (first seen by errtrack") || !strings.Contains(f.Fix, "--old 1") || !strings.Contains(f.Fix, "--ci-variable SENTRY_DSN") || !f.Mendable {
				t.Errorf("age: %+v", f)
			}
		case RuleUnusedKeys:
			if f.Key != "2" || f.Fix != "errtrack keys delete -p g/app 2" {
				t.Errorf("unused: %+v", f)
			}
		case RuleDSNVariables:
			if !strings.Contains(f.What, "not masked") || !strings.Contains(f.What, "wider than the policy's production, staging") {
				t.Errorf("variables: %+v", f)
			}
		}
	}
	// Integrated none: configured at all, even disabled, is a finding.
	pr := project()
	pr.Audit.Settings.Active = false
	if got := rulesOf(Evaluate(policy(t, "rules: {integrated_error_tracking: off}"), pr, now).Findings); got[RuleIntegrated] != 0 {
		t.Errorf("off: a disabled project is a finding")
	}
	if got := rulesOf(Evaluate(policy(t, "rules: {integrated_error_tracking: none}"), pr, now).Findings); got[RuleIntegrated] != 1 {
		t.Errorf("none: a disabled integrated project is no finding")
	}
}

// A key whose use is unknown (a group unread) is never unused; the rules
// that read variables are named unchecked for that group.
func TestEvaluateUnknownIsNeverUnused(t *testing.T) {
	pr := project()
	pr.Audit.Keys[1].Used = []rotation.Use{{Group: "g", Unknown: "the CI/CD variables of group g could not be read"}}
	pr.Audit.Unread = map[string]error{"g": apiclient.ErrForbidden}
	r := Evaluate(policy(t, "rules: {unused_keys: {days: 1}, key_max_age: {days: 500}}"), pr, now)
	if n := rulesOf(r.Findings)[RuleUnusedKeys]; n != 0 {
		t.Fatalf("a key of unknown use found unused: %+v", r.Findings)
	}
	if len(r.Unchecked) != 1 || r.Unchecked[0].Group != "g" || len(r.Unchecked[0].Rules) != 1 || r.Unchecked[0].Rules[0] != RuleUnusedKeys {
		t.Fatalf("unchecked: %+v", r.Unchecked)
	}
}

// A Sentry-backed project's keys: with no rate limit, or another than the
// policy's, a finding mendable with the policy's limit.
func TestEvaluateRateLimit(t *testing.T) {
	pr := Project{Audit: audit.Audit{Project: projectscope.Project{ID: 3, Path: "demo/api"}, Backend: keystore.BackendSentry,
		Keys: []audit.AuditedKey{
			{Key: apiclient.ClientKey{Active: true, PublicKey: "aa", Name: "A"}},
			{Key: apiclient.ClientKey{Active: true, PublicKey: "bb", Name: "B", RateLimit: &apiclient.KeyRateLimit{Count: 5, Window: 60}}},
			{Key: apiclient.ClientKey{Active: true, PublicKey: "cc", Name: "C", RateLimit: &apiclient.KeyRateLimit{Count: 1000, Window: 3600}}},
		}}}
	r := Evaluate(policy(t, "rules: {rate_limit: {count: 1000, window: 3600}}"), pr, now)
	if len(r.Findings) != 2 || !r.Findings[0].Mendable || r.Findings[0].Fix != "errtrack keys update -p demo/api aa --rate-limit 1000/3600" {
		t.Fatalf("%+v", r.Findings)
	}
	r = Evaluate(policy(t, "rules: {rate_limit: {required: true}}"), pr, now)
	if len(r.Findings) != 1 || r.Findings[0].Mendable {
		t.Fatalf("required only: %+v", r.Findings)
	}
	pr.Audit.Backend = ""
	if r := Evaluate(policy(t, "rules: {rate_limit: {required: true}}"), pr, now); len(r.Findings) != 0 {
		t.Fatalf("a GitLab key held to a rate limit: %+v", r.Findings)
	}
}

// test-event: a key in use with no event sent, or one that could not be
// sent, is unchecked; a refused one is a finding; an accepted one holds.
func TestEvaluateTestEvents(t *testing.T) {
	p := policy(t, "rules: {test_event: true}")
	pr := project()
	r := Evaluate(p, pr, now)
	if len(r.Findings) != 0 || len(r.Unchecked) != 1 || !strings.Contains(r.Unchecked[0].Why, "no test event was sent through key 1") {
		t.Fatalf("none sent: %+v %+v", r.Findings, r.Unchecked)
	}
	pr.TestEvents = map[string]TestEvent{"1": {Accepted: false, Status: 403}}
	if r := Evaluate(p, pr, now); len(r.Findings) != 1 || r.Findings[0].Rule != RuleTestEvent || !strings.Contains(r.Findings[0].What, "HTTP 403") {
		t.Fatalf("refused: %+v", r.Findings)
	}
	pr.TestEvents = map[string]TestEvent{"1": {Accepted: true, Status: 200}}
	if r := Evaluate(p, pr, now); len(r.Findings) != 0 || len(r.Unchecked) != 0 {
		t.Fatalf("accepted: %+v %+v", r.Findings, r.Unchecked)
	}
}

// Keys that could not be read (a Sentry's): the rules on keys are named
// unchecked, never taken as holding.
func TestEvaluateKeysUnread(t *testing.T) {
	pr := Project{Audit: audit.Audit{Project: projectscope.Project{ID: 3, Path: "demo/api"}, Backend: keystore.BackendSentry}, KeysUnread: "401 Token expired"}
	r := Evaluate(policy(t, "rules: {rate_limit: {required: true}, integrated_error_tracking: off, unused_keys: {days: 3}}"), pr, now)
	if len(r.Unchecked) != 1 || strings.Join(r.Unchecked[0].Rules, ",") != "rate-limit,unused-keys" {
		t.Fatalf("%+v", r.Unchecked)
	}
}

// A key whose age errtrack does not know (a Sentry's) is named not
// checked by key-max-age, never taken as young.
func TestEvaluateAgelessKeysUnchecked(t *testing.T) {
	pr := Project{Audit: audit.Audit{Project: projectscope.Project{ID: 3, Path: "demo/api"}, Backend: keystore.BackendSentry,
		Keys: []audit.AuditedKey{{Key: apiclient.ClientKey{Active: true, PublicKey: "aa", Name: "A"}}}}}
	r := Evaluate(policy(t, "rules: {key_max_age: {days: 9}}"), pr, now)
	if len(r.Findings) != 0 || len(r.Unchecked) != 1 || r.Unchecked[0].Rules[0] != RuleKeyMaxAge || !strings.Contains(r.Unchecked[0].Why, `key "A"`) {
		t.Fatalf("%+v %+v", r.Findings, r.Unchecked)
	}
}

// The rules on variables are held to the variables the audit read, the
// project's and its groups': fleet/app-001's SENTRY_DSN and the fleet
// group's FLEET_SENTRY_DSN hold its key's DSN, and neither is protected.
func TestProjectOfHoldsTheVariablesTheAuditRead(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	for name, read := range map[string]func() (audit.Audit, error){
		"audit": func() (audit.Audit, error) {
			return audit.AuditProjectWith(context.Background(), c, apiclient.ProjectRef{Path: "fleet/app-001"}, audit.AuditOptions{})
		},
		"key uses": func() (audit.Audit, error) {
			p, _, err := c.GetProject(context.Background(), apiclient.ProjectRef{Path: "fleet/app-001"})
			if err != nil {
				return audit.Audit{}, err
			}
			keys, _, err := c.ListClientKeys(context.Background(), apiclient.ProjectID(p.ID))
			if err != nil {
				return audit.Audit{}, err
			}
			return audit.KeyUses(context.Background(), c, projectscope.Project{Ref: apiclient.ProjectID(p.ID), ID: p.ID, Path: p.PathWithNamespace}, keys, nil, false)
		},
	} {
		a, err := read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res := Evaluate(policy(t, "rules:\n  dsn_variables: {protected: true}\n"), ProjectOf(a), now)
		var held []string
		for _, f := range res.Findings {
			if f.Rule == RuleDSNVariables {
				held = append(held, f.Variable)
			}
		}
		if got := strings.Join(held, ", "); !strings.Contains(got, "SENTRY_DSN") || !strings.Contains(got, "fleet") || len(held) != 2 {
			t.Errorf("%s: dsn-variables findings on %q, want the project's SENTRY_DSN and group fleet's FLEET_SENTRY_DSN", name, got)
		}
	}
}
