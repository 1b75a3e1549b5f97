package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The rules on CI/CD variables: what a variable holding a DSN must be
// (dsn-variables), and that none holds a deleted or disabled key's
// (no-dangling-dsn).

// variable finds the variable a use names among those read.
func (e *evaluation) variable(u rotation.Use) (apiclient.Variable, bool) {
	vars := e.pr.Variables
	if u.Group != "" {
		vars = e.pr.GroupVariables[u.Group]
	}
	for _, v := range vars {
		if v.Key == u.Variable && v.EnvironmentScope == u.Scope {
			return v, true
		}
	}
	return apiclient.Variable{}, false
}

func (e *evaluation) variables() {
	vr := e.rules.DSNVars
	for _, k := range e.pr.Audit.Keys {
		for _, u := range k.Known() {
			v, ok := e.variable(u)
			if !ok {
				continue
			}
			var wrong []string
			if vr.Masked && !v.Masked && !v.Hidden {
				wrong = append(wrong, "not masked")
			}
			if vr.Protected && !v.Protected {
				wrong = append(wrong, "not protected")
			}
			if len(vr.Scopes) > 0 && !slices.Contains(vr.Scopes, v.EnvironmentScope) {
				wrong = append(wrong, fmt.Sprintf("its environment scope %s is wider than the policy's %s", scopeWord(v.EnvironmentScope), strings.Join(vr.Scopes, ", ")))
			}
			if len(wrong) == 0 {
				continue
			}
			e.add(Finding{Rule: RuleDSNVariables, key: k.Key, Variable: u.Label(),
				What:     fmt.Sprintf("%s holds the DSN of key %s and is %s", u.Label(), keystore.KeyName(k.Key), strings.Join(wrong, "; ")),
				Action:   FixAction{Kind: FixVariableFlags, Key: k.Key, Variable: u.Variable, Group: u.Group},
				Evidence: map[string]any{"masked": v.Masked || v.Hidden, "protected": v.Protected, "environment_scope": v.EnvironmentScope}})
		}
	}
}

func scopeWord(s string) string {
	if s == "*" || s == "" {
		return "* (all environments)"
	}
	return s
}

func labels(us []rotation.Use) string {
	var out []string
	for _, u := range us {
		out = append(out, u.Label())
	}
	return strings.Join(out, ", ")
}

func (e *evaluation) dangling() {
	a := e.pr.Audit
	for _, k := range a.Keys {
		if known := k.Known(); !k.Key.Active && len(known) > 0 {
			e.add(Finding{Rule: RuleDanglingDSN, key: k.Key, Variable: labels(known),
				What:   fmt.Sprintf("%s holds the DSN of key %s, which is disabled", labels(known), keystore.KeyName(k.Key)),
				Action: FixAction{Kind: FixEnableOrRepoint, Key: k.Key, Variable: known[0].Variable, Group: known[0].Group}})
		}
	}
	// A DSN of this instance (or this Sentry) in a variable whose key is
	// none of the project's: deleted.
	ids := map[string]bool{}
	hosts := map[string]bool{}
	projects := map[int64]bool{} // the project IDs its keys' DSNs name
	for _, k := range a.Keys {
		if c, ok := dsn.Identity(k.Key.DSN); ok {
			ids[c] = true
		}
		if d, err := dsn.Parse(k.Key.DSN); err == nil {
			hosts[d.Scheme+"://"+dsn.CanonicalHost(d)] = true
			projects[d.ProjectID] = true
		}
	}
	check := func(group string, vars []apiclient.Variable) {
		for _, v := range vars {
			if v.Value == nil {
				continue
			}
			vals := []string{strings.TrimSpace(*v.Value)}
			if v.VariableType == "file" {
				vals = nil
				for _, l := range dsn.InFile(*v.Value) {
					vals = append(vals, l.Value)
				}
			}
			for _, val := range vals {
				d, err := dsn.Parse(val)
				if err != nil || !hosts[d.Scheme+"://"+dsn.CanonicalHost(d)] {
					continue
				}
				if c, ok := dsn.Identity(val); ok && ids[c] {
					continue
				}
				if !projects[d.ProjectID] {
					continue // another project's key: the audit's finding, not this rule's
				}
				u := rotation.Use{Group: group, Variable: v.Key, Scope: v.EnvironmentScope}
				e.add(Finding{Rule: RuleDanglingDSN, Variable: u.Label(),
					What:   u.Label() + " holds the DSN of a key that no longer exists",
					Action: FixAction{Kind: FixRepointVariable, Variable: v.Key, Group: group}})
			}
		}
	}
	check("", e.pr.Variables)
	for _, g := range sortedKeys(e.pr.GroupVariables) {
		check(g, e.pr.GroupVariables[g])
	}
}

func sortedKeys(m map[string][]apiclient.Variable) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
