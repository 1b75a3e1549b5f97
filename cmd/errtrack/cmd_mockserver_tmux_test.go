package main

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// The mock server prints a line that, pasted in a shell, opens the console
// on it.
func TestMockServerLineToPaste(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary(t), "mock-server", "--listen", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := bufio.NewReader(out)
	var paste string
	for paste == "" {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no line to paste: %v", err)
		}
		if strings.HasPrefix(l, "open the console on it") {
			if paste, err = r.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
	}
	go func() { _, _ = r.WriteTo(discard{}) }()
	paste = strings.TrimSpace(paste)
	if !strings.HasPrefix(paste, "GITLAB_TOKEN="+mockserver.TokenMaintainer+" ") || !strings.Contains(paste, " --host http://127.0.0.1:") {
		t.Fatalf("the line to paste: %q", paste)
	}
	s := consoleIn(t, 100, 30, paste)
	s.waitFor("demo/web-shop")
	s.waitFor("@demo-maintainer")
	s.keys("q")
	s.waitFor("EXITED rc=0")
}
