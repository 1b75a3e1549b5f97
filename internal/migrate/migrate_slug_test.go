package migrate

import (
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/projectscope"
)

// Names are shortened to Sentry's rules, the same on every run: a long
// path is cut with a hash of the whole (two alike at the start stay
// apart), a reserved or all-digit slug is avoided, and a new project's
// name fits Sentry's 50.
func TestSlugifyKeepsToSentrysRules(t *testing.T) {
	long := strings.Repeat("platform-team/", 5) + "checkout-service"
	a, b := Slugify(long), Slugify(long+"-2")
	if len(a) > 50 || a != Slugify(long) || a == b || !strings.HasPrefix(a, "platform-team-platform") {
		t.Fatalf("%q, %q", a, b)
	}
	for in, want := range map[string]string{"settings": "settings-project", "123": "123-project", "Web Shop!": "web-shop", "!!!": ""} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
	p := projectscope.Project{Path: long}
	if n := sentryName(p, a); n != a {
		t.Fatalf("name %q", n)
	}
	if n := sentryName(projectscope.Project{Path: "demo/web-shop"}, "demo-web-shop"); n != "demo/web-shop" {
		t.Fatalf("name %q", n)
	}
}

// A path of exactly Sentry's 50 characters keeps its slug and its name; one
// character more and the slug is shortened with a hash, the name the slug.
func TestSlugAndNameAtSentrysLimit(t *testing.T) {
	fifty := strings.Repeat("a", 50)
	if got := Slugify(fifty); got != fifty {
		t.Fatalf("a 50-character slug became %q", got)
	}
	if got := Slugify(fifty + "b"); len(got) != 50 || got == fifty {
		t.Fatalf("a 51-character slug became %q", got)
	}
	if got := sentryName(projectscope.Project{Path: fifty}, "slug"); got != fifty {
		t.Fatalf("a 50-character path named %q", got)
	}
	if got := sentryName(projectscope.Project{Path: fifty + "b"}, "slug"); got != "slug" {
		t.Fatalf("a 51-character path named %q", got)
	}
}
