package tui

import (
	"fmt"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/keystore"
)

// The key policy's findings on the project screen (F): the rules errtrack
// check holds the project to, from the same reads as the keys' uses.

// evaluatePolicy holds the project to the policy; nil without one.
func evaluatePolicy(d Deps, a audit.Audit, keys []apiclient.ClientKey) *check.Result {
	if d.Policy == nil {
		return nil
	}
	if len(keys) > 0 && keys[0].ID == 0 {
		a.Backend = keystore.BackendSentry // a Sentry's keys: no ID
	}
	now := time.Now()
	if d.Clock != nil {
		now = d.Clock.Now()
	}
	res := check.Evaluate(d.Policy, check.ProjectOf(a), now)
	return &res
}

// policyFix words a finding's fix as the console does it: the key that
// does it, and where; a plain action where no key does.
func policyFix(k KeyMap, a check.FixAction) string {
	onKey := func(b string) string {
		return fmt.Sprintf("%s on key %s, on the Client keys tab", b, clean(keystore.KeyName(a.Key)))
	}
	copyHint := "the Client keys tab lists them; " + keyName(k.Copy) + " copies a key's DSN"
	switch a.Kind {
	case check.FixRotateKey:
		return onKey(keyName(k.Rotate))
	case check.FixSetRateLimit:
		return onKey(keyName(k.RateLimit)) + ", set to " + clean(a.RateLimit)
	case check.FixMigrate:
		return keyName(k.BulkMigrate) + " in the " + keyName(k.Bulk) + " menu of the marked projects carries it to a Sentry"
	case check.FixDisableIntegrated:
		return keyName(k.ToggleActive) + " on the Settings tab disables it"
	case check.FixVariableFlags:
		return "change it in " + clean(a.VariableSettings())
	case check.FixEnableOrRepoint:
		return onKey(keyName(k.ToggleActive)) + " enables it; or point the variable at an active key (" + copyHint + ")"
	case check.FixRepointVariable:
		return "point it at a current key's DSN (" + copyHint + "), or remove it"
	case check.FixDeleteKey:
		return onKey(keyName(k.Delete))
	case check.FixDoctor:
		return keyName(k.Doctor) + " (the doctor) says why"
	}
	return ""
}

// policyLines are the policy's findings for the dialog: the rule's name
// beside each, its fix in the console's keys, then what could not be
// checked.
func policyLines(k KeyMap, r *check.Result) []string {
	if r == nil {
		return nil
	}
	if len(r.Rules) == 0 {
		return []string{"", "Policy: no rule of errtrack.yaml applies to this project."}
	}
	head := fmt.Sprintf("Policy (errtrack.yaml): %d findings.", len(r.Findings))
	if len(r.Findings) == 1 {
		head = "Policy (errtrack.yaml): 1 finding."
	}
	if len(r.Findings) == 0 {
		head = "Policy (errtrack.yaml): every rule holds here."
	}
	lines := []string{"", head}
	for _, f := range r.Findings {
		lines = append(lines, "["+f.Rule+"] "+clean(f.What)+".", "  Fix: "+policyFix(k, f.Action)+".")
	}
	for _, u := range r.Unchecked {
		lines = append(lines, fmt.Sprintf("Not checked (%s): %s.", clean(joinRules(u.Rules)), clean(u.Why)))
	}
	return lines
}

func joinRules(rules []string) string {
	s := ""
	for i, r := range rules {
		if i > 0 {
			s += ", "
		}
		s += r
	}
	return s
}
