package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// docServers is one page's world: a fresh demo GitLab and Sentry, a
// keyring holding the demo token, and HOME, config and state of its own.
type docServers struct {
	c      *cli
	ss     *mocksentry.Server
	sentry string
	home   string
}

func newDocServers(t *testing.T) *docServers {
	c, ss := sentryCLI(t)
	home := t.TempDir()
	delete(c.env, "GITLAB_TOKEN") // logged in through the keyring, as after errtrack login
	c.store.m[c.url] = mockserver.TokenMaintainer
	c.env["HOME"] = home
	c.sentry = &memStore{m: map[string]string{}}
	return &docServers{c: c, ss: ss, sentry: c.env["SENTRY_URL"], home: home}
}

// substitute puts the mock's addresses where the docs name a host, and
// the demo Sentry key "Production"'s public key for PUBLIC_KEY.
func (d *docServers) substitute(args []string) []string {
	production := "no key named Production"
	for _, k := range d.ss.Keys("demo", "legacy-api") {
		if k.Label == "Production" {
			production = k.Public
		}
	}
	out := make([]string, len(args))
	for i, a := range args {
		if i > 0 && (args[i-1] == "--listen" || args[i-1] == "--sentry-listen") {
			out[i] = "127.0.0.1:0"
			continue
		}
		for _, r := range [][2]string{
			{"https://gitlab.example.com", d.c.url}, {"http://gitlab.example.com", d.c.url}, {"gitlab.example.com", d.c.url},
			{"http://127.0.0.1:8080", d.c.url},
			{"https://sentry.example.com", d.sentry}, {"http://127.0.0.1:9000", d.sentry},
			{"PUBLIC_KEY", production},
		} {
			a = strings.ReplaceAll(a, r[0], r[1])
		}
		if rest, ok := strings.CutPrefix(a, "~/"); ok {
			a = filepath.Join(d.home, rest)
		}
		out[i] = a
	}
	return out
}

// run runs one example in process, as cli.run does. A mock-server example
// is stopped by an interrupt waiting before it starts: it prints its
// addresses and tokens, then stops, as on Ctrl+C.
func (d *docServers) run(t *testing.T, cmd docCommand) result {
	c := d.c
	if cmd.version != "" {
		srv, err := mockserver.New(mockserver.Options{GitLabVersion: cmd.version})
		if err != nil {
			t.Fatal(err)
		}
		older := newCLI(t, srv)
		older.sentry = c.sentry
		d = &docServers{c: older, ss: d.ss, sentry: d.sentry, home: d.home}
		c = older
	}
	args := d.substitute(cmd.args)
	var out, errb syncBuffer
	a := newApp()
	a.stdin, a.stdout, a.stderr = io.Reader(strings.NewReader(cmd.stdin)), &out, &errb
	a.getenv = func(k string) string {
		if v, ok := cmd.env[k]; ok {
			return v
		}
		return c.env[k]
	}
	a.unsetenv = func(string) {}
	a.keyring, a.sentryKeyring = c.store, c.sentry
	a.configPath = c.cfg
	a.stdinIsTTY = func() bool { return false }
	a.consoleTTY = func() bool { return false }
	a.readSecret = a.readLine
	a.signals = make(chan os.Signal, 1)
	mockServer := len(args) > 0 && args[0] == "mock-server"
	if mockServer {
		a.signals <- os.Interrupt
	}
	a.dir = t.TempDir()
	if cmd.clone != "" {
		git := requireTool(t, "git")
		for _, g := range [][]string{{"init", "-q"}, {"remote", "add", "origin", c.url + "/" + cmd.clone + ".git"}} {
			run := exec.Command(git, g...)
			run.Dir = a.dir
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", g, err, out)
			}
		}
	}
	code := a.run(args)
	r := result{code, out.String(), errb.String()}
	if !mockServer && strings.Contains(r.stdout+r.stderr, mockserver.TokenMaintainer) {
		t.Fatalf("token printed by %v", args)
	}
	return r
}

// opensConsole: errtrack with no command (only flags) opens the console.
func opensConsole(args []string) bool {
	for _, a := range args {
		switch a {
		case "--help", "-h", "--version", "-v":
			return false
		}
	}
	return len(args) == 0 || strings.HasPrefix(args[0], "-")
}

var (
	loopbackPort = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	gletKey      = regexp.MustCompile(`glet_[0-9a-f]{32}`)
	hexKey       = regexp.MustCompile(`\b[0-9a-f]{32}\b|\b[0-9a-f]{20,31}…`) // whole, or cut to fit a column
	isoDate      = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	clockTime    = regexp.MustCompile(`\d{2}:\d{2}:\d{2}(\.\d+)?`)
	selfPath     = regexp.MustCompile(`\S*/errtrack(\.test)?\b`)
	spaces       = regexp.MustCompile(`\s+`)
)

// normalize leaves out of a line what differs from run to run.
func normalize(s string) string {
	s = loopbackPort.ReplaceAllString(s, "127.0.0.1:PORT")
	s = gletKey.ReplaceAllString(s, "glet_KEY")
	s = hexKey.ReplaceAllString(s, "KEY")
	s = isoDate.ReplaceAllString(s, "DATE")
	s = clockTime.ReplaceAllString(s, "TIME")
	s = selfPath.ReplaceAllString(s, "errtrack")
	return strings.TrimSpace(spaces.ReplaceAllString(s, " "))
}

// checkShown fails when a line a sample shows is not in the output.
func checkShown(t *testing.T, where string, shown []string, r result) {
	t.Helper()
	got := map[string]bool{}
	for _, l := range strings.Split(r.stdout+"\n"+r.stderr, "\n") {
		got[normalize(l)] = true
	}
	for _, l := range shown {
		if l == "..." || l == "" {
			continue
		}
		if !got[normalize(l)] {
			t.Errorf("%s: the sample shows %q, the command printed:\n%s%s", where, l, r.stdout, r.stderr)
		}
	}
}

// TestDocsExamples runs every command example of README.md and docs/*.md
// against the mock GitLab and Sentry (the rules: docs/development.md).
func TestDocsExamples(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"} {
		t.Setenv(v, t.TempDir())
	}
	ran, placeholders := 0, 0
	for _, page := range docPages(t) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(page, "../../")
		t.Run(name, func(t *testing.T) {
			d := newDocServers(t)
			exec := func(where string, cmd docCommand) result {
				if len(cmd.args) > 0 && cmd.args[0] == "login" {
					cmd.stdin = mockserver.TokenMaintainer + "\n"
					for _, a := range cmd.args {
						if a == "--sentry" || strings.HasPrefix(a, "--sentry=") {
							cmd.stdin = mocksentry.TokenAdmin + "\n"
						}
					}
				}
				if opensConsole(cmd.args) {
					cmd.code = 2 // the console needs a terminal: its flags are what is checked
				}
				r := d.run(t, cmd)
				ran++
				if r.code != cmd.code {
					t.Errorf("%s: errtrack %s exited %d, the docs say %d\nstdout: %s\nstderr: %s", where, strings.Join(cmd.args, " "), r.code, cmd.code, r.stdout, r.stderr)
				}
				if opensConsole(cmd.args) && !strings.Contains(r.stderr, "terminal") {
					t.Errorf("%s: errtrack %s did not stop at the missing terminal: %s", where, strings.Join(cmd.args, " "), r.stderr)
				}
				return r
			}
			for _, b := range fencedBlocks(string(text)) {
				kind, mark, _ := strings.Cut(b.info, " ")
				where := fmt.Sprintf("%s:%d", name, b.line)
				if mark == "placeholder" {
					placeholders++
					continue
				}
				switch kind {
				case "sh":
					for i, l := range b.lines {
						cmd, ok, err := parseCommand(l)
						if err != nil {
							t.Errorf("%s:%d: %v", name, b.line+1+i, err)
						}
						if ok {
							exec(fmt.Sprintf("%s:%d", name, b.line+1+i), cmd)
						}
					}
				case "console":
					runConsoleBlock(t, name, b, d, exec)
				case "usage":
					// a synopsis: its brackets and alternatives are not a command
				default:
					for _, l := range b.lines {
						if strings.HasPrefix(l, "errtrack ") || strings.HasPrefix(l, "$ errtrack") {
							t.Errorf("%s: a block of kind %q holds the command %q: mark it sh or console (or placeholder)", where, b.info, l)
						}
					}
				}
			}
		})
	}
	t.Logf("%d examples run, %d placeholder blocks not run", ran, placeholders)
	if ran < 60 {
		t.Errorf("only %d examples found: is the parser still finding them?", ran)
	}
	if placeholders > 4 {
		t.Errorf("%d placeholder blocks: make them runnable against the demo", placeholders)
	}
}

// runConsoleBlock runs a console block's "$ errtrack" lines and checks
// the lines shown after each; "$ export V=x" sets V for the page.
func runConsoleBlock(t *testing.T, name string, b docBlock, d *docServers, exec func(string, docCommand) result) {
	t.Helper()
	for i := 0; i < len(b.lines); i++ {
		l := b.lines[i]
		rest, ok := strings.CutPrefix(l, "$ ")
		if !ok {
			t.Errorf("%s:%d: a console block's output must follow a $ line", name, b.line+1+i)
			continue
		}
		j := i + 1
		for j < len(b.lines) && !strings.HasPrefix(b.lines[j], "$ ") {
			j++
		}
		shown := b.lines[i+1 : j]
		where := fmt.Sprintf("%s:%d", name, b.line+1+i)
		if kv, ok := strings.CutPrefix(rest, "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			d.c.env[k] = v
		} else if cmd, ok, err := parseCommand(rest); err != nil || !ok {
			t.Errorf("%s: not an errtrack command (%v): %s", where, err, rest)
		} else {
			checkShown(t, where, shown, exec(where, cmd))
		}
		i = j - 1
	}
}
