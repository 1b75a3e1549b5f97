package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// A fix that is an action reads as a command line in Fix and as the front
// end's words through FixWith; a fix without one is the same both ways.
func TestFixWordsTheAction(t *testing.T) {
	f := finding(SeverityInfo, "key 3 is referenced by no CI/CD variable", "otherwise delete it (%s)", Action{Do: ActDeleteKey, Key: apiclient.ClientKey{ID: 3}})
	if f.Fix != "otherwise delete it (errtrack keys delete 3)" {
		t.Fatalf("Fix %q", f.Fix)
	}
	key := func(a Action) string { return "d on key " + strings.Repeat("3", int(a.Key.ID)/3) }
	if got := f.FixWith(key); got != "otherwise delete it (d on key 3)" {
		t.Fatalf("FixWith %q", got)
	}
	plain := Finding{Severity: SeverityInfo, What: "x", Fix: "ask an administrator"}
	if got := plain.FixWith(key); got != "ask an administrator" {
		t.Fatalf("FixWith without an action %q", got)
	}
	if got := (Action{Do: ActCreateSettings, Project: "demo/x"}).Command(); got != "errtrack settings create -p demo/x --active=true --integrated=true" {
		t.Fatalf("Command %q", got)
	}
}

// Where the front end saw GitLab refuse integrated error tracking, the
// doctor offers no create for the settings.
func TestDoctorOffersNoRefusedCreate(t *testing.T) {
	_, api := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ref := apiclient.ProjectID(4) // demo/on-prem: no settings
	checks := Doctor(t.Context(), api, ref, DoctorOptions{}, flowtest.ExplainPlain, time.Now())
	settings := statusOf(checks, "settings")
	if settings.Action.Do != ActCreateSettings || !strings.Contains(settings.Fix, "errtrack settings create") {
		t.Fatalf("no create offered where it may work: %+v", settings)
	}
	checks = Doctor(t.Context(), api, ref, DoctorOptions{IntegratedUnavailable: true}, flowtest.ExplainPlain, time.Now())
	settings = statusOf(checks, "settings")
	if settings.Action.Do != ActNone || strings.Contains(settings.Fix, "create") || !strings.Contains(settings.Fix, "Sentry") {
		t.Fatalf("a refused create offered again: %+v", settings)
	}
}
