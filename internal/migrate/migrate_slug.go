package migrate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
)

// DefaultSlugRule names each project's Sentry project after its whole
// path: group-subgroup-project.
const DefaultSlugRule = "{path_slug}"

var slugUnsafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9_-]+`) })

// slugMax is the longest slug a migration makes. Sentry's slug may be
// longer (PROJECT_SLUG_MAX_LENGTH), but a new project's name is at most
// 50 (ProjectPostSerializer, src/sentry/core/endpoints/team_projects.py),
// and a slug within it may also be the name.
const slugMax = 50

// reservedProjectSlugs is Sentry's RESERVED_PROJECT_SLUGS
// (src/sentry/constants.py): refused as a new project's name, and taken
// by Sentry's own pages.
var reservedProjectSlugs = []string{"$all", "api-keys", "audit-log", "auth", "members", "projects", "rate-limits", "repos",
	"settings", "teams", "billing", "payments", "legal", "subscription", "support", "integrations", "developer-settings", "usage"}

// Slugify makes a Sentry project slug of s: lower case, letters, digits,
// - and _ (Sentry's rule), at most 50. The same s gives the same slug on
// every run: a longer one is cut and ends with a short hash of the whole,
// so two long paths alike at the start stay apart; one Sentry reserves,
// or all digits (which Sentry refuses), ends with "-project".
func Slugify(s string) string {
	s = strings.Trim(slugUnsafe().ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > slugMax {
		sum := sha256.Sum256([]byte(s))
		s = strings.TrimRight(s[:slugMax-7], "-_") + "-" + hex.EncodeToString(sum[:])[:6]
	}
	if s != "" && (slices.Contains(reservedProjectSlugs, s) || strings.Trim(s, "0123456789") == "") {
		s += "-project"
	}
	return s
}

// sentryName is a new Sentry project's name: the GitLab path, or the
// slug where the path is longer than Sentry takes.
func sentryName(p projectscope.Project, slug string) string {
	if n := p.Name(); len([]rune(n)) <= slugMax && !slices.Contains(reservedProjectSlugs, n) {
		return n
	}
	return slug
}

// SlugRule is a naming rule of target Sentry projects: {path_slug} (the
// whole path, group-project), {path} and {name} (the path's last part),
// or a fixed slug; "" is DefaultSlugRule.
func SlugRule(rule string) (func(projectscope.Project) string, error) {
	if rule == "" {
		rule = DefaultSlugRule
	}
	placeholders := strings.NewReplacer("{path_slug}", "", "{path}", "", "{name}", "")
	rest := placeholders.Replace(rule)
	switch {
	case strings.ContainsAny(rest, "{}"):
		return nil, fmt.Errorf("%q names a placeholder there is none of: use {path_slug}, {path} or {name}", rule)
	case slugUnsafe().MatchString(rest) || !strings.Contains(rule, "{") && Slugify(rule) != rule:
		return nil, fmt.Errorf("%q is not a Sentry slug: lower-case letters, digits, - and _", rule)
	}
	return func(p projectscope.Project) string {
		last := p.Path[strings.LastIndex(p.Path, "/")+1:]
		s := strings.NewReplacer("{path_slug}", strings.ReplaceAll(p.Path, "/", "-"), "{path}", last, "{name}", last).Replace(rule)
		return Slugify(s)
	}, nil
}

// SlugMapping names each project's target by a mapping of GitLab paths
// to slugs; a path it does not name gets DefaultSlugRule's. Paths match
// as GitLab finds them, whatever their case (and with no slash around);
// a path named twice with two slugs is an error, and so is a slug that
// comes to nothing: it would name no Sentry project. named reports
// whether the mapping names a project.
func SlugMapping(m map[string]string) (rule func(projectscope.Project) string, named func(projectscope.Project) bool, err error) {
	norm := func(path string) string { return strings.ToLower(strings.Trim(strings.TrimSpace(path), "/")) }
	byPath := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		slug := m[k]
		if Slugify(slug) == "" {
			return nil, nil, fmt.Errorf("%s maps to %q, which is no Sentry slug (lower-case letters, digits, - and _)", safetext.Excerpt(k, 80), safetext.Excerpt(slug, 80))
		}
		if prev, ok := byPath[norm(k)]; ok && Slugify(prev) != Slugify(slug) {
			return nil, nil, fmt.Errorf("%s is named twice (GitLab paths ignore case), with two slugs: %s and %s", safetext.Excerpt(norm(k), 80), Slugify(prev), Slugify(slug))
		}
		byPath[norm(k)] = slug
	}
	rule = func(p projectscope.Project) string {
		if s, ok := byPath[norm(p.Path)]; ok {
			return Slugify(s)
		}
		return Slugify(strings.ReplaceAll(p.Path, "/", "-"))
	}
	named = func(p projectscope.Project) bool { _, ok := byPath[norm(p.Path)]; return ok }
	return rule, named, nil
}
