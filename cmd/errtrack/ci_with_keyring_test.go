package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// .ci/with-keyring passes a prompt through as it is written: a command
// asking "Token (input hidden): " on stderr, with no newline, is seen
// before anything is typed (it was held until Enter). With no standard
// input at all, as under CI, the command still runs.
func TestWithKeyringPassesPromptsThrough(t *testing.T) {
	requireTool(t, "gnome-keyring-daemon")
	requireTool(t, "dbus-run-session")
	script := `printf 'Token (input hidden): ' >&2; read -r x; echo "got=$x"`
	cmd := exec.Command("../../.ci/with-keyring", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "_ERRTRACK_IN_DBUS=")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	prompted := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stderr)
		var seen strings.Builder
		for {
			b, err := r.ReadByte()
			if err != nil {
				prompted <- seen.String()
				return
			}
			seen.WriteByte(b)
			if strings.HasSuffix(seen.String(), "Token (input hidden): ") {
				prompted <- seen.String()
				_, _ = io.Copy(io.Discard, r)
				return
			}
		}
	}()
	select {
	case s := <-prompted:
		if !strings.HasSuffix(s, "Token (input hidden): ") {
			t.Fatalf("the prompt never came: stderr %q", s)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the prompt was held back: nothing on stderr before Enter")
	}
	_, _ = io.WriteString(stdin, "typed\n")
	stdin.Close()
	if err := cmd.Wait(); err != nil || !strings.Contains(stdout.String(), "got=typed") {
		t.Fatalf("%v: stdout %q", err, stdout.String())
	}

	out, err := exec.Command("../../.ci/with-keyring", "sh", "-c", "echo ran").Output() // stdin: /dev/null
	if err != nil || strings.TrimSpace(string(out)) != "ran" {
		t.Fatalf("with no stdin: %v, %q", err, out)
	}
}
