package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// validator walks the policy's YAML, filling a Policy and naming each
// mistake's line, so that one run lists them all.
type validator struct {
	file string
	errs []error
}

func (v *validator) errf(n *yaml.Node, format string, args ...any) {
	v.errs = append(v.errs, &LineError{File: v.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)})
}

// fields walks a mapping's keys, telling unknown ones apart.
func (v *validator) fields(n *yaml.Node, what string, known map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		v.errf(n, "%s must be a mapping (key: value lines)", what)
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		f, ok := known[k.Value]
		switch {
		case !ok:
			v.errf(k, "unknown field %q in %s (known: %s)", k.Value, what, keysOf(known))
		case seen[k.Value]:
			v.errf(k, "%q is given twice in %s", k.Value, what)
		default:
			seen[k.Value] = true
			f(val)
		}
	}
}

func keysOf(m map[string]func(*yaml.Node)) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ", ")
}

func (v *validator) policy(n *yaml.Node, p *Policy) {
	versionSeen := false
	v.fields(n, "the policy", map[string]func(*yaml.Node){
		"version": func(n *yaml.Node) {
			versionSeen = true
			if n.Value != "1" || n.Kind != yaml.ScalarNode {
				v.errf(n, "version must be 1 (the only policy version)")
			}
			p.Version = 1
		},
		"rules": func(n *yaml.Node) { v.rules(n, &p.Rules, "rules") },
		"scopes": func(n *yaml.Node) {
			if n.Kind != yaml.SequenceNode {
				v.errf(n, "scopes must be a list of '- group: …' or '- project: …' entries")
				return
			}
			for _, e := range n.Content {
				s := Scope{line: e.Line}
				v.scope(e, &s)
				p.Scopes = append(p.Scopes, s)
			}
		},
	})
	if n.Kind == yaml.MappingNode && !versionSeen {
		v.errf(n, "version is missing: start the file with version: 1")
	}
}

func (v *validator) scope(n *yaml.Node, s *Scope) {
	v.fields(n, "a scope", map[string]func(*yaml.Node){
		"group":             func(n *yaml.Node) { s.Group = v.path(n, "group") },
		"project":           func(n *yaml.Node) { s.Project = v.path(n, "project") },
		"include_subgroups": func(n *yaml.Node) { s.IncludeSubgroups = v.boolean(n, "include_subgroups") },
		"rules":             func(n *yaml.Node) { v.rules(n, &s.Rules, "the scope's rules") },
	})
	if n.Kind != yaml.MappingNode {
		return
	}
	switch {
	case (s.Group == "") == (s.Project == ""):
		v.errf(n, "a scope names one group or one project (group: path or project: path)")
	case s.Project != "" && s.IncludeSubgroups:
		v.errf(n, "include_subgroups goes with group:, not project:")
	}
}

func (v *validator) path(n *yaml.Node, what string) string {
	s := strings.Trim(strings.TrimSpace(n.Value), "/")
	if n.Kind != yaml.ScalarNode || s == "" || strings.ContainsAny(s, " \t\n") {
		v.errf(n, "%s must be a full path, e.g. demo/mobile", what)
		return ""
	}
	return s
}

func (v *validator) boolean(n *yaml.Node, what string) bool {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "true":
			return true
		case "false":
			return false
		}
	}
	v.errf(n, "%s must be true or false", what)
	return false
}

func (v *validator) count(n *yaml.Node, what string, least int) int {
	i, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || i < least {
		v.errf(n, "%s must be a whole number of at least %d", what, least)
		return 0
	}
	return i
}

func (v *validator) rules(n *yaml.Node, r *Rules, what string) {
	v.fields(n, what, map[string]func(*yaml.Node){
		"key_max_age": func(n *yaml.Node) { r.KeyMaxAge = v.age(n, "key_max_age") },
		"unused_keys": func(n *yaml.Node) { r.UnusedKeys = v.age(n, "unused_keys") },
		"rate_limit": func(n *yaml.Node) {
			rl := &RateLimitRule{}
			v.fields(n, "rate_limit", map[string]func(*yaml.Node){
				"required": func(n *yaml.Node) { rl.Required = v.boolean(n, "rate_limit.required") },
				"count":    func(n *yaml.Node) { rl.Count = v.count(n, "rate_limit.count", 1) },
				"window":   func(n *yaml.Node) { rl.Window = v.count(n, "rate_limit.window (seconds)", 1) },
			})
			if (rl.Count > 0) != (rl.Window > 0) && n.Kind == yaml.MappingNode {
				v.errf(n, "rate_limit gives count and window together (events per window of seconds), or neither")
			}
			if rl.Count > 0 {
				rl.Required = true
			}
			r.RateLimit = rl
		},
		"integrated_error_tracking": func(n *yaml.Node) {
			if n.Kind != yaml.ScalarNode || (n.Value != IntegratedNone && n.Value != IntegratedOff) {
				v.errf(n, "integrated_error_tracking must be none (no project left on integrated error tracking) or off (none with it enabled)")
				return
			}
			s := n.Value
			r.Integrated = &s
		},
		"dsn_variables": func(n *yaml.Node) {
			vr := &VariableRule{}
			v.fields(n, "dsn_variables", map[string]func(*yaml.Node){
				"masked":    func(n *yaml.Node) { vr.Masked = v.boolean(n, "dsn_variables.masked") },
				"protected": func(n *yaml.Node) { vr.Protected = v.boolean(n, "dsn_variables.protected") },
				"environment_scopes": func(n *yaml.Node) {
					if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
						v.errf(n, "dsn_variables.environment_scopes must be a list of environment scopes, e.g. [production, staging]")
						return
					}
					for _, e := range n.Content {
						if e.Kind != yaml.ScalarNode || strings.TrimSpace(e.Value) == "" {
							v.errf(e, "an environment scope must be a name, e.g. production or review/*")
							continue
						}
						vr.Scopes = append(vr.Scopes, e.Value)
					}
				},
			})
			r.DSNVars = vr
		},
		"no_dangling_dsn": func(n *yaml.Node) { b := v.boolean(n, "no_dangling_dsn"); r.DanglingDSN = &b },
		"test_event":      func(n *yaml.Node) { b := v.boolean(n, "test_event"); r.TestEvent = &b },
	})
}

func (v *validator) age(n *yaml.Node, what string) *AgeRule {
	a := &AgeRule{}
	v.fields(n, what, map[string]func(*yaml.Node){
		"days": func(n *yaml.Node) { a.Days = v.count(n, what+".days", 1) },
	})
	if a.Days == 0 && n.Kind == yaml.MappingNode {
		v.errf(n, "%s needs days: N", what)
	}
	return a
}
