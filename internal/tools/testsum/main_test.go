package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSummary runs testsum on a recorded `go test -json` stream.
func TestSummary(t *testing.T) {
	if os.Getenv("TESTSUM_CHILD") == "1" {
		main()
		return
	}
	stream := strings.Join([]string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0.1}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: boom\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0.1}`,
		`{"Action":"output","Package":"p","Test":"TestC","Output":"    c_test.go:3: needs tmux\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestC","Elapsed":0}`,
		`{"Action":"fail","Package":"p","Elapsed":0.3}`,
	}, "\n")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSummary$")
	cmd.Env = append(os.Environ(), "TESTSUM_CHILD=1")
	cmd.Stdin = strings.NewReader(stream)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1\n%s", err, out.String())
	}
	for _, want := range []string{"FAIL\tp", "b_test.go:9: boom", "skipped: p TestC: c_test.go:3: needs tmux", "failed: p TestB", "1 passed, 1 failed, 1 skipped"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
