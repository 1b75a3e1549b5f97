package peers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/contract"
)

// Real clients read the mock's group routes the same as GitLab's answers
// (internal/contract, shaped by GitLab's entities): go-gitlab, python-gitlab
// and the gitlab gem each read a group, its maintained and all its projects
// (a shared and an archived one among them), projects' own records (a
// share-only role: null permissions), a hidden and a file variable, and a
// hidden group variable, from both; what each client reads must be the same
// but for the servers' addresses, the random public keys and the times.

// servers starts the mock and the fixture server; the fixture server fails
// the test on a request no fixture answers.
func servers(t *testing.T) (mock, fixtures string) {
	t.Helper()
	srv, err := mockserver.New(mockserver.Options{FieldNames: "gitlab"})
	if err != nil {
		t.Fatal(err)
	}
	m := httptest.NewServer(srv)
	t.Cleanup(m.Close)
	rs, err := contract.NewServer("ops")
	if err != nil {
		t.Fatal(err)
	}
	f := httptest.NewServer(rs)
	t.Cleanup(func() {
		f.Close()
		if u := rs.Unmatched(); len(u) > 0 {
			t.Errorf("requests no fixture answers: %v", u)
		}
	})
	return m.URL, f.URL
}

var (
	publicKey = regexp.MustCompile(`glet_[0-9a-f]{32}`)
	timestamp = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2}| UTC)?`)
)

// normal is a client's reading with what differs between two servers of
// the same world replaced: the address, public keys, times.
func normal(t *testing.T, out []byte, base string) any {
	t.Helper()
	s := strings.ReplaceAll(string(out), base, "BASE")
	s = strings.ReplaceAll(s, strings.TrimPrefix(base, "http://"), "HOSTPORT")
	s = publicKey.ReplaceAllString(s, "glet_KEY")
	s = timestamp.ReplaceAllString(s, "TIME")
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %.300s", err, s)
	}
	return v
}

// same compares two readings, naming the first paths that differ.
func same(t *testing.T, client string, fromMock, fromGitLab any) {
	t.Helper()
	var diffs []string
	diff(&diffs, "", fromGitLab, fromMock)
	sort.Strings(diffs)
	if len(diffs) > 10 {
		diffs = append(diffs[:10], fmt.Sprintf("… and %d more", len(diffs)-10))
	}
	for _, d := range diffs {
		t.Errorf("%s reads the mock unlike GitLab: %s", client, d)
	}
}

func diff(out *[]string, at string, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %v, GitLab %v", at, got, want))
			return
		}
		for k := range w {
			diff(out, at+"."+k, w[k], g[k])
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: %v, GitLab has none", at, k, g[k]))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: %d items (%v), GitLab %d", at, len(g), ok, len(w)))
			return
		}
		for i := range w {
			diff(out, fmt.Sprintf("%s[%d]", at, i), w[i], g[i])
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			*out = append(*out, fmt.Sprintf("%s: %v, GitLab %v", at, got, want))
		}
	}
}

// readWithGoGitLab is what go-gitlab reads, as its own types marshal.
func readWithGoGitLab(t *testing.T, url string) []byte {
	t.Helper()
	c, err := gitlab.NewClient(mockserver.TokenMaintainer, gitlab.WithBaseURL(url+"/api/v4"), gitlab.WithCustomRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := gitlab.WithContext(context.Background())
	out := map[string]any{}
	must := func(name string, v any, _ *gitlab.Response, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("go-gitlab, %s at %s: %v", name, url, err)
		}
		out[name] = v
	}
	g, r, err := c.Groups.GetGroup("ops", nil, ctx)
	must("group", g, r, err)
	level := func(l gitlab.AccessLevelValue) *gitlab.ListGroupProjectsOptions {
		return &gitlab.ListGroupProjectsOptions{MinAccessLevel: gitlab.Ptr(l)}
	}
	ps, r, err := c.Groups.ListGroupProjects("ops", level(gitlab.MaintainerPermissions), ctx)
	must("maintained", ps, r, err)
	ps, r, err = c.Groups.ListGroupProjects("ops", level(gitlab.GuestPermissions), ctx)
	must("all", ps, r, err)
	for _, id := range []int{13, 12, 10} {
		p, r, err := c.Projects.GetProject(id, nil, ctx)
		must(fmt.Sprintf("project_%d", id), p, r, err)
	}
	for _, id := range []int{10, 12} {
		vs, r, err := c.ProjectVariables.ListVariables(id, nil, ctx)
		must(fmt.Sprintf("project_%d_variables", id), vs, r, err)
	}
	gv, r, err := c.GroupVariables.ListVariables("ops", nil, ctx)
	must("group_variables", gv, r, err)
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGoGitLabReadsTheMockAsGitLab(t *testing.T) {
	mock, fixtures := servers(t)
	fromMock, fromGitLab := readWithGoGitLab(t, mock), readWithGoGitLab(t, fixtures)
	same(t, "go-gitlab", normal(t, fromMock, mock), normal(t, fromGitLab, fixtures))
	// What the comparison holds: the listing has no permissions, the
	// shared and archived projects are there.
	if !bytes.Contains(fromGitLab, []byte(`"path_with_namespace":"partner/sdk"`)) || !bytes.Contains(fromGitLab, []byte(`"archived":true`)) {
		t.Fatalf("go-gitlab read nothing of note: %.300s", fromGitLab)
	}
}

// tool finds a client's interpreter and library: a missing one fails in CI
// (.ci/run installs them), and is skipped, loudly, elsewhere.
func tool(t *testing.T, name, check string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		err = exec.Command(path, args...).Run()
	}
	if err != nil {
		msg := fmt.Sprintf("%s is not installed (%v): apt-get install %s", check, err, check)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// runScript runs a client's script against url and returns its reading.
func runScript(t *testing.T, interpreter, script, url string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, interpreter, script, url, mockserver.TokenMaintainer)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s against %s: %v\n%s", interpreter, script, url, err, stderr.String())
	}
	return out
}

func TestPythonGitLabReadsTheMockAsGitLab(t *testing.T) {
	// Debian's python3-gitlab lives with the system's interpreter.
	py := tool(t, "/usr/bin/python3", "python3-gitlab", "-c", "import gitlab")
	mock, fixtures := servers(t)
	fromMock := runScript(t, py, "testdata/read_groups.py", mock)
	fromGitLab := runScript(t, py, "testdata/read_groups.py", fixtures)
	same(t, "python-gitlab", normal(t, fromMock, mock), normal(t, fromGitLab, fixtures))
	if !bytes.Contains(fromGitLab, []byte(`"path_with_namespace": "partner/sdk"`)) {
		t.Fatalf("python-gitlab read nothing of note: %.300s", fromGitLab)
	}
}

func TestRubyGemReadsTheMockAsGitLab(t *testing.T) {
	rb := tool(t, "ruby", "ruby-gitlab", "-e", "require 'gitlab'")
	mock, fixtures := servers(t)
	fromMock := runScript(t, rb, "testdata/read_groups.rb", mock)
	fromGitLab := runScript(t, rb, "testdata/read_groups.rb", fixtures)
	same(t, "the gitlab gem", normal(t, fromMock, mock), normal(t, fromGitLab, fixtures))
	if !bytes.Contains(fromGitLab, []byte(`"path_with_namespace":"partner/sdk"`)) {
		t.Fatalf("the gitlab gem read nothing of note: %.300s", fromGitLab)
	}
}
