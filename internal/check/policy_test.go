package check

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseNamesEveryMistakeByLine(t *testing.T) {
	src := `version: 2
rules:
  key_max_age: {days: 0}
  rate_limit: {count: 10}
  integrated_error_tracking: maybe
  dsn_variables: {masked: yes-please}
  colour: blue
scopes:
  - project: a/b
    include_subgroups: true
  - rules: {}
`
	_, err := Parse("errtrack.yaml", []byte(src))
	want := []string{
		"errtrack.yaml:1: version must be 1",
		"errtrack.yaml:3: key_max_age.days must be a whole number of at least 1",
		"errtrack.yaml:4: rate_limit gives count and window together",
		"errtrack.yaml:5: integrated_error_tracking must be none",
		"errtrack.yaml:6: dsn_variables.masked must be true or false",
		`errtrack.yaml:7: unknown field "colour" in rules`,
		"errtrack.yaml:9: include_subgroups goes with group:",
		"errtrack.yaml:11: a scope names one group or one project",
	}
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in:\n%v", w, err)
		}
	}
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("not a LineError: %T", err)
	}
	if _, err := Parse("x.yaml", []byte("rules: [\n")); err == nil || !strings.Contains(err.Error(), "x.yaml:") || !strings.Contains(err.Error(), "not YAML") {
		t.Fatalf("broken YAML: %v", err)
	}
	if _, err := Parse("x.yaml", []byte("rules: {}\n")); err == nil || !strings.Contains(err.Error(), "version is missing") {
		t.Fatalf("no version: %v", err)
	}
}

// Scopes change the rules for a group (and its subgroups with
// include_subgroups) or a project, the last match winning rule by rule.
func TestScopesApplyByPath(t *testing.T) {
	p, err := Parse("p", []byte(`version: 1
rules:
  key_max_age: {days: 90}
scopes:
  - group: demo
    rules: {unused_keys: {days: 30}}
  - group: demo/mobile
    include_subgroups: true
    rules: {key_max_age: {days: 10}}
  - project: demo/mobile/ios
    rules: {no_dangling_dsn: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]string{
		"other/x":             {RuleKeyMaxAge},
		"demo/web":            {RuleKeyMaxAge, RuleUnusedKeys},
		"demo/mobile/ios":     {RuleKeyMaxAge, RuleDanglingDSN},
		"demo/mobile/sub/app": {RuleKeyMaxAge},
		"demox/web":           {RuleKeyMaxAge},
	} {
		if got := p.For(path).Set(); !slices.Equal(got, want) {
			t.Errorf("%s: rules %v, want %v", path, got, want)
		}
	}
	if d := p.For("demo/mobile/sub/app").KeyMaxAge.Days; d != 10 {
		t.Errorf("a subgroup's project: key_max_age %d, want the scope's 10", d)
	}
	if d := p.For("demo/web").KeyMaxAge.Days; d != 90 {
		t.Errorf("demo/web: key_max_age %d, want 90", d)
	}
}

// The shipped example parses, and the schema in docs/ is the embedded one.
func TestExampleAndSchemaShipped(t *testing.T) {
	if _, err := Load("../../docs/examples/errtrack.yaml"); err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../../docs/examples/errtrack.yaml")
	if err != nil || !bytes.Equal(example, demoPolicy) || len(Demo().Rules.Set()) == 0 {
		t.Fatalf("docs/examples/errtrack.yaml differs from internal/check/demo_policy.yaml (%v)", err)
	}
	docs, err := os.ReadFile("../../docs/errtrack-policy.schema.json")
	if err != nil || !bytes.Equal(docs, Schema) {
		t.Fatalf("docs/errtrack-policy.schema.json differs from internal/check/schema.json (%v)", err)
	}
}

// Find takes errtrack.yaml from the git top level, not from a directory
// between.
func TestFindInTheRepositoryTop(t *testing.T) {
	top := t.TempDir()
	sub := filepath.Join(top, "a", "b")
	for _, d := range []string{filepath.Join(top, ".git"), sub} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Find(sub); !errors.Is(err, ErrNoPolicy) {
		t.Fatalf("no file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(top, FileName), []byte("version: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(sub); err != nil || got != filepath.Join(top, FileName) {
		t.Fatalf("Find = %q, %v", got, err)
	}
}

func FuzzParse(f *testing.F) {
	ex, _ := os.ReadFile("../../docs/examples/errtrack.yaml")
	f.Add(ex)
	f.Add([]byte("version: 1\nscopes: [{group: a, rules: {rate_limit: {count: 1, window: 2}}}]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse("f", b)
		if err == nil && p.Version != 1 {
			t.Fatalf("accepted without version 1: %q", b)
		}
	})
}
