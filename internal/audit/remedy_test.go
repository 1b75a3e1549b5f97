package audit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A fix that is an action reads as a command line in Fix and as the front
// end's words through FixWith; a fix without one is the same both ways.
func TestFixWordsTheAction(t *testing.T) {
	f := finding(SeverityInfo, "key 3 is referenced by no CI/CD variable", remedyOf("otherwise delete it (%s)", Action{Do: ActDeleteKey, Key: apiclient.ClientKey{ID: 3}}))
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

// marker names an action by its kind only, as another front end would
// name it its own way: what a fix says around it is the shared layer's.
func marker(a Action) string { return fmt.Sprintf("<action %d>", a.Do) }

// command is a command of errtrack's; commandLine one of its flags too.
var (
	command     = regexp.MustCompile(`errtrack (login|keys|settings|doctor|audit|auth|migrate|check|rotations|mock-server)\b`)
	commandLine = regexp.MustCompile(command.String() + `| --[a-z]`)
)

// noCommandLine fails on a fix that, worded for another front end, still
// names errtrack's command line: only Action.Command may.
func noCommandLine(t *testing.T, where, cli, other string) {
	t.Helper()
	if commandLine.MatchString(other) {
		t.Errorf("%s: the fix for another front end names a command line: %q", where, other)
	}
	if strings.Contains(other, "<action") == (other == cli) && other != "" {
		t.Errorf("%s: Fix and FixWith disagree on an action: %q, %q", where, cli, other)
	}
}

// Every finding's fix, worded for another front end, names no command: a
// fix written as a plain string naming one reaches the console as it is.
func TestFindingFixesNameNoCommand(t *testing.T) {
	dsnOf := func(key string, project int) string {
		return fmt.Sprintf("https://%s@gitlab.test/api/v4/error_tracking/collector/%d", key, project)
	}
	str := func(s string) *string { return &s }
	apiURL := "https://sentry.test/api/0/projects/acme/web/"
	keys := []apiclient.ClientKey{
		{ID: 1, Active: true, PublicKey: "glet_one", DSN: dsnOf("glet_one", 5)},
		{PublicKey: "0123456789ab", Name: "Staging", DSN: dsnOf("0123456789ab", 5)},            // a disabled Sentry key
		{ID: 3, PublicKey: "glet_three", DSN: dsnOf("glet_three", 5)},                          // a disabled GitLab key
		{ID: 4, Active: true, PublicKey: "glet_four", DSN: dsnOf("glet_four", 5)},              // used by nothing
		{ID: 5, Active: true, PublicKey: "glet_five", DSN: "https://glet_five@other.test/x/5"}, // another host
	}
	vars := []apiclient.Variable{
		{Key: "A", Value: str(keys[0].DSN)}, {Key: "B", Value: str(keys[0].DSN)}, // one DSN twice
		{Key: "STAGING", Value: str(keys[1].DSN)}, {Key: "OLD", Value: str(keys[2].DSN)},
		{Key: "ELSEWHERE", Value: str(dsnOf("glet_x", 9))}, {Key: "GONE", Value: str(dsnOf("glet_gone", 5))},
		{Key: "RELAY", Value: str("https://glet_five@relay.test/x/5")},
	}
	hidden := append(vars[:len(vars):len(vars)], apiclient.Variable{Key: "HIDDEN"})
	var all []Finding
	for _, unread := range []map[string]error{nil, {"acme": apiclient.ErrForbidden}} {
		vs := vars
		if unread != nil {
			vs = hidden
		}
		a := Audit{Settings: &apiclient.Settings{APIURL: &apiURL}, sentryUnread: sentry.ErrForbidden, Unread: unread}
		a.analyze(keys, vs, nil)
		all = append(all, a.Findings...)
	}
	kinds := map[Act]bool{}
	for _, f := range all {
		kinds[f.Action.Do] = true
		noCommandLine(t, f.What, f.Fix, f.FixWith(marker))
	}
	for _, want := range []Act{ActListKeys, ActEnable, ActCreateKey, ActDeleteKey, ActRotateKey, ActLoginSentry} {
		if !kinds[want] {
			t.Errorf("no finding asks for action %d: %+v", want, all)
		}
	}
	// The disabled Sentry key can be turned on again; GitLab's cannot.
	for _, f := range all {
		if strings.Contains(f.What, "is disabled while") && strings.Contains(f.Fix, "--active=true") != strings.Contains(f.What, "Staging") {
			t.Errorf("turning a key on again: %q: %q", f.What, f.Fix)
		}
	}
}

// Every check's fix, worded for another front end, names no command, on
// the doctor's paths: GitLab's, an expiring token's, a Sentry's token
// that cannot write, and a Sentry's keys that could not be read.
func TestCheckFixesNameNoCommand(t *testing.T) {
	var checks []Check
	for _, c := range []struct {
		opts    mockserver.Options
		token   string
		project int64
		o       DoctorOptions
	}{
		{mockserver.Options{}, mockserver.TokenMaintainer, 7, DoctorOptions{}},
		{mockserver.Options{}, mockserver.TokenMaintainer, 4, DoctorOptions{}}, // no settings
		{mockserver.Options{}, mockserver.TokenMaintainer, 5, DoctorOptions{}}, // switched off
		{mockserver.Options{}, mockserver.TokenExpiring, 1, DoctorOptions{TokenRotatable: true}},
		{mockserver.Options{NoIntegratedErrorTracking: true}, mockserver.TokenMaintainer, 1, DoctorOptions{}},
	} {
		_, api := flowtest.Mock(t, c.opts, c.token)
		checks = append(checks, Doctor(t.Context(), api, apiclient.ProjectID(c.project), c.o, flowtest.ExplainPlain, time.Now())...)
	}
	w := flowtest.NewSentryBackedAs(t, mocksentry.Options{}, mocksentry.TokenRead)
	checks = append(checks, sentryDoctor(t, w, w.Resolve)...)
	w = flowtest.NewSentryBackedAs(t, mocksentry.Options{}, mocksentry.TokenOrgCI)
	checks = append(checks, sentryDoctor(t, w, w.Resolve)...)
	kinds := map[Act]bool{}
	for _, c := range checks {
		kinds[c.Action.Do] = true
		noCommandLine(t, c.Name+": "+c.Detail, c.Fix, c.FixWith(marker))
	}
	for _, err := range []error{sentry.ErrProjectNotFound, sentry.ErrOtherOrganization, sentry.ErrForbidden,
		&sentry.Error{Kind: sentry.ErrForbidden, Scopes: []string{"project:read"}}, sentry.ErrServer} {
		detail, fix := keysUnread(err, "Sentry project acme/web", "https://sentry.test", "", flowtest.ExplainPlain)
		c := newCheck("keys", CheckFail, detail, fix)
		kinds[c.Action.Do] = true
		noCommandLine(t, detail, c.Fix, c.FixWith(marker))
	}
	for _, want := range []Act{ActCreateSettings, ActEnable, ActCreateKey, ActRotateToken, ActLoginSentry} {
		if !kinds[want] {
			t.Errorf("no check asks for action %d", want)
		}
	}
}

// A fix's words are written once, around its actions: no string of the
// audit's code names a command of errtrack but Action.Command, so a fix
// written as a plain command line fails here even where no test meets it.
func TestOnlyCommandNamesCommands(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name == "Command" && fn.Recv != nil {
				return false
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && command.MatchString(lit.Value) {
				t.Errorf("%s: %s names a command outside Action.Command", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	}
}

// A Sentry key's delete is named by its public key, never as key 0.
func TestSentryKeyFixNamesItsRef(t *testing.T) {
	sentryKey := Action{Do: ActDeleteKey, Project: "web/api", Key: keystore.FromSentry(sentry.Key{ID: "2ff563fee0b1", Name: "Staging"})}
	gitlabKey := Action{Do: ActDeleteKey, Project: "web/shop", Key: apiclient.ClientKey{ID: 12}}
	if got := sentryKey.Command(); got != "errtrack keys delete -p web/api 2ff563fee0b1" {
		t.Error(got)
	}
	if got := gitlabKey.Command(); got != "errtrack keys delete -p web/shop 12" {
		t.Error(got)
	}
}
