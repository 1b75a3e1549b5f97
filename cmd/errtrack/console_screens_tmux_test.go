package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// The console's third pass (issue 31), each bug seen in the built binary in
// a terminal of its own size. The tests run side by side: each has its own
// tmux server.

// consoleIn runs line (the built errtrack and its arguments) in a w×h
// terminal whose environment adds env; the pane prints EXITED rc=N when
// the console ends.
func consoleIn(t *testing.T, w, h int, line string, env ...string) tmuxSession {
	t.Helper()
	requireTool(t, "tmux")
	s := tmuxSession{t: t, socket: fmt.Sprintf("errtrack-c3-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { killTmux(s.socket) })
	cmd := exec.Command("tmux", "-L", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "e2e",
		"-x", fmt.Sprint(w), "-y", fmt.Sprint(h), line+"; echo EXITED rc=$?; sleep 60")
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color", "XDG_CONFIG_HOME="+t.TempDir(), "ERRTRACK_STATE_DIR="+t.TempDir(), "COLORFGBG="), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("starting tmux: %v\n%s", err, out)
	}
	return s
}

// A question that opened by itself says, on its buttons, that it takes no
// key yet; a quick n leaves it waiting, saying so, not stuck.
func TestConsoleQuestionShowsItsGrace(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 120, 32, binary(t)+" --demo -p demo/web-shop")
	s.waitFor("Client keys (2)")
	s.keys("R")
	s.waitFor("Update its CI/CD variables?")
	s.keys("n") // too quick: not taken
	if !strings.Contains(s.screen(), "keys wait") {
		t.Fatalf("the question does not say it waits:\n%s", s.screen())
	}
	s.waitGone("keys wait")
	s.keys("n")
	s.waitFor("Delete old key 1?")
	s.keys("C-c")
	s.waitFor("EXITED")
}

// Quitting while a rotation only reads its plan says nothing was changed:
// no key was being created yet.
func TestConsoleQuitDuringARotationPlan(t *testing.T) {
	t.Parallel()
	url := startMockServer(t, "--latency", "1500ms")
	s := consoleIn(t, 100, 30, binary(t)+" --host "+url+" --project 1", "GITLAB_TOKEN="+mockserver.TokenMaintainer)
	s.waitFor("Client keys (2)")
	s.keys("R")
	time.Sleep(200 * time.Millisecond)
	s.keys("C-c")
	s.waitFor("EXITED rc=0")
	scr := strings.ReplaceAll(s.screen(), "\n", "") // the note wraps at the edge
	if !strings.Contains(scr, "was reading its plan: nothing was changed") || strings.Contains(scr, "creating the new key") {
		t.Fatalf("the quit note:\n%s", s.screen())
	}
}

// colours is the screen with its escape sequences.
func (s tmuxSession) colours() string { return s.tmux("capture-pane", "-p", "-e", "-t", "e2e") }

// lineOf is the first line of text that holds want.
func lineOf(t *testing.T, text, want string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	t.Fatalf("no line holds %q:\n%s", want, text)
	return ""
}

// At 80 columns a long status line keeps its end, the part that says what
// to do; the status bar keeps the GitLab version whole or leaves it out.
func TestConsoleNarrowStatusKeepsItsEnd(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 80, 24, binary(t)+" --demo -p demo/web-shop")
	s.waitFor("Client keys (2)")
	s.waitFor("@demo-maintainer") // with the token's status comes the version
	if bar := lineOf(t, s.screen(), "DEMO (mock server)"); strings.Contains(bar, "(GitL…") {
		t.Fatalf("the status bar cuts the version: %q", bar)
	}
	s.keys("R")
	s.waitFor("Update its CI/CD variables?")
	s.answer("y")
	s.waitFor("Delete old key 1?")
	s.answer("n")
	s.waitFor("Both keys exist")
	if scr := strings.Join(strings.Fields(s.screen()), " "); !strings.Contains(scr, "once its clients moved.") {
		t.Fatalf("the status line lost its end:\n%s", s.screen())
	}
	s.keys("C-c")
}

// At 50 columns the keys' header keeps the position whole or leaves it out.
func TestConsoleKeysHeaderAt50(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 50, 15, binary(t)+" --demo -p demo/web-shop")
	s.waitFor("Client keys (2)")
	if h := lineOf(t, s.screen(), "PUBLIC KEY"); strings.Contains(h, "…") {
		t.Fatalf("the header is cut: %q", h)
	}
	s.keys("C-c")
}

// boxWidth is the width of the dialog box on screen (its top border).
func boxWidth(t *testing.T, s tmuxSession) int {
	t.Helper()
	l := lineOf(t, s.screen(), "╭") // the screen under it may show beside it
	return len([]rune(l[strings.Index(l, "╭"):strings.LastIndex(l, "╮")])) + 1
}

// Dialogs: one width whatever they hold, wrapped lines under the text they
// continue, the key's labels in one column, a DSN never broken after its
// scheme, and no reference to a status line that may be empty.
func TestConsoleDialogsInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	s := consoleIn(t, 120, 32, bin+" --demo -p demo/web-shop")
	s.waitFor("Client keys (2)")
	s.waitFor("USED IN")
	s.waitFor("SENTRY_DSN") // the uses read, not "…"
	s.keys("Enter")
	s.waitFor("Client key 1 of demo/web-shop")
	details := boxWidth(t, s)
	pub, used := lineOf(t, s.screen(), "Public key:"), lineOf(t, s.screen(), "Used in:")
	if strings.Index(pub, "glet_") != strings.Index(used, "SENTRY_DSN") {
		t.Fatalf("the key's labels are not in one column:\n%s\n%s", pub, used)
	}
	s.keys("Escape")
	s.waitGone("Client key 1 of demo/web-shop")
	s.keys("d")
	s.waitFor("Delete client key 1 of demo/web-shop?")
	if w := boxWidth(t, s); w != details {
		t.Fatalf("the delete question is %d wide, the key's details %d", w, details)
	}
	s.answer("n")
	s.waitGone("Delete client key 1")
	s.keys("R")
	s.waitFor("Update its CI/CD variables?")
	if w := boxWidth(t, s); w != details {
		t.Fatalf("the rotation's question is %d wide, the key's details %d", w, details)
	}
	s.answer("y")
	s.waitFor("Delete old key 1?")
	if w := boxWidth(t, s); w != details {
		t.Fatalf("the delete question of the rotation is %d wide, the key's details %d", w, details)
	}
	if strings.Contains(strings.Join(strings.Fields(s.screen()), " "), "status line said where") {
		t.Fatalf("the question points at a status line:\n%s", s.screen())
	}
	s.keys("C-c")

	// The doctor's rows wrap under their detail, not under their status.
	s = consoleIn(t, 80, 24, bin+" --demo -p demo/mobile/ios")
	s.waitFor("Client keys (1)")
	s.keys("D")
	s.waitFor("Doctor for demo/mobile/ios")
	s.waitFor("ingestion (key 901)")
	lines := strings.Split(s.screen(), "\n")
	for i, l := range lines {
		if strings.Contains(l, "fail  CI/CD variables") {
			next := strings.TrimPrefix(strings.TrimSpace(lines[i+1]), "│ ")
			if !strings.HasPrefix(next, "      ") {
				t.Fatalf("a wrapped row starts at the box's edge:\n%s\n%s", l, lines[i+1])
			}
		}
	}
	s.keys("C-c")

	// The side panel of a wide terminal breaks a DSN after its key, not
	// after "http://".
	s = consoleIn(t, 160, 36, bin+" --demo -p demo/web-shop")
	s.waitFor("Client keys (2)")
	s.waitFor("rotates it")
	if regexp.MustCompile(`http://\s*│`).MatchString(s.screen()) {
		t.Fatalf("the DSN breaks after its scheme:\n%s", s.screen())
	}
	s.keys("C-c")
}

// The first screen's keys are the list's, as in gh-dash, lazygit and k9s:
// q quits, / starts the filter (where q is a letter), esc ends it, and a
// letter typed on the list says how to filter. The help bar says so.
func TestConsoleFirstScreenKeys(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	s := consoleIn(t, 80, 24, bin+" --demo")
	s.waitFor("demo/web-shop")
	s.waitFor("/ filter")
	s.waitFor("q quit")
	s.keys("q")
	s.waitFor("EXITED rc=0")

	s = consoleIn(t, 80, 24, bin+" --demo")
	s.waitFor("demo/web-shop")
	s.keys("x")
	s.waitFor("press / first")
	s.keys("/", "q", "a")
	s.waitFor("/ qa")
	s.waitFor("esc end filter")
	s.keys("Escape")
	s.waitGone("/ qa")
	s.waitFor("demo/legacy-api")
	s.keys("/", "l", "e", "g", "Enter")
	s.waitFor("Settings (active)")
	s.keys("C-c")
	s.waitFor("EXITED")
}

// space marks the project under the cursor and leaves the cursor there
// (k9s's and lazygit's space): a second space unmarks the same project.
// ctrl+g to a group that does not hold a marked project says it unmarked
// it.
func TestConsoleMarksInTmux(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 100, 30, binary(t)+" --demo")
	s.waitFor("demo/web-shop")
	s.keys("Space")
	s.waitFor("1 marked")
	s.keys("Space")
	s.waitGone("1 marked")
	s.keys("Space", "/", "i", "o", "s", "Space", "Escape")
	s.waitFor("2 marked")
	s.waitFor("/ to filter, or to open") // the escape is read: a key at once would make it alt+key
	s.keys("C-g")
	s.waitFor("Show the projects of which group?")
	s.keys("C-u", "d", "e", "m", "o", "/", "m", "o", "b", "i", "l", "e", "Enter")
	s.waitFor("Projects of group demo/mobile")
	s.waitFor("1 marked")
	s.waitFor("Unmarked 1 marked project outside group demo/mobile")
	s.keys("C-c")
}

// An empty list after an error offers nothing to open or mark.
func TestConsoleEmptyListAfterAnError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing answers there
	s := consoleIn(t, 100, 30, binary(t)+" --host http://"+addr+" --timeout 2s", "GITLAB_TOKEN="+mockserver.TokenMaintainer)
	s.waitFor("Could not load projects")
	if bar := lineOf(t, s.screen(), "quit"); strings.Contains(bar, "enter open") || strings.Contains(bar, "space mark") {
		t.Fatalf("the help bar offers what does nothing: %q", bar)
	}
	s.keys("C-c")
}

// What the request log said (a request copied as curl) goes with the log.
func TestConsoleLogMessageGoesWithTheLog(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 100, 30, binary(t)+" --demo -p demo/web-shop")
	s.waitFor("Client keys (2)")
	s.keys("L")
	s.waitFor("Request log")
	s.keys("c")
	s.waitFor("as a curl command")
	s.keys("Escape")
	s.waitGone("Request log")
	time.Sleep(100 * time.Millisecond) // well before the message would expire
	if strings.Contains(s.screen(), "as a curl command") {
		t.Fatalf("the log's message outlives it:\n%s", s.screen())
	}
	s.keys("C-c")
}

// flat is the screen's text with a box's sides and line breaks read
// through, as one line.
func flat(screen string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
}

// consoleCommandLine is an errtrack command on a console screen, where the
// words name keys instead ("errtrack does not know the age" is no command).
var consoleCommandLine = regexp.MustCompile(`errtrack (keys|settings|audit|doctor|migrate|check|rotations|login|projects|export|api)\b`)

// The findings and the doctor name the key that does the fix, not a
// command line; the doctor's last line offers a test event the way one is
// sent from the tab the user is on.
func TestConsoleFixesNameTheKeys(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 100, 32, binary(t)+" --demo -p demo/mobile/ios")
	s.waitFor("Client keys (1)")
	s.waitFor("SENTRY_DSN") // where the key is used: the audit is read
	s.keys("F")
	s.waitFor("Findings for demo/mobile/ios")
	if scr := flat(s.screen()); !strings.Contains(scr, "the Client keys tab lists them") || consoleCommandLine.MatchString(scr) {
		t.Fatalf("the findings' fixes:\n%s", s.screen())
	}
	s.keys("Escape")
	s.waitGone("Findings for")
	s.keys("D")
	s.waitFor("Doctor for demo/mobile/ios")
	s.waitFor("ingestion")
	if scr := flat(s.screen()); !strings.Contains(scr, "v on the key sends one") || !strings.Contains(scr, "v sends one with key 901") || consoleCommandLine.MatchString(scr) || strings.Contains(scr, "--send-test-event") {
		t.Fatalf("the doctor on the keys tab:\n%s", s.screen())
	}
	s.keys("Escape")
	s.waitGone("Doctor for")
	s.keys("Tab", "D")
	s.waitFor("Doctor for demo/mobile/ios")
	s.waitFor("ingestion")
	if scr := flat(s.screen()); !strings.Contains(scr, "on the Client keys tab (tab), v sends one with the selected key") {
		t.Fatalf("the doctor on the settings tab offers what v does not do there:\n%s", s.screen())
	}
	s.keys("C-c")
}

// Where GitLab refuses integrated error tracking (demo/on-prem), the
// settings pane stops offering to create it once refused, and the doctor
// then offers only what works there.
func TestConsoleRefusedCreateIsNotOfferedAgain(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 100, 32, binary(t)+" --demo -p demo/on-prem")
	s.waitFor("Client keys (0)")
	s.keys("Tab")
	s.waitFor("enter create settings")
	s.keys("Enter")
	s.waitFor("not available")
	s.waitGone("enter create settings")
	if !strings.Contains(flat(s.screen()), "GitLab does not offer integrated error tracking for this project") {
		t.Fatalf("the settings pane after the refusal:\n%s", s.screen())
	}
	s.keys("D")
	s.waitFor("Doctor for demo/on-prem")
	s.waitFor("CI/CD variables")
	if scr := flat(s.screen()); !strings.Contains(scr, "fix: configure a Sentry") || strings.Contains(scr, "creates them") || strings.Contains(scr, "settings create") {
		t.Fatalf("the doctor still offers the create GitLab refused:\n%s", s.screen())
	}
	s.keys("C-c")
}

// The console's report of a change to several projects is a table, as the
// command's is, each result in its state's colour.
func TestConsoleGroupReportIsATable(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 120, 32, binary(t)+" --demo --group demo --include-subgroups")
	s.waitFor("demo/mobile/ios")
	s.keys("C-a")
	s.waitFor("marked")
	s.keys("C-o")
	s.waitFor("enable error tracking")
	s.keys("e")
	s.waitFor("Enable error tracking in")
	s.answer("y")
	s.waitFor("Enabling error tracking: 1 of 7 projects failed") // demo/on-prem refuses
	s.waitFor("WHAT")
	if head := lineOf(t, s.screen(), "WHAT"); !strings.Contains(head, "RESULT") || !strings.Contains(head, "PROJECT") {
		t.Fatalf("no table header: %q", head)
	}
	if !regexp.MustCompile(`\x1b\[[0-9;]*38;5;[0-9]+m(\x1b\[[0-9;]*m)*changed`).MatchString(s.colours()) {
		t.Fatalf("the results are not coloured:\n%q", lineOf(t, s.colours(), "changed"))
	}
	s.keys("C-c")
}
