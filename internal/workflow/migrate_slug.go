package workflow

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// DefaultSlugRule names each project's Sentry project after its whole
// path: group-subgroup-project.
const DefaultSlugRule = "{path_slug}"

var slugUnsafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9_-]+`) })

// Slugify makes a Sentry project slug of s: lower case, letters, digits,
// - and _ (Sentry's rule), at most 50.
func Slugify(s string) string {
	s = strings.Trim(slugUnsafe().ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 50 {
		s = strings.TrimRight(s[:50], "-")
	}
	return s
}

// SlugRule is a naming rule of target Sentry projects: {path_slug} (the
// whole path, group-project), {path} and {name} (the path's last part),
// or a fixed slug; "" is DefaultSlugRule.
func SlugRule(rule string) (func(Project) string, error) {
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
	return func(p Project) string {
		last := p.Path[strings.LastIndex(p.Path, "/")+1:]
		s := strings.NewReplacer("{path_slug}", strings.ReplaceAll(p.Path, "/", "-"), "{path}", last, "{name}", last).Replace(rule)
		return Slugify(s)
	}, nil
}

// SlugMapping names each project's target by a mapping of GitLab paths
// to slugs; a path it does not name gets DefaultSlugRule's. Paths match
// as GitLab finds them, whatever their case (and with no slash around);
// a path named twice with two slugs is an error.
func SlugMapping(m map[string]string) (func(Project) string, error) {
	norm := func(path string) string { return strings.ToLower(strings.Trim(strings.TrimSpace(path), "/")) }
	byPath := make(map[string]string, len(m))
	for k, slug := range m {
		if prev, ok := byPath[norm(k)]; ok && Slugify(prev) != Slugify(slug) {
			return nil, fmt.Errorf("%s is named twice (GitLab paths ignore case), with two slugs: %s and %s", norm(k), Slugify(prev), Slugify(slug))
		}
		byPath[norm(k)] = slug
	}
	return func(p Project) string {
		if s, ok := byPath[norm(p.Path)]; ok {
			return Slugify(s)
		}
		return Slugify(strings.ReplaceAll(p.Path, "/", "-"))
	}, nil
}
