package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// The template parses as YAML, and its job's script, run in a shell with
// GitLab CI's variables (CI=true, CI_SERVER_URL, the tokens) against the
// mock, finds the demo's findings (exit 3, allowed to fail) and leaves
// both report files; errtrack took its host from CI_SERVER_URL.
func TestCITemplateRunsAgainstTheMock(t *testing.T) {
	c := newCLI(t, nil)
	r := c.run("", "ci", "template")
	var doc map[string]struct {
		Variables    map[string]string `yaml:"variables"`
		Script       []string          `yaml:"script"`
		AllowFailure struct {
			ExitCodes []int `yaml:"exit_codes"`
		} `yaml:"allow_failure"`
		Artifacts struct {
			Paths   []string `yaml:"paths"`
			Reports struct {
				JUnit string `yaml:"junit"`
			} `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %v\n%s", r.code, err, r.stdout)
	}
	job, ok := doc["errtrack-check"]
	if !ok || len(job.Script) == 0 || job.Artifacts.Reports.JUnit == "" || len(job.AllowFailure.ExitCodes) != 1 || job.AllowFailure.ExitCodes[0] != exitFindings {
		t.Fatalf("job: %+v", job)
	}
	gitlab, sentryURL := startMockServers(t)
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	policy, err := os.ReadFile(demoPolicy)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "errtrack.yaml"), policy, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Dir(binary(t)) + ":/usr/bin:/bin", "HOME=" + t.TempDir(),
		"ERRTRACK_CONFIG_DIR=" + t.TempDir(), "ERRTRACK_STATE_DIR=" + t.TempDir(),
		"CI=true", "CI_SERVER_URL=" + gitlab, "CI_PIPELINE_SOURCE=schedule", "CI_PROJECT_NAMESPACE=demo",
		"GITLAB_TOKEN=" + mockserver.TokenMaintainer, "SENTRY_URL=" + sentryURL, "SENTRY_AUTH_TOKEN=" + mocksentry.TokenAdmin}
	for k, v := range job.Variables {
		env = append(env, k+"="+os.Expand(v, func(n string) string {
			for _, e := range env {
				if val, ok := strings.CutPrefix(e, n+"="); ok {
					return val
				}
			}
			return ""
		}))
	}
	run := func(extra ...string) (int, string) {
		sh := exec.Command("sh", "-c", strings.Join(job.Script, "\n"))
		sh.Dir, sh.Env = work, append(slices.Clone(env), extra...)
		out, err := sh.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return sh.ProcessState.ExitCode(), string(out)
	}
	if code, out := run(); code != exitFindings {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var report checkJSON
	if b, err := os.ReadFile(filepath.Join(work, "errtrack-check.json")); err != nil || json.Unmarshal(b, &report) != nil || report.Findings == 0 {
		t.Fatalf("the JSON artifact: %v %+v", err, report)
	}
	var junit struct {
		Failures int `xml:"failures,attr"`
	}
	if b, err := os.ReadFile(filepath.Join(work, job.Artifacts.Reports.JUnit)); err != nil || xml.Unmarshal(b, &junit) != nil || junit.Failures != report.Findings {
		t.Fatalf("the JUnit report: %v, %d failures, %d findings", err, junit.Failures, report.Findings)
	}
	// A schedule with ERRTRACK_FIX=true mends the Sentry key's rate limit;
	// the findings errtrack cannot mend are left (exit 3), and the next
	// run has no rate-limit finding.
	if code, out := run("ERRTRACK_FIX=true"); code != exitFindings || !strings.Contains(out, "set rate limit 1000/3600") || !strings.Contains(out, "done.") {
		t.Fatalf("with ERRTRACK_FIX=true: exit %d\n%s", code, out)
	}
	run()
	if b, _ := os.ReadFile(filepath.Join(work, "errtrack-check.json")); strings.Contains(string(b), `"rule": "rate-limit"`) {
		t.Fatalf("a rate-limit finding after the fix:\n%s", b)
	}
}

// In a CI/CD job (CI=true) the host is CI_SERVER_URL when no --host or
// GITLAB_HOST names one; GITLAB_HOST wins over it.
func TestCIServerURLIsTheHostInAJob(t *testing.T) {
	c := newCLI(t, nil)
	url := c.env["GITLAB_HOST"]
	delete(c.env, "GITLAB_HOST")
	c.env["CI"], c.env["CI_SERVER_URL"] = "true", url
	c.run("", "settings", "get", "-p", "demo/web-shop").must(t, 0, "Active:")
	c.env["GITLAB_HOST"], c.env["CI_SERVER_URL"] = url, "http://127.0.0.1:1"
	c.run("", "settings", "get", "-p", "demo/web-shop").must(t, 0, "Active:")
}
