// Package check reads a key policy (errtrack.yaml) and evaluates it over
// audited projects: each rule broken is a finding with the command that
// fixes it. It reads nothing itself: the audit's reads are its input.
package check

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the policy's name in a repository's top level.
const FileName = "errtrack.yaml"

// Rule names, as findings, the JSON and the JUnit report name them.
const (
	RuleKeyMaxAge     = "key-max-age"
	RuleRateLimit     = "rate-limit"
	RuleIntegrated    = "integrated-error-tracking"
	RuleDSNVariables  = "dsn-variables"
	RuleDanglingDSN   = "no-dangling-dsn"
	RuleUnusedKeys    = "unused-keys"
	RuleTestEvent     = "test-event"
	maxPolicyFileSize = 1 << 20
)

// RuleNames are every rule, in the order a report lists them.
var RuleNames = []string{RuleKeyMaxAge, RuleRateLimit, RuleIntegrated, RuleDSNVariables, RuleDanglingDSN, RuleUnusedKeys, RuleTestEvent}

// Policy is a parsed errtrack.yaml.
type Policy struct {
	Version int `yaml:"version"`
	// Rules hold for every project checked; Scopes change them for a
	// group (and its subgroups) or a project, the last that matches
	// winning rule by rule.
	Rules  Rules   `yaml:"rules"`
	Scopes []Scope `yaml:"scopes"`
	// Source is where the policy was read.
	Source string `yaml:"-"`
}

// Scope is a group's or project's rules.
type Scope struct {
	Group            string `yaml:"group"`
	IncludeSubgroups bool   `yaml:"include_subgroups"`
	Project          string `yaml:"project"`
	Rules            Rules  `yaml:"rules"`
	line             int
}

// Rules are the rules a project is held to; nil is a rule not set.
type Rules struct {
	KeyMaxAge   *AgeRule       `yaml:"key_max_age"`
	RateLimit   *RateLimitRule `yaml:"rate_limit"`
	Integrated  *string        `yaml:"integrated_error_tracking"`
	DSNVars     *VariableRule  `yaml:"dsn_variables"`
	DanglingDSN *bool          `yaml:"no_dangling_dsn"`
	UnusedKeys  *AgeRule       `yaml:"unused_keys"`
	// TestEvent: a test event through each key in use is accepted
	// (opt-in: check sends one event per key).
	TestEvent *bool `yaml:"test_event"`
}

// AgeRule is a number of days.
type AgeRule struct {
	Days int `yaml:"days"`
}

// RateLimitRule: every Sentry key has a rate limit; with Count and
// Window, that one.
type RateLimitRule struct {
	Required bool `yaml:"required"`
	Count    int  `yaml:"count"`
	Window   int  `yaml:"window"`
}

// VariableRule is what a CI/CD variable holding a DSN must be.
type VariableRule struct {
	Masked    bool `yaml:"masked"`
	Protected bool `yaml:"protected"`
	// Scopes are the environment scopes a DSN variable may have; empty
	// allows any ("*" included).
	Scopes []string `yaml:"environment_scopes"`
}

// Integrated rule values.
const (
	IntegratedNone = "none" // no project with integrated error tracking settings
	IntegratedOff  = "off"  // none with it enabled
)

// LineError is a mistake in the policy file, at a line.
type LineError struct {
	File string
	Line int
	Msg  string
}

func (e *LineError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// ErrNoPolicy: no policy file was given and the repository has none.
var ErrNoPolicy = errors.New("no policy file")

// Find is the policy in the git top level above dir, or ErrNoPolicy.
func Find(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			p := filepath.Join(d, FileName)
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("%w: %s has no %s", ErrNoPolicy, d, FileName)
			}
			return p, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%w: not in a git repository", ErrNoPolicy)
		}
	}
}

// Load reads and validates the policy file at path.
func Load(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(ioLimit(f)); err != nil {
		return nil, err
	}
	if buf.Len() > maxPolicyFileSize {
		return nil, &LineError{File: path, Msg: "larger than 1 MiB: not a policy file"}
	}
	return Parse(path, buf.Bytes())
}

// Parse reads and validates a policy; every mistake is a *LineError
// naming its line (errors.Join of them all).
func Parse(name string, data []byte) (*Policy, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(name, err)
	}
	if len(root.Content) == 0 {
		return nil, &LineError{File: name, Msg: "empty: a policy needs version: 1 and rules"}
	}
	v := validator{file: name}
	p := &Policy{Source: name}
	v.policy(root.Content[0], p)
	if len(v.errs) > 0 {
		return nil, errors.Join(v.errs...)
	}
	return p, nil
}

func yamlError(name string, err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	var line int
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	return &LineError{File: name, Line: line, Msg: "not YAML: " + msg}
}

// For walks the rules that hold for a project: the policy's, then each
// scope's that matches the project's path, in order.
func (p *Policy) For(path string) Rules {
	r := p.Rules
	for _, s := range p.Scopes {
		if s.matches(path) {
			r = r.with(s.Rules)
		}
	}
	return r
}

func (s Scope) matches(path string) bool {
	if s.Project != "" {
		return strings.EqualFold(s.Project, path)
	}
	dir := path[:max(0, strings.LastIndex(path, "/"))]
	if strings.EqualFold(dir, s.Group) {
		return true
	}
	return s.IncludeSubgroups && len(dir) > len(s.Group) && strings.EqualFold(dir[:len(s.Group)+1], s.Group+"/")
}

// with is r changed by o's rules set.
func (r Rules) with(o Rules) Rules {
	if o.KeyMaxAge != nil {
		r.KeyMaxAge = o.KeyMaxAge
	}
	if o.RateLimit != nil {
		r.RateLimit = o.RateLimit
	}
	if o.Integrated != nil {
		r.Integrated = o.Integrated
	}
	if o.DSNVars != nil {
		r.DSNVars = o.DSNVars
	}
	if o.DanglingDSN != nil {
		r.DanglingDSN = o.DanglingDSN
	}
	if o.UnusedKeys != nil {
		r.UnusedKeys = o.UnusedKeys
	}
	if o.TestEvent != nil {
		r.TestEvent = o.TestEvent
	}
	return r
}

// Set names the rules r holds a project to, in report order.
func (r Rules) Set() []string {
	var out []string
	on := map[string]bool{
		RuleKeyMaxAge:    r.KeyMaxAge != nil && r.KeyMaxAge.Days > 0,
		RuleRateLimit:    r.RateLimit != nil && (r.RateLimit.Required || r.RateLimit.Count > 0),
		RuleIntegrated:   r.Integrated != nil && *r.Integrated != "",
		RuleDSNVariables: r.DSNVars != nil && (r.DSNVars.Masked || r.DSNVars.Protected || len(r.DSNVars.Scopes) > 0),
		RuleDanglingDSN:  r.DanglingDSN != nil && *r.DanglingDSN,
		RuleUnusedKeys:   r.UnusedKeys != nil && r.UnusedKeys.Days > 0,
		RuleTestEvent:    r.TestEvent != nil && *r.TestEvent,
	}
	for _, n := range RuleNames {
		if on[n] {
			out = append(out, n)
		}
	}
	return out
}

// Has reports whether r holds a project to rule.
func (r Rules) Has(rule string) bool { return slices.Contains(r.Set(), rule) }
