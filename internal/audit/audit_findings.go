package audit

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/errtrack/errtrack/internal/rotation"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/wording"
)

// The audit's findings: each key's uses among the project's and its
// groups' CI/CD variables, and what is wrong (or worth knowing) with them.

type placed struct {
	use   rotation.Use
	value string
}

// placedValues are the values of v that may be a DSN: the whole value, or
// for a file variable each line that holds one. A hidden variable's value
// cannot be read: it is named instead.
func placedValues(v apiclient.Variable, group string) (vals []placed, hidden *rotation.Use) {
	use := rotation.Use{Group: group, Variable: v.Key, Scope: v.EnvironmentScope}
	switch {
	case v.Value == nil:
		h := use
		h.Unknown = "hidden variable " + use.Label() // "SENTRY_DSN (…)", "group web/NAME (…)"
		return nil, &h
	case v.VariableType == "file":
		for _, f := range dsn.InFile(*v.Value) {
			u := use
			u.Line = f.Key
			if u.Line == "" {
				u.Line = fmt.Sprintf("%d", f.N)
			}
			vals = append(vals, placed{u, f.Value})
		}
		return vals, nil
	}
	return []placed{{use, strings.TrimSpace(*v.Value)}}, nil
}

func (a *Audit) analyze(keys []apiclient.ClientKey, vars []apiclient.Variable, groupVars map[string][]apiclient.Variable) {
	a.variables, a.groupVariables = vars, groupVars
	var all []placed
	var unknown []rotation.Use // places that may hold a DSN and cannot be read
	for _, v := range vars {
		vals, hidden := placedValues(v, "")
		all = append(all, vals...)
		if hidden != nil {
			unknown = append(unknown, *hidden)
		}
	}
	groups := make([]string, 0, len(groupVars))
	for g := range groupVars {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		for _, v := range groupVars[g] {
			vals, hidden := placedValues(v, g)
			all = append(all, vals...)
			if hidden != nil {
				unknown = append(unknown, *hidden)
			}
		}
	}
	unread := make([]string, 0, len(a.Unread))
	for g := range a.Unread {
		unread = append(unread, g)
	}
	sort.Strings(unread)
	for _, g := range unread {
		unknown = append(unknown, rotation.Use{Group: g, Unknown: "the CI/CD variables of group " + safetext.Excerpt(g, 80) + " could not be read"})
	}
	// Keys are matched by their DSN's identity: every spelling of a key's
	// DSN is that key (a Sentry key's under any host, dsn.Identity).
	byDSN := map[string]int{}
	for i, k := range keys {
		a.Keys = append(a.Keys, AuditedKey{Key: k})
		if c, ok := dsn.Identity(k.DSN); ok {
			byDSN[c] = i
		}
	}
	// The host DSNs of this instance (or of the project's Sentry) point
	// at: a variable's DSN there whose key is not the project's is
	// dangling, or another project's (its project ID in the DSN differs).
	hosts := map[string]bool{}
	projects := map[int64]bool{}
	for _, k := range keys {
		if d, err := dsn.Parse(k.DSN); err == nil {
			hosts[d.Scheme+"://"+dsn.CanonicalHost(d)] = true
			projects[d.ProjectID] = true
		}
	}
	if len(projects) == 0 && a.Project.ID != 0 {
		projects[a.Project.ID] = true
	}
	scopesOf := map[string][]string{}
	handedOut := false
	for _, p := range all {
		c, isDSN := dsn.Identity(p.value)
		if i, ok := byDSN[c]; ok && isDSN {
			a.Keys[i].Used = append(a.Keys[i].Used, p.use)
			scopesOf[c] = append(scopesOf[c], p.use.Label())
			handedOut = true
			if f, ok := otherSpelling(p, keys[i]); ok {
				a.Findings = append(a.Findings, f)
			}
			continue
		}
		d, err := dsn.Parse(p.value)
		if err != nil || !hosts[d.Scheme+"://"+dsn.CanonicalHost(d)] {
			continue // not a DSN of this instance
		}
		handedOut = true
		if !projects[d.ProjectID] {
			a.Findings = append(a.Findings, finding(SeverityError,
				fmt.Sprintf("%s holds the DSN of a key of another project (%d)", p.use.Label(), d.ProjectID),
				remedyOf("set it to the DSN of one of this project's keys (%s), or remove it", Action{Do: ActListKeys})))
			continue
		}
		a.Findings = append(a.Findings, finding(SeverityError,
			fmt.Sprintf("%s holds the DSN of a key that no longer exists (public key %s)", p.use.Label(), safetext.Excerpt(d.PublicKey, 13)),
			remedyOf("set it to the DSN of a current key (%s), or remove it: deploys that read it report nothing", Action{Do: ActListKeys})))
	}
	if handedOut && !a.settingsUnknown && (a.Settings == nil || !a.Settings.Active) {
		a.Findings = append(a.Findings, finding(SeverityWarning,
			"error tracking is disabled while CI/CD variables still hand out a DSN",
			remedyOf("enable it (%s), or remove the variables", Action{Do: ActEnable})))
	}
	for _, labels := range scopesOf {
		if len(labels) > 1 {
			f := finding(SeverityWarning,
				"the same DSN is in "+strings.Join(labels, ", "),
				remedyOf("if the environments should report apart, give each its own key (%s, then point one variable at it)", Action{Do: ActCreateKey}))
			f.ofVariables = true
			a.Findings = append(a.Findings, f)
		}
	}
	if err := a.sentryUnread; err != nil {
		a.Findings = append(a.Findings, finding(SeverityWarning,
			"the keys of the project's Sentry are not in this audit: they could not be read ("+wording.Sentence(err.Error())+")",
			remedyOf("log in to that Sentry (%s, with a token holding project:read) and audit again; %s checks the host",
				Action{Do: ActLoginSentry, Sentry: a.sentryBase()}, Action{Do: ActDoctor})))
	}
	for _, k := range a.Keys {
		if known := k.Known(); !k.Key.Active && len(known) > 0 {
			names := make([]string, len(known))
			for j, u := range known {
				names[j] = u.Label()
			}
			f := finding(SeverityWarning,
				fmt.Sprintf("key %s is disabled while %s still hand%s out its DSN: its events are refused", rotation.KeyLabel(k.Key), strings.Join(names, ", "), map[bool]string{true: "s", false: ""}[len(names) == 1]),
				disabledKeyFix(k.Key))
			f.ofVariables = true
			a.Findings = append(a.Findings, f)
		}
	}
	for i, k := range a.Keys {
		switch {
		case len(k.Used) > 0:
		case len(unknown) > 0:
			// A variable errtrack cannot read may hold it: unknown, and no
			// advice to delete it.
			why := make([]string, len(unknown))
			for j, u := range unknown {
				why[j] = u.Unknown
			}
			a.Keys[i].Used = append(a.Keys[i].Used, unknown...)
			a.Findings = append(a.Findings, Finding{Severity: SeverityInfo,
				What: fmt.Sprintf("whether a CI/CD variable holds the DSN of key %s is unknown: %s", rotation.KeyLabel(k.Key), strings.Join(why, "; ")),
				Fix:  "check those variables in GitLab (errtrack cannot read them) before you delete the key"})
		default:
			a.Findings = append(a.Findings, finding(SeverityInfo,
				fmt.Sprintf("key %s is referenced by no CI/CD variable", rotation.KeyLabel(k.Key)),
				remedyOf("fine for a DSN compiled into an app; otherwise delete it once nothing uses it (%s)", Action{Do: ActDeleteKey, Key: k.Key})))
		}
	}
	for _, g := range unread {
		why := "they could not be read"
		if errors.Is(a.Unread[g], apiclient.ErrForbidden) {
			why = "reading them needs the Owner role on the group"
		}
		a.Findings = append(a.Findings, Finding{Severity: SeverityInfo,
			What: fmt.Sprintf("the CI/CD variables of group %s are not in this audit: %s", safetext.Excerpt(g, 80), why),
			Fix:  "audit with a token of a group Owner to include them"})
	}
	sort.SliceStable(a.Findings, func(i, j int) bool { return rank(a.Findings[i].Severity) < rank(a.Findings[j].Severity) })
}

// sentryBase is the address of the project's Sentry, "" when its
// settings name none.
func (a *Audit) sentryBase() string {
	if a.Settings == nil || a.Settings.APIURL == nil {
		return ""
	}
	return SentryBaseOf(*a.Settings.APIURL)
}

// disabledKeyFix points a disabled key's variables at an active key, or
// turns the key on again: only a Sentry key can be (GitLab's API has no
// update of a client key).
func disabledKeyFix(k apiclient.ClientKey) remedy {
	rotate := Action{Do: ActRotateKey, Key: k}
	if k.ID != 0 {
		return remedyOf("point them at an active key (%s)", rotate)
	}
	return remedyOf("point them at an active key (%s), or turn the key on again (%s)", rotate, Action{Do: ActEnableKey, Key: k})
}

func rank(s string) int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

// otherSpelling notes a variable holding a Sentry key's DSN on another
// host than Sentry lists it on: the same key (Relay reads the key and the
// project, not the host), said so that a host that is not the Sentry's,
// nor a Relay in front of it, is seen.
func otherSpelling(p placed, k apiclient.ClientKey) (Finding, bool) {
	held, err := dsn.Parse(p.value)
	listed, lerr := dsn.Parse(k.DSN)
	where := func(d dsn.DSN) string { return d.Scheme + "://" + dsn.CanonicalHost(d) }
	if err != nil || lerr != nil || where(held) == where(listed) {
		return Finding{}, false
	}
	return Finding{Severity: SeverityInfo,
		What: fmt.Sprintf("%s holds key %s on %s, where Sentry lists it on %s", p.use.Label(), keystore.KeyName(k),
			safetext.Excerpt(where(held), 80), safetext.Excerpt(where(listed), 80)),
		Fix: "the same key either way: fine if that host is a Relay or another name of the same Sentry; else set the variable to the DSN the key list shows"}, true
}
